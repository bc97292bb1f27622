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
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import dev.hbasepatches.testkit.CellAssertions;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hbase.ArrayBackedTag;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.ExtendedCell;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.Tag;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoder;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.io.hfile.HFileContext;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.Test;

/**
 * Blocks written by {@link RowIndexEncoder} and by upstream's {@code RowIndexCodecV1} are the same
 * bytes, and each side's seeker reads the other's blocks cell by cell.
 */
public class RowIndexBlockInteropTest {
  private static final byte[] F = Bytes.toBytes("f");

  private static KeyValue kv(String row, String q, byte[] value, long seqId, Tag... tags) {
    KeyValue kv = new KeyValue(Bytes.toBytes(row), F, Bytes.toBytes(q), 5L, KeyValue.Type.Put,
      value, tags.length == 0 ? null : List.of(tags));
    kv.setSequenceId(seqId);
    return kv;
  }

  private static List<Cell> oneCell() {
    return List.of(kv("r", "q", Bytes.toBytes("v"), 3));
  }

  private static List<Cell> oneRowManyCells() {
    List<Cell> cells = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      cells.add(kv("onlyrow", String.format("q%05d", i), Bytes.toBytes(i), i));
    }
    return cells;
  }

  private static List<Cell> emptyValues() {
    List<Cell> cells = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      cells.add(kv(String.format("row%04d", i / 3), "q" + i % 3, new byte[0], 1L << (i % 60)));
    }
    return cells;
  }

  private static List<Cell> veryLargeRow() {
    char[] longRow = new char[30000];
    java.util.Arrays.fill(longRow, 'k');
    byte[] big = new byte[300 * 1024];
    new Random(1).nextBytes(big);
    List<Cell> cells = new ArrayList<>();
    cells.add(kv("a", "q", Bytes.toBytes("small"), 1));
    for (int i = 0; i < 3; i++) {
      cells.add(kv(new String(longRow), "q" + i, big, 2 + i));
    }
    cells.add(kv("z", "q", new byte[0], 9));
    return cells;
  }

  private static void roundTrip(String what, List<Cell> cells, boolean tags, boolean mvcc)
    throws IOException {
    String ctxName = what + " tags=" + tags + " mvcc=" + mvcc;
    HFileContext ctx = Blocks.context(tags, mvcc);
    byte[] ours = Blocks.encode(Blocks.ours(), ctx, cells);
    byte[] theirs = Blocks.encode(Blocks.upstream(), ctx, cells);
    assertArrayEquals(ctxName + ": block bytes", theirs, ours);
    List<Cell> expected = expected(cells, tags, mvcc);
    for (boolean direct : new boolean[] { false, true }) {
      String c = ctxName + " direct=" + direct;
      assertCells(c + " ours reads ours", expected,
        Blocks.readAll(Blocks.open(Blocks.ours(), ctx, ours, direct)));
      assertCells(c + " upstream reads ours", expected,
        Blocks.readAll(Blocks.open(Blocks.upstream(), ctx, ours, direct)));
      assertCells(c + " ours reads upstream", expected,
        Blocks.readAll(Blocks.open(Blocks.ours(), ctx, theirs, direct)));
    }
    if (!tags) {
      // Without tags upstream's decodeKeyValues is the cell section as is; so is ours.
      ByteBuffer a = Blocks.ours().decodeKeyValues(stream(ours), null);
      ByteBuffer b = Blocks.upstream().decodeKeyValues(stream(theirs),
        Blocks.upstream().newDataBlockDecodingContext(Blocks.CONF, ctx));
      assertEquals(ctxName + ": decodeKeyValues", b, a);
    }
  }

  private static DataInputStream stream(byte[] block) {
    return new DataInputStream(new ByteArrayInputStream(block, DataBlockEncoding.ID_SIZE,
      block.length - DataBlockEncoding.ID_SIZE));
  }

  /** What a reader of the file should see: no tags or sequence ids the file does not carry. */
  private static List<Cell> expected(List<Cell> cells, boolean tags, boolean mvcc) {
    List<Cell> out = new ArrayList<>();
    for (Cell c : cells) {
      KeyValue kv = tags ? org.apache.hadoop.hbase.KeyValueUtil.copyToNewKeyValue(c)
        : new KeyValue(c.getRowArray(), c.getRowOffset(), c.getRowLength(), c.getFamilyArray(),
          c.getFamilyOffset(), c.getFamilyLength(), c.getQualifierArray(), c.getQualifierOffset(),
          c.getQualifierLength(), c.getTimestamp(), KeyValue.Type.codeToType(c.getTypeByte()),
          c.getValueArray(), c.getValueOffset(), c.getValueLength());
      kv.setSequenceId(mvcc ? c.getSequenceId() : 0);
      out.add(kv);
    }
    return out;
  }

  static void assertCells(String context, List<Cell> expected, List<Cell> actual) {
    CellAssertions.assertSameCells(context, expected, actual);
    for (int i = 0; i < expected.size(); i++) {
      assertEquals(context + ": sequence id of cell " + i, expected.get(i).getSequenceId(),
        actual.get(i).getSequenceId());
    }
  }

  private static void allFlavours(String what, List<Cell> cells) throws IOException {
    for (boolean tags : new boolean[] { false, true }) {
      for (boolean mvcc : new boolean[] { false, true }) {
        roundTrip(what, cells, tags, mvcc);
      }
    }
  }

  @Test
  public void oneCellBlock() throws IOException {
    allFlavours("one cell", oneCell());
  }

  @Test
  public void oneRowBlock() throws IOException {
    allFlavours("one row of 2000 cells", oneRowManyCells());
  }

  @Test
  public void emptyValuesAndLargeSequenceIds() throws IOException {
    allFlavours("empty values", emptyValues());
  }

  @Test
  public void veryLargeRowAndValues() throws IOException {
    allFlavours("30000-byte row, 300 KB values", veryLargeRow());
  }

  @Test
  public void tagsOnSomeCells() throws IOException {
    List<Cell> cells = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      Tag[] t = i % 2 == 0 ? new Tag[0]
        : new Tag[] { new ArrayBackedTag((byte) 1, Bytes.toBytes("acl" + i)) };
      cells.add(kv(String.format("r%03d", i / 5), "q" + i % 5, Bytes.toBytes(i), i, t));
    }
    allFlavours("tags on odd cells", cells);
  }

  @Test
  public void emptyBlockHasOnlyTheTrailer() throws IOException {
    HFileContext ctx = Blocks.context(false, true);
    byte[] ours = Blocks.encode(Blocks.ours(), ctx, Collections.emptyList());
    assertArrayEquals(Blocks.encode(Blocks.upstream(), ctx, Collections.emptyList()), ours);
    assertEquals(DataBlockEncoding.ID_SIZE + 8, ours.length);
  }

  /**
   * HBASE-21473: in a file that carries tags, a cell without tags still has a two-byte zero tags
   * length on disk, which must not become part of the cell handed out.
   */
  @Test
  public void untaggedCellsInTaggedFilesExcludeTheTagsLength() throws IOException {
    List<Cell> cells = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      Tag[] t = i % 3 == 0 ? new Tag[] { new ArrayBackedTag((byte) 1, Bytes.toBytes("t" + i)) }
        : new Tag[0];
      cells.add(kv(String.format("r%02d", i / 4), "q" + i % 4, Bytes.toBytes("v" + i), i, t));
    }
    HFileContext ctx = Blocks.context(true, true);
    byte[] block = Blocks.encode(Blocks.ours(), ctx, cells);
    for (boolean direct : new boolean[] { false, true }) {
      DataBlockEncoder.EncodedSeeker s = Blocks.open(Blocks.ours(), ctx, block, direct);
      int i = 0;
      do {
        Cell c = s.getCell();
        int expected = ((ExtendedCell) cells.get(i)).getSerializedSize(true);
        assertEquals("cell " + i + " direct=" + direct, expected,
          ((ExtendedCell) c).getSerializedSize(true));
        assertEquals(cells.get(i).getTagsLength(), c.getTagsLength());
        i++;
      } while (s.next());
      assertEquals(cells.size(), i);
    }
  }

  @Test
  public void randomizedRoundTrips() throws IOException {
    long base = Long.getLong("rowindex.seed", System.nanoTime());
    for (int i = 0; i < 40; i++) {
      long seed = base + i;
      Random rnd = new Random(seed);
      boolean tags = rnd.nextBoolean();
      boolean mvcc = rnd.nextBoolean();
      List<Cell> cells = Blocks.randomCells(rnd, 1 + rnd.nextInt(400), 1 + rnd.nextInt(12),
        rnd.nextInt(3) == 0 ? 2000 : 40, tags, mvcc);
      System.out.println("randomizedRoundTrips seed=" + seed + " cells=" + cells.size());
      roundTrip("random seed=" + seed + " (rerun with -Drowindex.seed=" + seed + ")", cells, tags,
        mvcc);
    }
  }

  @Test
  public void cellsOutOfRowOrderAreRefused() {
    HFileContext ctx = Blocks.context(false, false);
    IOException e = assertThrows(IOException.class, () -> Blocks.encode(Blocks.ours(), ctx,
      List.of(kv("b", "q", new byte[0], 0), kv("a", "q", new byte[0], 0))));
    assertTrue(e.getMessage(), e.getMessage().contains("row order"));
  }

  @Test
  public void corruptTrailerIsReportedClearly() throws IOException {
    HFileContext ctx = Blocks.context(false, false);
    byte[] block = Blocks.encode(Blocks.ours(), ctx, oneRowManyCells());
    byte[] badSize = block.clone();
    Bytes.putInt(badSize, badSize.length - 4, badSize.length * 2);
    CorruptRowIndexBlockException e = assertThrows(CorruptRowIndexBlockException.class,
      () -> Blocks.open(Blocks.ours(), ctx, badSize, false));
    assertTrue(e.getMessage(), e.getMessage().contains("cell section"));
    byte[] truncated = java.util.Arrays.copyOf(block, 5);
    assertThrows(CorruptRowIndexBlockException.class,
      () -> Blocks.open(Blocks.ours(), ctx, truncated, false));
    byte[] badCell = block.clone();
    // First cell's key length: far past the block.
    Bytes.putInt(badCell, DataBlockEncoding.ID_SIZE, 1 << 30);
    e = assertThrows(CorruptRowIndexBlockException.class,
      () -> Blocks.open(Blocks.ours(), ctx, badCell, false));
    assertTrue(e.getMessage(), e.getMessage().contains("overruns"));
  }

  @Test
  public void corruptRowOffsetIsReportedClearly() throws IOException {
    HFileContext ctx = Blocks.context(false, true);
    List<Cell> cells = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      cells.add(kv(String.format("row%03d", i), "q", Bytes.toBytes(i), i));
    }
    byte[] block = Blocks.encode(Blocks.ours(), ctx, cells);
    // Trailer: row count, one offset per row, cell-section length; the 9th row's offset is
    // 4 * (16 - 8) + 4 bytes before the end.
    int ninthOffsetAt = block.length - 4 - 4 * (16 - 8);
    Cell sought = kv("row008", "q", new byte[0], 0);
    for (int bad : new int[] { -4, 1 << 20, Bytes.toInt(block, block.length - 4) }) {
      for (boolean direct : new boolean[] { false, true }) {
        byte[] corrupt = block.clone();
        Bytes.putInt(corrupt, ninthOffsetAt, bad);
        DataBlockEncoder.EncodedSeeker s = Blocks.open(Blocks.ours(), ctx, corrupt, direct);
        CorruptRowIndexBlockException e = assertThrows("offset " + bad + (direct ? " direct" : ""),
          CorruptRowIndexBlockException.class, () -> s.seekToKeyInBlock(sought, false));
        assertTrue(e.getMessage(), e.getMessage().contains("outside the cell section"));
      }
    }
  }

  @Test
  public void firstKeyMatchesUpstream() throws IOException {
    HFileContext ctx = Blocks.context(true, true);
    byte[] block = Blocks.encode(Blocks.ours(), ctx, emptyValues());
    org.apache.hadoop.hbase.nio.SingleByteBuff buf = new org.apache.hadoop.hbase.nio.SingleByteBuff(
      ByteBuffer.wrap(block, 2, block.length - 2).slice());
    Cell ours = Blocks.ours().getFirstKeyCellInBlock(buf);
    Cell theirs = Blocks.upstream().getFirstKeyCellInBlock(buf);
    assertEquals(0, org.apache.hadoop.hbase.CellComparatorImpl.COMPARATOR.compare(theirs, ours));
    assertEquals(0, buf.position());
  }

  static DataBlockEncoder.EncodedSeeker seeker(DataBlockEncoder e, HFileContext c, byte[] b) {
    return Blocks.open(e, c, b, false);
  }
}
