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
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import dev.hbasepatches.testkit.MiniCluster;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.MiniHBaseCluster;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
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
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.FixMethodOrder;
import org.junit.Test;
import org.junit.runners.MethodSorters;

/**
 * TIMELINE reads on a real 3-RegionServer minicluster with region replication 3, in all three
 * modes, while a writer keeps writing. One cluster for the class; the tests that expire, stop and
 * abort servers run last (methods run in name order).
 */
@FixMethodOrder(MethodSorters.NAME_ASCENDING)
public class TimelineReadsClusterTest {

  private static final TableName TABLE = TableName.valueOf("timeline");
  private static final byte[] F = ReplicaTagObserver.FAMILY;
  private static final byte[] V = Bytes.toBytes("v");
  private static final int ROWS = 200;
  private static final long SEED = 20261125L;

  @ClassRule
  public static final MiniCluster CLUSTER = ReplicaClusters.threeServers()
    .conf("hbase.client.operation.timeout", "15000")
    .conf("hbase.client.retries.number", "10")
    .build();

  /** Every value written per row, recorded before the Put is sent. */
  private static final Map<String, Set<String>> WRITTEN = new ConcurrentHashMap<>();
  private static final AtomicBoolean WRITING = new AtomicBoolean(true);
  private static final AtomicReference<Throwable> WRITER_ERROR = new AtomicReference<>();
  private static Thread writer;
  private static final Map<TimelineMode, Connection> SYNC = new EnumMap<>(TimelineMode.class);
  private static final Map<TimelineMode, AsyncConnection> ASYNC =
    new EnumMap<>(TimelineMode.class);

  @BeforeClass
  public static void createTableAndStartWriting() throws Exception {
    try (org.apache.hadoop.hbase.client.Admin admin = CLUSTER.admin()) {
      admin.createTable(TableDescriptorBuilder.newBuilder(TABLE).setRegionReplication(3)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
        .setCoprocessor(ReplicaTagObserver.class.getName()).build());
    }
    CLUSTER.util().waitTableAvailable(TABLE);
    CLUSTER.util().waitUntilNoRegionsInTransition(60_000);
    try (Table t = CLUSTER.connection().getTable(TABLE)) {
      List<Put> puts = new ArrayList<>();
      for (int i = 0; i < ROWS; i++) {
        puts.add(put(i, 0));
      }
      t.put(puts);
    }
    CLUSTER.admin().flush(TABLE);
    for (TimelineMode m : TimelineMode.values()) {
      Configuration conf = new Configuration(CLUSTER.conf());
      conf.set(TimelineMode.KEY, m.name());
      SYNC.put(m, ConnectionFactory.createConnection(conf));
      ASYNC.put(m, ConnectionFactory.createAsyncConnection(conf).get(60, TimeUnit.SECONDS));
    }
    writer = new Thread(TimelineReadsClusterTest::writeForever, "timeline-writer");
    writer.setDaemon(true);
    writer.start();
  }

  @AfterClass
  public static void stop() throws Exception {
    WRITING.set(false);
    if (writer != null) {
      writer.join(10_000);
    }
    for (Connection c : SYNC.values()) {
      c.close();
    }
    for (AsyncConnection c : ASYNC.values()) {
      c.close();
    }
    assertFalse("the writer thread never ended", writer != null && writer.isAlive());
  }

  private static String row(int i) {
    return String.format("row-%05d", i);
  }

  private static Put put(int i, long seq) {
    String value = "v" + seq;
    WRITTEN.computeIfAbsent(row(i), k -> ConcurrentHashMap.newKeySet()).add(value);
    return new Put(Bytes.toBytes(row(i))).addColumn(F, V, Bytes.toBytes(value));
  }

  private static void writeForever() {
    Random rnd = new Random(SEED);
    long seq = 1;
    try (Table t = CLUSTER.connection().getTable(TABLE)) {
      while (WRITING.get()) {
        t.put(put(rnd.nextInt(ROWS), seq++));
        Thread.sleep(5);
      }
    } catch (Throwable e) {
      if (WRITING.get()) {
        WRITER_ERROR.compareAndSet(null, e);
      }
    }
  }

