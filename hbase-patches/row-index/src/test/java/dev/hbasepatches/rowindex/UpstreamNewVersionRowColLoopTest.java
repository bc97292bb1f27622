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
package dev.hbasepatches.rowindex;

import static dev.hbasepatches.testkit.ScanShape.FAMILY;
import static dev.hbasepatches.testkit.ScanShape.qualifier;
import static dev.hbasepatches.testkit.ScanShape.row;
import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import dev.hbasepatches.testkit.LocalRegion;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.IsolationLevel;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.StoreScanner;
import org.junit.Before;
import org.junit.Test;

/**
 * Documents upstream behaviour (stock HBase 2.6, NONE encoding, no class of this module
 * loaded): on a family with NEW_VERSION_BEHAVIOR and a ROWCOL bloom, a scan that names a column
 * never returns once one store file holds that column of the row and another file's bloom rules
 * it out. The second file's scanner stands in the heap as a fake "last on row/column" cell;
 * the query matcher answers it with SEEK_NEXT_COL, and {@code NewVersionBehaviorTracker} hints
 * the same column again (it advances its column only on a real cell past it), so
 * {@code StoreScanner} reseeks to a key before the fake cell forever at 100% CPU. Found by
 * {@link RowIndexDifferentialFuzzTest} (seed 18061807358039, table 2: it hung {@code mvn
 * verify}); the fuzzers now skip such reads ({@code RandomFamily.stockLoopsOn}). This test fails
 * once upstream ends the loop. Write-up: PATCH.md, "Upstream".
 * <p>
 * No clock is read: the scan runs in the {@link StoreScanner} that {@code HStore.getScanner}
 * builds for it (same public constructor, scan info, columns and read point), counting the passes
 * of its {@code next} loop. A scan that ends makes a few passes per stored cell; one that makes
 * {@value #PASSES_PER_CELL} times as many passes as the store holds cells, reseeking again and
 * again to the same key, is the loop, and the counter stops it there.
 */
public class UpstreamNewVersionRowColLoopTest {

  /** Loop passes allowed per stored cell; a scan that ends needs a handful. */
  private static final int PASSES_PER_CELL = 100;

  @Before
  public void stockEncoders() {
    RowIndexInstaller.uninstall();
  }

  /** A stock region with the options given and two flushed files: (row 0, q1) and (row 0, q2). */
  private static LocalRegion twoFiles(String name, boolean newVersionBehavior, BloomType bloom)
    throws IOException {
    LocalRegion region = LocalRegion.builder(name).family("f").encoding(DataBlockEncoding.NONE)
      .bloomType(bloom).maxVersions(1).regionClass(HRegion.class)
      .familyTweak(f -> f.setNewVersionBehavior(newVersionBehavior)).build();
    try {
      assertEquals("a stock region", HRegion.class, region.region().getClass());
      region.writeAndFlush(List.of(new Put(row(0)).addColumn(FAMILY, qualifier(1), 1, v(1))));
      region.writeAndFlush(List.of(new Put(row(0)).addColumn(FAMILY, qualifier(2), 1, v(2))));
      assertEquals(2, region.storeFileCount(FAMILY));
    } catch (IOException | RuntimeException | AssertionError e) {
      region.close();
      throw e;
    }
    return region;
  }

  private static byte[] v(int b) {
    return new byte[] { (byte) b };
  }

  private static Scan columnTwo() {
    return new Scan().addColumn(FAMILY, qualifier(2));
  }

  /** The cells the family's store files hold (the memstore is empty after the flushes). */
  private static long cellsStored(LocalRegion region) {
    long cells = 0;
    for (HStoreFile f : region.store(FAMILY).getStorefiles()) {
      cells += f.getReader().getEntries();
    }
    return cells;
  }

  @Test
  public void stockScanNamingAColumnSpinsWithNewVersionBehaviorAndRowColBloom() throws Exception {
    try (LocalRegion region = twoFiles("nvbloop", true, BloomType.ROWCOL)) {
      long cells = cellsStored(region);
      assertEquals(2, cells);
      long bound = PASSES_PER_CELL * cells;
      try (CountingStoreScanner scanner = CountingStoreScanner.open(region, columnTwo(), bound)) {
        try {
          List<Cell> got = scanner.drain();
          fail("stock HBase returned " + got + " after " + scanner.passes() + " passes and "
            + scanner.reseeks() + " reseeks: upstream no longer loops here, update PATCH.md and"
            + " let the fuzzers read such families with columns again");
        } catch (LoopBound e) {
          assertTrue(e.getMessage(), scanner.passes() > bound);
          // Every pass reseeks, and always to the same key: no progress, so it never ends.
          assertTrue(e.getMessage(), scanner.reseeks() >= bound);
          assertEquals(e.getMessage(), 1, scanner.reseekKeys().size());
          assertTrue("stopped inside StoreScanner.next: " + Arrays.toString(e.getStackTrace()),
            Arrays.stream(e.getStackTrace())
              .anyMatch(f -> f.getClassName().equals(StoreScanner.class.getName())
                && f.getMethodName().equals("next")));
        }
      }
    }
  }

