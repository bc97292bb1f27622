/*
 * Licensed to the Apache Software Foundation (ASF) under one
 * or more contributor license agreements.  See the NOTICE file
 * distributed with this work for additional information
 * regarding copyright ownership.  The ASF licenses this file
 * to you under the Apache License, Version 2.0 (the
 * "License"); you may not use this file except in compliance
 * with the License.  You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package dev.hbasepatches.timeline;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import dev.hbasepatches.testkit.MiniCluster;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.MiniHBaseCluster;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Consistency;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.JVMClusterUtil.RegionServerThread;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.FixMethodOrder;
import org.junit.Test;
import org.junit.runners.MethodSorters;

/**
 * Faults injected into PATCHED TIMELINE reads on a 3-RegionServer minicluster, region replication
 * 3: reads cancelled or interrupted while every replica holds them, a reader closed while a read
 * is in progress, reversed scans across two regions, and a seeded stress of concurrent reads of
 * every kind while the primary moves between servers. Each ends with the reader's invariants
 * checked: no request left running, no timer or thread left, every answer a real write flagged
 * stale exactly when a secondary gave it.
 * <p>
 * A RegionServer restart mid-read ends the class (it changes the servers the others use).
 * <p>
 * The stress runs {@code timeline.stress.seconds} (10 by default; {@code -Pstress} runs
 * it for five minutes) with seed {@code timeline.stress.seed}.
 */
@FixMethodOrder(MethodSorters.NAME_ASCENDING)
public class TimelineReadsFaultTest {

  private static final TableName TABLE = TableName.valueOf("faults");
  private static final TableName SPLIT = TableName.valueOf("faults-split");
  private static final byte[] F = ReplicaTagObserver.FAMILY;
  private static final byte[] V = Bytes.toBytes("v");
  private static final int ROWS = 200;
  private static final long SEED = Long.getLong("timeline.stress.seed", 20261128L);
  private static final long STRESS_SECONDS = Long.getLong("timeline.stress.seconds", 10L);

  @ClassRule
  public static final MiniCluster CLUSTER = ReplicaClusters.threeServers()
    // nothing here expires a session on purpose: a long stress on a busy machine must not
    // lose the master to a few seconds without CPU
    .conf("zookeeper.session.timeout", "30000")
    .conf("hbase.client.operation.timeout", "60000")
    .conf("hbase.client.retries.number", "20")
    .build();

  private static final Map<String, Set<String>> WRITTEN = new ConcurrentHashMap<>();
  private static Connection sync;
  private static AsyncConnection async;

