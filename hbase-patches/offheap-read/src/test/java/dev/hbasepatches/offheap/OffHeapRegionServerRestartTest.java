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
package dev.hbasepatches.offheap;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import dev.hbasepatches.testkit.MiniCluster;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.hbase.MiniHBaseCluster;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.io.hfile.CombinedBlockCache;
import org.apache.hadoop.hbase.regionserver.HRegionServer;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.JVMClusterUtil.RegionServerThread;
import org.junit.ClassRule;
import org.junit.Test;

/**
 * A RegionServer whose off-heap L2 holds the table's blocks is stopped and a new one started
 * while clients read through the cache (Gets, multi-gets and short scans, every cell checked):
 * the region reopens on the other server, then moves onto the restarted one. Every read returns
 * the cells written or ends with an {@link IOException} that says why; afterwards every cache
 * involved, the stopped server's included, holds its invariants: each entry back at count 1, no
 * evicted block still held, no reference released twice, {@code used + free == capacity}, and the
 * configured capacity all accounted (no direct-memory shortfall).
 */
public class OffHeapRegionServerRestartTest {

  @ClassRule
  public static final MiniCluster CLUSTER = cluster();

  private static MiniCluster cluster() {
    MiniCluster.Builder b = MiniCluster.builder().regionServers(2);
    for (String[] kv : OffHeapMiniClusterTest.KEYS) {
      b.conf(kv[0], kv[1]);
    }
    return b.build();
  }

  private static final TableName TABLE = TableName.valueOf("offheap_restart");
  private static final byte[] FAMILY = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");
  private static final int ROWS = 2000;
  private static final int VALUE = 1000;
  private static final long CAPACITY = 64L * 1024 * 1024;

  @Test
  public void readsThroughTheCacheSurviveARegionServerRestart() throws Exception {
    MiniHBaseCluster c = CLUSTER.util().getMiniHBaseCluster();
    Admin admin = CLUSTER.admin();
    admin.createTable(TableDescriptorBuilder.newBuilder(TABLE)
      .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(FAMILY).build()).build());
    try (Table t = CLUSTER.connection().getTable(TABLE)) {
      List<Put> puts = new ArrayList<>();
      for (int i = 0; i < ROWS; i++) {
        puts.add(new Put(row(i)).addColumn(FAMILY, Q, value(i)));
        if (puts.size() == 500) {
          t.put(puts);
          puts.clear();
        }
      }
    }
    admin.flush(TABLE);
    // the table on the server without hbase:meta, which then stops
    ServerName meta = c.getServerHoldingMeta();
    ServerName first = null;
    for (RegionServerThread rst : c.getLiveRegionServerThreads()) {
      if (!rst.getRegionServer().getServerName().equals(meta)) {
        first = rst.getRegionServer().getServerName();
      }
    }
    assertNotNull("no server without meta", first);
    moveTo(first);
    HRegionServer firstServer = server(first);
    SlabBlockCache firstCache = l2(firstServer);
    try (Table t = CLUSTER.connection().getTable(TABLE)) {
      assertEquals(ROWS, scanAll(t));
    }
    assertTrue("the stopping server caches no data blocks: " + firstCache,
      firstCache.getDataBlockCount() > 0);

