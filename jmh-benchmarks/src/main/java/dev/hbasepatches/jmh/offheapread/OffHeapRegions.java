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

import dev.hbasepatches.offheap.OffHeapCaches;
import dev.hbasepatches.offheap.SlabBlockCache;
import dev.hbasepatches.testkit.LocalRegion;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.KeyValueUtil;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.RegionScanner;
import org.apache.hadoop.hbase.regionserver.Shipper;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The off-heap read fixture {@link OffHeapReadBenchmark} and {@link OffHeapSides} share: two
 * standalone regions (64 KB blocks, NONE encoding) on one block cache, each holding
 * {@value #DATA_PER_REGION} bytes of data, and the reads an RPC handler does on them (a
 * RegionScanner, cells encoded into a reused direct buffer, {@code shipped()}, close).
 */
final class OffHeapRegions {

  static final byte[] FAMILY = Bytes.toBytes("f");
  static final int REGIONS = 2;
  /** Data per region; the cached workloads' L2 holds both regions' data twice over. */
  static final long DATA_PER_REGION = 8L << 20;

  private OffHeapRegions() {
  }

  /** Rows per region for a value size. */
  static int rows(int valueSize) {
    return (int) (DATA_PER_REGION / (valueSize + 40));
  }

  /** Builds, fills, flushes and twice warms the regions on {@code cache}. */
  static List<LocalRegion> build(String prefix, BlockCache cache, int valueSize)
    throws IOException {
    int rows = rows(valueSize);
    Random rnd = new Random(42);
    List<LocalRegion> regions = new ArrayList<>();
    try {
      for (int r = 0; r < REGIONS; r++) {
        LocalRegion region = LocalRegion.builder(prefix + r).family("f").blockSize(64 * 1024)
          .blockCache(cache).build();
        regions.add(region);
        List<Put> puts = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
          byte[] v = new byte[valueSize];
          rnd.nextBytes(v);
          puts.add(new Put(row(i)).addColumn(FAMILY, Bytes.toBytes("q"), v));
        }
        region.writeAndFlush(puts);
        region.warm();
        region.warm();
      }
      return regions;
    } catch (IOException | RuntimeException e) {
      for (LocalRegion r : regions) {
        r.close();
      }
      throw e;
    }
  }

  /**
   * Closes the regions and, when the L2 is the module's slab cache, checks that no block
   * reference leaked (every entry back at count 1); returns that cache, or null.
   */
  static SlabBlockCache closeAndCheck(List<LocalRegion> regions, BlockCache cache)
    throws IOException {
    for (LocalRegion r : regions) {
      r.close();
    }
    SlabBlockCache slab = OffHeapCaches.slabCache(cache);
    if (slab != null) {
      List<String> problems = slab.invariantViolations(true);
      if (!problems.isEmpty()) {
        throw new IllegalStateException("leaked or broken references: " + problems);
      }
    }
    return slab;
  }

  static byte[] row(int i) {
    return Bytes.toBytes(String.format("row-%08d", i));
  }

  /**
   * One read of {@code workload}: {@code scan}, 100 consecutive rows from a random start, or
   * otherwise 100 random rows with one scanner each. Returns the bytes encoded into {@code out}
   * by the last batch (the buffer is reused).
   */
  static long read(List<LocalRegion> regions, String workload, int rows, Random rnd,
    ByteBuffer out, List<Cell> cells) throws IOException {
    HRegion region = regions.get(rnd.nextInt(regions.size())).region();
    out.clear();
    if ("scan".equals(workload)) {
      int start = rnd.nextInt(rows - 100);
      int n = 0;
      try (RegionScanner s = region.getScanner(new Scan().withStartRow(row(start)))) {
        boolean more;
        do {
          more = s.next(cells);
          encode(cells, out);
          ((Shipper) s).shipped();
        } while (more && ++n < 100);
      }
      return out.position();
    }
    for (int i = 0; i < 100; i++) {
      try (RegionScanner s = region.getScanner(new Scan(new Get(row(rnd.nextInt(rows)))))) {
        s.next(cells);
        encode(cells, out);
        ((Shipper) s).shipped();
      }
    }
    return out.position();
  }

  private static void encode(List<Cell> cells, ByteBuffer out) {
    for (Cell c : cells) {
      if (out.remaining() < 4096 + c.getValueLength()) {
        out.clear();
      }
      int pos = KeyValueUtil.appendTo(c, out, out.position(), true);
      out.position(pos);
    }
    cells.clear();
  }
}
