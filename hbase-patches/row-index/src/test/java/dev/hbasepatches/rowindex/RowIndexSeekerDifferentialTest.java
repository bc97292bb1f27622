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
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparatorImpl;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.KeyValueUtil;
import org.apache.hadoop.hbase.PrivateCellUtil;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoder.EncodedSeeker;
import org.apache.hadoop.hbase.io.hfile.HFileContext;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.Test;

/**
 * Our seeker against upstream's {@code RowIndexCodecV1} seeker on the same block, driven the way
 * {@code HFileReaderImpl.EncodedScanner} drives a seeker: {@code seekTo} rewinds and seeks
 * forward, {@code seekBefore} rewinds and seeks before, {@code reseekTo} asks
 * {@code compareKey} first and seeks forward without rewinding only for a key after the current
 * cell, and a scan steps with {@code next()} in between. After every call both must give the same
 * result code and stand on the same cell (key, value, tags, sequence id), with the same
 * {@code getKey()} (a {@code KeyValue.KeyOnlyKeyValue}), value and {@code compareKey}.
 * Random blocks with tags and MVCC on and off, on heap and direct, in four shapes: mixed rows,
 * one-cell rows, a few wide rows, a single row. Seed printed; rerun with {@code -Drowindex.seed=}.
 */
public class RowIndexSeekerDifferentialTest {
  private static final CellComparatorImpl CMP = CellComparatorImpl.COMPARATOR;

  /** Counts of what was compared, so a run that compared nothing of a kind fails. */
  private final int[] calls = new int[4];
  private final int[] codes = new int[4];
  private static final int SEEK = 0;
  private static final int RESEEK = 1;
  private static final int BEFORE = 2;
  private static final int NEXT = 3;

  @Test
  public void randomBlocksAnswerAsUpstream() throws IOException {
    long base = Long.getLong("rowindex.seed", System.nanoTime());
    System.out.println("RowIndexSeekerDifferentialTest seed=" + base);
    for (int round = 0; round < 60; round++) {
      long seed = base + round;
      Random rnd = new Random(seed);
      boolean tags = rnd.nextBoolean();
      boolean mvcc = rnd.nextBoolean();
      List<Cell> cells;
      switch (round % 4) {
        case 0: // mixed
          cells = Blocks.randomCells(rnd, 1 + rnd.nextInt(300), 1 + rnd.nextInt(8), 40, tags, mvcc);
          break;
        case 1: // one cell per row
          cells = Blocks.randomCells(rnd, 1 + rnd.nextInt(400), 1, 40, tags, mvcc);
          break;
        case 2: // a few wide rows
          cells = Blocks.randomCells(rnd, 1 + rnd.nextInt(5), 1 + rnd.nextInt(400), 20, tags,
            mvcc);
          break;
        default: // one row
          cells = Blocks.randomCells(rnd, 1, 1 + rnd.nextInt(40), 40, tags, mvcc);
      }
      String what = "seed=" + seed + " (-Drowindex.seed=" + base + ", round " + round + ") tags="
        + tags + " mvcc=" + mvcc + " cells=" + cells.size();
      drive(what, rnd, cells, tags, mvcc, 1000);
    }
    System.out.println("compared: seekTo " + calls[SEEK] + ", reseekTo " + calls[RESEEK]
      + ", seekBefore " + calls[BEFORE] + ", next " + calls[NEXT] + "; answers 0 / 1 / "
      + "INDEX_KEY_MAGIC / no seek (reseek at or after the key): " + codes[0] + " / " + codes[1]
      + " / " + codes[2] + " / " + codes[3]);
    for (int kind = 0; kind < calls.length; kind++) {
      assertTrue("calls of kind " + kind, calls[kind] > 100);
    }
    for (int code = 0; code < 3; code++) {
      assertTrue("answers of code " + code, codes[code] > 100);
    }
  }

