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

import dev.hbasepatches.jmh.series.SideWorkload;
import dev.hbasepatches.offheap.OffHeapCaches;
import dev.hbasepatches.offheap.OffHeapMode;
import dev.hbasepatches.testkit.LocalRegion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.io.hfile.bucket.BucketCache;

/**
 * Off-heap read's sides for the series comparison ({@code dev.hbasepatches.jmh.series}): the
 * cached reads of {@link OffHeapReadBenchmark} (two regions on a 16 MB L1 and a 64 MB off-heap
 * L2 that holds all their blocks). UPSTREAM is HBase's off-heap BucketCache as configured by
 * the module's UPSTREAM mode; SERIES the same with {@code hbase.bucketcache.shared.block.reuse}
 * on, which the series' BucketCache must have read; PATCHED and BASELINE are the module's modes.
 */
public final class OffHeapSides {

  /** The upstream series' key. */
  static final String SERIES_KEY = "hbase.bucketcache.shared.block.reuse";

  private OffHeapSides() {
  }

  /** Case {@code workload[/valueSize]}: multiGet or scan, value size 100 by default. */
  public static SideWorkload open(String side, String caseSpec) throws IOException {
    String[] p = SideWorkload.parts("offheap-read", caseSpec, 1, "workload", "valueSize");
    String workload = p[0];
    if (!workload.equals("multiGet") && !workload.equals("scan")) {
      throw new IllegalArgumentException(
        "offheap-read workload must be multiGet or scan, not '" + workload + "'");
    }
    int valueSize = SideWorkload.intPart("offheap-read", p, 1, 100);
    Configuration base = HBaseConfiguration.create();
    // BucketCache needs four buckets of its largest size; these sizes fit 64 KB blocks.
    base.set("hbase.bucketcache.bucket.sizes", "5376,17664,70656,132096");
    OffHeapMode mode;
    switch (side) {
      case "SERIES":
        base.setBoolean(SERIES_KEY, true);
        mode = OffHeapMode.UPSTREAM;
        break;
      case "UPSTREAM":
      case "PATCHED":
      case "BASELINE":
        mode = OffHeapMode.valueOf(side);
        break;
      default:
        throw SideWorkload.noSide("offheap-read", side, "not a side");
    }
    BlockCache cache = OffHeapCaches.create(base, mode, 16L << 20, 64L << 20);
    List<LocalRegion> regions;
    try {
      if (side.equals("SERIES")) {
        checkReuse(cache);
      }
      regions = OffHeapRegions.build("offheap_" + side.toLowerCase(), cache, valueSize);
    } catch (IOException | RuntimeException e) {
      cache.shutdown();
      throw e;
    }
    int rows = OffHeapRegions.rows(valueSize);
    Random rnd = new Random(7);
    ByteBuffer out = ByteBuffer.allocateDirect(1 << 20);
    List<Cell> cells = new ArrayList<>();
    String what = "offheap-read " + side + " workload=" + workload + " valueSize=" + valueSize
      + " rows/region=" + rows + " L2=" + cache.getBlockCaches()[1].getClass().getSimpleName()
      + (side.equals("SERIES") ? " " + SERIES_KEY + "=true" : "");
    return new SideWorkload() {
      @Override
      public long getAsLong() {
        try {
          return OffHeapRegions.read(regions, workload, rows, rnd, out, cells);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }

      @Override
      public void close() throws IOException {
        try {
          OffHeapRegions.closeAndCheck(regions, cache);
        } finally {
          cache.shutdown();
        }
      }

      @Override
      public String toString() {
        return what;
      }
    };
  }

  /** The series' BucketCache reads the key when built: it must hold it on. */
  private static void checkReuse(BlockCache cache) {
    BlockCache l2 = cache.getBlockCaches() == null ? null : cache.getBlockCaches()[1];
    if (!(l2 instanceof BucketCache)) {
      throw new IllegalStateException("SERIES needs HBase's BucketCache as L2, found " + l2);
    }
    try {
      Field f = BucketCache.class.getDeclaredField("sharedBlockReuse");
      f.setAccessible(true);
      if (!f.getBoolean(l2)) {
        throw new IllegalStateException("the series' BucketCache did not take " + SERIES_KEY);
      }
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("BucketCache has no sharedBlockReuse field: the SERIES "
        + "side is not running the offheap-read series' classes", e);
    }
  }
}
