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

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ArrayBackedTag;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.CellComparatorImpl;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.KeyValueUtil;
import org.apache.hadoop.hbase.PrivateCellUtil;
import org.apache.hadoop.hbase.Tag;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoder;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.io.encoding.HFileBlockEncodingContext;
import org.apache.hadoop.hbase.io.encoding.RowIndexCodecV1;
import org.apache.hadoop.hbase.io.hfile.HFileContext;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;
import org.apache.hadoop.hbase.nio.SingleByteBuff;
import org.apache.hadoop.hbase.util.Bytes;

/** Encodes cells into one block and opens seekers on it, the way HFileBlock's writer does. */
final class Blocks {
  static final Configuration CONF = HBaseConfiguration.create();

  private Blocks() {
  }

  static HFileContext context(boolean tags, boolean mvcc) {
    return new HFileContextBuilder().withIncludesTags(tags).withIncludesMvcc(mvcc)
      .withCellComparator(CellComparatorImpl.COMPARATOR)
      .withDataBlockEncoding(DataBlockEncoding.ROW_INDEX_V1).build();
  }

  static DataBlockEncoder ours() {
    return new RowIndexEncoder();
  }

  static DataBlockEncoder upstream() {
    return new RowIndexCodecV1();
  }

  /** The block as written, starting with the two-byte encoding id. */
  static byte[] encode(DataBlockEncoder enc, HFileContext ctx, List<? extends Cell> cells)
    throws IOException {
    HFileBlockEncodingContext ectx = enc.newDataBlockEncodingContext(CONF,
      DataBlockEncoding.ROW_INDEX_V1, HConstants.HFILEBLOCK_DUMMY_HEADER, ctx);
    ByteArrayOutputStream baos = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(baos);
    enc.startBlockEncoding(ectx, out);
    for (Cell c : cells) {
      enc.encode(c, ectx, out);
    }
    enc.endBlockEncoding(ectx, out, null);
    out.flush();
    return baos.toByteArray();
  }

  /** A seeker positioned on the block's first cell; direct picks an off-heap copy. */
  static DataBlockEncoder.EncodedSeeker open(DataBlockEncoder enc, HFileContext ctx, byte[] block,
    boolean direct) {
    DataBlockEncoder.EncodedSeeker s = enc.createSeeker(enc.newDataBlockDecodingContext(CONF, ctx));
    int len = block.length - DataBlockEncoding.ID_SIZE;
    ByteBuffer bb = direct ? ByteBuffer.allocateDirect(len) : ByteBuffer.allocate(len + 7);
    if (!direct) {
      // Put the block at a non-zero array offset, as slices of real blocks are.
      bb.position(7);
    }
    bb.put(block, DataBlockEncoding.ID_SIZE, len);
    bb.position(direct ? 0 : 7);
    s.setCurrentBuffer(new SingleByteBuff(bb.slice()));
    return s;
  }

  /** Every cell from the seeker's first on, deep-copied with its sequence id. */
  static List<Cell> readAll(DataBlockEncoder.EncodedSeeker s) {
    List<Cell> cells = new ArrayList<>();
    s.rewind();
    do {
      cells.add(copy(s.getCell()));
    } while (s.next());
    return cells;
  }

  static Cell copy(Cell c) {
    KeyValue kv = org.apache.hadoop.hbase.KeyValueUtil.copyToNewKeyValue(c);
    kv.setSequenceId(c.getSequenceId());
    return kv;
  }

  /**
   * Random sorted cells: {@code rows} rows of 1..maxCellsPerRow cells, random row lengths, some
   * empty values, some tags, sequence ids when mvcc; every key distinct.
   */
  static List<Cell> randomCells(Random rnd, int rows, int maxCellsPerRow, int maxValue,
    boolean tags, boolean mvcc) {
    List<Cell> cells = new ArrayList<>();
    byte[] family = Bytes.toBytes("f");
    java.util.TreeSet<byte[]> rowKeys = new java.util.TreeSet<>(Bytes.BYTES_COMPARATOR);
    while (rowKeys.size() < rows) {
      byte[] r = new byte[1 + rnd.nextInt(12)];
      rnd.nextBytes(r);
      rowKeys.add(r);
    }
    for (byte[] row : rowKeys) {
      int n = 1 + rnd.nextInt(maxCellsPerRow);
      for (int q = 0; q < n; q++) {
        byte[] qual = Bytes.toBytes(String.format("q%04d", q));
        byte[] value = new byte[rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(maxValue + 1)];
        rnd.nextBytes(value);
        List<Tag> t = new ArrayList<>();
        if (tags && rnd.nextBoolean()) {
          t.add(new ArrayBackedTag((byte) 7, Bytes.toBytes("tag" + rnd.nextInt(100))));
        }
        KeyValue kv = new KeyValue(row, family, qual, 1000L + rnd.nextInt(10), KeyValue.Type.Put,
          value, t);
        if (mvcc) {
          kv.setSequenceId(rnd.nextInt(4) == 0 ? 0 : rnd.nextLong() & Long.MAX_VALUE >>> 8);
        }
        cells.add(kv);
      }
    }
    return cells;
  }

  /**
   * A random seek key near {@code cells}: first / last on a cell's row, first on the next row, a
   * random row, the very first or last possible key, another version of a cell, or a cell itself.
   */
  static Cell probe(Random rnd, List<Cell> cells) {
    Cell c = cells.get(rnd.nextInt(cells.size()));
    switch (rnd.nextInt(7)) {
      case 0:
        return PrivateCellUtil.createFirstOnRow(c);
      case 1:
        return PrivateCellUtil.createLastOnRow(c);
      case 2:
        return PrivateCellUtil.createFirstOnNextRow(c);
      case 3: {
        byte[] row = new byte[1 + rnd.nextInt(12)];
        rnd.nextBytes(row);
        return KeyValueUtil.createFirstOnRow(row);
      }
      case 4:
        return rnd.nextBoolean() ? KeyValueUtil.createFirstOnRow(new byte[0])
          : KeyValueUtil.createLastOnRow(new byte[] { (byte) 0xFF, (byte) 0xFF, (byte) 0xFF,
            (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF,
            (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF });
      case 5:
        // Same row and column, another timestamp: between versions.
        return new KeyValue(CellUtil.cloneRow(c), CellUtil.cloneFamily(c),
          CellUtil.cloneQualifier(c), c.getTimestamp() + rnd.nextInt(3) - 1, KeyValue.Type.Put);
      default:
        return c;
    }
  }
}
