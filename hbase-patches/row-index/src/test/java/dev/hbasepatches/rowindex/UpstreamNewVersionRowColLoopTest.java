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

import dev.hbasepatches.testkit.Bounded;
import dev.hbasepatches.testkit.LocalRegion;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.junit.Before;
import org.junit.Test;

/**
 * Documents upstream behaviour (stock HBase 2.6.1, NONE encoding, no class of this module
 * loaded): on a family with NEW_VERSION_BEHAVIOR and a ROWCOL bloom, a scan that names a column
 * never returns once one store file holds that column of the row and another file's bloom rules
 * it out. The second file's scanner stands in the heap as a fake "last on row/column" cell;
 * the query matcher answers it with SEEK_NEXT_COL, and {@code NewVersionBehaviorTracker} hints
 * the same column again (it advances its column only on a real cell past it), so
 * {@code StoreScanner} reseeks to a key before the fake cell forever at 100% CPU. Found by
 * {@link RowIndexDifferentialFuzzTest} (seed 18061807358039, table 2: it hung {@code mvn
 * verify}); the fuzzers now skip such reads ({@code RandomFamily.stockLoopsOn}). This test fails
 * once upstream ends the loop. Write-up: PATCH.md, "Upstream".
 */
public class UpstreamNewVersionRowColLoopTest {

  /** A one-row scan that finishes in milliseconds; spinning this long is the loop. */
  private static final Duration LOOPING = Duration.ofSeconds(3);
  private static final Duration GENEROUS = Duration.ofSeconds(120);

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

  @Test
  public void stockScanNamingAColumnSpinsWithNewVersionBehaviorAndRowColBloom() throws Exception {
    try (LocalRegion region = twoFiles("nvbloop", true, BloomType.ROWCOL)) {
      try {
        List<Cell> cells = Bounded.call("stock NEW_VERSION_BEHAVIOR + ROWCOL scan", LOOPING,
          () -> region.scanAll(columnTwo()));
        fail("stock 2.6.1 returned " + cells + ": upstream no longer loops here, update PATCH.md"
          + " and let the fuzzers read such families with columns again");
      } catch (Bounded.TimedOut e) {
        assertTrue(e.getMessage(), e.getMessage().contains("StoreScanner"));
      }
    }
  }

  /** Without either option the same scan returns the one cell at once. */
  @Test
  public void withoutNewVersionBehaviorOrWithoutTheRowColBloomTheScanReturns() throws Exception {
    for (boolean nvb : new boolean[] { false, true }) {
      BloomType bloom = nvb ? BloomType.ROW : BloomType.ROWCOL;
      try (LocalRegion region = twoFiles("nvbcontrol" + nvb, nvb, bloom)) {
        List<Cell> cells = Bounded.call("control nvb=" + nvb + " " + bloom, GENEROUS,
          () -> region.scanAll(columnTwo()));
        assertEquals("nvb=" + nvb + " " + bloom + ": " + cells, 1, cells.size());
        assertArrayEquals(v(2), CellUtil.cloneValue(cells.get(0)));
      }
    }
  }
}
