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
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import dev.hbasepatches.testkit.CellAssertions;
import dev.hbasepatches.testkit.LocalRegion;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.KeyValueUtil;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.RegionScanner;
import org.apache.hadoop.hbase.regionserver.Shipper;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/**
 * Real regions, real HFiles: every query returns the same cells with no cache, HBase's LRU cache,
 * and each mode's L2 (BASELINE, PATCHED, UPSTREAM), per encoding, with tags; the L2s are small
 * enough that blocks are evicted while the queries run. Afterwards no reference is left held.
 */
@RunWith(Parameterized.class)
public class ReadPathEquivalenceTest {

  @Parameters(name = "{0}")
  public static Collection<Object[]> encodings() {
    return Arrays.asList(new Object[][] { { DataBlockEncoding.NONE },
      { DataBlockEncoding.FAST_DIFF }, { DataBlockEncoding.ROW_INDEX_V1 } });
  }

  private final DataBlockEncoding encoding;

  public ReadPathEquivalenceTest(DataBlockEncoding encoding) {
    this.encoding = encoding;
  }

  /** Small slabs and sizes for a 4 KB-block table, so a 2 MB L2 holds a fraction of it. */
  static Configuration smallCacheConf() {
    Configuration conf = HBaseConfiguration.create();
    conf.set(OffHeapCacheConfig.SLAB_SIZE_KEY, "256k");
    conf.set(OffHeapCacheConfig.SIZE_CLASSES_KEY, "2k,5k,9k,17k,33k,66k");
    // UPSTREAM's BucketCache needs room for a few buckets of its largest size.
    conf.set("hbase.bucketcache.bucket.sizes", "2304,5376,9472,17664");
    return conf;
  }

  @Test
  public void everyModeReturnsTheSameCells() throws Exception {
    List<List<Cell>> expected;
    try (LocalRegion r = TableShape.builder("none", encoding).blockCacheBytes(0).build()) {
      TableShape.load(r);
      expected = TableShape.queries(r.region());
      TableShape.queries(r.region());
    }
    assertTrue(expected.get(0).size() > 1500);
    try (LocalRegion r = TableShape.builder("lru", encoding).build()) {
      TableShape.load(r);
      compare("LRU", expected, r);
    }
    for (OffHeapMode mode : OffHeapMode.values()) {
      // BucketCache refuses less than 1 MB (hbase.bucketcache.size is in MB).
      long l2 = mode == OffHeapMode.UPSTREAM ? 1L << 20 : 512L << 10;
      BlockCache cache = OffHeapCaches.create(smallCacheConf(), mode, 4L << 20, l2);
      try (LocalRegion r = TableShape.builder(mode.name(), encoding).blockCache(cache).build()) {
        TableShape.load(r);
        compare(mode.name(), expected, r);
      }
      SlabBlockCache slab = OffHeapCaches.slabCache(cache);
      if (mode != OffHeapMode.UPSTREAM) {
        assertNotNull(slab);
        assertTrue(mode + " served no hits", slab.getStats().getHitCount() > 0);
        assertTrue(mode + " evicted nothing", slab.getStats().getEvictedCount() > 0);
        List<String> problems = slab.invariantViolations(true);
        assertTrue(mode + ": " + problems, problems.isEmpty());
      }
      cache.shutdown();
    }
  }

  private void compare(String mode, List<List<Cell>> expected, LocalRegion r) throws Exception {
    for (int round = 0; round < 2; round++) {
      List<List<Cell>> actual = TableShape.queries(r.region());
      for (int q = 0; q < expected.size(); q++) {
        CellAssertions.assertSameCells(encoding + " " + mode + " query " + q + " round " + round
          + " seed " + TableShape.SEED, expected.get(q), actual.get(q));
      }
    }
  }

  @Test
  public void evictionMidScanKeepsTheScannersBlocksAndCells() throws Exception {
    List<Cell> expected;
    try (LocalRegion r = TableShape.builder("none", encoding).blockCacheBytes(0).build()) {
      TableShape.load(r);
      expected = TableShape.scan(r.region(), new Scan(), Integer.MAX_VALUE);
    }
    BlockCache cache =
      OffHeapCaches.create(smallCacheConf(), OffHeapMode.PATCHED, 4L << 20, 16L << 20);
    SlabBlockCache slab = OffHeapCaches.slabCache(cache);
    try (LocalRegion r = TableShape.builder("midscan", encoding).blockCache(cache).build()) {
      TableShape.load(r);
      r.warm();
      List<Cell> actual = new ArrayList<>();
      List<Cell> batch = new ArrayList<>();
      int rows = 0;
      try (RegionScanner s = r.region().getScanner(new Scan())) {
        boolean more;
        do {
          more = s.next(batch);
          rows++;
          // Cells of the current batch still point into cached blocks: evict everything now,
          // before they are copied, as a compaction or a region close would.
          if (rows % 150 == 0) {
            long before = slab.getBlockCount();
            int evicted = 0;
            for (HStoreFile f : r.store(TableShape.FAMILY).getStorefiles()) {
              evicted += slab.evictBlocksByHfileName(f.getPath().getName());
            }
            // The first time, the scanners' current blocks are cached ones and stay held; later
            // the blocks they read back from disk are their own copies.
            if (rows == 150) {
              assertTrue("blocks " + before + ", evicted " + evicted + ", still held "
                + slab.getHeldEvictedCount(), slab.getHeldEvictedCount() > 0);
            }
          }
          for (Cell c : batch) {
            actual.add(KeyValueUtil.copyToNewKeyValue(c));
          }
          batch.clear();
          ((Shipper) s).shipped();
        } while (more);
      }
      CellAssertions.assertSameCells(encoding + " eviction mid-scan", expected, actual);
      assertEquals(0, slab.getHeldEvictedCount());
      List<String> problems = slab.invariantViolations(true);
      assertTrue(problems.toString(), problems.isEmpty());
    } finally {
      cache.shutdown();
    }
  }
}
