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
package dev.hbasepatches.jmh.offheapread;

import dev.hbasepatches.jmh.IterationCpu;
import dev.hbasepatches.jmh.HBaseBenchmark;
import dev.hbasepatches.offheap.OffHeapCacheConfig;
import dev.hbasepatches.offheap.OffHeapCaches;
import dev.hbasepatches.offheap.OffHeapMode;
import dev.hbasepatches.offheap.SlabBlockCache;
import dev.hbasepatches.testkit.LocalRegion;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.KeyValueUtil;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.io.hfile.BlockCacheFactory;
import org.apache.hadoop.hbase.io.hfile.bucket.BucketCache;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.RegionScanner;
import org.apache.hadoop.hbase.regionserver.Shipper;
import org.apache.hadoop.hbase.util.Bytes;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The off-heap read path (HBASE-11425): two standalone regions (64 KB blocks, NONE encoding)
 * share one block cache built by HBase's factory from each mode's keys; reads go through a
 * RegionScanner, cells are encoded into a reused direct buffer, then {@code shipped()} and close,
 * as the RPC layer does. {@code multiGet}: 100 random rows, one scanner each; {@code scan}: 100
 * consecutive rows; {@code churn}: multiGet on a cache a third the data's size (inserts on every
 * miss). Run with {@code -t 1} and {@code -t 2}, and {@code -prof gc}. Every trial ends by
 * checking that no block reference was leaked (PATCHED/BASELINE: every entry back at count 1).
 * <p>
 * {@code java -jar benchmarks.jar OffHeapReadBenchmark -prof gc -t 2 -p workload=multiGet}
 */
@State(Scope.Benchmark)
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 4, time = 2)
public class OffHeapReadBenchmark extends HBaseBenchmark {

  private static final int REGIONS = OffHeapRegions.REGIONS;
  private static final long DATA_PER_REGION = OffHeapRegions.DATA_PER_REGION;

  @Param({ "BASELINE", "PATCHED", "UPSTREAM" })
  public Mode mode;

  @Param({ "multiGet", "scan", "churn" })
  public String workload;

  @Param({ "100", "1000" })
  public int valueSize;

  /**
   * The churn L2's size in MB; 0 (the default): 3/8 of the data (6 MB). A diagnostic knob, to
   * compare caches at the memory another one actually used.
   */
  @Param({ "0" })
  public int churnL2Mb;

  /**
   * Churn's memory for UPSTREAM. {@code total} (the default): BucketCache's heap queue counts
   * into the L2 budget: its writer queues hold one block each (HBase's default three writers) and
   * its configured size is the budget less the most those writers can hold on the heap (a queued
   * and a drained block each, {@value #QUEUED_BLOCK_BOUND} bytes apiece), so buckets plus queue
   * never exceed the budget ours gets. {@code configured}: HBase's default queues (3 x 64 blocks,
   * up to ~13 MB on the heap beyond the configured size), as sessions 9 and 10 measured.
   */
  @Param({ "total" })
  public String churnMemory;

  /** Upper bound of one queued 64 KB data block's heap size: BucketCache's slot for it. */
  static final int QUEUED_BLOCK_BOUND = 70656;

