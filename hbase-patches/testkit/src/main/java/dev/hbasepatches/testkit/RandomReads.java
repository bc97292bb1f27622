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

import static dev.hbasepatches.testkit.ScanShape.FAMILY;
import static dev.hbasepatches.testkit.ScanShape.qualifier;
import static dev.hbasepatches.testkit.ScanShape.row;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hbase.ArrayBackedTag;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellBuilderType;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.ExtendedCellBuilderFactory;
import org.apache.hadoop.hbase.KeyValueUtil;
import org.apache.hadoop.hbase.Tag;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.ColumnPaginationFilter;
import org.apache.hadoop.hbase.filter.ColumnPrefixFilter;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.filter.QualifierFilter;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.Region;
import org.apache.hadoop.hbase.regionserver.RegionScanner;
import org.apache.hadoop.hbase.regionserver.ScannerContext;
import org.apache.hadoop.hbase.regionserver.ScannerContextPeek;
import org.apache.hadoop.hbase.regionserver.Shipper;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Random writes and reads over a small key space of {@link ScanShape}'s family, for the
 * differential fuzzers of the read-path changes: every delete type, overlapping versions, empty
 * values and (optionally) tags; gets and scans forward and reversed with row ranges, columns,
 * versions, time ranges, batch, raw and a handful of filters. Every draw comes from the caller's
 * {@link Random}, so a seed replays a whole run. A scan carries a stateful filter: draw a fresh
 * one per region from an equally seeded Random.
 */
public final class RandomReads {

  private RandomReads() {
  }

  /** The largest value {@link #mutations(Random, int, int, int, int)} writes. */
  public static final int SMALL_VALUE = 64;

  private static byte[] value(Random random, int maxValue) {
    byte[] v = new byte[random.nextInt(3) == 0 ? 0 : 1 + random.nextInt(maxValue)];
    random.nextBytes(v);
    return v;
  }

  /** {@code n} puts and deletes of every type over rows [0, rows), columns [0, cols). */
  public static List<Mutation> mutations(Random random, int rows, int cols, int maxTs, int n) {
    return mutations(random, rows, cols, maxTs, n, false);
  }

  /**
   * As {@link #mutations(Random, int, int, int, int)}, and with {@code tags} some puts carry a
   * cell tag (needs HFile v3, HBase 2's default). Without tags the draws are the same as the
   * five-argument form, so seeds recorded with it still replay.
   */
  public static List<Mutation> mutations(Random random, int rows, int cols, int maxTs, int n,
    boolean tags) {
    return mutations(random, rows, cols, maxTs, n, tags, SMALL_VALUE);
  }