    AtomicBoolean go = new AtomicBoolean(true);
    List<Reader> readers = new ArrayList<>();
    List<Thread> threads = new ArrayList<>();
    int[] phase = new int[3]; // reads before the stop, while one server ran, after the restart
    ServerName restarted = null;
    try {
      for (int n = 0; n < 2; n++) {
        Reader r = new Reader(20261129L + n, go);
        readers.add(r);
        threads.add(new Thread(r, "offheap-restart-reader-" + n));
      }
      threads.forEach(Thread::start);
      phase[0] = awaitMoreReads(readers, threads, 20);

      int index = indexOf(first);
      c.stopRegionServer(index);
      c.waitOnRegionServer(index);
      ServerName stopped = first;
      CLUSTER.util().waitFor(120_000, 200, () -> !stopped.equals(location()));
      CLUSTER.util().waitUntilNoRegionsInTransition(120_000);
      phase[1] = awaitMoreReads(readers, threads, 20);

      restarted = c.startRegionServer().getRegionServer().getServerName();
      ServerName target = restarted;
      CLUSTER.util().waitFor(120_000, 200, () -> server(target) != null
        && server(target).isOnline());
      moveTo(restarted);
      phase[2] = awaitMoreReads(readers, threads, 20);
    } finally {
      go.set(false);
      for (Thread t : threads) {
        t.join(120_000);
      }
    }
    List<String> ioErrors = new ArrayList<>();
    for (int n = 0; n < readers.size(); n++) {
      assertFalse("reader thread " + n + " never ended: a read hangs", threads.get(n).isAlive());
      if (readers.get(n).error.get() != null) {
        throw new AssertionError("a read gave wrong cells or an unclear error",
          readers.get(n).error.get());
      }
      ioErrors.addAll(readers.get(n).ioErrors);
    }
    HRegionServer now = server(restarted);
    SlabBlockCache restartedCache = l2(now);
    System.out.println("restart of " + first + " (now " + restarted + "): reads "
      + Arrays.toString(phase) + " before / while stopped / after, " + ioErrors.size()
      + " ended with an error " + ioErrors + "; stopped cache " + firstCache
      + "; restarted cache " + restartedCache);
    assertTrue("no read after the restart", phase[2] > 0);
    assertEquals(restarted, location());
    try (Table t = CLUSTER.connection().getTable(TABLE)) {
      long hits = restartedCache.getStats().getHitCount();
      assertEquals(ROWS, scanAll(t));
      assertEquals(ROWS, scanAll(t));
      assertTrue("the restarted server's reads are not served from its L2: " + restartedCache,
        restartedCache.getStats().getHitCount() > hits
          && restartedCache.getDataBlockCount() > 0);
    }

