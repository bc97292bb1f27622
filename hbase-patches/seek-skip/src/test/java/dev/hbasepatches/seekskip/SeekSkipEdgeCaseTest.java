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
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import dev.hbasepatches.testkit.CellAssertions;
import dev.hbasepatches.testkit.LocalRegion;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.hadoop.hbase.ArrayBackedTag;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellBuilderType;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.ExtendedCellBuilderFactory;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.Tag;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.ColumnPaginationFilter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.FuzzyRowFilter;
import org.apache.hadoop.hbase.filter.MultiRowRangeFilter;
import org.apache.hadoop.hbase.filter.QualifierFilter;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.regionserver.HMobStore;
import org.apache.hadoop.hbase.regionserver.RegionScanner;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.Pair;
import org.junit.Test;

/**
 * One test per edge case the HBASE-13109 line of fixes taught upstream, each run on a real HRegion
 * in all three modes with the results compared cell by cell. Data is written so that the case is
 * really exercised: small blocks, several files, memstore on top.
 */
public class SeekSkipEdgeCaseTest {
  private static final long SEED = 20150308L;

  /** Opens one region per mode with the same settings and data, runs {@code check} over them. */
  private static void inEveryMode(String name, Consumer<LocalRegion.Builder> settings,
    List<List<Mutation>> files, List<Mutation> memstore, RegionCheck check) throws IOException {
    Map<SeekSkipMode, LocalRegion> regions = new EnumMap<>(SeekSkipMode.class);
    try {
      for (SeekSkipMode mode : SeekSkipMode.values()) {
        LocalRegion r = ModeRegions.open(name, mode, settings);
        regions.put(mode, r);
        r.load(files, memstore);
      }
      check.run(regions);
    } finally {
      for (LocalRegion r : regions.values()) {
        r.close();
      }
    }
  }

  @FunctionalInterface
  private interface RegionCheck {
    void run(Map<SeekSkipMode, LocalRegion> regions) throws IOException;
  }

  /**
   * Every mode returns what UPSTREAM returns, forward and reversed. Scans come from suppliers: a
   * filter is stateful, so each run needs its own instance.
   */
  @SafeVarargs
  private static void assertScansAgree(Map<SeekSkipMode, LocalRegion> regions, String label,
    Supplier<Scan>... scans) throws IOException {
    for (Supplier<Scan> make : scans) {
      for (boolean reversed : new boolean[] { false, true }) {
        List<Cell> expected =
          regions.get(SeekSkipMode.UPSTREAM).scanAll(make.get().setReversed(reversed));
        for (SeekSkipMode mode : SeekSkipMode.values()) {
          Scan scan = make.get().setReversed(reversed);
          CellAssertions.assertSameCells(label + " " + scan + " " + mode, expected,
            regions.get(mode).scanAll(scan));
        }
      }
    }
  }

  private static Consumer<LocalRegion.Builder> family(int versions, BloomType bloom) {
    return b -> b.family("f").blockSize(512).maxVersions(versions).bloomType(bloom);
  }

  private static byte[] value(Random random) {
    byte[] v = new byte[24];
    random.nextBytes(v);
    return v;
  }

  /** Rows 0..rows-1, columns 0..cols-1, versions ts 1..versions, round-robin over files. */
  private static List<List<Mutation>> grid(int rows, int cols, int versions, int files,
    Random random) {
    List<List<Mutation>> out = new ArrayList<>();
    for (int f = 0; f < files; f++) {
      out.add(new ArrayList<>());
    }
    for (int r = 0; r < rows; r++) {
      for (int v = 1; v <= versions; v++) {
        Put p = new Put(row(r));
        for (int c = 0; c < cols; c++) {
          p.addColumn(FAMILY, qualifier(c), v, value(random));
        }
        out.get((r + v) % files).add(p);
      }
    }
    return out;
  }

