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
import dev.hbasepatches.testkit.ScanShape;
import dev.hbasepatches.testkit.ScanShape.Layout;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Random;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.IsolationLevel;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.ColumnRangeFilter;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.regionserver.KeyValueHeap;
import org.apache.hadoop.hbase.regionserver.RegionScanner;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.Test;

/**
 * The per-file skip of {@link SkippingKeyValueHeap}: with data spread over several files (every
 * {@link Layout}), memstore, delete markers, scanners that must not see later writes, flushes
 * under an open scanner and ROWCOL bloom fakes, PATCHED returns exactly what UPSTREAM and
 * BASELINE return; and the pass really runs, moving more than one file per request where versions
 * interleave.
 */
public class SkippingKeyValueHeapTest {
  private static final long SEED = 0x5c1f7eaL;
  private static final int CELLS = 3_000;
  private static final ScanShape[] MULTI_FILE_SHAPES = { ScanShape.ONE_VERSION_OF_TEN,
    ScanShape.WIDE_ROWS_MANY_VERSIONS, ScanShape.DELETED_COLUMNS, ScanShape.ONE_COLUMN_OF_TEN };

  /** One region per mode (plus PATCHED with a budget of one), same settings and data. */
  private static Map<String, LocalRegion> regions(String name,
    Consumer<LocalRegion.Builder> settings) throws IOException {
    Map<String, LocalRegion> m = new LinkedHashMap<>();
    m.put("UPSTREAM", ModeRegions.open(name, SeekSkipMode.UPSTREAM, settings));
    m.put("BASELINE", ModeRegions.open(name, SeekSkipMode.BASELINE, settings));
    m.put("PATCHED", ModeRegions.open(name, SeekSkipMode.PATCHED, settings));
    m.put("PATCHED(max.skips=1)", ModeRegions.open(name, SeekSkipMode.PATCHED, 1, settings));
    return m;
  }

  private static void closeAll(Map<String, LocalRegion> regions) throws IOException {
    for (LocalRegion r : regions.values()) {
      r.close();
    }
  }

  private static void assertAgree(Map<String, LocalRegion> regions, String label,
    Map<String, Supplier<Scan>> scans) throws IOException {
    assertAgree(regions, "UPSTREAM", label, scans);
  }

  /** Every region returns what {@code reference} returns; a region that throws fails the test. */
  private static void assertAgree(Map<String, LocalRegion> regions, String reference,
    String label, Map<String, Supplier<Scan>> scans) throws IOException {
    for (Map.Entry<String, Supplier<Scan>> e : scans.entrySet()) {
      Map<String, Object> results = new LinkedHashMap<>();
      for (Map.Entry<String, LocalRegion> r : regions.entrySet()) {
        try {
          results.put(r.getKey(), r.getValue().scanAll(e.getValue().get()));
        } catch (AssertionError | RuntimeException x) {
          results.put(r.getKey(), x.toString());
        }
      }
      for (Map.Entry<String, Object> r : results.entrySet()) {
        String where = label + "/" + e.getKey() + " " + r.getKey();
        if (!(r.getValue() instanceof List)) {
          throw new AssertionError(where + " failed; all modes: " + results.values().stream()
            .map(v -> v instanceof List ? "ok" : v.toString()).collect(Collectors.toList()));
        }
        @SuppressWarnings("unchecked")
        List<Cell> got = (List<Cell>) r.getValue();
        @SuppressWarnings("unchecked")
        List<Cell> expected = (List<Cell>) results.get(reference);
        CellAssertions.assertSameCells(where, expected, got);
      }
    }
  }

  private static Map<String, Supplier<Scan>> scans(ScanShape shape) {
    Map<String, Supplier<Scan>> m = new LinkedHashMap<>();
    m.put("shape", shape::scan);
    m.put("shape-reversed", () -> shape.scan().setReversed(true));
    m.put("2-versions", () -> new Scan().readVersions(2));
    m.put("explicit-columns", () -> new Scan().addColumn(FAMILY, qualifier(1))
      .addColumn(FAMILY, qualifier(3)).addColumn(FAMILY, qualifier(4)));
    m.put("time-range", () -> ModeRegions.timeRange(ScanShape.DATA_TS + 3, ScanShape.DATA_TS + 5));
    m.put("column-range-hint",
      () -> new Scan().setFilter(new ColumnRangeFilter(qualifier(2), true, qualifier(4), true)));
    m.put("row-range", () -> new Scan().withStartRow(row(2)).withStopRow(row(9)));
    m.put("raw", () -> new Scan().setRaw(true).readAllVersions());
    return m;
  }