  /** Without either option the same scan returns the one cell after a few passes. */
  @Test
  public void withoutNewVersionBehaviorOrWithoutTheRowColBloomTheScanReturns() throws Exception {
    for (boolean nvb : new boolean[] { false, true }) {
      BloomType bloom = nvb ? BloomType.ROW : BloomType.ROWCOL;
      String what = "nvb=" + nvb + " " + bloom;
      try (LocalRegion region = twoFiles("nvbcontrol" + nvb, nvb, bloom)) {
        long bound = PASSES_PER_CELL * cellsStored(region);
        List<Cell> cells;
        try (CountingStoreScanner scanner =
          CountingStoreScanner.open(region, columnTwo(), bound)) {
          cells = scanner.drain();
          // A few passes per cell (fake cells count too): far below the loop's bound.
          assertTrue(what + ": " + scanner.passes() + " passes, bound " + bound,
            scanner.passes() * 10 <= bound);
        }
        assertEquals(what + ": " + cells, 1, cells.size());
        assertArrayEquals(v(2), CellUtil.cloneValue(cells.get(0)));
        // The region's own scan (HStore.getScanner's StoreScanner) returns the same cell.
        List<Cell> viaRegion = region.scanAll(columnTwo());
        assertEquals(what + ": " + viaRegion, 1, viaRegion.size());
        assertEquals(0, CellComparator.getInstance().compare(cells.get(0), viaRegion.get(0)));
        assertArrayEquals(v(2), CellUtil.cloneValue(viaRegion.get(0)));
      }
    }
  }

  /** Thrown from inside {@code StoreScanner.next} once the scan has made too many passes. */
  private static final class LoopBound extends RuntimeException {
    private static final long serialVersionUID = 1L;

    LoopBound(String message) {
      super(message);
    }
  }

  /**
   * The {@link StoreScanner} {@code HStore.getScanner} makes for a user scan, built the same way,
   * that counts the passes of its {@code next} loop ({@code checkScanOrder} runs once a pass, on
   * real and fake cells alike) and its reseeks, and throws {@link LoopBound} on the pass after
   * {@code bound}.
   */
  private static final class CountingStoreScanner extends StoreScanner {
    private final long bound;
    private long passes;
    private long reseeks;
    private final Set<String> reseekKeys = new LinkedHashSet<>();

    private CountingStoreScanner(HStore store, Scan scan, long readPt, long bound)
      throws IOException {
      super(store, store.getScanInfo(), scan, scan.getFamilyMap().get(FAMILY), readPt);
      this.bound = bound;
    }

    static CountingStoreScanner open(LocalRegion region, Scan scan, long bound)
      throws IOException {
      return new CountingStoreScanner(region.store(FAMILY), scan,
        region.region().getReadPoint(IsolationLevel.READ_COMMITTED), bound);
    }

    /** Every cell the scan returns, reading until the scanner has no more. */
    List<Cell> drain() throws IOException {
      List<Cell> all = new ArrayList<>();
      List<Cell> batch = new ArrayList<>();
      boolean more;
      do {
        more = next(batch);
        all.addAll(batch);
        batch.clear();
      } while (more);
      return all;
    }

    long passes() {
      return passes;
    }

    long reseeks() {
      return reseeks;
    }

    /** The distinct keys reseeked to, in first-seen order. */
    Set<String> reseekKeys() {
      return reseekKeys;
    }

    @Override
    protected void checkScanOrder(Cell prevKV, Cell kv, CellComparator comparator)
      throws IOException {
      super.checkScanOrder(prevKV, kv, comparator);
      if (++passes > bound) {
        throw new LoopBound(passes + " passes of StoreScanner.next over " + bound / PASSES_PER_CELL
          + " stored cells (bound " + bound + "), " + reseeks + " reseeks to " + reseekKeys
          + "; at " + CellUtil.getCellKeyAsString(kv));
      }
    }

    @Override
    public boolean reseek(Cell kv) throws IOException {
      reseeks++;
      reseekKeys.add(CellUtil.getCellKeyAsString(kv));
      return super.reseek(kv);
    }
  }
}
