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
package dev.hbasepatches.jmh.series;

import dev.hbasepatches.jmh.localindexpruning.LocalIndexSides;
import dev.hbasepatches.jmh.offheapread.OffHeapSides;
import dev.hbasepatches.jmh.quotas.QuotaSides;
import dev.hbasepatches.jmh.rowindex.RowIndexSides;
import dev.hbasepatches.jmh.seekskip.SeekSkipSides;
import dev.hbasepatches.jmh.timelinereads.TimelineSides;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The entry point {@link Side} calls inside a side's class loader: builds a change's workload.
 * Every class it touches is loaded by that loader, so a SERIES side runs the series' classes.
 * <p>
 * Cases, per change (parts split on '/', optional ones in brackets):
 * <ul>
 * <li>{@code seek-skip}: {@code shape/files[/cells]}, e.g. {@code oneVersionOfTen/4}: a full
 * scan of a region of that shape (ScanShape), 500,000 cells by default; SERIES sets
 * {@code hbase.storescanner.max.skips} to 12, the module's default budget.</li>
 * <li>{@code row-index}: {@code workload/cache[/rows]}, e.g. {@code randomGet/cached}: the
 * row-index region reads (ROW_INDEX_V1, 64 KB blocks), 100,000 rows by default.</li>
 * <li>{@code checksum}: {@code buffers[/cells]}, HEAP, DIRECT or MULTI: one data block read from
 * a local HFile per operation with HBase checksums verified (CRC32C per 16 KB), 200,000 cells;
 * SERIES runs with {@code hbase.regionserver.checksum.verify.inplace} at its default, true;
 * PATCHED with the {@code checksum-overlay} jar (the module's {@code ChecksumUtil}) in front.</li>
 * <li>{@code offheap-read}: {@code workload[/valueSize]}, multiGet or scan: 100-row reads from
 * regions served by an off-heap L2; SERIES sets {@code hbase.bucketcache.shared.block.reuse}
 * true.</li>
 * <li>{@code quotas}: {@code notBiting[/requests]}: per operation 1,000 Gets' quota checks (find
 * the user's limits, check one read, add the result, close) for a user whose request throttle
 * never bites, on HBase's {@code DefaultOperationQuota} and {@code TimeBasedLimiter} (UPSTREAM;
 * SERIES with {@code hbase.quota.rate.limiter} set to the series' {@code PreciseRateLimiter}),
 * the module's {@code PacedOperationQuota} (PATCHED) or its do-nothing quota (BASELINE). Also
 * {@code accuracy/limit[/seconds]}, a deterministic check on a simulated clock whose sides differ
 * by design (QuotaSides).</li>
 * <li>{@code local-index-pruning}: {@code shape/regions}, e.g. {@code point/10000}: a local index
 * query's region selection on Phoenix 5.2.1 (LocalIndexSides); SERIES is the series' 5.2.1
 * variant in front of Phoenix's classes.</li>
 * <li>{@code timeline-reads}: {@code slowPrimary[/slowPercent[/pauseMs[/primaryTimeoutMs]]]},
 * default {@code slowPrimary/3/50}: per operation 10 TIMELINE Gets, one after the other, of a
 * table with region replication 3 on a 3-RegionServer minicluster (stock HBase, one per JVM,
 * shared by both sides) whose primary sleeps {@code pauseMs} before serving the slow rows,
 * {@code slowPercent} of every 100 reads (TimelineSides); UPSTREAM is HBase's sync client with
 * {@code hbase.client.primaryCallTimeout.get} at its default (or {@code primaryTimeoutMs}),
 * SERIES the same call with the series in front and {@code hbase.client.replica.hedge.adaptive}
 * and {@code hbase.client.replica.hedge.one.secondary.first} true, PATCHED the module's
 * {@code TimelineReader}, BASELINE its STRONG mode.</li>
 * </ul>
 */
public final class Workloads {

  /** The changes with a workload here. */
  public static final List<String> CHANGES =
    List.of("seek-skip", "row-index", "checksum", "offheap-read", "quotas", "local-index-pruning",
      "timeline-reads");

  private Workloads() {
  }

  /** Called reflectively by {@link Side#open}; returns a {@link SideWorkload}. */
  public static Object open(String change, String side, String caseSpec, String dir)
    throws IOException {
    switch (change) {
      case "seek-skip":
        return SeekSkipSides.open(side, caseSpec);
      case "row-index":
        return RowIndexSides.open(side, caseSpec);
      case "checksum":
        return checksum(side, caseSpec, Path.of(dir));
      case "offheap-read":
        return OffHeapSides.open(side, caseSpec);
      case "quotas":
        return QuotaSides.open(side, caseSpec);
      case "local-index-pruning":
        return LocalIndexSides.open(side, caseSpec);
      case "timeline-reads":
        return TimelineSides.open(side, caseSpec);
      default:
        throw new IllegalArgumentException(
          "no series workload for change '" + change + "'; one of " + CHANGES);
    }
  }

  /**
   * Checksum: one data block read per operation through HBase's reader. The series verifies
   * HBase checksums in place on the block's own buffers; the module is installed as a class
   * overlay, so its PATCHED side is this loader with the overlay jar in front (Side). Every side
   * reads the whole file once on opening: its content hash goes into the description (the same
   * on every side), and PATCHED must have verified every one of those blocks through the overlay,
   * or the overlay is switched off and the side would measure HBase's own path.
   */
  private static SideWorkload checksum(String side, String caseSpec, Path dir) throws IOException {
    if (side.equals("BASELINE")) {
      throw SideWorkload.noSide("checksum", side, "the checksum before the change (Hadoop's "
        + "pure-Java CRC per chunk) is measured per block by ChecksumToggleBenchmark");
    }
    String[] p = SideWorkload.parts("checksum", caseSpec, 1, "buffers", "cells");
    int cells = SideWorkload.intPart("checksum", p, 1, 200_000);
    BlockReadDriver driver = new BlockReadDriver(dir.resolve("blocks.hfile").toString(), p[0],
      cells);
    try {
      long before = overlayVerified(driver);
      long hash = driver.contentHash();
      long verified = overlayVerified(driver) - before;
      if (side.equals("PATCHED") && verified != driver.blockCount()) {
        throw new IllegalStateException("PATCHED: the overlay's ChecksumUtil verified " + verified
          + " of " + driver.blockCount() + " blocks read: is it switched off "
          + "(hbasepatches.checksum.enabled=false)?");
      }
      return new SideWorkload() {
        @Override
        public long getAsLong() {
          return driver.getAsLong();
        }

        @Override
        public void close() throws IOException {
          driver.close();
        }

        @Override
        public String toString() {
          String source;
          try {
            source = driver.checksumUtilSource();
          } catch (ClassNotFoundException e) {
            source = e.toString();
          }
          return "checksum " + side + " buffers=" + p[0] + " cells=" + cells + " blocks="
            + driver.blockCount() + " content crc32=" + Long.toHexString(hash)
            + " ChecksumUtil from " + source.substring(source.lastIndexOf('/') + 1)
            + " overlay verified=" + overlayVerified(driver);
        }
      };
    } catch (IOException | RuntimeException e) {
      driver.close();
      throw e;
    }
  }

  /** Blocks the overlay's ChecksumUtil has verified in this loader; -1 for HBase's own. */
  private static long overlayVerified(BlockReadDriver driver) {
    try {
      return driver.overlayVerifiedBlocks();
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("could not read the overlay's verified-block count", e);
    }
  }
}