  @Test
  public void familyColumnAndVersionDeleteMarkers() throws IOException {
    Random random = new Random(SEED);
    List<List<Mutation>> files = grid(60, 8, 4, 3, random);
    List<Mutation> memstore = new ArrayList<>();
    for (int r = 0; r < 60; r += 5) {
      files.get(r % 3).add(new Delete(row(r)).addFamily(FAMILY, 3)); // family, up to ts 3
      files.get((r + 1) % 3).add(new Delete(row(r + 1)).addColumns(FAMILY, qualifier(2)));
      files.get((r + 2) % 3).add(new Delete(row(r + 2)).addColumn(FAMILY, qualifier(4), 4));
      memstore.add(new Delete(row(r + 3)).addFamilyVersion(FAMILY, 2));
      memstore.add(new Delete(row(r + 4)).addFamily(FAMILY)); // whole row gone, newest marker
    }
    inEveryMode("deletes", family(4, BloomType.ROW), files, memstore, regions -> {
      assertScansAgree(regions, "deletes", Scan::new, () -> new Scan().readAllVersions(),
        () -> new Scan().readVersions(2).addColumn(FAMILY, qualifier(2))
          .addColumn(FAMILY, qualifier(4)),
        () -> new Scan().setRaw(true).readAllVersions());
      for (SeekSkipMode mode : SeekSkipMode.values()) {
        List<Cell> row0 = regions.get(mode).scanAll(
          new Scan().withStartRow(row(0)).withStopRow(row(0), true).readAllVersions());
        assertEquals(mode + ": a family delete up to ts 3 leaves the ts 4 cells", 8, row0.size());
        for (Cell c : row0) {
          assertEquals(mode + ": " + c, 4, c.getTimestamp());
        }
        assertTrue(mode + ": a family delete at 'now' hides the whole row",
          regions.get(mode).scanAll(new Scan().withStartRow(row(4)).withStopRow(row(4), true))
            .isEmpty());
      }
    });
  }

  @Test
  public void rowColBloomFakeKeysAreSoughtNotSkipped() throws IOException {
    // HBASE-19863: with a ROWCOL bloom, a file that lacks a wanted column leaves a fake
    // last-on-row-col key on top of the heap; stepping from it would read an unpositioned file.
    Random random = new Random(SEED + 1);
    List<List<Mutation>> files = new ArrayList<>();
    for (int f = 0; f < 4; f++) {
      List<Mutation> file = new ArrayList<>();
      for (int r = 0; r < 80; r++) {
        Put p = new Put(row(r));
        for (int c = f; c < 12; c += 4) { // each file holds a different third of the columns
          p.addColumn(FAMILY, qualifier(c), 10 + f, value(random));
        }
        if (r % 3 == f % 3) {
          p.addColumn(FAMILY, Bytes.toBytes("flag"), 10 + f, Bytes.toBytes("yes"));
        }
        file.add(p);
      }
      files.add(file);
    }
    inEveryMode("rowcol", family(3, BloomType.ROWCOL), files, Collections.emptyList(), regions -> {
      Supplier<Scan> cols = () -> new Scan().addColumn(FAMILY, qualifier(1))
        .addColumn(FAMILY, qualifier(6)).addColumn(FAMILY, Bytes.toBytes("flag"));
      assertScansAgree(regions, "rowcol", cols, () -> cols.get().setFilter(flag()),
        () -> new Scan().addColumn(FAMILY, qualifier(5)));
      for (int r = 0; r < 80; r += 7) {
        Get get = new Get(row(r)).addColumn(FAMILY, qualifier(3))
          .addColumn(FAMILY, qualifier(9)).readAllVersions();
        List<Cell> expected = regions.get(SeekSkipMode.UPSTREAM).region().get(get).listCells();
        for (SeekSkipMode mode : SeekSkipMode.values()) {
          CellAssertions.assertSameCells("rowcol get " + r + " " + mode, expected,
            regions.get(mode).region().get(get).listCells());
        }
      }
    });
  }

  private static SingleColumnValueFilter flag() {
    SingleColumnValueFilter flag = new SingleColumnValueFilter(FAMILY, Bytes.toBytes("flag"),
      CompareOperator.EQUAL, Bytes.toBytes("yes"));
    flag.setFilterIfMissing(true);
    return flag;
  }

