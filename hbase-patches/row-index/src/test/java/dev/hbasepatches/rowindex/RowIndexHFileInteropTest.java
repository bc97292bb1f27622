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

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparatorImpl;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.PrivateCellUtil;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.io.hfile.HFileContext;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;
import org.apache.hadoop.hbase.io.hfile.HFileScanner;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.After;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Whole HFiles through HBase's own writer and reader: a file written with our encoder installed
 * reads back through upstream's codec (installation taken back before the reader opens), and the
 * other way round, cell by cell and through {@code HFileScanner.seekTo}, {@code reseekTo},
 * {@code seekBefore} and a row-by-row reverse walk; each answer is checked against the same cells
 * in a NONE-encoded file. Both writers produce identical files.
 */
public class RowIndexHFileInteropTest {
  private static final Configuration CONF = HBaseConfiguration.create();
  private static final CellComparatorImpl CMP = CellComparatorImpl.COMPARATOR;
  private static Path dir;
  private static int fileNo;

  @BeforeClass
  public static void makeDir() throws IOException {
    dir = Files.createTempDirectory("rowindex-hfile-");
  }

  @AfterClass
  public static void removeDir() throws IOException {
    try (java.util.stream.Stream<Path> walk = Files.walk(dir)) {
      walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  @After
  public void takeBack() {
    RowIndexInstaller.uninstall();
  }

  private static org.apache.hadoop.fs.Path write(List<Cell> cells, DataBlockEncoding enc,
    boolean tags, boolean mvcc, int blockSize, boolean ours) throws IOException {
    if (ours) {
      RowIndexInstaller.install();
    } else {
      RowIndexInstaller.uninstall();
    }
    org.apache.hadoop.fs.Path file =
      new org.apache.hadoop.fs.Path(dir.resolve("f" + (fileNo++) + ".hfile").toUri());
    HFileContext ctx = new HFileContextBuilder().withBlockSize(blockSize)
      .withCompression(Compression.Algorithm.NONE).withDataBlockEncoding(enc)
      .withIncludesTags(tags).withIncludesMvcc(mvcc).withCreateTime(12345L)
      .withCellComparator(CMP).build();
    FileSystem fs = file.getFileSystem(CONF);
    try (HFile.Writer w = HFile.getWriterFactory(CONF, CacheConfig.DISABLED).withPath(fs, file)
      .withFileContext(ctx).create()) {
      for (Cell c : cells) {
        w.append(c);
      }
    }
    return file;
  }

  private static HFile.Reader open(org.apache.hadoop.fs.Path file, boolean ours)
    throws IOException {
    if (ours) {
      RowIndexInstaller.install();
    } else {
      RowIndexInstaller.uninstall();
    }
    HFile.Reader r =
      HFile.createReader(file.getFileSystem(CONF), file, CacheConfig.DISABLED, true, CONF);
    assertEquals(ours, DataBlockEncoding.ROW_INDEX_V1.getEncoder() instanceof RowIndexEncoder);
    return r;
  }

  private static List<Cell> readAll(HFileScanner s) throws IOException {
    List<Cell> out = new ArrayList<>();
    if (s.seekTo()) {
      do {
        out.add(Blocks.copy(s.getCell()));
      } while (s.next());
    }
    return out;
  }

  /** Where a StoreFileScanner ends up after seekAtOrAfter: null when past the end. */
  private static Cell atOrAfter(HFileScanner s, Cell key) throws IOException {
    int r = s.seekTo(key);
    boolean on;
    if (r == HConstants.INDEX_KEY_MAGIC || r == 0) {
      on = true;
    } else if (r < 0) {
      on = s.seekTo();
    } else {
      on = s.next();
    }
    return on ? Blocks.copy(s.getCell()) : null;
  }

  private static Cell before(HFileScanner s, Cell key) throws IOException {
    return s.seekBefore(key) ? Blocks.copy(s.getCell()) : null;
  }

  private static void assertSame(String what, Cell expected, Cell actual) {
    if (expected == null || actual == null) {
      assertEquals(what + ": " + expected + " vs " + actual, expected == null, actual == null);
      return;
    }
    RowIndexBlockInteropTest.assertCells(what, List.of(expected), List.of(actual));
  }

  /**
   * seekBefore misses against NONE counted across the class (both seekers have them: ours answers
   * as upstream's); see PATCH.md.
   */
  private static int upstreamSeekBeforeMisses;

  /**
   * Upstream's seeker (and so ours), asked to seekBefore a key inside the first row of a block
   * (after that row's first cell, so HFileReaderImpl does not step back a block), stays on the
   * block's first cell, an earlier cell of the same row than the NONE reader's: the known upstream
   * divergence PATCH.md records.
   */
  private static boolean upstreamSeekBeforeInRow(Cell key, Cell expected, Cell got) {
    return expected != null && got != null && CellUtil.matchingRows(key, expected)
      && CellUtil.matchingRows(expected, got)
      && PrivateCellUtil.compareKeyIgnoresMvcc(CMP, got, expected) < 0;
  }

  /** Distinct rows in reverse order, walked with seekBefore(first-on-row) as reverse scans do. */
  private static List<byte[]> reverseRows(HFileScanner s, List<Cell> cells) throws IOException {
    List<byte[]> rows = new ArrayList<>();
    Cell last = cells.get(cells.size() - 1);
    Cell key = PrivateCellUtil.createFirstOnNextRow(last);
    while (s.seekBefore(key)) {
      Cell c = s.getCell();
      rows.add(CellUtil.cloneRow(c));
      key = PrivateCellUtil.createFirstOnRow(c);
    }
    return rows;
  }

  /**
   * Writes the cells with one side, reads them with the other and with a NONE file, and compares
   * everything a store file scanner can ask.
   */
  private static void crossCheck(String what, List<Cell> cells, boolean tags, boolean mvcc,
    int blockSize, long seed) throws IOException {
    org.apache.hadoop.fs.Path none =
      write(cells, DataBlockEncoding.NONE, tags, mvcc, blockSize, false);
    for (boolean writerOurs : new boolean[] { true, false }) {
      org.apache.hadoop.fs.Path ri =
        write(cells, DataBlockEncoding.ROW_INDEX_V1, tags, mvcc, blockSize, writerOurs);
      String w = what + " tags=" + tags + " mvcc=" + mvcc + " blockSize=" + blockSize
        + " written by " + (writerOurs ? "ours" : "upstream") + ", read by "
        + (writerOurs ? "upstream" : "ours");
      try (HFile.Reader ref = open(none, false); HFile.Reader r = open(ri, !writerOurs)) {
        assertTrue(w + " blocks", r.getTrailer().getDataIndexCount() > 0);
        HFileScanner refScan = ref.getScanner(CONF, false, true);
        HFileScanner scan = r.getScanner(CONF, false, true);
        RowIndexBlockInteropTest.assertCells(w + " full read", cells, readAll(scan));
        Random rnd = new Random(seed);
        for (int i = 0; i < 300; i++) {
          Cell key = Blocks.probe(rnd, cells);
          String k = w + " key=" + CellUtil.getCellKeyAsString(key);
          assertSame(k + " seekTo", atOrAfter(refScan, key), atOrAfter(scan, key));
          Cell expectBefore = before(refScan, key);
          Cell gotBefore = before(scan, key);
          if (upstreamSeekBeforeInRow(key, expectBefore, gotBefore)) {
            if (++upstreamSeekBeforeMisses <= 3) {
              System.out.println("ROW_INDEX_V1 seekBefore on "
                + CellUtil.getCellKeyAsString(gotBefore) + ", NONE on "
                + CellUtil.getCellKeyAsString(expectBefore) + ": " + k);
            }
            continue;
          }
          assertSame(k + " seekBefore", expectBefore, gotBefore);
        }
        // Forward reseeks, as a scanner skipping rows and columns does.
        assertTrue(scan.seekTo());
        assertTrue(refScan.seekTo());
        for (int i = 0; i < cells.size(); i += 1 + rnd.nextInt(20)) {
          Cell key = cells.get(i);
          assertEquals(w + " reseek " + i, refScan.reseekTo(key), scan.reseekTo(key));
          assertSame(w + " reseek " + i, Blocks.copy(refScan.getCell()),
            Blocks.copy(scan.getCell()));
        }
        List<byte[]> expectRows = reverseRows(refScan, cells);
        List<byte[]> gotRows = reverseRows(scan, cells);
        assertEquals(w + " reverse rows", expectRows.size(), gotRows.size());
        for (int i = 0; i < expectRows.size(); i++) {
          assertArrayEquals(w + " reverse row " + i, expectRows.get(i), gotRows.get(i));
        }
      }
    }
  }

  private static long seedBase() {
    return Long.getLong("rowindex.seed", System.nanoTime());
  }

  @Test
  public void randomFilesReadAcrossImplementations() throws IOException {
    long base = seedBase();
    int[] blockSizes = { 1, 256, 4096, 65536 };
    for (int round = 0; round < 12; round++) {
      long seed = base + round;
      String what = "seed=" + seed + " (-Drowindex.seed=" + base + ")";
      System.out.println("randomFilesReadAcrossImplementations " + what);
      Random rnd = new Random(seed);
      boolean tags = rnd.nextBoolean();
      boolean mvcc = rnd.nextBoolean();
      List<Cell> cells =
        Blocks.randomCells(rnd, 1 + rnd.nextInt(400), 1 + rnd.nextInt(6), 200, tags, mvcc);
      crossCheck(what, cells, tags, mvcc, blockSizes[rnd.nextInt(blockSizes.length)], seed);
    }
  }

  @Test
  public void everyFlavourWithSmallAndOneCellBlocks() throws IOException {
    long seed = seedBase();
    System.out.println("everyFlavourWithSmallAndOneCellBlocks seed=" + seed);
    for (boolean tags : new boolean[] { false, true }) {
      for (boolean mvcc : new boolean[] { false, true }) {
        List<Cell> cells = Blocks.randomCells(new Random(seed), 60, 3, 40, tags, mvcc);
        // Block size 1: every block holds one cell, so every row straddles blocks.
        crossCheck("seed=" + seed, cells, tags, mvcc, 1, seed);
      }
    }
  }

  @Test
  public void emptyValuesAndLargeRowsStraddlingBlocks() throws IOException {
    byte[] f = Bytes.toBytes("f");
    List<Cell> cells = new ArrayList<>();
    byte[] big = new byte[3000];
    new Random(3).nextBytes(big);
    for (int r = 0; r < 40; r++) {
      byte[] row = Bytes.toBytes(String.format("row%05d", r));
      // Every fifth row is wide: 150 cells of 3 KB, dozens of 4 KB blocks for one row.
      int n = r % 5 == 0 ? 150 : 2;
      for (int q = 0; q < n; q++) {
        byte[] value = r % 2 == 0 ? HConstants.EMPTY_BYTE_ARRAY : big;
        KeyValue kv = new KeyValue(row, f, Bytes.toBytes(String.format("q%04d", q)), 7L,
          KeyValue.Type.Put, value);
        cells.add(kv);
      }
    }
    crossCheck("large rows", cells, false, false, 4096, 99);
    for (int i = 0; i < cells.size(); i++) {
      ((KeyValue) cells.get(i)).setSequenceId(1L << (i % 60));
    }
    crossCheck("large rows", cells, false, true, 4096, 99);
  }

  @Test
  public void bothWritersProduceIdenticalFiles() throws IOException {
    long seed = seedBase();
    System.out.println("bothWritersProduceIdenticalFiles seed=" + seed);
    Random rnd = new Random(seed);
    for (int round = 0; round < 4; round++) {
      boolean tags = round % 2 == 1;
      boolean mvcc = round / 2 == 1;
      List<Cell> cells = Blocks.randomCells(rnd, 500, 5, 100, tags, mvcc);
      for (int blockSize : new int[] { 1, 1024, 65536 }) {
        byte[] ours = Files.readAllBytes(Path.of(
          write(cells, DataBlockEncoding.ROW_INDEX_V1, tags, mvcc, blockSize, true).toUri()));
        byte[] upstream = Files.readAllBytes(Path.of(
          write(cells, DataBlockEncoding.ROW_INDEX_V1, tags, mvcc, blockSize, false).toUri()));
        assertArrayEquals("seed=" + seed + " tags=" + tags + " mvcc=" + mvcc + " blockSize="
          + blockSize, upstream, ours);
      }
    }
  }
}