    // the stopped server's cache was shut down with it: emptied, nothing held, all accounted
    assertEquals("blocks left in a stopped server's cache", 0, firstCache.getBlockCount());
    assertInvariants("the stopped server's cache", firstCache);
    for (RegionServerThread rst : c.getLiveRegionServerThreads()) {
      HRegionServer rs = rst.getRegionServer();
      assertInvariants(rs.getServerName().toString(), l2(rs));
    }
  }

  private static void assertInvariants(String who, SlabBlockCache cache)
    throws InterruptedException {
    List<String> problems = settled(cache);
    assertTrue(who + ": " + problems, problems.isEmpty());
    assertEquals(who + ": evicted blocks still held", 0, cache.getHeldEvictedCount());
    assertEquals(who + ": references released twice", 0, cache.getOverReleaseCount());
    assertEquals(who + ": capacity", CAPACITY, cache.getMaxSize());
    assertEquals(who + ": direct memory shortfall", 0, cache.getDirectMemoryShortfall());
    assertEquals(who + ": used + free", cache.getMaxSize(),
      cache.getUsedSize() + cache.getFreeSize());
  }

  /**
   * The quiescent invariants once they hold, or the last violations seen: a background read (the
   * master's meta scans) may hold a block for a moment; a test read must not keep one.
   */
  private static List<String> settled(SlabBlockCache slab) throws InterruptedException {
    List<String> problems = slab.invariantViolations(true);
    for (int i = 0; i < 600 && !problems.isEmpty(); i++) {
      Thread.sleep(100);
      problems = slab.invariantViolations(true);
    }
    return problems;
  }

  private static SlabBlockCache l2(HRegionServer rs) {
    BlockCache cache = rs.getBlockCache().get();
    assertTrue(cache.toString(), cache instanceof CombinedBlockCache);
    BlockCache l2 = ((CombinedBlockCache) cache).getSecondLevelCache();
    assertTrue("L2 is " + l2, l2 instanceof OffHeapBlockCache);
    return (SlabBlockCache) ((OffHeapBlockCache) l2).delegate();
  }

  private static HRegionServer server(ServerName sn) {
    for (RegionServerThread rst : CLUSTER.util().getMiniHBaseCluster()
      .getLiveRegionServerThreads()) {
      if (rst.getRegionServer().getServerName().equals(sn)) {
        return rst.getRegionServer();
      }
    }
    return null;
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

  private static ServerName location() throws IOException {
    try (RegionLocator l = CLUSTER.connection().getRegionLocator(TABLE)) {
      return l.getRegionLocation(row(0), true).getServerName();
    }
  }

  /**
   * Moves the table's region to {@code target} and waits until meta shows it there. The master
   * skips a move to a server its balancer does not know yet (one that just started), so the move
   * is asked again every few seconds until it takes.
   */
  private static void moveTo(ServerName target) throws Exception {
    long[] lastAsk = { 0 };
    CLUSTER.util().waitFor(120_000, 200, () -> {
      if (target.equals(location())) {
        return true;
      }
      if (System.nanoTime() - lastAsk[0] > 5_000_000_000L
        && !CLUSTER.util().getMiniHBaseCluster().getMaster().getAssignmentManager()
          .hasRegionsInTransition()) {
        lastAsk[0] = System.nanoTime();
        try (RegionLocator l = CLUSTER.connection().getRegionLocator(TABLE)) {
          CLUSTER.admin().move(l.getRegionLocation(row(0), true).getRegion()
            .getEncodedNameAsBytes(), target);
        }
      }
      return false;
    });
    CLUSTER.util().waitUntilNoRegionsInTransition(120_000);
  }

  private static int sum(List<Reader> readers) {
    return readers.stream().mapToInt(r -> r.reads.get()).sum();
  }

  private static int awaitMoreReads(List<Reader> readers, List<Thread> threads, int n)
    throws Exception {
    int before = sum(readers);
    CLUSTER.util().waitFor(120_000, 20, () -> sum(readers) >= before + n
      || readers.stream().anyMatch(r -> r.error.get() != null)
      || threads.stream().noneMatch(Thread::isAlive));
    for (Reader r : readers) {
      if (r.error.get() != null) {
        throw new AssertionError("a read gave wrong cells or an unclear error", r.error.get());
      }
    }
    return sum(readers) - before;
  }

  private static int scanAll(Table t) throws IOException {
    int n = 0;
    try (ResultScanner s = t.getScanner(new Scan().setCaching(500))) {
      for (Result r : s) {
        checkRow(r, n, "full scan");
        n++;
      }
    }
    return n;
  }

  private static void checkRow(Result r, int i, String what) {
    assertFalse(what + ": row " + i + " missing", r.isEmpty());
    assertEquals(what, Bytes.toString(row(i)), Bytes.toString(r.getRow()));
    byte[] v = r.getValue(FAMILY, Q);
    assertNotNull(what + ": row " + i + " has no cell", v);
    assertTrue(what + ": row " + i + " holds other bytes", Arrays.equals(value(i), v));
  }

  private static byte[] row(int i) {
    return Bytes.toBytes(String.format("row-%06d", i));
  }

  private static byte[] value(int i) {
    byte[] v = new byte[VALUE];
    Arrays.fill(v, (byte) i);
    v[0] = (byte) (i >> 8);
    return v;
  }

  /** Gets, 10-row multi-gets and 20-row scans at seeded rows until told to stop. */
  private static final class Reader implements Runnable {
    final Random rnd;
    final AtomicBoolean go;
    final AtomicInteger reads = new AtomicInteger();
    final AtomicReference<Throwable> error = new AtomicReference<>();
    final List<String> ioErrors = Collections.synchronizedList(new ArrayList<>());

    Reader(long seed, AtomicBoolean go) {
      this.rnd = new Random(seed);
      this.go = go;
    }

    @Override
    public void run() {
      try (Table t = CLUSTER.connection().getTable(TABLE)) {
        while (go.get()) {
          try {
            readOnce(t);
            reads.incrementAndGet();
          } catch (IOException | UncheckedIOException e) {
            Throwable cause = e instanceof IOException ? e : e.getCause();
            if (cause.getMessage() == null || cause.getMessage().isEmpty()) {
              throw e;
            }
            ioErrors.add(cause.toString());
          }
        }
      } catch (Throwable e) {
        error.compareAndSet(null, e);
      }
    }

    private void readOnce(Table t) throws IOException {
      int i = rnd.nextInt(ROWS - 20);
      switch (rnd.nextInt(3)) {
        case 0:
          checkRow(t.get(new Get(row(i))), i, "get");
          break;
        case 1: {
          List<Get> gets = new ArrayList<>();
          for (int k = 0; k < 10; k++) {
            gets.add(new Get(row(i + 2 * k)));
          }
          Result[] rs = t.get(gets);
          for (int k = 0; k < rs.length; k++) {
            checkRow(rs[k], i + 2 * k, "multi-get #" + k);
          }
          break;
        }
        default: {
          int n = 0;
          try (ResultScanner s = t.getScanner(new Scan().withStartRow(row(i))
            .withStopRow(row(i + 20)).setCaching(7))) {
            for (Result r : s) {
              checkRow(r, i + n, "scan");
              n++;
            }
          }
          assertEquals("scan rows from " + i, 20, n);
        }
      }
    }
  }
}