  @Test
  public void everyLayoutWithMemstoreReturnsTheSameCells() throws IOException {
    for (ScanShape shape : MULTI_FILE_SHAPES) {
      for (Layout layout : Layout.values()) {
        String label = shape.paramName() + "/" + layout.paramName();
        Map<String, LocalRegion> regions = regions("heap_" + shape.paramName(),
          b -> b.family(Bytes.toString(FAMILY)).blockSize(1024).maxVersions(shape.versions()));
        try {
          ScanShape.ShapeData data = shape.generate(CELLS, 4, 0.2, SEED, layout);
          for (LocalRegion r : regions.values()) {
            data.loadInto(r);
          }
          assertAgree(regions, label, scans(shape));
        } finally {
          closeAll(regions);
        }
      }
    }
  }

  /** Runs {@code scan} on the store's own scanner, draining it; returns the heap it used. */
  private static SkippingKeyValueHeap drainStoreScanner(LocalRegion region, Scan scan,
    List<Cell> out) throws IOException {
    SeekSkipStore store = ModeRegions.store(region);
    NavigableSet<byte[]> columns = scan.getFamilyMap().get(FAMILY);
    long readPt = region.region().getReadPoint(IsolationLevel.READ_COMMITTED);
    SeekSkipStoreScanner scanner =
      (SeekSkipStoreScanner) store.getScanner(scan, columns, readPt);
    KeyValueHeap heap = scanner.heapForTesting();
    assertTrue("PATCHED scanners use the skipping heap: " + heap.getClass(),
      heap instanceof SkippingKeyValueHeap);
    try {
      List<Cell> batch = new ArrayList<>();
      boolean more;
      do {
        more = scanner.next(batch);
        out.addAll(batch);
        batch.clear();
      } while (more);
    } finally {
      scanner.close();
    }
    return (SkippingKeyValueHeap) heap;
  }

  @Test
  public void versionsAcrossFilesMoveSeveralFilesPerRequest() throws IOException {
    ScanShape shape = ScanShape.ONE_VERSION_OF_TEN;
    Map<String, LocalRegion> regions = regions("heap_pass",
      b -> b.family(Bytes.toString(FAMILY)).blockSize(1024).maxVersions(shape.versions()));
    try {
      ScanShape.ShapeData data = shape.generate(CELLS, 4, 0.2, SEED, Layout.VERSIONS_ACROSS_FILES);
      for (LocalRegion r : regions.values()) {
        data.loadInto(r);
      }
      List<Cell> expected = regions.get("UPSTREAM").scanAll(shape.scan());
      assertFalse(expected.isEmpty());
      List<Cell> got = new ArrayList<>();
      SkippingKeyValueHeap heap = drainStoreScanner(regions.get("PATCHED"), shape.scan(), got);
      CellAssertions.assertSameCells("store scanner PATCHED", expected, got);
      // One request per returned cell (the newest version, then on to the next column); its nine
      // older versions sit in the four files and the memstore share, so a pass moves several.
      assertTrue("a pass per request: " + heap.passes(), heap.passes() >= expected.size() / 2);
      assertTrue("several files per pass: moved " + heap.movedScanners() + " in "
        + heap.passes(), heap.movedScanners() >= 3 * heap.passes());
    } finally {
      closeAll(regions);
    }
  }