  /**
   * As {@link #mutations(Random, int, int, int, int, boolean)} with values of up to
   * {@code maxValue} bytes (a third of them empty); {@link #SMALL_VALUE} draws exactly as the
   * shorter forms.
   */
  public static List<Mutation> mutations(Random random, int rows, int cols, int maxTs, int n,
    boolean tags, int maxValue) {
    if (maxValue < 1) {
      throw new IllegalArgumentException("maxValue must be at least 1, was " + maxValue);
    }
    List<Mutation> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      byte[] row = row(random.nextInt(rows));
      long ts = 1 + random.nextInt(maxTs);
      int kind = random.nextInt(20);
      if (kind < 14) {
        Put p = new Put(row);
        int k = 1 + random.nextInt(3);
        for (int c = 0; c < k; c++) {
          byte[] q = qualifier(random.nextInt(cols));
          byte[] v = value(random, maxValue);
          if (tags && random.nextBoolean()) {
            try {
              p.add(ExtendedCellBuilderFactory.create(CellBuilderType.DEEP_COPY).setRow(row)
                .setFamily(FAMILY).setQualifier(q).setTimestamp(ts).setType(Cell.Type.Put)
                .setValue(v).setTags(List.<Tag>of(new ArrayBackedTag((byte) 70,
                  Bytes.toBytes("t" + random.nextInt(50)))))
                .build());
            } catch (IOException e) {
              throw new IllegalStateException(e);
            }
          } else {
            p.addColumn(FAMILY, q, ts, v);
          }
        }
        out.add(p);
      } else if (kind < 16) {
        out.add(new Delete(row).addColumn(FAMILY, qualifier(random.nextInt(cols)), ts));
      } else if (kind < 18) {
        out.add(new Delete(row).addColumns(FAMILY, qualifier(random.nextInt(cols)), ts));
      } else if (kind < 19) {
        out.add(new Delete(row).addFamilyVersion(FAMILY, ts));
      } else {
        out.add(new Delete(row).addFamily(FAMILY, ts));
      }
    }
    return out;
  }

  /** A Get of a row (sometimes just past the written ones), maybe of columns, versions, times. */
  public static Get get(Random random, int rows, int cols, int maxTs, int versions)
    throws IOException {
    Get g = new Get(row(random.nextInt(rows + 2)));
    if (random.nextBoolean()) {
      int k = 1 + random.nextInt(3);
      for (int c = 0; c < k; c++) {
        g.addColumn(FAMILY, qualifier(random.nextInt(cols + 1)));
      }
    }
    if (random.nextBoolean()) {
      g.readVersions(1 + random.nextInt(versions + 1));
    }
    if (random.nextInt(3) == 0) {
      long min = random.nextInt(maxTs + 1);
      g.setTimeRange(min, min + 1 + random.nextInt(maxTs + 1));
    }
    return g;
  }

  /** A scan: range, direction, columns, versions, time range, batch, raw or a filter. */
  public static Scan scan(Random random, int rows, int cols, int maxTs, int versions)
    throws IOException {
    Scan s = new Scan();
    if (random.nextBoolean()) {
      int a = random.nextInt(rows + 1);
      int b = a + random.nextInt(rows + 1);
      s.withStartRow(row(a), random.nextBoolean()).withStopRow(row(b), random.nextBoolean());
    }
    s.setReversed(random.nextInt(3) == 0);
    if (s.isReversed() && s.getStartRow().length > 0) {
      // A reversed scan starts at the larger key.
      byte[] start = s.getStartRow();
      s.withStartRow(s.getStopRow(), true).withStopRow(start, false);
    }
    if (random.nextInt(3) == 0) {
      int k = 1 + random.nextInt(3);
      for (int c = 0; c < k; c++) {
        s.addColumn(FAMILY, qualifier(random.nextInt(cols + 1)));
      }
    }
    if (random.nextBoolean()) {
      s.readVersions(1 + random.nextInt(versions + 1));
    }
    if (random.nextInt(4) == 0) {
      long min = random.nextInt(maxTs + 1);
      s.setTimeRange(min, min + 1 + random.nextInt(maxTs + 1));
    }
    if (random.nextInt(4) == 0) {
      s.setBatch(1 + random.nextInt(3));
    }
    if (random.nextInt(8) == 0 && !s.hasFamilies()) {
      s.setRaw(true); // a raw scan takes no columns
    } else if (random.nextInt(3) == 0 && s.getBatch() <= 0) {
      s.setFilter(filter(random, cols));
    }
    return s;
  }

  private static Filter filter(Random random, int cols) {
    switch (random.nextInt(5)) {
      case 0:
        return new QualifierFilter(CompareOperator.GREATER_OR_EQUAL,
          new BinaryComparator(qualifier(random.nextInt(cols + 1))));
      case 1:
        return new ColumnPaginationFilter(1 + random.nextInt(3), random.nextInt(cols + 1));
      case 2:
        return new FirstKeyOnlyFilter();
      case 3:
        return new ColumnPrefixFilter(Bytes.copy(qualifier(random.nextInt(cols + 1)), 0, 2));
      default:
        SingleColumnValueFilter f = new SingleColumnValueFilter(FAMILY,
          qualifier(random.nextInt(cols)), CompareOperator.NOT_EQUAL, new byte[0]);
        f.setFilterIfMissing(random.nextBoolean());
        return f;
    }
  }

  /**
   * Whether {@code e} is stock {@code StoreScanner}'s own scan-order assertion
   * ({@code checkScanOrder}, on under {@code -ea} as in every test run here). Stock HBase 2.6.1
   * trips it on some ROWCOL-bloom scans with explicit columns over several files (seek-skip's
   * {@code UpstreamScanOrderTest}); a fuzzer has no reference answer for such a read.
   */
  public static boolean isUpstreamScanOrderCheck(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      for (StackTraceElement f : t.getStackTrace()) {
        if (f.getClassName().equals("org.apache.hadoop.hbase.regionserver.StoreScanner")
          && f.getMethodName().equals("checkScanOrder")) {
          return true;
        }
      }
    }
    return false;
  }

  /** Work done between two parts of a scan: evict blocks, flush, compact. */
  @FunctionalInterface
  public interface BetweenParts {
    /** Called with the 0-based number of the part just read, before its cells are copied. */
    void run(int part) throws IOException;
  }

  /**
   * A row limit for {@code Scan.setLimit} in one scan of four, from 1 to a bit over half the
   * {@code rows}; 0 (no limit) otherwise.
   */
  public static int limit(Random random, int rows) {
    return random.nextInt(4) == 0 ? 1 + random.nextInt(rows / 2 + 2) : 0;
  }

  /** As {@link #scanLikeRpc(HRegion, Scan, long, BetweenParts, CellTally)} without a tally. */
  public static List<Cell> scanLikeRpc(HRegion region, Scan scan, long maxResultBytes,
    BetweenParts between) throws IOException {
    return scanLikeRpc(region, scan, maxResultBytes, between, null);
  }

  /**
   * Runs the scan as the RegionServer's RPC layer does: {@code nextRaw} under a region operation
   * with a {@link ScannerContext} carrying the scan's batch and, when {@code maxResultBytes > 0},
   * a size limit between cells (so rows come back in parts, as with allowPartialResults); each
   * part's cells are copied to the heap, then {@code shipped()} lets the scanner release the
   * blocks they pointed into. {@code between} (may be null) runs after each part is read and
   * before it is copied, while its cells still point into cached blocks.
   *
   * <p>A {@code Scan.setLimit} is honoured as {@code RSRpcServices} honours it (a bare region
   * ignores it): a row counts once a part ends it, or once the next part starts another row
   * after a part that might have had more; the part that would start row {@code limit + 1} is
   * dropped and the scanner is closed there, mid-scan. {@code tally} (may be null) counts the
   * cells as the scanner returned them, before the copy.
   */
  public static List<Cell> scanLikeRpc(HRegion region, Scan scan, long maxResultBytes,
    BetweenParts between, CellTally tally) throws IOException {
    List<Cell> out = new ArrayList<>();
    List<Cell> part = new ArrayList<>();
    int limit = scan.getLimit();
    int completeRows = 0;
    byte[] lastRow = null;
    boolean lastMayHaveMore = false;
    try (RegionScanner scanner = region.getScanner(scan)) {
      boolean more;
      int parts = 0;
      do {
        ScannerContext.Builder b = ScannerContext.newBuilder(true);
        if (maxResultBytes > 0) {
          b.setSizeLimit(ScannerContext.LimitScope.BETWEEN_CELLS, maxResultBytes, maxResultBytes,
            Long.MAX_VALUE);
        }
        b.setBatchLimit(scanner.getBatch());
        ScannerContext context = b.build();
        region.startRegionOperation(Region.Operation.SCAN);
        try {
          more = scanner.nextRaw(part, context);
        } finally {
          region.closeRegionOperation(Region.Operation.SCAN);
        }
        if (between != null) {
          between.run(parts);
        }
        parts++;
        if (!part.isEmpty() && limit > 0 && lastMayHaveMore
          && !CellUtil.matchingRows(part.get(0), lastRow)) {
          // The previous part ended its row after all; this one starts the next.
          completeRows++;
          if (completeRows >= limit) {
            break;
          }
        }
        for (Cell c : part) {
          if (tally != null) {
            tally.see(c);
          }
          out.add(KeyValueUtil.copyToNewKeyValue(c));
        }
        if (!part.isEmpty()) {
          lastRow = CellUtil.cloneRow(part.get(part.size() - 1));
          lastMayHaveMore = ScannerContextPeek.mayHaveMoreCellsInRow(context);
          if (limit > 0 && !lastMayHaveMore && ++completeRows >= limit) {
            break;
          }
        }
        part.clear();
        ((Shipper) scanner).shipped();
      } while (more);
    }
    return out;
  }

  /** The first {@code n} rows' cells of {@code cells} (in scan order), for limit checks. */
  public static List<Cell> firstRows(List<Cell> cells, int n) {
    List<Cell> out = new ArrayList<>();
    int rows = 0;
    Cell previous = null;
    for (Cell c : cells) {
      if (previous == null || !CellUtil.matchingRows(previous, c)) {
        if (rows == n) {
          break;
        }
        rows++;
      }
      out.add(c);
      previous = c;
    }
    return out;
  }

  /** The cells a Get returns from {@code region}, in order; empty when the row has none. */
  public static List<Cell> getCells(HRegion region, Get get) throws IOException {
    Result r = region.get(get);
    List<Cell> out = new ArrayList<>();
    if (r.rawCells() != null) {
      for (Cell c : r.rawCells()) {
        out.add(c);
      }
    }
    return out;
  }
}