  @Test
  public void explicitColumnsWithVersionsHandBackOnlyCellsTheSeekWouldReach() throws IOException {
    // HBASE-17958: a skip that stops early hands the matcher a cell the seek would have passed.
    Random random = new Random(SEED + 2);
    List<List<Mutation>> files = grid(50, 12, 6, 2, random);
    List<Mutation> memstore = grid(50, 12, 1, 1, random).get(0);
    Supplier<Scan> spaced = () -> new Scan().addColumn(FAMILY, qualifier(1))
      .addColumn(FAMILY, qualifier(5)).addColumn(FAMILY, qualifier(11)).readVersions(2);
    inEveryMode("hb17958", family(6, BloomType.ROW), files, memstore, regions -> {
      assertScansAgree(regions, "explicit", spaced,
        () -> spaced.get().setFilter(new QualifierFilter(CompareOperator.NOT_EQUAL,
          new BinaryComparator(qualifier(5)))),
        () -> spaced.get().setMaxResultsPerColumnFamily(2).setRowOffsetPerColumnFamily(1),
        () -> new Scan().setFilter(new ColumnPaginationFilter(3, 4)).readVersions(3));
    });
  }

  @Test
  public void filtersThatSeekUsingHints() throws IOException {
    Random random = new Random(SEED + 3);
    List<List<Mutation>> files = grid(120, 6, 2, 3, random);
    inEveryMode("hints", family(2, BloomType.ROW), files, Collections.emptyList(), regions -> {
      assertScansAgree(regions, "hints", () -> new Scan().setFilter(fuzzy()),
        () -> new Scan().setFilter(ranges()), () -> new Scan()
          .setFilter(new FilterList(FilterList.Operator.MUST_PASS_ONE, fuzzy(), ranges())));
      assertEquals("fuzzy rows ?1? of 0..119: 010-019 and 110-119", 20 * 6,
        regions.get(SeekSkipMode.PATCHED).scanAll(new Scan().setFilter(fuzzy())).size());
    });
  }

  private static FuzzyRowFilter fuzzy() {
    return new FuzzyRowFilter(Arrays.asList(new Pair<>(Bytes.toBytes("row00000?1"),
      new byte[] { 0, 0, 0, 0, 0, 0, 0, 0, 1, 0 })));
  }

  private static MultiRowRangeFilter ranges() {
    return new MultiRowRangeFilter(Arrays.asList(
      new MultiRowRangeFilter.RowRange(row(5), true, row(9), false),
      new MultiRowRangeFilter.RowRange(row(60), true, row(64), true)));
  }

  @Test
  public void emptyRegionsAndRegionsOfOnlyMarkers() throws IOException {
    inEveryMode("empty", family(1, BloomType.ROW), Collections.emptyList(),
      Collections.emptyList(), regions -> {
        for (LocalRegion r : regions.values()) {
          assertTrue(r.scanAll(new Scan()).isEmpty());
          assertTrue(r.scanAll(new Scan().setReversed(true)).isEmpty());
          assertTrue(r.region().get(new Get(row(1))).isEmpty());
        }
      });
    List<List<Mutation>> markersOnly = new ArrayList<>();
    List<Mutation> file = new ArrayList<>();
    for (int r = 0; r < 40; r++) {
      file.add(new Delete(row(r)).addFamily(FAMILY, 100));
    }
    markersOnly.add(file);
    inEveryMode("markers", family(1, BloomType.ROW), markersOnly, Collections.emptyList(),
      regions -> {
        assertScansAgree(regions, "markers", Scan::new, () -> new Scan().setRaw(true));
        assertTrue(regions.get(SeekSkipMode.PATCHED).scanAll(new Scan()).isEmpty());
      });
  }

  @Test
  public void tagsSurviveSkipping() throws IOException {
    Random random = new Random(SEED + 4);
    List<Mutation> file = new ArrayList<>();
    for (int r = 0; r < 60; r++) {
      Put p = new Put(row(r));
      for (int c = 0; c < 6; c++) {
        List<Tag> tags = Collections.singletonList(new ArrayBackedTag((byte) 77,
          Bytes.toBytes("t" + r + "/" + c)));
        p.add(ExtendedCellBuilderFactory.create(CellBuilderType.DEEP_COPY).setRow(row(r))
          .setFamily(FAMILY).setQualifier(qualifier(c)).setTimestamp(5)
          .setType(KeyValue.Type.Put.getCode()).setValue(value(random)).setTags(tags).build());
      }
      file.add(p);
    }
    inEveryMode("tags", family(1, BloomType.ROW), Collections.singletonList(file),
      Collections.emptyList(), regions -> {
        assertScansAgree(regions, "tags", () -> new Scan().addColumn(FAMILY, qualifier(4)),
          () -> ModeRegions.timeRange(100, 200), Scan::new);
        Cell c = regions.get(SeekSkipMode.PATCHED).scanAll(new Scan()).get(0);
        assertTrue("tags are kept on the server side", c.getTagsLength() > 0);
      });
  }