  @Test
  public void deleteMarkersInOtherFilesAreStillSeen() throws IOException {
    // Column and version markers in one file must still reach the matcher before the puts they
    // cover in other files, and a whole-column skip must pass covered puts and markers alike.
    Random random = new Random(SEED);
    List<List<Mutation>> files = new ArrayList<>();
    for (int f = 0; f < 4; f++) {
      files.add(new ArrayList<>());
    }
    List<Mutation> memstore = new ArrayList<>();
    for (int r = 0; r < 50; r++) {
      for (int v = 1; v <= 8; v++) {
        Put p = new Put(row(r));
        for (int c = 0; c < 6; c++) {
          byte[] value = new byte[20];
          random.nextBytes(value);
          p.addColumn(FAMILY, qualifier(c), v, value);
        }
        files.get(v % 4).add(p);
      }
      files.get(r % 4).add(new Delete(row(r)).addColumns(FAMILY, qualifier(r % 6), 5));
      files.get((r + 1) % 4).add(new Delete(row(r)).addColumn(FAMILY, qualifier(2), 8));
      memstore.add(new Delete(row(r)).addFamilyVersion(FAMILY, 7));
      if (r % 7 == 0) {
        memstore.add(new Delete(row(r)).addFamily(FAMILY, 6));
      }
    }
    Map<String, LocalRegion> regions =
      regions("heap_deletes", b -> b.family("f").blockSize(512).maxVersions(8));
    try {
      for (LocalRegion r : regions.values()) {
        r.load(files, memstore);
      }
      Map<String, Supplier<Scan>> scans = new LinkedHashMap<>();
      scans.put("newest", Scan::new);
      scans.put("3-versions", () -> new Scan().readVersions(3));
      scans.put("all-versions", () -> new Scan().readAllVersions());
      scans.put("explicit", () -> new Scan().addColumn(FAMILY, qualifier(2))
        .addColumn(FAMILY, qualifier(5)).readVersions(2));
      scans.put("raw", () -> new Scan().setRaw(true).readAllVersions());
      scans.put("reversed", () -> new Scan().setReversed(true).readVersions(2));
      assertAgree(regions, "deletes", scans);
    } finally {
      closeAll(regions);
    }
  }

  @Test
  public void anOpenScannerSkipsWritesAndFlushesAfterItOpened() throws IOException {
    // Newer versions written after the scanner opened land in the memstore in the middle of every
    // column the scanner still has to skip; they must stay invisible, also once flushed to a new
    // file under the open scanner (which then gets a new heap).
    ScanShape shape = ScanShape.ONE_VERSION_OF_TEN;
    Map<String, LocalRegion> regions = regions("heap_mvcc",
      b -> b.family(Bytes.toString(FAMILY)).blockSize(1024).maxVersions(shape.versions()));
    try {
      ScanShape.ShapeData data = shape.generate(CELLS, 4, 0.2, SEED, Layout.VERSIONS_ACROSS_FILES);
      Map<String, List<Cell>> seen = new LinkedHashMap<>();
      for (Map.Entry<String, LocalRegion> e : regions.entrySet()) {
        LocalRegion r = e.getValue();
        data.loadInto(r);
        List<Cell> out = new ArrayList<>();
        try (RegionScanner s = r.region().getScanner(new Scan().readVersions(2))) {
          List<Cell> batch = new ArrayList<>();
          boolean more = s.next(batch);
          out.addAll(batch);
          batch.clear();
          r.write(laterVersions(data.rows(), shape.columns(), 5_000));
          for (int i = 0; more && i < data.rows() / 3; i++) {
            more = s.next(batch);
            out.addAll(batch);
            batch.clear();
          }
          r.flush();
          r.write(laterVersions(data.rows(), shape.columns(), 6_000));
          while (more) {
            more = s.next(batch);
            out.addAll(batch);
            batch.clear();
          }
        }
        seen.put(e.getKey(), out);
      }
      List<Cell> expected = seen.get("UPSTREAM");
      assertFalse(expected.isEmpty());
      for (Map.Entry<String, List<Cell>> e : seen.entrySet()) {
        CellAssertions.assertSameCells("mvcc " + e.getKey(), expected, e.getValue());
        for (Cell c : e.getValue()) {
          assertTrue(e.getKey() + ": a later write leaked into an open scanner: " + c,
            c.getTimestamp() < 5_000);
        }
      }
    } finally {
      closeAll(regions);
    }
  }

  private static List<Mutation> laterVersions(int rows, int columns, long ts) {
    List<Mutation> out = new ArrayList<>();
    for (int r = 0; r < rows; r++) {
      Put p = new Put(row(r));
      for (int c = 0; c < columns; c++) {
        p.addColumn(FAMILY, qualifier(c), ts, Bytes.toBytes("later"));
      }
      out.add(p);
    }
    return out;
  }

