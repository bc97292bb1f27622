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

import static dev.hbasepatches.testkit.CellAssertions.assertSameCells;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import dev.hbasepatches.testkit.LocalRegion;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.io.encoding.RowIndexCodecV1;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.After;
import org.junit.Test;

/**
 * Real HRegions holding the seed's table: with ROW_INDEX_V1 and our encoder installed, Gets,
 * forward and reverse scans and delete-heavy data give the same cells as NONE; the files it
 * writes read back through upstream's codec once the encoder is taken back, and the other way.
 */
public class RowIndexRegionTest {
  private static final int ROWS = 3000;

  @After
  public void takeBack() {
    RowIndexInstaller.uninstall();
  }

  private static LocalRegion region(String name, DataBlockEncoding enc) throws IOException {
    // 1 KB blocks: rows straddle blocks and every seek crosses block boundaries often.
    LocalRegion r = LocalRegion.builder(name).family("0").encoding(enc).blockSize(1024).build();
    r.writeAndFlush(SeedTableData.puts(ROWS, 42));
    return r;
  }

  private static List<List<Cell>> reads(LocalRegion r, long seed) throws IOException {
    List<List<Cell>> out = new ArrayList<>();
    out.add(r.scanAll(new Scan()));
    out.add(r.scanAll(new Scan().setReversed(true)));
    List<Cell> last100 = r.scanRows(new Scan().setReversed(true), 100);
    long rows = last100.stream().map(c -> Bytes.toStringBinary(CellUtil.cloneRow(c))).distinct()
      .count();
    assertTrue("reverse scan limit 100 read " + rows + " rows", rows > 0 && rows <= 100);
    out.add(last100);
    out.add(r.scanAll(new Scan().withStartRow(SeedTableData.rowKey(1234))
      .withStopRow(SeedTableData.rowKey(1500)).setReversed(true)));
    Random rnd = new Random(seed);
    List<Cell> gets = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      int pk = rnd.nextInt(ROWS + 50) - 25;
      gets.addAll(nonNull(r.region().get(new Get(SeedTableData.rowKey(pk))).listCells()));
      gets.addAll(nonNull(r.region().get(new Get(SeedTableData.rowKey(pk))
        .addColumn(SeedTableData.FAMILY, SeedTableData.FLOAT_B)).listCells()));
    }
    out.add(gets);
    return out;
  }

  private static List<Cell> nonNull(List<Cell> cells) {
    return cells == null ? List.of() : cells;
  }

  private static void assertSameReads(String what, List<List<Cell>> expected,
    List<List<Cell>> actual) {
    String[] names = { "full scan", "reverse scan", "reverse scan limit 100",
      "reverse range scan", "gets" };
    for (int i = 0; i < expected.size(); i++) {
      assertSameCells(what + " " + names[i], expected.get(i), actual.get(i));
    }
  }

  @Test
  public void patchedRegionReadsLikeNone() throws IOException {
    RowIndexInstaller.install();
    try (LocalRegion none = region("none", DataBlockEncoding.NONE);
      LocalRegion ri = region("rowindex", DataBlockEncoding.ROW_INDEX_V1)) {
      assertTrue(DataBlockEncoding.ROW_INDEX_V1.getEncoder() instanceof RowIndexEncoder);
      for (HStoreFile f : ri.store(SeedTableData.FAMILY).getStorefiles()) {
        assertEquals(DataBlockEncoding.ROW_INDEX_V1,
          f.getReader().getHFileReader().getDataBlockEncoding());
      }
      List<List<Cell>> expected = reads(none, 7);
      assertEquals(ROWS * SeedTableData.CELLS_PER_ROW, expected.get(0).size());
      assertSameReads("PATCHED vs NONE", expected, reads(ri, 7));

      // Delete 99.9% of the rows, flush the markers into a second file, read again.
      none.writeAndFlush(SeedTableData.deleteAllBut(ROWS, 1000));
      ri.writeAndFlush(SeedTableData.deleteAllBut(ROWS, 1000));
      List<List<Cell>> afterDeletes = reads(none, 8);
      assertEquals(3 * SeedTableData.CELLS_PER_ROW, afterDeletes.get(0).size());
      assertSameReads("PATCHED vs NONE, 99.9% deleted", afterDeletes, reads(ri, 8));

      // The same files through upstream's codec.
      RowIndexInstaller.uninstall();
      assertTrue(DataBlockEncoding.ROW_INDEX_V1.getEncoder() instanceof RowIndexCodecV1);
      assertSameReads("files written by ours, read by upstream", afterDeletes, reads(ri, 8));
    }
  }

  @Test
  public void filesWrittenByUpstreamReadWithOurs() throws IOException {
    try (LocalRegion none = region("none", DataBlockEncoding.NONE);
      LocalRegion ri = region("upstream", DataBlockEncoding.ROW_INDEX_V1)) {
      assertFalse(RowIndexInstaller.isInstalled());
      List<List<Cell>> expected = reads(none, 9);
      RowIndexInstaller.install();
      assertSameReads("files written by upstream, read by ours", expected, reads(ri, 9));
      // Compaction with ours rewrites upstream's file; the result still reads the same.
      ri.region().compact(true);
      assertEquals(1, ri.storeFileCount(SeedTableData.FAMILY));
      assertSameReads("after a major compaction by ours", expected, reads(ri, 9));
    }
  }
}