  @Test
  public void aScannerSeesOnlyWhatWasCommittedWhenItOpened() throws IOException {
    // MVCC: cells written after the scanner opened sit in the memstore interleaved with the ones
    // it must return; skipping through them must hide them exactly as seeking does.
    Random random = new Random(SEED + 5);
    List<List<Mutation>> files = grid(40, 5, 1, 2, random);
    inEveryMode("mvcc", family(3, BloomType.ROW), files, Collections.emptyList(), regions -> {
      Map<SeekSkipMode, List<Cell>> seen = new EnumMap<>(SeekSkipMode.class);
      for (Map.Entry<SeekSkipMode, LocalRegion> e : regions.entrySet()) {
        LocalRegion r = e.getValue();
        List<Cell> out = new ArrayList<>();
        try (RegionScanner s = r.region().getScanner(new Scan().readVersions(1))) {
          List<Cell> batch = new ArrayList<>();
          boolean more = s.next(batch);
          out.addAll(batch);
          batch.clear();
          List<Mutation> later = grid(40, 5, 1, 1, new Random(SEED + 6)).get(0);
          r.write(timestamped(later, 50));
          while (more) {
            more = s.next(batch);
            out.addAll(batch);
            batch.clear();
          }
        }
        seen.put(e.getKey(), out);
      }
      for (SeekSkipMode mode : SeekSkipMode.values()) {
        CellAssertions.assertSameCells("mvcc " + mode, seen.get(SeekSkipMode.UPSTREAM),
          seen.get(mode));
      }
      for (Cell c : seen.get(SeekSkipMode.PATCHED)) {
        assertTrue("a later write leaked into an open scanner: " + c, c.getTimestamp() < 50);
      }
    });
  }

  private static List<Mutation> timestamped(List<Mutation> puts, long ts) throws IOException {
    List<Mutation> out = new ArrayList<>();
    for (Mutation m : puts) {
      Put p = new Put(m.getRow());
      for (List<Cell> cells : m.getFamilyCellMap().values()) {
        for (Cell c : cells) {
          p.addColumn(FAMILY, Arrays.copyOfRange(c.getQualifierArray(), c.getQualifierOffset(),
            c.getQualifierOffset() + c.getQualifierLength()), ts, Bytes.toBytes("later"));
        }
      }
      out.add(p);
    }
    return out;
  }

  @Test
  public void mobFamiliesKeepUpstreamsStore() throws IOException {
    try (LocalRegion r = ModeRegions.open("mob", SeekSkipMode.PATCHED,
      b -> b.family("f").familyTweak(cf -> cf.setMobEnabled(true).setMobThreshold(10)))) {
      assertTrue(r.store(FAMILY) instanceof HMobStore);
      assertFalse(r.store(FAMILY) instanceof SeekSkipStore);
      // Memstore only: reading flushed MOB files needs a RegionServer's MobFileCache.
      r.write(Collections.singletonList(
        new Put(row(1)).addColumn(FAMILY, qualifier(1), new byte[100])));
      assertEquals(1, r.scanAll(new Scan()).size());
    }
  }

  @Test
  public void aBadModeFailsTheRegionOpenWithTheKeyNamed() {
    IOException e = org.junit.Assert.assertThrows(IOException.class,
      () -> LocalRegion.builder("bad").regionClass(SeekSkipRegion.class).family("f")
        .conf(SeekSkipMode.MODE_KEY, "FASTEST").build().close());
    assertTrue(e.getMessage(), e.getMessage().contains(SeekSkipMode.MODE_KEY));
    assertTrue(e.getMessage(), e.getMessage().contains("FASTEST"));
  }

  @Test
  public void aColumnFamilyCanOverrideTheSiteMode() throws IOException {
    try (LocalRegion r = LocalRegion.builder("override").regionClass(SeekSkipRegion.class)
      .family("f").conf(SeekSkipMode.MODE_KEY, "PATCHED")
      .familyTweak(cf -> cf.setConfiguration(SeekSkipMode.MODE_KEY, "BASELINE")).build()) {
      assertEquals(SeekSkipMode.BASELINE, ModeRegions.store(r).mode());
    }
  }
}