  @Test
  public void rowColBloomFakesAreNeverSteppedFrom() throws IOException {
    // HBASE-19863: an explicit-column scan seeks lazily; files whose ROWCOL bloom rules a column
    // out get a fake last-on-row-col key, the others a fake first-on-row-col key until their real
    // seek. Versions interleave over the files, so the per-file pass meets both kinds of fake.
    Random random = new Random(SEED + 1);
    List<List<Mutation>> files = new ArrayList<>();
    for (int f = 0; f < 4; f++) {
      files.add(new ArrayList<>());
    }
    for (int r = 0; r < 60; r++) {
      for (int v = 1; v <= 6; v++) {
        int f = v % 4;
        Put p = new Put(row(r));
        for (int c = 0; c < 10; c++) {
          if ((c + r) % 4 != f) { // each file lacks a different quarter of the columns
            byte[] value = new byte[16];
            random.nextBytes(value);
            p.addColumn(FAMILY, qualifier(c), v, value);
          }
        }
        if (r % 3 == f % 3) {
          p.addColumn(FAMILY, Bytes.toBytes("flag"), v, Bytes.toBytes("yes"));
        }
        files.get(f).add(p);
      }
    }
    Map<String, LocalRegion> regions = regions("heap_rowcol",
      b -> b.family("f").blockSize(512).maxVersions(6).bloomType(BloomType.ROWCOL));
    try {
      // Stock 2.6.1 fails here: on the explicit-column scans its own StoreScanner.checkScanOrder
      // assertion fires (a bloom-miss fake is stepped from, so the file returns an older column:
      // "row21/q1/5 followed by a smaller key row21/q0/2"). So BASELINE, which always seeks, is
      // the reference, and the UPSTREAM region only serves the Gets.
      for (LocalRegion r : regions.values()) {
        r.load(files, new ArrayList<>());
      }
      Supplier<Scan> cols = () -> new Scan().addColumn(FAMILY, qualifier(1))
        .addColumn(FAMILY, qualifier(2)).addColumn(FAMILY, qualifier(6))
        .addColumn(FAMILY, Bytes.toBytes("flag"));
      Map<String, Supplier<Scan>> scans = new LinkedHashMap<>();
      scans.put("explicit", cols);
      scans.put("explicit-2-versions", () -> cols.get().readVersions(2));
      scans.put("explicit-filtered", () -> cols.get().setFilter(flag()));
      scans.put("explicit-reversed", () -> cols.get().setReversed(true));
      scans.put("one-column", () -> new Scan().addColumn(FAMILY, qualifier(5)));
      Map<String, LocalRegion> scanned = new LinkedHashMap<>(regions);
      scanned.remove("UPSTREAM");
      assertAgree(scanned, "BASELINE", "rowcol", scans);
      for (int r = 0; r < 60; r += 7) {
        Get get = new Get(row(r)).addColumn(FAMILY, qualifier(3)).addColumn(FAMILY, qualifier(8))
          .readVersions(2);
        List<Cell> expected = regions.get("UPSTREAM").region().get(get).listCells();
        for (Map.Entry<String, LocalRegion> e : regions.entrySet()) {
          CellAssertions.assertSameCells("rowcol get " + r + " " + e.getKey(), expected,
            e.getValue().region().get(get).listCells());
        }
      }
      List<Cell> expected = regions.get("BASELINE").scanAll(cols.get());
      List<Cell> got = new ArrayList<>();
      SkippingKeyValueHeap heap = drainStoreScanner(regions.get("PATCHED"), cols.get(), got);
      CellAssertions.assertSameCells("rowcol store scanner", expected, got);
      // Lazy seek: files behind the key (fakes of either kind among them) are asked for a lazy
      // seek, as a reseek would, never stepped from and never forced to seek first.
      assertTrue("files behind the key were asked for a lazy seek: " + heap.lazyRequests(),
        heap.lazyRequests() > 0);
      assertEquals("no lazy seek forced", 0, heap.enforcedSeeks());
      assertEquals("no fake reseeked for real", 0, heap.fakeReseeks());
    } finally {
      closeAll(regions);
    }
  }

  private static SingleColumnValueFilter flag() {
    SingleColumnValueFilter flag = new SingleColumnValueFilter(FAMILY, Bytes.toBytes("flag"),
      CompareOperator.EQUAL, Bytes.toBytes("yes"));
    flag.setFilterIfMissing(true);
    return flag;
  }
}
