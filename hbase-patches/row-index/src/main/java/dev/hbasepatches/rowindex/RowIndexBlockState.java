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

import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValueUtil;
import org.apache.hadoop.hbase.PrivateCellUtil;
import org.apache.hadoop.hbase.io.encoding.EncodingState;
import org.apache.hadoop.hbase.io.hfile.HFileContext;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.io.WritableUtils;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * Writes one ROW_INDEX_V1 block: cells in the unencoded KeyValue layout (key length, value
 * length, key, value, then a two-byte tags length and tags when the file carries tags, then the
 * MVCC version as a Hadoop vlong when it carries MVCC), followed by the row count, one int offset
 * per row (the row's first cell, relative to the first cell of the block) and the length of the
 * cell section. The encoding id in front of it all is written by the encoding context.
 * <p>
 * The previous row is kept as a private copy of its bytes rather than as a reference to the
 * previous cell, so nothing here points into buffers the write path may recycle after a
 * {@code shipped()}, and no cell is copied per row.
 */
@InterfaceAudience.Private
final class RowIndexBlockState extends EncodingState {

  /** Row count and cell-section length, the two ints that close every block. */
  static final int TRAILER_INTS_SIZE = 2 * Bytes.SIZEOF_INT;

  private final DataOutputStream out;
  private final CellComparator comparator;
  private final boolean includesTags;
  private final boolean includesMvcc;
  /** out.size() at the first cell; row offsets are relative to it. */
  private int dataStart = -1;
  private int[] rowOffsets = new int[64];
  private int rowCount;
  private byte[] lastRow = new byte[32];
  private int lastRowLength = -1;

  RowIndexBlockState(DataOutputStream out, HFileContext context) {
    this.out = out;
    this.comparator = context.getCellComparator();
    this.includesTags = context.isIncludesTags();
    this.includesMvcc = context.isIncludesMvcc();
  }

  void write(Cell cell) throws IOException {
    if (cell == null) {
      throw new IOException("ROW_INDEX_V1 cannot encode a null cell");
    }
    int indexBytes = 0;
    if (lastRowLength < 0) {
      dataStart = out.size();
      // Each row's offset counts toward the encoded size the writer checks against the block
      // size, exactly as upstream counts it: counting anything more (e.g. the 8-byte trailer)
      // would move block boundaries and our files would no longer equal upstream's.
      startRow(cell, 0);
      indexBytes = Bytes.SIZEOF_INT;
    } else {
      int cmp = comparator.compareRows(cell, lastRow, 0, lastRowLength);
      if (cmp < 0) {
        throw new IOException("ROW_INDEX_V1 cells must arrive in row order: row "
          + Bytes.toStringBinary(cell.getRowArray(), cell.getRowOffset(), cell.getRowLength())
          + " after " + Bytes.toStringBinary(lastRow, 0, lastRowLength));
      }
      if (cmp > 0) {
        startRow(cell, out.size() - dataStart);
        indexBytes = Bytes.SIZEOF_INT;
      }
    }
    int size = KeyValueUtil.oswrite(cell, out, false);
    if (includesTags) {
      int tagsLength = cell.getTagsLength();
      // Written as an unsigned short; readers must not sign-extend it (HBASE-21473).
      out.writeShort(tagsLength);
      if (tagsLength > 0) {
        PrivateCellUtil.writeTags(out, cell, tagsLength);
      }
      size += Bytes.SIZEOF_SHORT + tagsLength;
    }
    if (includesMvcc) {
      long seqId = cell.getSequenceId();
      WritableUtils.writeVLong(out, seqId);
      size += WritableUtils.getVIntSize(seqId);
    }
    postCellEncode(size, size + indexBytes);
  }

  private void startRow(Cell cell, int offset) {
    if (rowCount == rowOffsets.length) {
      rowOffsets = Arrays.copyOf(rowOffsets, rowCount * 2);
    }
    rowOffsets[rowCount++] = offset;
    int len = cell.getRowLength();
    if (lastRow.length < len) {
      lastRow = new byte[Math.max(len, lastRow.length * 2)];
    }
    CellUtil.copyRowTo(cell, lastRow, 0);
    lastRowLength = len;
  }

  /** Appends the row count, the row offsets and the cell-section length. */
  void finish() throws IOException {
    int dataSize = dataStart < 0 ? 0 : out.size() - dataStart;
    out.writeInt(rowCount);
    for (int i = 0; i < rowCount; i++) {
      out.writeInt(rowOffsets[i]);
    }
    out.writeInt(dataSize);
  }

  @Override
  public void beforeShipped() {
    // Nothing to do: the previous row is a private copy, not a reference into a shipped buffer.
  }
}
