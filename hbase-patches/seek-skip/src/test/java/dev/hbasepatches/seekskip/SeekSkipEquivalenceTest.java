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
package dev.hbasepatches.seekskip;

import static dev.hbasepatches.testkit.ScanShape.FAMILY;
import static dev.hbasepatches.testkit.ScanShape.qualifier;
import static dev.hbasepatches.testkit.ScanShape.row;
import static org.junit.Assert.assertFalse;

import dev.hbasepatches.testkit.CellAssertions;
import dev.hbasepatches.testkit.LocalRegion;
import dev.hbasepatches.testkit.ScanShape;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.ColumnPrefixFilter;
import org.apache.hadoop.hbase.filter.ColumnRangeFilter;
import org.apache.hadoop.hbase.filter.MultipleColumnPrefixFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/**
 * Every data shape, in one file, four files, and four files plus memstore: BASELINE, UPSTREAM and
 * PATCHED (default budget, and a budget of one so the give-up path runs constantly) must return
 * the same cells for the shape's scan and for a set of scans around it, forward and reversed.
 * Blocks are 1 KB so rows and columns straddle block boundaries all the time.
 */
@RunWith(Parameterized.class)
public class SeekSkipEquivalenceTest {
  private static final long SEED = 0x5eed5c1L;
  private static final int CELLS = 4_000;

  @Parameters(name = "{0}/{1}")
  public static Collection<Object[]> cases() {
    List<Object[]> cases = new ArrayList<>();
    for (ScanShape shape : ScanShape.values()) {
      cases.add(new Object[] { shape, "1file" });
      cases.add(new Object[] { shape, "4files" });
      cases.add(new Object[] { shape, "4files+memstore" });
    }
    return cases;
  }

  private final ScanShape shape;
  private final String layout;

  public SeekSkipEquivalenceTest(ScanShape shape, String layout) {
    this.shape = shape;
    this.layout = layout;
  }


  private LocalRegion open(SeekSkipMode mode, Integer maxSkips) throws IOException {
    int files = layout.startsWith("1") ? 1 : 4;
    double memstore = layout.endsWith("memstore") ? 0.25 : 0;
    LocalRegion r = ModeRegions.open("eq_" + shape.paramName(), mode, maxSkips,
      b -> b.family(Bytes.toString(FAMILY)).blockSize(1024).maxVersions(shape.versions()));
    shape.generate(CELLS, files, memstore, SEED).loadInto(r);
    return r;
  }

  /** The scans compared, by name; each supplier makes a fresh Scan. */
  private Map<String, Supplier<Scan>> scans() throws IOException {
    Map<String, Supplier<Scan>> m = new LinkedHashMap<>();
    m.put("shape", shape::scan);
    m.put("shape-reversed", () -> shape.scan().setReversed(true));
    m.put("explicit-columns-2-versions", () -> new Scan().addColumn(FAMILY, qualifier(1))
      .addColumn(FAMILY, qualifier(4)).addColumn(FAMILY, qualifier(7)).readVersions(2));
    m.put("explicit-columns-reversed", () -> new Scan().addColumn(FAMILY, qualifier(0))
      .addColumn(FAMILY, qualifier(9)).setReversed(true));
    m.put("all-versions", () -> new Scan().readAllVersions());
    m.put("all-versions-reversed", () -> new Scan().readAllVersions().setReversed(true));
    m.put("time-range-middle", () -> timeRange(ScanShape.DATA_TS + 2, ScanShape.DATA_TS + 6));
    m.put("time-range-miss-reversed",
      () -> timeRange(ScanShape.SCAN_MIN_TS, ScanShape.SCAN_MAX_TS).setReversed(true));
    m.put("column-range-hint",
      () -> new Scan().setFilter(new ColumnRangeFilter(qualifier(3), true, qualifier(5), false)));
    m.put("column-prefix-hint", () -> new Scan().setFilter(new ColumnPrefixFilter(qualifier(6))));
    m.put("multi-prefix-hint-reversed", () -> new Scan()
      .setFilter(new MultipleColumnPrefixFilter(new byte[][] { qualifier(2), qualifier(8) }))
      .setReversed(true));
    m.put("row-range", () -> new Scan().withStartRow(row(3)).withStopRow(row(40)).readVersions(3));
    m.put("row-range-reversed",
      () -> new Scan().withStartRow(row(40)).withStopRow(row(3)).setReversed(true));
    m.put("raw", () -> new Scan().setRaw(true).readAllVersions());
    m.put("batch-3", () -> new Scan().setBatch(3).readVersions(2));
    return m;
  }

  private static Scan timeRange(long min, long max) {
    try {
      return new Scan().setTimeRange(min, max).readAllVersions();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  public void everyModeReturnsTheSameCells() throws IOException {
    try (LocalRegion upstream = open(SeekSkipMode.UPSTREAM, null);
      LocalRegion baseline = open(SeekSkipMode.BASELINE, null);
      LocalRegion patched = open(SeekSkipMode.PATCHED, null);
      LocalRegion patchedTight = open(SeekSkipMode.PATCHED, 1)) {
      for (Map.Entry<String, Supplier<Scan>> e : scans().entrySet()) {
        List<Cell> expected = upstream.scanAll(e.getValue().get());
        String ctx = shape.paramName() + "/" + layout + "/" + e.getKey() + " seed=" + SEED;
        if (e.getKey().startsWith("shape") && shape != ScanShape.TIMERANGE_MISS) {
          assertFalse(ctx + ": the reference scan returned nothing", expected.isEmpty());
        }
        CellAssertions.assertSameCells(ctx + " BASELINE", expected,
          baseline.scanAll(e.getValue().get()));
        CellAssertions.assertSameCells(ctx + " PATCHED", expected,
          patched.scanAll(e.getValue().get()));
        CellAssertions.assertSameCells(ctx + " PATCHED(max.skips=1)", expected,
          patchedTight.scanAll(e.getValue().get()));
      }
      for (int r : new int[] { 0, 1, 7, 33 }) {
        for (Get g : gets(r)) {
          String ctx = shape.paramName() + "/" + layout + "/get " + g;
          List<Cell> expected = upstream.region().get(g).listCells();
          CellAssertions.assertSameCells(ctx + " BASELINE", nullSafe(expected),
            nullSafe(baseline.region().get(g).listCells()));
          CellAssertions.assertSameCells(ctx + " PATCHED", nullSafe(expected),
            nullSafe(patched.region().get(g).listCells()));
          CellAssertions.assertSameCells(ctx + " PATCHED(max.skips=1)", nullSafe(expected),
            nullSafe(patchedTight.region().get(g).listCells()));
        }
      }
    }
  }

  private static List<Get> gets(int r) throws IOException {
    List<Get> gets = new ArrayList<>();
    gets.add(new Get(row(r)));
    gets.add(new Get(row(r)).readAllVersions());
    gets.add(new Get(row(r)).addColumn(FAMILY, qualifier(2)).addColumn(FAMILY, qualifier(5))
      .readVersions(3));
    gets.add(new Get(row(r)).setTimeRange(ScanShape.DATA_TS + 1, ScanShape.DATA_TS + 4)
      .readAllVersions());
    return gets;
  }

  private static List<Cell> nullSafe(List<Cell> cells) {
    return cells == null ? new ArrayList<>() : cells;
  }
}
