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

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLongArray;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellBuilderFactory;
import org.apache.hadoop.hbase.CellBuilderType;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessor;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.RegionObserver;
import org.apache.hadoop.hbase.regionserver.InternalScanner;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Test coprocessor for the replicated table: it counts every Get and scanner open per replica id,
 * makes the primary (replica 0) slow on demand, and adds a cell {@code f:replica} to every answer
 * naming the replica that gave it, so a test can check {@code isStale()} against the truth.
 * <p>
 * Slowness is injected here rather than by suspending a server because a suspended RegionServer
 * keeps its RPC handlers answering.
 */
public class ReplicaTagObserver implements RegionCoprocessor, RegionObserver {

  static final byte[] FAMILY = Bytes.toBytes("f");
  static final byte[] REPLICA = Bytes.toBytes("zz-replica"); // sorts after every data column

  /** Gets (index = replica id) since the last {@link #reset()}. */
  static final AtomicLongArray GETS = new AtomicLongArray(8);
  /** Scanner opens (index = replica id) since the last {@link #reset()}. */
  static final AtomicLongArray SCANS = new AtomicLongArray(8);
  /** Gets answered with no cell at all (index = replica id) since the last {@link #reset()}. */
  static final AtomicLongArray EMPTY_GETS = new AtomicLongArray(8);
  /** The first few empty answers: replica, server, store files and memstore of the region. */
  static final java.util.Queue<String> EMPTY_SEEN =
    new java.util.concurrent.ConcurrentLinkedQueue<>();

  /**
   * While {@link #trace(boolean)} is on, one record per Get served: the row, the replica, when the
   * handler started and finished it ({@link System#nanoTime()}, the client's clock in a
   * minicluster) and whether it was paused.
   */
  static final java.util.Queue<Served> SERVED = new java.util.concurrent.ConcurrentLinkedQueue<>();
  private static volatile boolean tracing;
  private static final ThreadLocal<long[]> STARTED = ThreadLocal.withInitial(() -> new long[2]);

  /** One Get as the server saw it. */
  static final class Served {
    final String row;
    final int replica;
    final long startNanos;
    final long endNanos;
    final boolean paused;

    Served(String row, int replica, long startNanos, long endNanos, boolean paused) {
      this.row = row;
      this.replica = replica;
      this.startNanos = startNanos;
      this.endNanos = endNanos;
      this.paused = paused;
    }
  }

  static void trace(boolean on) {
    tracing = on;
  }

  private static volatile double pauseProbability;
  private static volatile long pauseMillis;

  /** Replica 0 sleeps {@code millis} on a fraction {@code probability} of its reads. */
  static void slowPrimary(double probability, long millis) {
    pauseMillis = millis;
    pauseProbability = probability;
  }

  static void healthy() {
    pauseProbability = 0;
  }

  /** Requests (index = replica id) that reached a hold since the last {@link #reset()}. */
  static final AtomicLongArray HELD = new AtomicLongArray(8);
  private static volatile int holdMask;
  private static volatile java.util.concurrent.CountDownLatch gate =
    new java.util.concurrent.CountDownLatch(0);

  /**
   * Gets and scanner opens of the replicas in {@code replicas} wait until {@link #release()} (at
   * most a minute, so a forgotten hold never wedges the cluster): a read that cannot be answered.
   */
  static void hold(int... replicas) {
    int mask = 0;
    for (int r : replicas) {
      mask |= 1 << r;
    }
    gate = new java.util.concurrent.CountDownLatch(1);
    holdMask = mask;
  }

  static void release() {
    holdMask = 0;
    gate.countDown();
  }