  private BlockCache cache;
  private final List<LocalRegion> regions = new ArrayList<>();
  private int rows;
  /** Per iteration end: blocks in the L2's own memory, and (UPSTREAM) bytes queued on the heap. */
  private long blockSamples;
  private long queuedBytesSamples;
  private long maxQueuedBytes;
  private int samples;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    if (!"total".equals(churnMemory) && !"configured".equals(churnMemory)) {
      throw new IllegalArgumentException(
        "churnMemory=" + churnMemory + " is neither total nor configured");
    }
    long l2 = !"churn".equals(workload) ? 64L << 20
      : churnL2Mb > 0 ? (long) churnL2Mb << 20 : (REGIONS * DATA_PER_REGION) * 3 / 8;
    Configuration base = HBaseConfiguration.create();
    // BucketCache needs four buckets of its largest size; these sizes fit 64 KB blocks.
    base.set("hbase.bucketcache.bucket.sizes", "5376,17664,70656,132096");
    if ("churn".equals(workload)) {
      // The churn cache (3/8 of the data, 6 MB) is smaller than one default 8 MB slab, which
      // the cache refuses; 1 MB slabs still hold a 64 KB block per slot, many slots per slab.
      base.setInt(OffHeapCacheConfig.SLAB_SIZE_KEY, 1 << 20);
      if (mode == Mode.UPSTREAM && "total".equals(churnMemory)) {
        int writers = 3;
        int queue = 1;
        base.setInt(BlockCacheFactory.BUCKET_CACHE_WRITER_THREADS_KEY, writers);
        base.setInt(BlockCacheFactory.BUCKET_CACHE_WRITER_QUEUE_KEY, queue);
        l2 -= (long) writers * 2 * queue * QUEUED_BLOCK_BOUND;
      }
    }
    cache = OffHeapCaches.create(base, OffHeapMode.valueOf(mode.name()), 16L << 20, l2);
    rows = OffHeapRegions.rows(valueSize);
    regions.addAll(OffHeapRegions.build("offheap", cache, valueSize));
  }

  /**
   * Samples the L2's capacity in blocks at the end of each iteration: ours holds every block in
   * its slots; BucketCache also serves blocks still queued for its writer threads from a heap map
   * (RAMCache), whose bytes ({@code heapSize()}) are memory beyond its configured size.
   */
  @TearDown(Level.Iteration)
  public void sampleCapacity() {
    SlabBlockCache slab = OffHeapCaches.slabCache(cache);
    if (slab != null) {
      blockSamples += slab.getBlockCount();
    } else if (cache.getBlockCaches() != null
      && cache.getBlockCaches()[1] instanceof BucketCache) {
      BucketCache bc = (BucketCache) cache.getBlockCaches()[1];
      blockSamples += bc.getBackingMap().size();
      queuedBytesSamples += bc.heapSize();
      maxQueuedBytes = Math.max(maxQueuedBytes, bc.heapSize());
    }
    samples++;
  }

  private String capacityLine() {
    int n = Math.max(1, samples);
    long configured = cache.getBlockCaches() == null ? 0 : cache.getBlockCaches()[1].getMaxSize();
    return " l2ConfiguredBytes=" + configured + " meanBlocksInL2Memory=" + blockSamples / n
      + " meanHeapQueuedBytes="
      + queuedBytesSamples / n + " maxHeapQueuedBytes=" + maxQueuedBytes;
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    SlabBlockCache slab = OffHeapRegions.closeAndCheck(regions, cache);
    if (slab != null) {
      System.out.println("\nL2 " + slab + " hits=" + slab.getStats().getHitCount() + " misses="
        + slab.getStats().getMissCount() + " hitRatio=" + slab.getStats().getHitRatio()
        + " failedInserts=" + slab.getStats().getFailedInserts() + " leaked=0" + " usedSlotBytes="
        + slab.getUsedSize() + " blockBytes=" + slab.getCurrentSize() + " reclaimedSlabs="
        + slab.getReclaimedSlabCount() + " borrowedSlots=" + slab.getBorrowedSlotCount()
        + capacityLine());
    } else {
      BlockCache l2 = cache.getBlockCaches()[1];
      System.out.println("\nL2 " + l2.getClass().getSimpleName() + " hits="
        + l2.getStats().getHitCount() + " misses=" + l2.getStats().getMissCount() + " hitRatio="
        + l2.getStats().getHitRatio() + " failedInserts=" + l2.getStats().getFailedInserts()
        + capacityLine());
    }
    cache.shutdown();
  }

  /** Per thread: its random rows and the reused direct buffer the cells are encoded into. */
  @State(Scope.Thread)
  public static class Reader {
    final Random rnd = new Random(Thread.currentThread().getId());
    final ByteBuffer out = ByteBuffer.allocateDirect(1 << 20);
    final List<Cell> cells = new ArrayList<>();
  }

  @Benchmark
  public long read(Reader t, IterationCpu cpu) throws IOException {
    return OffHeapRegions.read(regions, workload, rows, t.rnd, t.out, t.cells);
  }
}
