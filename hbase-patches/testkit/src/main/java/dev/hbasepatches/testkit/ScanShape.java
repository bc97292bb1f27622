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

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The data shapes of the SEEK-vs-SKIP seed (HBASE-13109), each with the scan that exercises it.
 * Data is seeded and reproducible: the same shape, size, file count and seed always produce the
 * same cells.
 * <p>
 * Layout: one family {@link #FAMILY}, rows {@code row%08d}, qualifiers {@code q0..q9} (more for
 * wide rows), data timestamps from {@link #DATA_TS} up (one per version). Single-version shapes
 * spread rows round-robin over the files; multi-version shapes put version {@code v} in file
 * {@code v % files}, as successive flushes of newer versions would.
 * <p>
 * A scan whose time range lies outside a file's time span never opens that file (HFile time-range
 * metadata prunes it). So for {@link #TIMERANGE_MISS} every file also carries one sentinel cell at
 * {@link #SENTINEL_TS}, inside the scan's range, in a row after all data rows: the scan has to
 * cross every older cell to find it.
 */
public enum ScanShape {
  /** Every data cell is older than the scan's time range (the seed's 20-minute mapper). */
  TIMERANGE_MISS("timerangeMiss", 10, 1),
  /** Ten columns per row; the scan selects one of them. */
  ONE_COLUMN_OF_TEN("oneColumnOfTen", 10, 1),
  /** Ten versions per column; the scan reads the newest one. */
  ONE_VERSION_OF_TEN("oneVersionOfTen", 5, 10),
  /** Ten columns per row, eight of them deleted by column delete markers. */
  DELETED_COLUMNS("deletedColumns", 10, 1),
  /** Ten columns, one version each, all returned: nothing to seek past. */
  FULL_SCAN("fullScan", 10, 1),
  /** Few rows of many columns with many versions each; the scan reads the newest version. */
  WIDE_ROWS_MANY_VERSIONS("wideRowsManyVersions", 100, 20);

  public static final byte[] FAMILY = Bytes.toBytes("f");
  public static final long DATA_TS = 1_000L;
  public static final long SCAN_MIN_TS = 10_000L;
  public static final long SCAN_MAX_TS = 20_000L;
  public static final long SENTINEL_TS = 15_000L;
  /** The one column {@link #ONE_COLUMN_OF_TEN} selects: in the middle, so cells lie on both sides. */
  public static final byte[] SELECTED_QUALIFIER = qualifier(3);
  public static final int VALUE_SIZE = 32;
  private static final int DELETED_PER_ROW = 8;

  private final String paramName;
  private final int columns;
  private final int versions;

  ScanShape(String paramName, int columns, int versions) {
    this.paramName = paramName;
    this.columns = columns;
    this.versions = versions;
  }

  /** The name benchmarks and reports use, e.g. {@code timerangeMiss}. */
  public String paramName() {
    return paramName;
  }

  /** Versions per column the family must keep. */
  public int versions() {
    return versions;
  }

  public int columns() {
    return columns;
  }

  /** Looks a shape up by its parameter name (or enum name); a clear error names the choices. */
  public static ScanShape of(String name) {
    for (ScanShape s : values()) {
      if (s.paramName.equals(name) || s.name().equals(name)) {
        return s;
      }
    }
    List<String> names = new ArrayList<>();
    for (ScanShape s : values()) {
      names.add(s.paramName);
    }
    throw new IllegalArgumentException("Unknown scan shape '" + name + "'; expected one of " + names);
  }

  public static byte[] row(int i) {
    return Bytes.toBytes(String.format("row%08d", i));
  }

  public static byte[] qualifier(int i) {
    return Bytes.toBytes("q" + i);
  }

  /** The scan this shape is measured with. */
  public Scan scan() {
    Scan scan = new Scan().setCacheBlocks(true);
    switch (this) {
      case TIMERANGE_MISS:
        try {
          scan.setTimeRange(SCAN_MIN_TS, SCAN_MAX_TS);
        } catch (java.io.IOException e) {
          throw new IllegalStateException(e);
        }
        return scan;
      case ONE_COLUMN_OF_TEN:
        return scan.addColumn(FAMILY, SELECTED_QUALIFIER);
      default:
        return scan.addFamily(FAMILY);
    }
  }

  /** How a multi-version shape spreads over several files. */
  public enum Layout {
    /** Version {@code v} of every column in file {@code v % files}: newer versions, newer flushes. */
    VERSIONS_ACROSS_FILES("versionsAcrossFiles"),
    /** Whole rows, all their versions, round-robin over the files (as single-version shapes do). */
    ROWS_ACROSS_FILES("rowsAcrossFiles"),
    /**
     * Contiguous row ranges, one per file, with all their versions: what a client writing rows in
     * key order leaves behind when the memstore flushes every {@code rows / files} rows. Applies to
     * single-version shapes too.
     */
    ROW_RANGES("rowRanges");

    private final String paramName;

    Layout(String paramName) {
      this.paramName = paramName;
    }

    public String paramName() {
      return paramName;
    }

    public static Layout of(String name) {
      for (Layout l : values()) {
        if (l.paramName.equals(name) || l.name().equals(name)) {
          return l;
        }
      }
      throw new IllegalArgumentException("Unknown layout '" + name + "'; expected "
        + VERSIONS_ACROSS_FILES.paramName + ", " + ROWS_ACROSS_FILES.paramName + " or "
        + ROW_RANGES.paramName);
    }
  }

  /**
   * Generates about {@code approxCells} stored data cells spread over {@code files} flushes, plus
   * (with {@code memstoreShare > 0}) that share of the rows left unflushed in the memstore.
   */
  public ShapeData generate(int approxCells, int files, double memstoreShare, long seed) {
    return generate(approxCells, files, memstoreShare, seed, Layout.VERSIONS_ACROSS_FILES);
  }

  /** As {@link #generate(int, int, double, long)} with a chosen multi-version layout. */
  public ShapeData generate(int approxCells, int files, double memstoreShare, long seed,
    Layout layout) {
    if (files < 1) {
      throw new IllegalArgumentException("files must be >= 1, was " + files);
    }
    if (memstoreShare < 0 || memstoreShare >= 1) {
      throw new IllegalArgumentException("memstoreShare must be in [0, 1), was " + memstoreShare);
    }
    int perRow = columns * versions;
    int rows = Math.max(1, approxCells / perRow);
    int memRows = (int) Math.floor(rows * memstoreShare);
    Random random = new Random(seed);
    List<List<Mutation>> fileBatches = new ArrayList<>();
    for (int f = 0; f < files; f++) {
      fileBatches.add(new ArrayList<>());
    }
    List<Mutation> memstore = new ArrayList<>();
    long cells = 0;
    for (int r = 0; r < rows; r++) {
      byte[] row = row(r);
      boolean inMemstore = r >= rows - memRows;
      if (versions == 1) {
        Put put = new Put(row);
        for (int c = 0; c < columns; c++) {
          put.addColumn(FAMILY, qualifier(c), DATA_TS, value(random));
          cells++;
        }
        int file = layout == Layout.ROW_RANGES ? rangeFile(r, rows, files) : r % files;
        List<Mutation> target = inMemstore ? memstore : fileBatches.get(file);
        target.add(put);
        if (this == DELETED_COLUMNS) {
          Delete delete = new Delete(row);
          for (int c = 0; c < DELETED_PER_ROW; c++) {
            // Markers newer than the puts, in the same flush: each deleted column is a marker
            // followed by the cell it hides.
            delete.addColumns(FAMILY, qualifier(deletedColumn(c)), DATA_TS + 1);
            cells++;
          }
          target.add(delete);
        }
      } else {
        for (int v = 0; v < versions; v++) {
          Put put = new Put(row);
          for (int c = 0; c < columns; c++) {
            put.addColumn(FAMILY, qualifier(c), DATA_TS + v, value(random));
            cells++;
          }
          int file;
          switch (layout) {
            case VERSIONS_ACROSS_FILES:
              file = v % files;
              break;
            case ROW_RANGES:
              file = rangeFile(r, rows, files);
              break;
            default:
              file = r % files;
          }
          (inMemstore ? memstore : fileBatches.get(file)).add(put);
        }
      }
    }
    if (this == TIMERANGE_MISS) {
      for (int f = 0; f < files; f++) {
        Put sentinel = new Put(Bytes.toBytes(String.format("sentinel%02d", f)));
        sentinel.addColumn(FAMILY, qualifier(0), SENTINEL_TS, Bytes.toBytes("sentinel"));
        fileBatches.get(f).add(sentinel);
        cells++;
      }
    }
    List<List<Mutation>> nonEmpty = new ArrayList<>();
    for (List<Mutation> b : fileBatches) {
      if (!b.isEmpty()) {
        nonEmpty.add(b);
      }
    }
    return new ShapeData(this, Collections.unmodifiableList(nonEmpty),
      Collections.unmodifiableList(memstore), cells, rows, seed);
  }

  /** The file holding row {@code r} when {@code rows} rows are cut into {@code files} ranges. */
  private static int rangeFile(int r, int rows, int files) {
    return (int) ((long) r * files / rows);
  }

  /** Deleted columns leave q0 and q9 alive, so every row still returns cells at both ends. */
  private static int deletedColumn(int i) {
    return 1 + i;
  }

  private static byte[] value(Random random) {
    byte[] v = new byte[VALUE_SIZE];
    random.nextBytes(v);
    return v;
  }

  /** A generated data set: what to flush into each file and what to leave in the memstore. */
  public static final class ShapeData {
    private final ScanShape shape;
    private final List<List<Mutation>> files;
    private final List<Mutation> memstore;
    private final long storedCells;
    private final int rows;
    private final long seed;

    ShapeData(ScanShape shape, List<List<Mutation>> files, List<Mutation> memstore,
      long storedCells, int rows, long seed) {
      this.shape = shape;
      this.files = files;
      this.memstore = memstore;
      this.storedCells = storedCells;
      this.rows = rows;
      this.seed = seed;
    }

    public ScanShape shape() {
      return shape;
    }

    public List<List<Mutation>> files() {
      return files;
    }

    public List<Mutation> memstore() {
      return memstore;
    }

    /** Cells written, delete markers included: what a scan of this data crosses. */
    public long storedCells() {
      return storedCells;
    }

    public int rows() {
      return rows;
    }

    public long seed() {
      return seed;
    }

    /** Writes the data into the region: one flush per file batch, the rest left in memory. */
    public void loadInto(LocalRegion region) throws java.io.IOException {
      region.load(files, memstore);
    }

    @Override
    public String toString() {
      return shape.paramName + "[cells=" + storedCells + ", rows=" + rows + ", files="
        + files.size() + ", memstoreMutations=" + memstore.size() + ", seed=" + seed + "]";
    }
  }
}
