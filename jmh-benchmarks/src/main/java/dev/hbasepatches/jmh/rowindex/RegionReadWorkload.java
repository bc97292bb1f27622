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
package dev.hbasepatches.jmh.rowindex;

import dev.hbasepatches.jmh.HBaseBenchmark.Mode;
import dev.hbasepatches.rowindex.RowIndexEncoder;
import dev.hbasepatches.rowindex.RowIndexInstaller;
import dev.hbasepatches.rowindex.SeedTableData;
import dev.hbasepatches.testkit.LocalRegion;
import java.io.Closeable;
import java.io.IOException;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * One region holding the seed's table for one mode, and the seed's reads on it: what
 * {@link RegionReadBenchmark} (one mode per fork) and {@link RowIndexToggleBenchmark} (two modes
 * in one fork) both run, so the two measure the same thing.
 * <p>
 * The ROW_INDEX_V1 encoder is one per JVM ({@link RowIndexInstaller} swaps it), so a mode is a
 * region's encoding plus the encoder installed while it is read: {@link #select(Mode)} installs
 * or takes back ours and checks which one ROW_INDEX_V1 then uses. PATCHED and UPSTREAM write
 * identical HFiles, so a region written in either mode reads the same bytes in both.
 */
final class RegionReadWorkload implements Closeable {

  static final List<String> WORKLOADS = List.of("randomGet", "reverseScan100", "fullScan",
    "countDeleted999", "reverseScanDeleted999");

  private final String workload;
  private final LocalRegion region;
  private final byte[][] getRows;
  private int next;

  private RegionReadWorkload(String workload, LocalRegion region, byte[][] getRows) {
    this.workload = workload;
    this.region = region;
    this.getRows = getRows;
  }

  /**
   * Builds, fills and (for {@code cache=cached}) warms a region for {@code mode}: BASELINE in
   * {@code baseline}'s encoding, PATCHED and UPSTREAM in ROW_INDEX_V1, written with the mode's
   * encoder selected. Refuses an unknown workload, cache or encoding before building anything.
   */
  static RegionReadWorkload open(String name, Mode mode, String baseline, String workload,
    String cache, int rows, long seed) throws IOException {
    if (!WORKLOADS.contains(workload)) {
      throw new IllegalArgumentException("unknown workload " + workload + "; one of " + WORKLOADS);
    }
    boolean cached;
    if ("cached".equals(cache)) {
      cached = true;
    } else if ("files".equals(cache)) {
      cached = false;
    } else {
      throw new IllegalArgumentException("cache must be cached or files, was " + cache);
    }
    DataBlockEncoding encoding =
      mode == Mode.BASELINE ? DataBlockEncoding.valueOf(baseline) : DataBlockEncoding.ROW_INDEX_V1;
    select(mode);
    LocalRegion region = LocalRegion.builder(name).family(Bytes.toString(SeedTableData.FAMILY))
      .encoding(encoding).blockSize(64 * 1024).blockCacheBytes(cached ? 512L * 1024 * 1024 : 0)
      .build();
    try {
      region.writeAndFlush(SeedTableData.puts(rows, seed));
      if (workload.endsWith("Deleted999")) {
        region.writeAndFlush(SeedTableData.deleteAllBut(rows, 1000));
      }
      if (cached) {
        region.warm();
      }
    } catch (IOException | RuntimeException e) {
      region.close();
      throw e;
    }
    Random rnd = new Random(seed);
    byte[][] getRows = new byte[4096][];
    for (int i = 0; i < getRows.length; i++) {
      getRows[i] = SeedTableData.rowKey(rnd.nextInt(rows));
    }
    return new RegionReadWorkload(workload, region, getRows);
  }

  /**
   * Makes ROW_INDEX_V1 read (and write) with {@code mode}'s encoder: ours for PATCHED, HBase's
   * otherwise; fails if the swap did not take.
   */
  static void select(Mode mode) {
    if (mode == Mode.PATCHED) {
      RowIndexInstaller.install();
    } else {
      RowIndexInstaller.uninstall();
    }
    boolean ours = DataBlockEncoding.ROW_INDEX_V1.getEncoder() instanceof RowIndexEncoder;
    if (ours != (mode == Mode.PATCHED)) {
      throw new IllegalStateException("mode " + mode + " but the installed ROW_INDEX_V1 encoder is "
        + DataBlockEncoding.ROW_INDEX_V1.getEncoder());
    }
  }

  LocalRegion region() {
    return region;
  }

  /**
   * One op of the workload; returns the cells it returned. {@code sink} gets each Get's
   * {@code Result} and each batch of scanned cells (a Blackhole's {@code consume}).
   */
  long runOnce(Consumer<Object> sink) throws IOException {
    switch (workload) {
      case "randomGet": {
        Result r = region.region().get(new Get(getRows[next++ & (getRows.length - 1)]));
        sink.accept(r);
        return r.size();
      }
      case "reverseScan100":
        return region.scan(new Scan().withStartRow(getRows[next++ & (getRows.length - 1)])
          .setReversed(true), 100, sink::accept);
      case "fullScan":
        return region.scan(new Scan(), Integer.MAX_VALUE, sink::accept);
      case "countDeleted999":
        return region.scan(new Scan().setFilter(new FirstKeyOnlyFilter()), Integer.MAX_VALUE,
          sink::accept);
      case "reverseScanDeleted999":
        return region.scan(new Scan().setReversed(true), 100, sink::accept);
      default:
        throw new IllegalArgumentException("unknown workload " + workload);
    }
  }

  @Override
  public void close() throws IOException {
    region.close();
  }
}