  @BeforeClass
  public static void createTables() throws Exception {
    List<String> rows = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      rows.add(row(i));
      WRITTEN.computeIfAbsent(row(i), k -> ConcurrentHashMap.newKeySet()).add("v0");
    }
    ReplicaClusters.createAndLoad(CLUSTER, TABLE, F, V, rows, 100);
    try (Admin admin = CLUSTER.admin()) {
      admin.createTable(TableDescriptorBuilder.newBuilder(SPLIT).setRegionReplication(3)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
        .setCoprocessor(ReplicaTagObserver.class.getName()).build(),
        new byte[][] { Bytes.toBytes(row(ROWS / 2)) });
      CLUSTER.util().waitTableAvailable(SPLIT);
      try (Table t = CLUSTER.connection().getTable(SPLIT)) {
        List<Put> puts = new ArrayList<>();
        for (String r : rows) {
          puts.add(new Put(Bytes.toBytes(r)).addColumn(F, V, Bytes.toBytes("v0")));
        }
        t.put(puts);
      }
      admin.flush(SPLIT);
    }
    CLUSTER.util().waitUntilNoRegionsInTransition(60_000);
    Configuration conf = new Configuration(CLUSTER.conf());
    conf.set(TimelineMode.KEY, TimelineMode.PATCHED.name());
    sync = ConnectionFactory.createConnection(conf);
    async = ConnectionFactory.createAsyncConnection(conf).get(60, TimeUnit.SECONDS);
    awaitSecondariesServe(TABLE);
    awaitSecondariesServe(SPLIT);
  }

  @AfterClass
  public static void close() throws Exception {
    ReplicaTagObserver.release();
    ReplicaTagObserver.healthy();
    if (sync != null) {
      sync.close();
    }
    if (async != null) {
      async.close();
    }
  }

  private static String row(int i) {
    return String.format("row-%05d", i);
  }

  private static Get timelineGet(int i) {
    return new Get(Bytes.toBytes(row(i))).setConsistency(Consistency.TIMELINE);
  }

  /**
   * A secondary serves nothing until it has seen the primary's files (the store file refresh
   * period, after a region move its reopening too): wait for all of them, up to three minutes on a
   * loaded machine.
   */
  private static void awaitSecondariesServe(TableName table) throws Exception {
    try (Table t = CLUSTER.connection().getTable(table)) {
      for (int i : new int[] { 0, ROWS - 1 }) {
        for (int r = 0; r < 3; r++) {
          Get g = new Get(Bytes.toBytes(row(i))).setReplicaId(r)
            .setConsistency(Consistency.TIMELINE);
          CLUSTER.util().waitFor(180_000, 200, () -> !t.get(g).isEmpty());
        }
      }
    }
  }

  /** The answer is a value written for its row, stale exactly when a secondary gave it. */
  private static int check(Result r, String what) {
    assertNotNull(what + ": no answer", r);
    assertFalse(what + ": empty answer", r.isEmpty());
    String row = Bytes.toString(r.getRow());
    String value = Bytes.toString(r.getValue(F, V));
    assertTrue(what + ": " + row + "=" + value + " was never written (seed " + SEED + ")",
      WRITTEN.getOrDefault(row, Set.of()).contains(value));
    int replica = ReplicaTagObserver.replicaOf(r);
    assertTrue(what + ": no replica tag on " + r, replica >= 0);
    assertEquals(what + ": isStale() vs replica " + replica, replica != 0, r.isStale());
    return replica;
  }

  private static TimelineReader reader() throws IOException {
    return TimelineReader.create(sync, async, TABLE);
  }

  /** A reader of its own connections, with extra settings. */
  private static final class OwnReader implements AutoCloseable {
    final Connection conn;
    final AsyncConnection asyncConn;
    final TimelineReader reader;

    OwnReader(TableName table, String... kv) throws Exception {
      Configuration conf = new Configuration(CLUSTER.conf());
      conf.set(TimelineMode.KEY, TimelineMode.PATCHED.name());
      for (int i = 0; i < kv.length; i += 2) {
        conf.set(kv[i], kv[i + 1]);
      }
      conn = ConnectionFactory.createConnection(conf);
      asyncConn = ConnectionFactory.createAsyncConnection(conf).get(60, TimeUnit.SECONDS);
      reader = TimelineReader.create(conn, asyncConn, table);
    }

    @Override
    public void close() throws IOException {
      reader.close();
      asyncConn.close();
      conn.close();
    }
  }

  /** A read that may block: run on a thread of its own so the test can interrupt it. */
  private interface BlockingRead {
    Object read(TimelineReader reader) throws Exception;
  }

  private static void interruptAndCheck(TimelineReader reader, String kind, int requests,
    BlockingRead read) throws Exception {
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    AtomicReference<Object> answer = new AtomicReference<>();
    Thread t = new Thread(() -> {
      try {
        answer.set(read.read(reader));
      } catch (Throwable e) {
        thrown.set(e);
      }
    }, "interrupted-" + kind);
    t.start();
    awaitHeld(reader, requests, kind);
    t.interrupt();
    t.join(60_000);
    assertFalse(kind + ": the interrupted reader thread is still waiting", t.isAlive());
    assertEquals(kind + ": answered while every replica held it", null, answer.get());
    assertTrue(kind + ": " + thrown.get(), thrown.get() instanceof InterruptedIOException);
    assertNothingRunning(reader, kind);
  }

  /**
   * Waits until the servers hold {@code requests} requests: one per replica of every read, so
   * no hedge timer is left to fire while the test cancels.
   */
  private static void awaitHeld(TimelineReader reader, int requests, String kind)
    throws Exception {
    CLUSTER.util().waitFor(60_000, 10, () -> reader.stats().inFlight() >= requests
      && ReplicaTagObserver.HELD.get(0) > 0);
    assertTrue(kind + ": no hedge went out: " + reader.stats(), reader.stats().hedges() > 0);
  }

  private static void assertNothingRunning(TimelineReader reader, String kind) {
    assertEquals(kind + ": requests left running: " + reader.stats(), 0,
      reader.stats().inFlight());
    assertTrue(kind + ": hedge timers left armed: " + reader.timer().getQueue().size(),
      reader.timer().getQueue().isEmpty());
  }

  /**
   * Every replica holds every request; each kind of read is cancelled (the async ones) or its
   * thread interrupted (the blocking ones) once a request to every replica is out. The read
   * ends at once, and none of its requests is left running or retrying, nor any hedge timer.
   */
  @Test
  public void f1_cancelledAndInterruptedReadsOfEveryKindLeaveNothingRunning() throws Exception {
    Scan scan = new Scan().withStartRow(Bytes.toBytes(row(10)))
      .withStopRow(Bytes.toBytes(row(20))).setConsistency(Consistency.TIMELINE);
    List<Get> gets = Arrays.asList(timelineGet(1), timelineGet(2), timelineGet(3));
    List<String> failed = new ArrayList<>();
    try (TimelineReader reader = reader()) {
      for (String kind : new String[] { "getAsync cancelled", "getAllAsync cancelled",
        "get interrupted", "multi-get interrupted", "scanAll interrupted",
        "scanner interrupted" }) {
        // what a previous kind left running answers once released
        CLUSTER.util().waitFor(60_000, 10, () -> reader.stats().inFlight() == 0);
        ReplicaTagObserver.reset();
        ReplicaTagObserver.hold(0, 1, 2);
        try {
          switch (kind) {
            case "getAsync cancelled": {
              CompletableFuture<Result> f = reader.getAsync(timelineGet(5));
              awaitHeld(reader, 3, kind);
              assertTrue(f.cancel(true));
              assertNothingRunning(reader, kind);
              break;
            }
            case "getAllAsync cancelled": {
              CompletableFuture<List<Result>> f = reader.getAllAsync(gets);
              awaitHeld(reader, 3 * gets.size(), kind);
              assertTrue(f.cancel(true));
              assertNothingRunning(reader, kind);
              break;
            }
            case "get interrupted":
              interruptAndCheck(reader, kind, 3, r -> r.get(timelineGet(6)));
              break;
            case "multi-get interrupted":
              interruptAndCheck(reader, kind, 3 * gets.size(), r -> r.get(gets));
              break;
            case "scanAll interrupted":
              interruptAndCheck(reader, kind, 3, r -> r.scanAll(scan));
              break;
            default:
              interruptAndCheck(reader, kind, 3, r -> {
                try (ResultScanner rs = r.getScanner(scan)) {
                  return rs.next();
                }
              });
          }
        } catch (AssertionError e) {
          failed.add(e.getMessage());
        } finally {
          ReplicaTagObserver.release();
        }
      }
      assertEquals("kinds of read that left something running", new ArrayList<String>(),
        failed);
      // and the reader still reads
      check(reader.get(timelineGet(7)), "a read after the cancellations");
      assertNothingRunning(reader, "after the last read");
      System.out.println("cancelled and interrupted reads: " + reader.stats());
    }
  }

  /**
   * A reader closed while a read waits on a held primary: the read still hedges and gets its
   * answer from a secondary; a read started after the close is refused before any request is
   * sent; and the hedge timer's thread ends once the last read has.
   */
  @Test
  public void f2_closingAReaderLetsTheReadsInProgressFinishAndRefusesNewOnes() throws Exception {
    ReplicaTagObserver.reset();
    ReplicaTagObserver.hold(0);
    // a hedge delay of 3 s: the close comes long before the hedge is due
    try (OwnReader own = new OwnReader(TABLE, TimelineSettings.DELAY_MIN_MS, "3000",
      TimelineSettings.DELAY_MAX_MS, "3000", TimelineSettings.HEDGE_CAP_MS, "10000")) {
      TimelineReader reader = own.reader;
      try {
        CompletableFuture<Result> inProgress = reader.getAsync(timelineGet(8));
        CLUSTER.util().waitFor(60_000, 10, () -> ReplicaTagObserver.HELD.get(0) > 0);
        assertEquals("hedged before the close", 0, reader.stats().hedges());
        reader.close();

        long rpcs = reader.stats().rpcs();
        CompletableFuture<Result> late;
        try {
          late = reader.getAsync(timelineGet(9));
        } catch (RuntimeException e) {
          throw new AssertionError("a read after close threw instead of failing its future", e);
        }
        try {
          late.get(60, TimeUnit.SECONDS);
          fail("a read after close was answered");
        } catch (ExecutionException e) {
          assertTrue(String.valueOf(e.getCause()),
            String.valueOf(e.getCause().getMessage()).contains("closed"));
        }
        assertEquals("a request was sent for a read after close", rpcs, reader.stats().rpcs());

        Result r = inProgress.get(60, TimeUnit.SECONDS);
        assertTrue("the read in progress was answered by a secondary", check(r, "in progress") > 0);
        assertTrue("the hedge timer did not stop",
          reader.timer().awaitTermination(60, TimeUnit.SECONDS));
        // the losing primary request is cancelled just after the answer is handed over
        CLUSTER.util().waitFor(60_000, 10, () -> reader.stats().inFlight() == 0);
      } finally {
        ReplicaTagObserver.release();
      }
    }
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      assertFalse("left running: " + t.getName(),
        t.getName().equals("timeline-hedge-" + TABLE.getNameAsString()) && t.isAlive());
    }
  }

  private static ServerName primaryOf(TableName table, byte[] row) throws IOException {
    try (RegionLocator l = CLUSTER.connection().getRegionLocator(table)) {
      return l.getRegionLocation(row, 0, true).getServerName();
    }
  }

  /**
   * The primary latency samples the reader holds for {@code server}, once it has at least
   * {@code expected} or ten seconds went by: a read's answer is handed over before the reader
   * records what it learned from it.
   */
  private static int primarySamples(TimelineReader reader, ServerName server, int expected)
    throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (reader.policy().record(server).asPrimary.size() < expected
      && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    return reader.policy().record(server).asPrimary.size();
  }

  /**
   * Two regions split at row {@code ROWS/2}, their primaries on different servers, no hedging
   * (a delay of 5 s): a reversed scan's latency must be recorded for the primary of the region it
   * starts in, which is the region of its start row (or the last region, when the start row is
   * empty), and a batch resuming below a region's first row belongs to the region before.
   */
  @Test
  public void f3_reversedScansAcrossRegionsLocateTheRegionTheyStartIn() throws Exception {
    byte[] low = Bytes.toBytes(row(10));
    byte[] high = Bytes.toBytes(row(ROWS - 10));
    ServerName lowPrimary = primaryOf(SPLIT, low);
    ServerName highPrimary = primaryOf(SPLIT, high);
    if (lowPrimary.equals(highPrimary)) {
      MiniHBaseCluster c = CLUSTER.util().getMiniHBaseCluster();
      ServerName target = null;
      for (RegionServerThread t : c.getLiveRegionServerThreads()) {
        if (!t.getRegionServer().getServerName().equals(lowPrimary)) {
          target = t.getRegionServer().getServerName();
        }
      }
      try (RegionLocator l = CLUSTER.connection().getRegionLocator(SPLIT);
        Admin admin = CLUSTER.admin()) {
        admin.move(l.getRegionLocation(high, 0, true).getRegion().getEncodedNameAsBytes(),
          target);
      }
      CLUSTER.util().waitUntilNoRegionsInTransition(60_000);
      highPrimary = primaryOf(SPLIT, high);
      awaitSecondariesServe(SPLIT);
    }
    assertNotEquals("the two primaries share a server", lowPrimary, highPrimary);

    try (OwnReader own = new OwnReader(SPLIT, TimelineSettings.DELAY_MIN_MS, "5000",
      TimelineSettings.DELAY_MAX_MS, "5000", TimelineSettings.HEDGE_CAP_MS, "10000")) {
      TimelineReader reader = own.reader;
      // the reader plans from its own location cache: fill it for both regions first
      CLUSTER.util().waitFor(60_000, 50,
        () -> reader.locations().find(low, System.nanoTime()) != null
          && reader.locations().find(high, System.nanoTime()) != null);

      List<Result> rows = reader.scanAll(new Scan().withStartRow(high).withStopRow(low)
        .setReversed(true).setConsistency(Consistency.TIMELINE));
      assertEquals(ROWS - 20, rows.size());
      for (int i = 0; i < rows.size(); i++) {
        assertEquals(row(ROWS - 10 - i), Bytes.toString(rows.get(i).getRow()));
        check(rows.get(i), "reversed scanAll row " + i);
      }
      assertEquals("the scan from the upper region was timed on its primary", 1,
        primarySamples(reader, highPrimary, 1));
      assertEquals("the scan was timed on the lower region's primary", 0,
        primarySamples(reader, lowPrimary, 0));

      // the whole table from the end, in batches of 50: two batches in the upper region, then
      // (resuming below its first row) two in the lower one and the empty one that ends it
      List<String> seen = new ArrayList<>();
      try (ResultScanner rs = reader.getScanner(new Scan().setReversed(true).setCaching(50)
        .setConsistency(Consistency.TIMELINE))) {
        for (Result r : rs) {
          check(r, "reversed scanner row " + seen.size());
          seen.add(Bytes.toString(r.getRow()));
        }
      }
      List<String> expected = new ArrayList<>();
      for (int i = ROWS - 1; i >= 0; i--) {
        expected.add(row(i));
      }
      assertEquals("every row once, from the end", expected, seen);
      assertEquals("batches of the upper region", 3, primarySamples(reader, highPrimary, 3));
      assertEquals("batches of the lower region", 3, primarySamples(reader, lowPrimary, 3));
      assertEquals(0, reader.stats().hedges());
      assertEquals(0, reader.stats().staleAnswers());
    }
  }

  /** One stress reader: reads of every kind, some cancelled, until told to stop. */
  private static final class StressReader implements Runnable {
    final TimelineReader reader;
    final Random rnd;
    final AtomicBoolean go;
    final AtomicReference<Throwable> error = new AtomicReference<>();
    final AtomicInteger reads = new AtomicInteger();
    final AtomicInteger stale = new AtomicInteger();
    final AtomicInteger cancelled = new AtomicInteger();
    /** Scans a secondary answered with rows left out. */
    final AtomicInteger incomplete = new AtomicInteger();
    /** Answers the primary gave. */
    final AtomicInteger fresh = new AtomicInteger();
    /**
     * Reads that failed with an {@link IOException} saying why, when {@link #tolerateIoErrors}:
     * a server stopping under a read may end it with a clear error (never a wrong answer).
     */
    final List<String> ioErrors = java.util.Collections.synchronizedList(new ArrayList<>());
    final boolean tolerateIoErrors;

    StressReader(TimelineReader reader, long seed, AtomicBoolean go) {
      this(reader, seed, go, false);
    }

    StressReader(TimelineReader reader, long seed, AtomicBoolean go, boolean tolerateIoErrors) {
      this.reader = reader;
      this.rnd = new Random(seed);
      this.go = go;
      this.tolerateIoErrors = tolerateIoErrors;
    }

    @Override
    public void run() {
      try {
        while (go.get()) {
          try {
            readOnce();
          } catch (IOException | ExecutionException | java.util.concurrent.CompletionException
            | java.io.UncheckedIOException e) {
            Throwable cause = e instanceof IOException ? e : e.getCause();
            if (!tolerateIoErrors || !(cause instanceof IOException)
              || cause.getMessage() == null || cause.getMessage().isEmpty()) {
              throw e;
            }
            ioErrors.add(cause.toString());
            continue;
          }
          reads.incrementAndGet();
        }
      } catch (Throwable e) {
        error.compareAndSet(null, e);
      }
    }

    private void count(int replica) {
      if (replica != 0) {
        stale.incrementAndGet();
      } else {
        fresh.incrementAndGet();
      }
    }

    /**
     * Rows of a scan: in scan order, none twice, none past {@code stop}, and exactly
     * {@code want} when the primary gave them all. A secondary may leave rows out: after its
     * primary moved, one was seen serving only the rows in its memstore, without its store files
     * (the limit PATCH.md names for secondaries that lack rows), and the reader cannot tell.
     */
    private void checkRows(String what, List<String> want, List<String> got, List<String> seen,
      boolean reversed, String stop) {
      String msg = what + ": rows (row@replica) " + seen;
      boolean allPrimary = true;
      for (int k = 0; k < got.size(); k++) {
        allPrimary &= seen.get(k).endsWith("@0");
        if (k > 0) {
          int c = got.get(k).compareTo(got.get(k - 1));
          assertTrue(msg, reversed ? c < 0 : c > 0);
        }
        int fromStart = got.get(k).compareTo(want.get(0));
        assertTrue(msg, reversed ? fromStart <= 0 : fromStart >= 0);
        assertTrue(msg, stop == null || got.get(k).compareTo(stop) < 0);
      }
      if (allPrimary) {
        assertEquals(msg, want, got);
      } else if (!want.equals(got)) {
        incomplete.incrementAndGet();
      }
    }

    private void readOnce() throws Exception {
      int kind = rnd.nextInt(7);
      int i = rnd.nextInt(ROWS - 20);
      String what = "stress read kind " + kind + " at " + row(i);
      switch (kind) {
        case 0:
          count(check(reader.get(timelineGet(i)), what));
          break;
        case 1:
          count(check(reader.getAsync(timelineGet(i)).get(120, TimeUnit.SECONDS), what));
          break;
        case 2: {
          List<Get> gets = new ArrayList<>();
          for (int k = 0; k < 4; k++) {
            gets.add(timelineGet(i + k * 3));
          }
          Result[] rs = reader.get(gets);
          for (int k = 0; k < rs.length; k++) {
            assertEquals(what, row(i + k * 3), Bytes.toString(rs[k].getRow()));
            count(check(rs[k], what + " #" + k));
          }
          break;
        }
        case 3: {
          List<Result> rs = reader.scanAll(new Scan().withStartRow(Bytes.toBytes(row(i)))
            .withStopRow(Bytes.toBytes(row(i + 10))).setConsistency(Consistency.TIMELINE));
          List<String> want = new ArrayList<>();
          List<String> got = new ArrayList<>();
          List<String> seen = new ArrayList<>();
          for (int k = 0; k < 10; k++) {
            want.add(row(i + k));
          }
          for (int k = 0; k < rs.size(); k++) {
            int replica = check(rs.get(k), what + " #" + k);
            count(replica);
            got.add(Bytes.toString(rs.get(k).getRow()));
            seen.add(got.get(k) + "@" + replica);
          }
          checkRows(what, want, got, seen, false, row(i + 10));
          break;
        }
        case 4:
        case 5: {
          boolean reversed = kind == 5;
          int from = reversed ? i + 19 : i;
          List<String> got = new ArrayList<>();
          List<String> seen = new ArrayList<>();
          try (ResultScanner rs = reader.getScanner(new Scan()
            .withStartRow(Bytes.toBytes(row(from))).setReversed(reversed).setCaching(4)
            .setLimit(12).setConsistency(Consistency.TIMELINE))) {
            for (Result r : rs) {
              int replica = check(r, what + " #" + got.size());
              count(replica);
              got.add(Bytes.toString(r.getRow()));
              seen.add(Bytes.toString(r.getRow()) + "@" + replica);
            }
          }
          List<String> want = new ArrayList<>();
          for (int k = 0; k < 12; k++) {
            want.add(row(reversed ? from - k : from + k));
          }
          checkRows(what, want, got, seen, reversed, null);
          break;
        }
        default: {
          CompletableFuture<Result> f = reader.getAsync(timelineGet(i));
          if (f.cancel(true)) {
            cancelled.incrementAndGet();
          } else {
            count(check(f.join(), what));
          }
        }
      }
    }
  }

  /**
   * Seeded stress: three readers mix every kind of read (and cancel some) against a writer, with
   * the primary pausing on a tenth of its reads so hedges go out, while the region's primary is
   * moved from server to server. No read may fail or return a value never written, a scan's rows
   * come in order, once each, and complete when the primary gave them; afterwards
   * the readers' threads have ended, no request is left running, and the hedges stayed within
   * the budget.
   */
  @Test
  public void f4_stressHedgesWhileThePrimaryMoves() throws Exception {
    System.out.println("stress: seed " + SEED + ", " + STRESS_SECONDS + " s");
    AtomicBoolean go = new AtomicBoolean(true);
    AtomicReference<Throwable> writerError = new AtomicReference<>();
    Thread writer = new Thread(() -> {
      Random rnd = new Random(SEED);
      long seq = 1;
      try (Table t = CLUSTER.connection().getTable(TABLE)) {
        while (go.get()) {
          int i = rnd.nextInt(ROWS);
          String value = "v" + seq++;
          WRITTEN.computeIfAbsent(row(i), k -> ConcurrentHashMap.newKeySet()).add(value);
          t.put(new Put(Bytes.toBytes(row(i))).addColumn(F, V, Bytes.toBytes(value)));
          Thread.sleep(5);
        }
      } catch (Throwable e) {
        writerError.compareAndSet(null, e);
      }
    }, "stress-writer");
    ReplicaTagObserver.slowPrimary(0.1, 20);
    int moves = 0;
    try (TimelineReader reader = reader()) {
      List<StressReader> readers = new ArrayList<>();
      List<Thread> threads = new ArrayList<>();
      for (int n = 0; n < 3; n++) {
        StressReader s = new StressReader(reader, SEED + 1 + n, go);
        readers.add(s);
        threads.add(new Thread(s, "stress-reader-" + n));
      }
      writer.start();
      threads.forEach(Thread::start);
      Random rnd = new Random(SEED - 1);
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(STRESS_SECONDS);
      try {
        do {
          movePrimary(rnd);
          moves++;
          for (StressReader s : readers) {
            if (s.error.get() != null) {
              throw new AssertionError("a read failed (seed " + SEED + ")", s.error.get());
            }
          }
        } while (System.nanoTime() < end);
      } finally {
        go.set(false);
        for (Thread t : threads) {
          t.join(120_000);
        }
        writer.join(60_000);
        ReplicaTagObserver.healthy();
      }
      int reads = 0;
      int stale = 0;
      int cancelled = 0;
      int incomplete = 0;
      for (int n = 0; n < readers.size(); n++) {
        assertFalse("reader thread " + n + " never ended: a read hangs", threads.get(n).isAlive());
        StressReader s = readers.get(n);
        if (s.error.get() != null) {
          throw new AssertionError("a read failed (seed " + SEED + ")", s.error.get());
        }
        reads += s.reads.get();
        stale += s.stale.get();
        cancelled += s.cancelled.get();
        incomplete += s.incomplete.get();
      }
      assertFalse("the writer never ended", writer.isAlive());
      assertEquals(null, writerError.get());
      TimelineStats st = reader.stats();
      System.out.println("stress: " + moves + " primary moves, " + reads + " reads (" + stale
        + " stale answers, " + cancelled + " cancelled, " + incomplete
        + " scans a secondary answered with rows left out); " + st);
      assertTrue("no read completed", reads > 0);
      // a read cancelled at once may still be sending its first request when cancel returns
      CLUSTER.util().waitFor(60_000, 10, () -> st.inFlight() == 0);
      assertTrue("hedge timers left armed", reader.timer().getQueue().isEmpty());
      TimelineSettings s = TimelineSettings.defaults();
      assertTrue("hedges beyond the budget: " + st,
        st.hedges() - st.hedgesPastCap() <= s.budgetRatio * st.reads() + s.budgetBurst);
      assertTrue(st.rpcs() >= st.reads());
    }
    assertTrue("the primary never moved", moves > 0);
  }

  /**
   * The primary's RegionServer stops and a new one starts while hedged TIMELINE reads of every
   * kind go on (the primary pausing on a tenth of its reads, so hedges go out): every read answers
   * with a value written for its row, flagged stale exactly when a secondary gave it, or ends with
   * an {@link IOException} that says why; none hangs. Then the primary moves onto the restarted
   * server and the same reader reads from it. At the end the readers' threads have ended, no
   * request is left running and no hedge timer armed, and once closed the reader leaves no
   * thread.
   */
  @Test
  public void f5_aRegionServerRestartMidReadLeavesTheReaderWorking() throws Exception {
    MiniHBaseCluster c = CLUSTER.util().getMiniHBaseCluster();
    byte[] first = Bytes.toBytes(row(0));
    // keep hbase:meta out of it: the primary goes to a server that does not carry meta
    ServerName meta = c.getServerHoldingMeta();
    if (primaryOf(TABLE, first).equals(meta)) {
      moveTableTo(firstServerBut(meta, null));
    }
    awaitSecondariesServe(TABLE);
    ServerName stopped = primaryOf(TABLE, first);
    AtomicBoolean go = new AtomicBoolean(true);
    ReplicaTagObserver.slowPrimary(0.1, 20);
    TimelineReader reader = reader();
    List<StressReader> readers = new ArrayList<>();
    List<Thread> threads = new ArrayList<>();
    int[] phase = new int[3]; // reads done before the stop, while stopped, after the restart
    int freshBeforeMove = 0;
    ServerName restarted = null;
    try {
      for (int n = 0; n < 2; n++) {
        StressReader s = new StressReader(reader, SEED + 10 + n, go, true);
        readers.add(s);
        threads.add(new Thread(s, "restart-reader-" + n));
      }
      threads.forEach(Thread::start);
      phase[0] = awaitMoreReads(readers, threads, 20);

      int index = -1;
      for (int i = 0; i < c.getRegionServerThreads().size(); i++) {
        if (c.getRegionServer(i).getServerName().equals(stopped)) {
          index = i;
        }
      }
      assertTrue(stopped + " is not in the cluster", index >= 0);
      c.stopRegionServer(index);
      c.waitOnRegionServer(index);
      CLUSTER.util().waitFor(120_000, 200, () -> !stopped.equals(primaryOf(TABLE, first)));
      CLUSTER.util().waitUntilNoRegionsInTransition(120_000);
      phase[1] = awaitMoreReads(readers, threads, 20);

      restarted = c.startRegionServer().getRegionServer().getServerName();
      ServerName target = restarted;
      CLUSTER.util().waitFor(120_000, 200,
        () -> c.getLiveRegionServerThreads().size() == 3 && isOnline(target));
      freshBeforeMove = sum(readers, s -> s.fresh.get());
      moveTableTo(restarted);
      phase[2] = awaitMoreReads(readers, threads, 20);
    } finally {
      go.set(false);
      for (Thread t : threads) {
        t.join(120_000);
      }
      ReplicaTagObserver.healthy();
    }
    try {
      List<String> ioErrors = new ArrayList<>();
      for (int n = 0; n < readers.size(); n++) {
        assertFalse("reader thread " + n + " never ended: a read hangs", threads.get(n).isAlive());
        StressReader s = readers.get(n);
        if (s.error.get() != null) {
          throw new AssertionError("a read gave a wrong answer or an unclear error (seed " + SEED
            + ")", s.error.get());
        }
        ioErrors.addAll(s.ioErrors);
      }
      TimelineStats st = reader.stats();
      System.out.println("restart of " + stopped + " (now " + restarted + "): reads "
        + Arrays.toString(phase) + " before / while stopped / after, " + ioErrors.size()
        + " ended with an error " + ioErrors + "; " + st);
      assertTrue("no read completed after the restart", phase[2] > 0);
      assertTrue("no answer from the primary on the restarted server",
        sum(readers, s -> s.fresh.get()) > freshBeforeMove);
      assertEquals("the primary is on the restarted server", restarted, primaryOf(TABLE, first));
      // a read cancelled at once may still be sending its first request when cancel returns
      CLUSTER.util().waitFor(60_000, 10, () -> st.inFlight() == 0);
      assertTrue("hedge timers left armed", reader.timer().getQueue().isEmpty());
      TimelineSettings s = TimelineSettings.defaults();
      assertTrue("hedges beyond the budget: " + st,
        st.hedges() - st.hedgesPastCap() <= s.budgetRatio * st.reads() + s.budgetBurst);
      // and the reader still answers one more read of each kind, from the restarted primary
      check(reader.get(timelineGet(3)), "a get after the restart");
      check(reader.getAsync(timelineGet(4)).get(60, TimeUnit.SECONDS), "getAsync after");
      assertEquals(10, reader.scanAll(new Scan().withStartRow(Bytes.toBytes(row(30)))
        .withStopRow(Bytes.toBytes(row(40))).setConsistency(Consistency.TIMELINE)).size());
      assertNothingRunning(reader, "after the restart");
    } finally {
      reader.close();
    }
    assertTrue("the hedge timer did not stop", reader.timer().awaitTermination(60,
      TimeUnit.SECONDS));
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      assertFalse("left running: " + t.getName(),
        t.getName().equals("timeline-hedge-" + TABLE.getNameAsString()) && t.isAlive());
    }
  }

  private static int sum(List<StressReader> readers,
    java.util.function.ToIntFunction<StressReader> f) {
    return readers.stream().mapToInt(f).sum();
  }

  /**
   * Waits until the readers have completed {@code n} more reads (or one failed or ended) and
   * returns how many they completed.
   */
  private static int awaitMoreReads(List<StressReader> readers, List<Thread> threads, int n)
    throws Exception {
    int before = sum(readers, s -> s.reads.get());
    CLUSTER.util().waitFor(120_000, 20, () -> sum(readers, s -> s.reads.get()) >= before + n
      || readers.stream().anyMatch(s -> s.error.get() != null)
      || threads.stream().noneMatch(Thread::isAlive));
    for (StressReader s : readers) {
      if (s.error.get() != null) {
        throw new AssertionError("a read failed (seed " + SEED + ")", s.error.get());
      }
    }
    return sum(readers, s -> s.reads.get()) - before;
  }

  private static boolean isOnline(ServerName sn) {
    for (RegionServerThread t : CLUSTER.util().getMiniHBaseCluster()
      .getLiveRegionServerThreads()) {
      if (t.getRegionServer().getServerName().equals(sn)) {
        return t.getRegionServer().isOnline();
      }
    }
    return false;
  }

  private static ServerName firstServerBut(ServerName not, ServerName orNot) {
    for (RegionServerThread t : CLUSTER.util().getMiniHBaseCluster()
      .getLiveRegionServerThreads()) {
      ServerName sn = t.getRegionServer().getServerName();
      if (!sn.equals(not) && !sn.equals(orNot)) {
        return sn;
      }
    }
    throw new IllegalStateException("no live server but " + not);
  }

  /**
   * Moves the primary of {@code TABLE} to {@code target} and waits until meta shows it there.
   * The master skips a move to a server its balancer does not know yet (one that just started),
   * so the move is asked again every few seconds until it takes.
   */
  private static void moveTableTo(ServerName target) throws Exception {
    byte[] first = Bytes.toBytes(row(0));
    long[] lastAsk = { 0 };
    CLUSTER.util().waitFor(120_000, 200, () -> {
      if (target.equals(primaryOf(TABLE, first))) {
        return true;
      }
      if (System.nanoTime() - lastAsk[0] > 5_000_000_000L
        && !CLUSTER.util().getMiniHBaseCluster().getMaster().getAssignmentManager()
          .hasRegionsInTransition()) {
        lastAsk[0] = System.nanoTime();
        try (RegionLocator l = CLUSTER.connection().getRegionLocator(TABLE);
          Admin admin = CLUSTER.admin()) {
          admin.move(l.getRegionLocation(first, 0, true).getRegion().getEncodedNameAsBytes(),
            target);
        }
      }
      return false;
    });
    CLUSTER.util().waitUntilNoRegionsInTransition(120_000);
  }

  /** Moves the primary of {@code TABLE} to another live server and waits for it to open. */
  private static void movePrimary(Random rnd) throws Exception {
    MiniHBaseCluster c = CLUSTER.util().getMiniHBaseCluster();
    byte[] first = Bytes.toBytes(row(0));
    HRegionLocation loc;
    try (RegionLocator l = CLUSTER.connection().getRegionLocator(TABLE)) {
      loc = l.getRegionLocation(first, 0, true);
    }
    List<ServerName> others = new ArrayList<>();
    for (RegionServerThread t : c.getLiveRegionServerThreads()) {
      ServerName sn = t.getRegionServer().getServerName();
      if (!sn.equals(loc.getServerName())) {
        others.add(sn);
      }
    }
    ServerName target = others.get(rnd.nextInt(others.size()));
    try (Admin admin = CLUSTER.admin()) {
      admin.move(loc.getRegion().getEncodedNameAsBytes(), target);
    }
    CLUSTER.util().waitUntilNoRegionsInTransition(60_000);
    CLUSTER.util().waitFor(60_000, 100, () -> target.equals(primaryOf(TABLE, first)));
  }
}