  /** The in-block cases that once differed from upstream (issue 24), as fixed examples. */
  @Test
  public void rowEdgesAnswerAsUpstream() throws IOException {
    byte[] f = Bytes.toBytes("f");
    List<Cell> cells = new ArrayList<>();
    for (String row : new String[] { "a", "c", "e" }) {
      for (int q = 0; q < 4; q++) {
        cells.add(new KeyValue(Bytes.toBytes(row), f, Bytes.toBytes("q" + q), 5L,
          KeyValue.Type.Put, Bytes.toBytes(row + q)));
      }
    }
    for (boolean direct : new boolean[] { false, true }) {
      HFileContext ctx = Blocks.context(false, false);
      byte[] block = Blocks.encode(Blocks.upstream(), ctx, cells);
      EncodedSeeker ours = Blocks.open(Blocks.ours(), ctx, block, direct);
      EncodedSeeker theirs = Blocks.open(Blocks.upstream(), ctx, block, direct);
      Cell[] keys = { firstOnRow("b"), firstOnRow("c"),
        KeyValueUtil.createLastOnRow(Bytes.toBytes("c")), firstOnRow("f"),
        firstOnRow(""), cells.get(2), cells.get(4), cells.get(11) };
      for (Cell key : keys) {
        for (boolean before : new boolean[] { false, true }) {
          String what = "direct=" + direct + " key=" + CellUtil.getCellKeyAsString(key)
            + " seekBefore=" + before;
          ours.rewind();
          theirs.rewind();
          assertEquals(what, theirs.seekToKeyInBlock(key, before),
            ours.seekToKeyInBlock(key, before));
          sameState(what, ours, theirs, key);
        }
      }
      // Between rows b and c: the last cell of row a, answer 1 (was INDEX_KEY_MAGIC on c/q0).
      ours.rewind();
      assertEquals(1, ours.seekToKeyInBlock(firstOnRow("b"), false));
      assertEquals("a3", Bytes.toString(CellUtil.cloneValue(ours.getCell())));
      assertSame(KeyValue.KeyOnlyKeyValue.class, ours.getKey().getClass());
    }
  }

  private static Cell firstOnRow(String row) {
    return KeyValueUtil.createFirstOnRow(Bytes.toBytes(row));
  }

  private void drive(String what, Random rnd, List<Cell> cells, boolean tags, boolean mvcc,
    int ops) throws IOException {
    HFileContext ctx = Blocks.context(tags, mvcc);
    byte[] block = Blocks.encode(Blocks.upstream(), ctx, cells);
    boolean direct = rnd.nextBoolean();
    String w = what + " direct=" + direct;
    EncodedSeeker ours = Blocks.open(Blocks.ours(), ctx, block, direct);
    EncodedSeeker theirs = Blocks.open(Blocks.upstream(), ctx, block, direct);
    sameState(w + " opened", ours, theirs, cells.get(0));
    for (int i = 0; i < ops; i++) {
      Cell key = Blocks.probe(rnd, cells);
      int kind = rnd.nextInt(3);
      String k = w + " op " + i + " kind " + kind + " key=" + CellUtil.getCellKeyAsString(key);
      int got;
      int expect;
      if (kind == RESEEK) {
        int c = theirs.compareKey(CMP, key);
        assertEquals(k + " compareKey", Integer.signum(c), Integer.signum(ours.compareKey(CMP,
          key)));
        if (c < 1) {
          // HFileReaderImpl.reseekTo answers from compareKey and leaves the seeker alone.
          codes[3]++;
          continue;
        }
        expect = theirs.seekToKeyInBlock(key, false);
        got = ours.seekToKeyInBlock(key, false);
      } else {
        boolean before = kind == BEFORE;
        theirs.rewind();
        ours.rewind();
        expect = theirs.seekToKeyInBlock(key, before);
        got = ours.seekToKeyInBlock(key, before);
      }
      calls[kind]++;
      assertEquals(k + " result", expect, got);
      codes[expect == 0 ? 0 : expect == 1 ? 1 : 2]++;
      sameState(k, ours, theirs, key);
      // A scan goes on from there.
      for (int n = rnd.nextInt(4); n > 0; n--) {
        calls[NEXT]++;
        boolean more = theirs.next();
        assertEquals(k + " next", more, ours.next());
        sameState(k + " after next", ours, theirs, key);
        if (!more) {
          break;
        }
      }
    }
  }

  private static void sameState(String what, EncodedSeeker ours, EncodedSeeker theirs,
    Cell key) {
    Cell e = theirs.getCell();
    Cell g = ours.getCell();
    String w = what + ": upstream on " + CellUtil.getCellKeyAsString(e) + ", ours on "
      + CellUtil.getCellKeyAsString(g);
    assertEquals(w, 0, CMP.compare(e, g));
    assertTrue(w + " value", CellUtil.matchingValue(e, g));
    assertTrue(w + " tags",
      PrivateCellUtil.matchingTags(e, g, e.getTagsLength(), g.getTagsLength()));
    assertEquals(w + " sequence id", e.getSequenceId(), g.getSequenceId());
    assertEquals(w + " serialized size", e.getSerializedSize(), g.getSerializedSize());
    Cell ek = theirs.getKey();
    Cell gk = ours.getKey();
    assertSame(w + " getKey type", ek.getClass(), gk.getClass());
    assertArrayEquals(w + " getKey", ((KeyValue) ek).getKey(), ((KeyValue) gk).getKey());
    assertEquals(w + " value copy", theirs.getValueShallowCopy(), ours.getValueShallowCopy());
    assertEquals(w + " compareKey", Integer.signum(theirs.compareKey(CMP, key)),
      Integer.signum(ours.compareKey(CMP, key)));
  }
}