  private static void maybeHold(int replica) throws IOException {
    if ((holdMask & (1 << replica)) == 0) {
      return;
    }
    HELD.incrementAndGet(replica);
    try {
      gate.await(60, java.util.concurrent.TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("hold interrupted");
    }
  }

  static void reset() {
    for (int i = 0; i < GETS.length(); i++) {
      GETS.set(i, 0);
      SCANS.set(i, 0);
      HELD.set(i, 0);
      EMPTY_GETS.set(i, 0);
    }
    EMPTY_SEEN.clear();
    SERVED.clear();
  }

  static long gets() {
    long n = 0;
    for (int i = 0; i < GETS.length(); i++) {
      n += GETS.get(i);
    }
    return n;
  }

  /** Which replica gave this answer, from the tag cell; -1 if it has none. */
  static int replicaOf(Result r) {
    Cell c = r.getColumnLatestCell(FAMILY, REPLICA);
    return c == null ? -1 : Bytes.toInt(CellUtil.cloneValue(c));
  }

  @Override
  public Optional<RegionObserver> getRegionObserver() {
    return Optional.of(this);
  }

  private static int replica(ObserverContext<RegionCoprocessorEnvironment> c) {
    return c.getEnvironment().getRegionInfo().getReplicaId();
  }

  private static boolean maybePause(int replica) throws IOException {
    double p = pauseProbability;
    if (replica == 0 && p > 0 && ThreadLocalRandom.current().nextDouble() < p) {
      try {
        Thread.sleep(pauseMillis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("pause interrupted");
      }
      return true;
    }
    return false;
  }

  private static Cell tag(byte[] row, int replica) {
    return CellBuilderFactory.create(CellBuilderType.DEEP_COPY).setRow(row).setFamily(FAMILY)
      .setQualifier(REPLICA).setTimestamp(1L).setType(Cell.Type.Put)
      .setValue(Bytes.toBytes(replica)).build();
  }

  @Override
  public void preGetOp(ObserverContext<RegionCoprocessorEnvironment> c, Get get,
    List<Cell> result) throws IOException {
    int replica = replica(c);
    GETS.incrementAndGet(replica);
    maybeHold(replica);
    long[] started = STARTED.get();
    started[0] = System.nanoTime();
    started[1] = maybePause(replica) ? 1 : 0;
  }

  @Override
  public void postGetOp(ObserverContext<RegionCoprocessorEnvironment> c, Get get,
    List<Cell> result) {
    if (tracing) {
      long[] started = STARTED.get();
      SERVED.add(new Served(Bytes.toString(get.getRow()), replica(c), started[0],
        System.nanoTime(), started[1] == 1));
    }
    if (!result.isEmpty()) {
      result.add(tag(get.getRow(), replica(c)));
      return;
    }
    int replica = replica(c);
    EMPTY_GETS.incrementAndGet(replica);
    if (EMPTY_SEEN.size() < 5) {
      org.apache.hadoop.hbase.regionserver.Region region = c.getEnvironment().getRegion();
      long files = 0;
      for (org.apache.hadoop.hbase.regionserver.Store store : region.getStores()) {
        files += store.getStorefilesCount();
      }
      EMPTY_SEEN.add("replica " + replica + " of " + Bytes.toString(get.getRow()) + " on "
        + c.getEnvironment().getServerName() + ": " + files + " store files, memstore "
        + region.getMemStoreDataSize() + " bytes, read-only " + region.isReadOnly());
    }
  }

  @Override
  public void preScannerOpen(ObserverContext<RegionCoprocessorEnvironment> c, Scan scan)
    throws IOException {
    int replica = replica(c);
    SCANS.incrementAndGet(replica);
    maybeHold(replica);
    maybePause(replica);
  }

  @Override
  public boolean postScannerNext(ObserverContext<RegionCoprocessorEnvironment> c,
    InternalScanner s, List<Result> results, int limit, boolean hasMore) {
    int replica = replica(c);
    for (int i = 0; i < results.size(); i++) {
      Result r = results.get(i);
      if (!r.isEmpty()) {
        Cell[] cells = java.util.Arrays.copyOf(r.rawCells(), r.rawCells().length + 1);
        cells[cells.length - 1] = tag(r.getRow(), replica);
        results.set(i, Result.create(cells, null, r.isStale(), r.mayHaveMoreCellsInRow()));
      }
    }
    return hasMore;
  }
}
