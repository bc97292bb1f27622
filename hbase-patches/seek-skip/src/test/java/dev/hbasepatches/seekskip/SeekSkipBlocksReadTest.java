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

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import dev.hbasepatches.testkit.CellAssertions;
import dev.hbasepatches.testkit.LocalRegion;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/**
 * Point Gets of explicit columns read exactly the blocks upstream reads: lazy seek (HBASE-4465)
 * leaves files a newer file answers for unread, and ROW / ROWCOL blooms rule files out, in
 * PATCHED as in UPSTREAM (the contract upstream's TestBlocksRead checks on its own cases). Rows
 * are spread over 1, 4 and 8 flushed files, with newer versions and family deletes in later
 * files, one-cell blocks so every seek and step shows in the count.
 */
@RunWith(Parameterized.class)
public class SeekSkipBlocksReadTest {
  private static final byte[] FAMILY = Bytes.toBytes("f");
  private static final int ROWS = 12;
  private static final int COLUMNS = 6;

  @Parameters(name = "{0}, {1} files")
  public static Collection<Object[]> params() {
    List<Object[]> p = new ArrayList<>();
    for (BloomType bloom : new BloomType[] { BloomType.NONE, BloomType.ROW, BloomType.ROWCOL }) {
      for (int files : new int[] { 1, 4, 8 }) {
        p.add(new Object[] { bloom, files });
      }
    }
    return p;
  }

  private final BloomType bloom;
  private final int files;

  public SeekSkipBlocksReadTest(BloomType bloom, int files) {
    this.bloom = bloom;
    this.files = files;
  }

  private static byte[] row(int r) {
    return Bytes.toBytes(String.format("row%03d", r));
  }

  private static byte[] col(int c) {
    return Bytes.toBytes("c" + c);
  }

  /** Each column of a row lands in one file; later files add newer versions and deletes. */
  private void load(HRegion region) throws IOException {
    for (int f = 0; f < files; f++) {
      long ts = 100 + 10 * f;
      for (int r = 0; r < ROWS; r++) {
        Put put = new Put(row(r));
        for (int c = 0; c < COLUMNS; c++) {
          boolean home = (c + r) % files == f;
          boolean newer = f == files - 1 && files > 1 && (r + c) % 3 == 0;
          if (home || newer) {
            put.addColumn(FAMILY, col(c), ts, Bytes.toBytes("v" + r + "/" + c + "/" + ts));
          }
        }
        if (!put.isEmpty()) {
          region.put(put);
        }
        if (files > 2 && f == files / 2 && r % 5 == 0) {
          region.delete(new Delete(row(r)).addFamily(FAMILY, ts - 5));
        }
      }
      region.flush(true);
    }
  }

  /** The Gets: one, two and three columns, a missing column among wanted ones. */
  private static List<Get> gets() throws IOException {
    List<Get> gets = new ArrayList<>();
    for (int r = 0; r < ROWS; r++) {
      gets.add(new Get(row(r)).addColumn(FAMILY, col(r % COLUMNS)));
      gets.add(new Get(row(r)).addColumn(FAMILY, col(0)).addColumn(FAMILY, col(1)));
      gets.add(new Get(row(r)).addColumn(FAMILY, col(1)).addColumn(FAMILY, col(3))
        .addColumn(FAMILY, col(5)));
      gets.add(new Get(row(r)).addColumn(FAMILY, col(2)).addColumn(FAMILY, Bytes.toBytes("zz")));
      gets.add(new Get(row(r)).addColumn(FAMILY, col(4)).readVersions(3));
    }
    return gets;
  }

  /** Explicit-column scans: lazy seek there too, where PATCHED steps files on its own. */
  private static List<Scan> scans() {
    List<Scan> scans = new ArrayList<>();
    scans.add(new Scan().addColumn(FAMILY, col(1)));
    scans.add(new Scan().addColumn(FAMILY, col(0)).addColumn(FAMILY, col(3)));
    scans.add(new Scan().addColumn(FAMILY, col(2)).addColumn(FAMILY, col(5)).readVersions(3));
    return scans;
  }

  private static final class Reads {
    final long[] blocks;
    final List<List<Cell>> cells = new ArrayList<>();
    final List<Long> scanBlocks = new ArrayList<>();

    Reads(int n) {
      blocks = new long[n];
    }
  }

  private Reads run(SeekSkipMode mode) throws IOException {
    List<Get> gets = gets();
    Reads reads = new Reads(gets.size());
    try (LocalRegion r = ModeRegions.open("blocks-" + bloom + "-" + files, mode,
      b -> b.family("f").blockSize(1).bloomType(bloom).maxVersions(5))) {
      load(r.region());
      for (int i = 0; i < gets.size(); i++) {
        long before = HFile.DATABLOCK_READ_COUNT.sum();
        Cell[] got = r.region().get(gets.get(i)).rawCells();
        reads.blocks[i] = HFile.DATABLOCK_READ_COUNT.sum() - before;
        reads.cells.add(Arrays.asList(got));
      }
      for (Scan scan : scans()) {
        long before = HFile.DATABLOCK_READ_COUNT.sum();
        reads.cells.add(r.scanAll(scan));
        reads.scanBlocks.add(HFile.DATABLOCK_READ_COUNT.sum() - before);
      }
    }
    return reads;
  }

  @Test
  public void patchedReadsTheBlocksUpstreamReads() throws IOException {
    Reads upstream = run(SeekSkipMode.UPSTREAM);
    Reads patched = run(SeekSkipMode.PATCHED);
    List<Get> gets = gets();
    long total = 0;
    for (int i = 0; i < gets.size(); i++) {
      String what = bloom + ", " + files + " files, " + gets.get(i);
      CellAssertions.assertSameCells(what, upstream.cells.get(i), patched.cells.get(i));
      assertEquals("blocks read: " + what, upstream.blocks[i], patched.blocks[i]);
      total += upstream.blocks[i];
    }
    List<Scan> scans = scans();
    for (int i = 0; i < scans.size(); i++) {
      String what = bloom + ", " + files + " files, " + scans.get(i);
      CellAssertions.assertSameCells(what, upstream.cells.get(gets.size() + i),
        patched.cells.get(gets.size() + i));
      long u = upstream.scanBlocks.get(i);
      long p = patched.scanBlocks.get(i);
      // Stepping within a block and lazy reseeks of the other files: never more than upstream.
      assertTrue("blocks read: " + what + ": PATCHED " + p + " > UPSTREAM " + u, p <= u);
    }
    System.out.println(bloom + ", " + files + " files: " + gets.size() + " Gets, " + total
      + " blocks read in both modes");
  }
}