  private static TimelineReader reader(TimelineMode m) throws IOException {
    return TimelineReader.create(SYNC.get(m), ASYNC.get(m), TABLE);
  }

  private static Get timelineGet(int i) {
    return new Get(Bytes.toBytes(row(i))).setConsistency(Consistency.TIMELINE);
  }

  /** The answer is a value written for that row, and stale exactly when a secondary gave it. */
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

  @Test
  public void t1_everyModeReadsRealWritesAndFlagsStalenessExactly() throws Exception {
    Random rnd = new Random(SEED);
    ReplicaTagObserver.slowPrimary(0.2, 30); // a fifth of primary reads pause: secondaries answer
    try {
      for (TimelineMode m : TimelineMode.values()) {
        int stale = 0;
        try (TimelineReader reader = reader(m)) {
          for (int n = 0; n < 150; n++) {
            String what = m + " get #" + n;
            Result r = n % 2 == 0 ? reader.get(timelineGet(rnd.nextInt(ROWS)))
              : reader.getAsync(timelineGet(rnd.nextInt(ROWS))).get(30, TimeUnit.SECONDS);
            stale += check(r, what) != 0 ? 1 : 0;
            // STRONG reads are never served by a secondary, in any mode
            Result strong = reader.get(new Get(Bytes.toBytes(row(rnd.nextInt(ROWS)))));
            assertEquals(m + " STRONG get #" + n, 0, check(strong, m + " STRONG get #" + n));
          }
          List<Get> batch = new ArrayList<>();
          for (int n = 0; n < 20; n++) {
            batch.add(timelineGet(rnd.nextInt(ROWS)));
          }
          Result[] rs = reader.get(batch);
          assertEquals(batch.size(), rs.length);
          for (int n = 0; n < rs.length; n++) {
            assertEquals(Bytes.toString(batch.get(n).getRow()), Bytes.toString(rs[n].getRow()));
            check(rs[n], m + " multi-get #" + n);
          }
          int from = rnd.nextInt(ROWS - 20);
          List<Result> scanned = reader.scanAll(new Scan().withStartRow(Bytes.toBytes(row(from)))
            .withStopRow(Bytes.toBytes(row(from + 20))).setConsistency(Consistency.TIMELINE));
          assertEquals(m + " scan rows", 20, scanned.size());
          for (int n = 0; n < scanned.size(); n++) {
            assertEquals(row(from + n), Bytes.toString(scanned.get(n).getRow()));
            check(scanned.get(n), m + " scan row " + n);
          }
          if (m == TimelineMode.BASELINE) {
            assertEquals("BASELINE reads only primaries", 0, stale);
          } else {
            assertTrue(m + ": no secondary ever answered, the stale path went untested",
              stale > 0);
          }
          if (m == TimelineMode.PATCHED) {
            System.out.println("PATCHED, primary pausing 30 ms on 20%: " + reader.stats());
          }
        }
      }
    } finally {
      ReplicaTagObserver.healthy();
    }
    assertEquals(null, WRITER_ERROR.get());
  }

  /** Streams a TIMELINE scan to the end, checking every row; returns the rows' names. */
  private static List<String> stream(TimelineReader reader, Scan scan, String what)
    throws IOException {
    List<String> rows = new ArrayList<>();
    try (ResultScanner rs = reader.getScanner(scan)) {
      for (Result r : rs) {
        check(r, what + " row " + rows.size());
        rows.add(Bytes.toString(r.getRow()));
      }
    }
    return rows;
  }

