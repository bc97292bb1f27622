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

import dev.hbasepatches.jmh.HBaseBenchmark.Mode;
import dev.hbasepatches.offheap.OffHeapCacheConfig;
import dev.hbasepatches.offheap.OffHeapCaches;
import dev.hbasepatches.offheap.OffHeapMode;
import dev.hbasepatches.offheap.SlabBlockCache;
import dev.hbasepatches.testkit.LocalRegion;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.io.hfile.BlockCacheFactory;
import org.apache.hadoop.hbase.io.hfile.bucket.BucketCache;

/**
 * One mode's block cache and regions for a workload, as {@link OffHeapReadBenchmark} and
 * {@link OffHeapToggleBenchmark} build them: the cache from the mode's keys through HBase's
 * factory (a 16 MB L1; an L2 of 64 MB for the cached workloads, which holds all the data, or for
 * {@code churn} 3/8 of the data, 6 MB, in 1 MB slabs), and {@link OffHeapRegions}' two regions
 * on it. Samples the L2's capacity per iteration and, on {@link #close}, checks that no block
 * reference leaked and describes the L2.
 */
final class OffHeapFixture {

  /** Upper bound of one queued 64 KB data block's heap size: BucketCache's slot for it. */
  static final int QUEUED_BLOCK_BOUND = 70656;

  final Mode mode;
  final String workload;
  final BlockCache cache;
  final List<LocalRegion> regions;
  /** Rows per region. */
  final int rows;
  /** Per iteration end: blocks in the L2's own memory, and (UPSTREAM) bytes queued on the heap. */
  private long blockSamples;
  private long queuedBytesSamples;
  private long maxQueuedBytes;
  private int samples;

  private OffHeapFixture(Mode mode, String workload, BlockCache cache, List<LocalRegion> regions,
    int rows) {
    this.mode = mode;
    this.workload = workload;
    this.cache = cache;
    this.regions = regions;
    this.rows = rows;
  }

  /** Refuses a workload or churn memory setting the fixture does not know, naming the key. */
  static void checkParams(String workload, String churnMemory) {
    if (!"multiGet".equals(workload) && !"scan".equals(workload) && !"churn".equals(workload)) {
      throw new IllegalArgumentException(
        "workload=" + workload + " is not a workload; use multiGet, scan or churn");
    }
    if (!"total".equals(churnMemory) && !"configured".equals(churnMemory)) {
      throw new IllegalArgumentException(
        "churnMemory=" + churnMemory + " is neither total nor configured");
    }
  }

  /**
   * Builds the cache and the regions (named {@code prefix} 0 and 1).
   *
   * @param churnL2Mb the churn L2's size in MB, or 0 for 3/8 of the data
   * @param churnMemory {@code total} or {@code configured}, see
   *   {@link OffHeapReadBenchmark#churnMemory}
   */
  static OffHeapFixture open(String prefix, Mode mode, String workload, int valueSize,
    int churnL2Mb, String churnMemory) throws IOException {
    checkParams(workload, churnMemory);
    long l2 = !"churn".equals(workload) ? 64L << 20
      : churnL2Mb > 0 ? (long) churnL2Mb << 20
      : (OffHeapRegions.REGIONS * OffHeapRegions.DATA_PER_REGION) * 3 / 8;
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
    BlockCache cache = OffHeapCaches.create(base, OffHeapMode.valueOf(mode.name()), 16L << 20, l2);
    try {
      List<LocalRegion> regions = OffHeapRegions.build(prefix, cache, valueSize);
      return new OffHeapFixture(mode, workload, cache, regions, OffHeapRegions.rows(valueSize));
    } catch (IOException | RuntimeException e) {
      cache.shutdown();
      throw e;
    }
  }

  /** One read of the workload ({@link OffHeapRegions#read}); thread-safe with per-thread args. */
  long read(Random rnd, ByteBuffer out, List<Cell> cells) throws IOException {
    return OffHeapRegions.read(regions, workload, rows, rnd, out, cells);
  }

  /** Cells in both regions, by a full scan through the cache. */
  long cellCount() throws IOException {
    long cells = 0;
    for (LocalRegion r : regions) {
      cells += r.scan(new Scan(), Integer.MAX_VALUE, batch -> { });
    }
    return cells;
  }

  /**
   * Samples the L2's capacity in blocks at the end of an iteration: ours holds every block in
   * its slots; BucketCache also serves blocks still queued for its writer threads from a heap map
   * (RAMCache), whose bytes ({@code heapSize()}) are memory beyond its configured size.
   */
  void sampleCapacity() {
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

  /**
   * Closes the regions, fails if a block reference leaked (the module's cache: every entry back
   * at count 1), shuts the cache down, and returns a line describing the L2 (hits, misses, ...).
   */
  String close() throws IOException {
    try {
      SlabBlockCache slab = OffHeapRegions.closeAndCheck(regions, cache);
      if (slab != null) {
        return "L2 " + slab + " hits=" + slab.getStats().getHitCount() + " misses="
          + slab.getStats().getMissCount() + " hitRatio=" + slab.getStats().getHitRatio()
          + " failedInserts=" + slab.getStats().getFailedInserts() + " leaked=0"
          + " usedSlotBytes=" + slab.getUsedSize() + " blockBytes=" + slab.getCurrentSize()
          + " reclaimedSlabs=" + slab.getReclaimedSlabCount() + " borrowedSlots="
          + slab.getBorrowedSlotCount() + capacityLine();
      }
      BlockCache l2 = cache.getBlockCaches()[1];
      return "L2 " + l2.getClass().getSimpleName() + " hits=" + l2.getStats().getHitCount()
        + " misses=" + l2.getStats().getMissCount() + " hitRatio=" + l2.getStats().getHitRatio()
        + " failedInserts=" + l2.getStats().getFailedInserts() + capacityLine();
    } finally {
      cache.shutdown();
    }
  }

  @Override
  public String toString() {
    return mode + " workload=" + workload + " rows/region=" + rows + " L2="
      + cache.getBlockCaches()[1].getClass().getSimpleName();
  }
}
