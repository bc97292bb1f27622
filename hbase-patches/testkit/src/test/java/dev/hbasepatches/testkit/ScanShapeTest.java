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
package dev.hbasepatches.testkit;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.Test;

public class ScanShapeTest {

  private static List<Cell> cells(ScanShape.ShapeData d) {
    List<Cell> out = new ArrayList<>();
    for (List<Mutation> file : d.files()) {
      for (Mutation m : file) {
        m.getFamilyCellMap().values().forEach(out::addAll);
      }
    }
    for (Mutation m : d.memstore()) {
      m.getFamilyCellMap().values().forEach(out::addAll);
    }
    return out;
  }

  @Test
  public void sameSeedSameCellsOtherSeedOtherValues() {
    for (ScanShape shape : ScanShape.values()) {
      List<Cell> a = cells(shape.generate(3_000, 4, 0.25, 7));
      List<Cell> b = cells(shape.generate(3_000, 4, 0.25, 7));
      CellAssertions.assertSameCells(shape.paramName(), a, b);
      List<Cell> c = cells(shape.generate(3_000, 4, 0.25, 8));
      assertEquals(a.size(), c.size());
      boolean differs = false;
      for (int i = 0; i < a.size() && !differs; i++) {
        differs = !CellAssertions.sameCell(a.get(i), c.get(i));
      }
      assertTrue(shape.paramName() + ": another seed must give other values", differs);
    }
  }

  @Test
  public void loadMakesOneHFilePerBatchAndKeepsTheRestInMemory() throws IOException {
    ScanShape.ShapeData data = ScanShape.ONE_VERSION_OF_TEN.generate(5_000, 4, 0.2, 1);
    try (LocalRegion r = LocalRegion.builder("load").family("f").maxVersions(10).build()) {
      data.loadInto(r);
      assertEquals(4, r.storeFileCount(ScanShape.FAMILY));
      assertTrue(r.store(ScanShape.FAMILY).getMemStoreSize().getCellsCount() > 0);
      long all = r.scanAll(new Scan().readAllVersions()).size();
      assertEquals(data.storedCells(), all);
    }
  }

  @Test
  public void everyTimeRangeMissFileSpansTheScanRange() throws IOException {
    ScanShape shape = ScanShape.TIMERANGE_MISS;
    try (LocalRegion r = LocalRegion.builder("tr").family("f").build()) {
      shape.generate(4_000, 4, 0, 3).loadInto(r);
      HStore store = r.store(ScanShape.FAMILY);
      for (HStoreFile f : store.getStorefiles()) {
        assertTrue("file must not be pruned by the scan's time range: " + f,
          f.getMinimumTimestamp().getAsLong() < ScanShape.SCAN_MIN_TS
            && f.getMaximumTimestamp().getAsLong() >= ScanShape.SCAN_MIN_TS);
      }
      List<Cell> hits = r.scanAll(shape.scan());
      assertEquals("one sentinel per file", 4, hits.size());
      for (Cell c : hits) {
        assertEquals(ScanShape.SENTINEL_TS, c.getTimestamp());
      }
    }
  }

  @Test
  public void shapesReturnWhatTheirNamesSay() throws IOException {
    try (LocalRegion r = LocalRegion.builder("names").family("f").maxVersions(10).build()) {
      ScanShape.ShapeData d = ScanShape.ONE_COLUMN_OF_TEN.generate(2_000, 1, 0, 5);
      d.loadInto(r);
      List<Cell> cells = r.scanAll(ScanShape.ONE_COLUMN_OF_TEN.scan());
      assertEquals(d.rows(), cells.size());
      for (Cell c : cells) {
        assertEquals("q3", Bytes.toString(c.getQualifierArray(), c.getQualifierOffset(),
          c.getQualifierLength()));
      }
    }
    try (LocalRegion r = LocalRegion.builder("deleted").family("f").build()) {
      ScanShape.ShapeData d = ScanShape.DELETED_COLUMNS.generate(2_000, 2, 0, 5);
      d.loadInto(r);
      assertEquals("two of ten columns survive per row", d.rows() * 2,
        r.scanAll(ScanShape.DELETED_COLUMNS.scan()).size());
    }
  }

  @Test
  public void layoutsDecideWhereVersionsGo() {
    ScanShape shape = ScanShape.ONE_VERSION_OF_TEN;
    for (ScanShape.Layout layout : ScanShape.Layout.values()) {
      ScanShape.ShapeData d = shape.generate(2_000, 4, 0, 9, layout);
      java.util.Map<String, java.util.Set<Integer>> filesOfRow = new java.util.HashMap<>();
      for (int f = 0; f < d.files().size(); f++) {
        for (Mutation m : d.files().get(f)) {
          filesOfRow.computeIfAbsent(Bytes.toString(m.getRow()), k -> new java.util.HashSet<>())
            .add(f);
        }
      }
      for (java.util.Set<Integer> files : filesOfRow.values()) {
        assertEquals(layout.paramName(),
          layout == ScanShape.Layout.VERSIONS_ACROSS_FILES ? 4 : 1, files.size());
      }
      if (layout == ScanShape.Layout.ROW_RANGES) {
        assertContiguousRanges(d);
      }
      assertEquals(layout, ScanShape.Layout.of(layout.paramName()));
    }
    // Single-version shapes honour ROW_RANGES too.
    assertContiguousRanges(
      ScanShape.FULL_SCAN.generate(2_000, 4, 0, 9, ScanShape.Layout.ROW_RANGES));
  }

  /** Every row of file f sorts before every row of file f + 1, and no file is empty. */
  private static void assertContiguousRanges(ScanShape.ShapeData d) {
    assertEquals(4, d.files().size());
    byte[] lastOfPrevious = null;
    for (List<Mutation> file : d.files()) {
      byte[] first = null;
      byte[] last = null;
      for (Mutation m : file) {
        if (Bytes.toString(m.getRow()).startsWith("sentinel")) {
          continue;
        }
        first = first == null || Bytes.compareTo(m.getRow(), first) < 0 ? m.getRow() : first;
        last = last == null || Bytes.compareTo(m.getRow(), last) > 0 ? m.getRow() : last;
      }
      assertTrue("file holds rows", first != null);
      if (lastOfPrevious != null) {
        assertTrue(Bytes.toString(lastOfPrevious) + " < " + Bytes.toString(first),
          Bytes.compareTo(lastOfPrevious, first) < 0);
      }
      lastOfPrevious = last;
    }
  }

  @Test
  public void badArgumentsAreRefusedClearly() {
    IllegalArgumentException e =
      assertThrows(IllegalArgumentException.class, () -> ScanShape.of("timeRangeMis"));
    assertTrue(e.getMessage(), e.getMessage().contains("timerangeMiss"));
    assertThrows(IllegalArgumentException.class,
      () -> ScanShape.FULL_SCAN.generate(100, 0, 0, 1));
    assertThrows(IllegalArgumentException.class,
      () -> ScanShape.FULL_SCAN.generate(100, 1, 1.0, 1));
    assertThrows(IllegalStateException.class, () -> LocalRegion.builder("nofamily").build());
    assertFalse(ScanShape.of("fullScan").scan().isReversed());
  }
}