  @Test
  public void t1b_streamingScannerSwitchesReplicasWithoutRepeatingOrSkippingRows()
    throws Exception {
    List<String> all = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      all.add(row(i));
    }
    List<String> reversed = new ArrayList<>(all);
    java.util.Collections.reverse(reversed);
    ReplicaTagObserver.slowPrimary(0.5, 30); // half the batch scans find the primary slow
    // PATCHED on connections that cannot demote the primary within this scan: a half-slow primary
    // loses three batches in a row often enough that demotion (correctly) sends every batch to
    // the secondaries for 5 s, and then there is nothing to switch (seen in a clean-clone build).
    Configuration noDemotion = new Configuration(CLUSTER.conf());
    noDemotion.set(TimelineMode.KEY, TimelineMode.PATCHED.name());
    noDemotion.set(TimelineSettings.DEMOTE_STREAK, "128");
    noDemotion.set(TimelineSettings.DEMOTE_MIN_READS, "128");
    try (Connection patchedSync = ConnectionFactory.createConnection(noDemotion);
      AsyncConnection patchedAsync =
        ConnectionFactory.createAsyncConnection(noDemotion).get(60, TimeUnit.SECONDS)) {
      for (TimelineMode m : TimelineMode.values()) {
        try (TimelineReader reader = m == TimelineMode.PATCHED
          ? TimelineReader.create(patchedSync, patchedAsync, TABLE) : reader(m)) {
          ReplicaTagObserver.reset();
          List<Boolean> stale = new ArrayList<>();
          List<String> rows = new ArrayList<>();
          try (ResultScanner rs =
            reader.getScanner(new Scan().setCaching(7).setConsistency(Consistency.TIMELINE))) {
            for (Result r : rs) {
              check(r, m + " scanner row " + rows.size());
              rows.add(Bytes.toString(r.getRow()));
              stale.add(r.isStale());
            }
          }
          assertEquals(m + ": every row once, in order", all, rows);
          if (m == TimelineMode.PATCHED) {
            int switches = 0;
            for (int i = 1; i < stale.size(); i++) {
              switches += stale.get(i) != stale.get(i - 1) ? 1 : 0;
            }
            // 200 rows in batches of 7: 29 batch scans, each opened on a replica of its own
            assertTrue("PATCHED opened " + ReplicaTagObserver.SCANS + " scanners",
              ReplicaTagObserver.SCANS.get(0) + ReplicaTagObserver.SCANS.get(1)
                + ReplicaTagObserver.SCANS.get(2) >= 29);
            assertTrue("PATCHED never switched replica between batches: " + stale,
              switches > 0 && stale.contains(true) && stale.contains(false));
            System.out.println("PATCHED scanner: " + switches + " replica switches, scanners "
              + ReplicaTagObserver.SCANS);
          } else if (m == TimelineMode.BASELINE) {
            assertFalse("BASELINE scans read only primaries", stale.contains(true));
          }
          assertEquals(m + ": reversed, every row once",
            reversed, stream(reader, new Scan().setReversed(true).setCaching(9)
              .setConsistency(Consistency.TIMELINE), m + " reversed scanner"));
          assertEquals(m + ": limit 25 from row 50", all.subList(50, 75),
            stream(reader, new Scan().withStartRow(Bytes.toBytes(row(50))).setLimit(25)
              .setCaching(10).setConsistency(Consistency.TIMELINE), m + " limited scanner"));
        }
      }
      try (TimelineReader reader = reader(TimelineMode.PATCHED)) {
        reader.getScanner(new Scan().setBatch(1).setConsistency(Consistency.TIMELINE));
        fail("a row-splitting TIMELINE scan was accepted");
      } catch (IllegalArgumentException e) {
        assertTrue(e.getMessage(), e.getMessage().contains("setBatch(1)"));
      }
    } finally {
      ReplicaTagObserver.healthy();
    }
  }

  /** Gets sent per read through {@code reader}: server-side count over {@code reads} reads. */
  private static long extraRpcs(TimelineReader reader, int reads, Random rnd) throws Exception {
    ReplicaTagObserver.reset();
    for (int n = 0; n < reads; n++) {
      check(reader.get(timelineGet(rnd.nextInt(ROWS))), reader.mode() + " read #" + n);
    }
    Thread.sleep(200); // cancelled losers may still be on their way to the server
    return ReplicaTagObserver.gets() - reads;
  }

  @Test
  public void t2_theBudgetHoldsOnAHealthyAndOnAUniformlySlowPrimary() throws Exception {
    Random rnd = new Random(SEED + 1);
    TimelineSettings s = TimelineSettings.defaults();
    int reads = 400;
    try (TimelineReader reader = reader(TimelineMode.PATCHED)) {
      long healthy = extraRpcs(reader, reads, rnd);
      long pastCap = reader.stats().hedgesPastCap();
      System.out.println("PATCHED healthy: extra RPCs " + healthy + " / " + reads + "; "
        + reader.stats());
      assertTrue("healthy: " + healthy + " extra RPCs over " + reads + " reads",
        healthy <= s.budgetRatio * reads + s.budgetBurst + pastCap);

      ReplicaTagObserver.slowPrimary(1.0, 20);
      long slow;
      try {
        slow = extraRpcs(reader, reads, rnd);
      } finally {
        ReplicaTagObserver.healthy();
      }
      long pastCapSlow = reader.stats().hedgesPastCap() - pastCap;
      System.out.println("PATCHED uniformly slow primary: extra RPCs " + slow + " / " + reads
        + "; " + reader.stats());
      assertTrue("slow primary: " + slow + " extra RPCs over " + reads + " reads",
        slow <= s.budgetRatio * reads + s.budgetBurst + pastCapSlow);
      assertTrue("a uniformly slow primary is demoted", reader.stats().demotedReads() > 0);
    }
    try (TimelineReader upstream = reader(TimelineMode.UPSTREAM)) {
      ReplicaTagObserver.slowPrimary(1.0, 20);
      try {
        System.out.println("UPSTREAM uniformly slow primary: extra RPCs "
          + extraRpcs(upstream, 100, rnd) + " / 100");
      } finally {
        ReplicaTagObserver.healthy();
      }
    }
  }

  @Test
  public void t3_badKnobValuesAreRefused() throws Exception {
    Configuration conf = new Configuration(CLUSTER.conf());
    conf.set(TimelineSettings.BUDGET_RATIO, "5%");
    try {
      TimelineReader.create(SYNC.get(TimelineMode.PATCHED),
        ConnectionFactory.createAsyncConnection(conf).get(60, TimeUnit.SECONDS), TABLE);
      fail("a budget of 5% was accepted");
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().contains(TimelineSettings.BUDGET_RATIO + "=5%"));
    }
  }

  /**
   * A secondary that moved while the connection still caches its old server: the request fails
   * there, the client corrects the location and tries again after its retry pause. Here the
   * connection's pause is ten minutes and its operation timeout longer: HBase's own Get for
   * replica 1 is still waiting out that pause when the reader, whose requests to secondaries go
   * through a table paused {@code hbasepatches.timeline.secondary.pause.ms} (5 ms), has its
   * answer from the same stale cache. A reader that waited the connection's pause would run into
   * the test's timeout.
   */
  @Test(timeout = 300_000)
  public void t3b_aMovedSecondaryIsFoundAgainWithoutTheConnectionsPause() throws Exception {
    Configuration conf = new Configuration(CLUSTER.conf());
    conf.set(TimelineMode.KEY, TimelineMode.PATCHED.name());
    conf.setLong("hbase.client.pause", TimeUnit.MINUTES.toMillis(10));
    conf.setLong("hbase.client.operation.timeout", TimeUnit.MINUTES.toMillis(20));
    byte[] row = Bytes.toBytes(row(7));
    // One replica per server to start from: an earlier test's fault and the balancer can leave
    // two replicas on one server (seen in a clean-clone build: "replicas 1 and 2 on one server").
    System.out.println(ReplicaClusters.placeReplicas(CLUSTER, TABLE));
    try (Connection sync = ConnectionFactory.createConnection(conf);
      AsyncConnection stock = ConnectionFactory.createAsyncConnection(conf).get(60,
        TimeUnit.SECONDS);
      AsyncConnection async = ConnectionFactory.createAsyncConnection(conf).get(60,
        TimeUnit.SECONDS);
      TimelineReader reader = TimelineReader.create(sync, async, TABLE)) {
      // both connections cache every replica's location before the move
      stock.getRegionLocator(TABLE).getRegionLocations(row, true).get(60, TimeUnit.SECONDS);
      async.getRegionLocator(TABLE).getRegionLocations(row, true).get(60, TimeUnit.SECONDS);
      String swapped = swapSecondaries();

      java.util.concurrent.CompletableFuture<Result> stockRead = stock.getTable(TABLE)
        .get(new Get(row).setReplicaId(1).setConsistency(Consistency.TIMELINE));
      Result r = reader.getFromReplica(new Get(row), 1).get();
      assertEquals("the reader read replica 1", 1, check(r, "replica 1, the reader"));
      assertFalse("HBase's client answered from a stale location without its retry pause",
        stockRead.isDone());
      stockRead.cancel(true);
      System.out.println(swapped + "; the reader read replica 1 while HBase's client waited"
        + " its 10 min retry pause");
    }
    System.out.println(ReplicaClusters.placeReplicas(CLUSTER, TABLE));
  }

  /** Replica 1 onto replica 2's server and replica 2 onto replica 1's, primary untouched. */
  private static String swapSecondaries() throws Exception {
    ServerName[] servers = new ServerName[3];
    byte[][] names = new byte[3][];
    try (RegionLocator l = CLUSTER.connection().getRegionLocator(TABLE)) {
      for (HRegionLocation loc : l.getRegionLocations(Bytes.toBytes(row(0)), true)) {
        int r = loc.getRegion().getReplicaId();
        servers[r] = loc.getServerName();
        names[r] = loc.getRegion().getEncodedNameAsBytes();
      }
    }
    assertFalse("replicas 1 and 2 on one server", servers[1].equals(servers[2]));
    try (org.apache.hadoop.hbase.client.Admin admin = CLUSTER.admin()) {
      admin.move(names[1], servers[2]);
      CLUSTER.util().waitUntilNoRegionsInTransition(60_000);
      admin.move(names[2], servers[1]);
      CLUSTER.util().waitUntilNoRegionsInTransition(60_000);
    }
    // a secondary that just opened may serve nothing until it has the primary's files (finding
    // 1): wait until both answer a row that exists, through a connection of their own
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    try (Table t = CLUSTER.connection().getTable(TABLE)) {
      for (int r = 1; r <= 2; r++) {
        while (t.get(new Get(Bytes.toBytes(row(0))).setReplicaId(r)
          .setConsistency(Consistency.TIMELINE)).isEmpty()) {
          assertTrue("replica " + r + " serves rows again", System.nanoTime() < deadline);
          Thread.sleep(200);
        }
      }
    }
    return "replica 1 " + servers[1] + " -> " + servers[2] + ", replica 2 -> " + servers[1];
  }

  private static ServerName primaryServer() throws IOException {
    try (RegionLocator l = CLUSTER.connection().getRegionLocator(TABLE)) {
      HRegionLocation loc = l.getRegionLocation(Bytes.toBytes(row(0)), 0, true);
      return loc.getServerName();
    }
  }

  private static int indexOf(ServerName sn) {
    MiniHBaseCluster c = CLUSTER.util().getMiniHBaseCluster();
    for (int i = 0; i < c.getRegionServerThreads().size(); i++) {
      if (c.getRegionServer(i).getServerName().equals(sn)) {
        return i;
      }
    }
    throw new IllegalStateException(sn + " is not in the cluster");
  }

  /** Reads in a loop until told to stop; every read must answer with a real write. */
  private static final class Reading implements Runnable {
    final TimelineReader reader;
    final AtomicBoolean go = new AtomicBoolean(true);
    final AtomicReference<Throwable> error = new AtomicReference<>();
    volatile int reads;
    volatile int stale;
    volatile long maxNanos;

    Reading(TimelineReader reader) {
      this.reader = reader;
    }

    @Override
    public void run() {
      Random rnd = new Random(SEED + 2);
      while (go.get()) {
        try {
          long t0 = System.nanoTime();
          int replica = check(reader.get(timelineGet(rnd.nextInt(ROWS))), "read #" + reads);
          maxNanos = Math.max(maxNanos, System.nanoTime() - t0);
          stale += replica != 0 ? 1 : 0;
          reads++;
        } catch (Throwable e) {
          error.compareAndSet(null, e);
          return;
        }
      }
    }
  }

  /**
   * The primary's server loses its ZooKeeper session (HBaseTestingUtility expires it, as a long
   * GC pause or a partition would): the server aborts and the master reassigns its regions. Then
   * a new server joins and the replicas are spread again for the next test.
   */
  @Test
  public void t4_readsKeepAnsweringThroughAZooKeeperSessionExpiry() throws Exception {
    MiniHBaseCluster cluster = CLUSTER.util().getMiniHBaseCluster();
    try (TimelineReader reader = reader(TimelineMode.PATCHED)) {
      Reading reading = new Reading(reader);
      Thread t = new Thread(reading, "timeline-reader");
      t.start();
      ServerName expired = primaryServer();
      int after = 0;
      try {
        Thread.sleep(1000);
        int before = reading.reads;
        CLUSTER.util().expireRegionServerSession(indexOf(expired));
        awaitPrimaryMovedOff(cluster, expired);
        awaitReads(reading, t, before + 5);
        after = reading.reads - before;
        System.out.println("ZooKeeper session expiry of " + expired + ": "
          + (reading.reads - before) + " reads, max " + reading.maxNanos / 1e6 + " ms; "
          + reader.stats());
      } finally {
        reading.go.set(false);
        t.join(60_000);
      }
      assertFalse("the reader thread never ended: a read hangs", t.isAlive());
      if (reading.error.get() != null) {
        throw new AssertionError("a read failed after " + reading.reads + " reads",
          reading.error.get());
      }
      assertTrue("reads went on after the expiry: " + after, after >= 5);
      assertTrue("secondaries answered while the primary was away", reading.stale > 0);
    }
    cluster.startRegionServer();
    CLUSTER.util().waitFor(60_000, () -> cluster.getLiveRegionServerThreads().size() == 3);
    System.out.println(ReplicaClusters.placeReplicas(CLUSTER, TABLE));
  }

  @Test
  public void t5_readsKeepAnsweringThroughAGracefulStopAndAnAbort() throws Exception {
    MiniHBaseCluster cluster = CLUSTER.util().getMiniHBaseCluster();
    try (TimelineReader reader = reader(TimelineMode.PATCHED)) {
      Reading reading = new Reading(reader);
      Thread t = new Thread(reading, "timeline-reader");
      t.start();
      int[] during = new int[2]; // reads answered through the graceful stop, through the abort
      try {
        Thread.sleep(1000);
        ServerName first = primaryServer();
        int before = reading.reads;
        cluster.stopRegionServer(indexOf(first));
        awaitPrimaryMovedOff(cluster, first);
        awaitReads(reading, t, before + 5);
        during[0] = reading.reads - before;
        System.out.println("graceful stop of " + first + ": " + (reading.reads - before)
          + " reads, max " + reading.maxNanos / 1e6 + " ms; " + reader.stats());
        assertEquals(null, reading.error.get());

        ServerName second = primaryServer();
        assertFalse("the primary moved off the stopped server", second.equals(first));
        before = reading.reads;
        reading.maxNanos = 0;
        cluster.abortRegionServer(indexOf(second));
        Thread.sleep(8000); // past the ZooKeeper session timeout: the master sees it die
        awaitReads(reading, t, before + 5);
        during[1] = reading.reads - before;
        System.out.println("abort of " + second + ": " + (reading.reads - before)
          + " reads, max " + reading.maxNanos / 1e6 + " ms; " + reader.stats());
      } finally {
        reading.go.set(false);
        t.join(60_000);
      }
      assertFalse("the reader thread never ended: a read hangs", t.isAlive());
      if (reading.error.get() != null) {
        throw new AssertionError("a read failed after " + reading.reads + " reads",
          reading.error.get());
      }
      // counts, not rates: each phase waits for its reads, however slow the machine
      assertTrue("reads went on through the graceful stop: " + during[0], during[0] >= 5);
      assertTrue("reads went on through the abort: " + during[1], during[1] >= 5);
      assertTrue("secondaries answered while primaries were away", reading.stale > 0);
    }
  }

  /** Waits until the reader has answered {@code n} reads in all, failed, or ended. */
  private static void awaitReads(Reading reading, Thread t, int n) throws Exception {
    CLUSTER.util().waitFor(120_000, 50,
      () -> reading.reads >= n || reading.error.get() != null || !t.isAlive());
  }

  /**
   * Waits for a stopped server's thread to end and for meta to show the primary on another
   * server (the thread ends before the master has reassigned anything), then for the moves to
   * settle.
   */
  private void awaitPrimaryMovedOff(MiniHBaseCluster cluster, ServerName from) throws Exception {
    cluster.waitOnRegionServer(indexOf(from));
    CLUSTER.util().waitFor(120_000, 500, () -> !from.equals(primaryServer()));
    CLUSTER.util().waitUntilNoRegionsInTransition(60_000);
    Thread.sleep(1000);
  }
}
