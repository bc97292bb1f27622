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

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.hadoop.hbase.ByteBufferKeyOnlyKeyValue;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.PrivateCellUtil;
import org.apache.hadoop.hbase.SizeCachedByteBufferKeyValue;
import org.apache.hadoop.hbase.SizeCachedKeyValue;
import org.apache.hadoop.hbase.SizeCachedNoTagsByteBufferKeyValue;
import org.apache.hadoop.hbase.SizeCachedNoTagsKeyValue;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoder;
import org.apache.hadoop.hbase.io.encoding.HFileBlockDecodingContext;
import org.apache.hadoop.hbase.nio.ByteBuff;
import org.apache.hadoop.hbase.util.ByteBufferUtils;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * Reads a ROW_INDEX_V1 block. The position is a handful of ints (where the current cell starts,
 * its lengths, where the next one starts) plus where the cell before it starts while a seek
 * walks; key comparisons go through one reusable key view. So {@link #next()},
 * {@link #rewind()} and {@link #seekToKeyInBlock} allocate nothing; only {@link #getCell()} and
 * friends create the objects they hand out.
 * <p>
 * Seeks answer exactly as upstream's {@code RowIndexSeekerV1} does, result code and position
 * (the contract of {@code EncodedSeeker.seekToKeyInBlock} that {@code HFileScanner.seekTo},
 * {@code reseekTo} and {@code seekBefore} pass on): 0 on an exact match; 1 on the last cell
 * before the key; {@code INDEX_KEY_MAGIC} standing on the first cell of the key's row when the
 * key sorts before it, and without moving when nothing in the block (for {@code seekBefore}:
 * before the key's row, if that row is the block's first) sorts before the key. The way there
 * is cheaper: a binary search over the row offsets, then a walk of the key's own row only (the
 * next row's cells all sort after the key); when the block lacks the key's row, or the key sorts
 * before its first cell in a {@code seekBefore}, the answer is the last cell of the row before,
 * found by following cell lengths without comparing keys.
 */
@InterfaceAudience.Private
final class RowIndexSeeker implements DataBlockEncoder.EncodedSeeker {

  private static final int LENGTHS = KeyValue.KEYVALUE_INFRASTRUCTURE_SIZE;
  /** Big-endian views of a heap block's array: one bounds check per read, no buffer in between. */
  private static final VarHandle ARRAY_INT =
    MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle ARRAY_SHORT =
    MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);

  private final boolean hasTags;
  private final boolean hasMvcc;
  private final CellComparator comparator;
  private final KeyValue.KeyOnlyKeyValue heapKey = new KeyValue.KeyOnlyKeyValue();
  private final ByteBufferKeyOnlyKeyValue directKey = new ByteBufferKeyOnlyKeyValue();

  /** The block; absolute indexes, never its position, so handed-out cells can share it. */
  private ByteBuffer buf;
  private byte[] array;
  private int arrayOffset;
  /** Cell-section length; the row offsets start right after it, behind the row count. */
  private int dataSize;
  private int rowCount;
  private int rowOffsetsStart;

  private int curStart;
  private int curKeyLength;
  private int curValueLength;
  private int curTagsLength;
  private long curSeqId;
  private int curNext;

  /** Set by {@link #lastRowNotAfter}: whether the block holds the sought key's row. */
  private boolean keyRowFound;

  /** Where the cell before the current one starts while a seek walks a row; -1 otherwise. */
  private int prevStart = -1;

  RowIndexSeeker(HFileBlockDecodingContext ctx) {
    this.hasTags = ctx.getHFileContext().isIncludesTags();
    this.hasMvcc = ctx.getHFileContext().isIncludesMvcc();
    this.comparator = ctx.getHFileContext().getCellComparator();
  }

  @Override
  public void setCurrentBuffer(ByteBuff block) {
    ByteBuffer b;
    int base = block.position();
    int size = block.limit() - base;
    ByteBuffer[] parts = block.nioByteBuffers();
    if (parts.length == 1) {
      // Absolute reads below index the nio buffer directly; make index 0 the block's first byte.
      ByteBuffer dup = parts[0].duplicate();
      dup.position(base).limit(base + size);
      b = dup.slice();
    } else {
      // A block split over pooled segments: one copy per block keeps every read below (and
      // every cell handed out) on one contiguous buffer.
      byte[] copy = new byte[size];
      block.get(base, copy, 0, size);
      b = ByteBuffer.wrap(copy);
    }
    b.order(ByteOrder.BIG_ENDIAN);
    if (size < RowIndexBlockState.TRAILER_INTS_SIZE) {
      throw new CorruptRowIndexBlockException(
        "block of " + size + " bytes is shorter than its trailer");
    }
    int ds = b.getInt(size - Bytes.SIZEOF_INT);
    if (ds < 0 || ds > size - RowIndexBlockState.TRAILER_INTS_SIZE) {
      throw new CorruptRowIndexBlockException(
        "cell section of " + ds + " bytes in a block of " + size);
    }
    int rows = b.getInt(ds);
    if (rows < 0 || (long) ds + RowIndexBlockState.TRAILER_INTS_SIZE + 4L * rows != size) {
      throw new CorruptRowIndexBlockException("row count " + rows + " and cell section of " + ds
        + " bytes do not add up to the block's " + size + " bytes");
    }
    if ((rows == 0) != (ds == 0) || (rows > 0 && b.getInt(ds + Bytes.SIZEOF_INT) != 0)) {
      throw new CorruptRowIndexBlockException(
        "row count " + rows + " does not match a cell section of " + ds + " bytes");
    }
    this.buf = b;
    this.array = b.hasArray() ? b.array() : null;
    this.arrayOffset = b.hasArray() ? b.arrayOffset() : 0;
    this.dataSize = ds;
    this.rowCount = rows;
    this.rowOffsetsStart = ds + Bytes.SIZEOF_INT;
    rewind();
  }

  @Override
  public void rewind() {
    prevStart = -1;
    if (dataSize > 0) {
      decodeAt(0);
    } else {
      curStart = 0;
      curNext = 0;
    }
  }

  @Override
  public boolean next() {
    if (curNext >= dataSize) {
      return false;
    }
    decodeAt(curNext);
    return true;
  }

  @Override
  public int seekToKeyInBlock(Cell key, boolean seekBefore) {
    prevStart = -1;
    if (rowCount == 0) {
      return HConstants.INDEX_KEY_MAGIC;
    }
    int row = lastRowNotAfter(key);
    if (row < 0 || (seekBefore && keyRowFound && row == 0)) {
      // Nothing in the block sorts before the key's row (for seekBefore: before the block's
      // first row, which upstream's seeker does not walk): "before this block", position kept.
      return HConstants.INDEX_KEY_MAGIC;
    }
    if (!keyRowFound) {
      // Every cell of this row sorts before the key and every cell of the next row after it:
      // the answer is this row's last cell, reached by lengths alone.
      lastCellOfRow(row);
      return 1;
    }
    int rowEnd = row + 1 < rowCount ? rowOffset(row + 1) : dataSize;
    decodeAt(rowOffset(row));
    while (true) {
      int cmp = PrivateCellUtil.compareKeyIgnoresMvcc(comparator, key, currentKey());
      if (cmp > 0) {
        if (curNext >= rowEnd) {
          // The row's last cell; the next row's cells all sort after the key.
          return 1;
        }
        prevStart = curStart;
        decodeAt(curNext);
        continue;
      }
      if (cmp == 0 && !seekBefore) {
        return 0;
      }
      // The key is at or before the current cell: the answer is the cell before this one.
      if (prevStart >= 0) {
        // Decoded again rather than kept: once per seek, instead of a copy per step.
        decodeAt(prevStart);
        prevStart = -1;
        return 1;
      }
      if (!seekBefore) {
        // Before the row's first cell (a first-on-row key, a newer version of its first
        // column): stand on that cell and say so, as upstream's seeker does.
        return HConstants.INDEX_KEY_MAGIC;
      }
      lastCellOfRow(row - 1);
      return 1;
    }
  }

  /**
   * Binary search over the row offsets: the last row whose key is not after the key's row; sets
   * {@link #keyRowFound} when that row is the key's own.
   */
  private int lastRowNotAfter(Cell key) {
    int low = 0;
    int high = rowCount - 1;
    while (low <= high) {
      int mid = (low + high) >>> 1;
      int cmp = comparator.compareRows(keyAt(rowOffset(mid)), key);
      if (cmp < 0) {
        low = mid + 1;
      } else if (cmp > 0) {
        high = mid - 1;
      } else {
        keyRowFound = true;
        return mid;
      }
    }
    keyRowFound = false;
    return high;
  }

  private void lastCellOfRow(int row) {
    int end = row + 1 < rowCount ? rowOffset(row + 1) : dataSize;
    decodeAt(rowOffset(row));
    while (curNext < end) {
      decodeAt(curNext);
    }
  }

  /** A cell start read from the row offsets or a length must leave room for the two lengths. */
  private void checkCellStart(int start) {
    if (start < 0 || start > dataSize - LENGTHS) {
      throw new CorruptRowIndexBlockException(
        "cell offset " + start + " outside the cell section of " + dataSize + " bytes");
    }
  }

  private int rowOffset(int row) {
    return intAt(rowOffsetsStart + row * Bytes.SIZEOF_INT);
  }

  // Block-relative reads. A heap block (the block cache's and the file reader's usual case) is
  // read straight from its array, as HBase's own unencoded scanner reads its blocks; a direct
  // block goes through the buffer. Every index passed here was checked against the cell section
  // or the trailer first (decodeAt, setCurrentBuffer), so the array's own bounds check is a
  // second line, not the only one.
  private int intAt(int index) {
    return array != null ? (int) ARRAY_INT.get(array, arrayOffset + index) : buf.getInt(index);
  }

  private short shortAt(int index) {
    return array != null
      ? (short) ARRAY_SHORT.get(array, arrayOffset + index)
      : buf.getShort(index);
  }

  private byte byteAt(int index) {
    return array != null ? array[arrayOffset + index] : buf.get(index);
  }

  private void decodeAt(int start) {
    checkCellStart(start);
    int keyLength = intAt(start);
    int valueLength = intAt(start + Bytes.SIZEOF_INT);
    int p = start + LENGTHS + keyLength + valueLength;
    if (keyLength <= 0 || valueLength < 0 || p < 0 || p > dataSize) {
      throw new CorruptRowIndexBlockException("cell at " + start + " with key length " + keyLength
        + " and value length " + valueLength + " overruns the cell section of " + dataSize);
    }
    int tagsLength = 0;
    if (hasTags) {
      // Unsigned: tags up to 65535 bytes are legal (HBASE-21473).
      tagsLength = shortAt(p) & 0xFFFF;
      p += Bytes.SIZEOF_SHORT + tagsLength;
    }
    long seqId = 0;
    if (hasMvcc) {
      byte first = byteAt(p);
      if (first >= -112) {
        seqId = first;
        p++;
      } else {
        int n = first < -120 ? -120 - first : -112 - first;
        long v = 0;
        for (int i = 1; i <= n; i++) {
          v = (v << 8) | (byteAt(p + i) & 0xFF);
        }
        seqId = first < -120 ? ~v : v;
        p += n + 1;
      }
    }
    if (p > dataSize) {
      throw new CorruptRowIndexBlockException(
        "cell at " + start + " ends at " + p + ", past the cell section of " + dataSize);
    }
    curStart = start;
    curKeyLength = keyLength;
    curValueLength = valueLength;
    curTagsLength = tagsLength;
    curSeqId = seqId;
    curNext = p;
  }

  /** The reusable key view over the current cell; never handed out. */
  private Cell currentKey() {
    return keyAt(curStart);
  }

  private Cell keyAt(int cellStart) {
    checkCellStart(cellStart);
    int keyLength = intAt(cellStart);
    if (keyLength <= 0 || keyLength > dataSize - cellStart - LENGTHS) {
      throw new CorruptRowIndexBlockException("cell at " + cellStart + " with key length "
        + keyLength + " overruns the cell section of " + dataSize);
    }
    if (array != null) {
      heapKey.setKey(array, arrayOffset + cellStart + LENGTHS, keyLength);
      return heapKey;
    }
    directKey.setKey(buf, cellStart + LENGTHS, keyLength);
    return directKey;
  }

  @Override
  public int compareKey(CellComparator cmp, Cell key) {
    return PrivateCellUtil.compareKeyIgnoresMvcc(cmp, key, currentKey());
  }

  /**
   * A {@code KeyValue.KeyOnlyKeyValue}, as every upstream encoder's seeker returns (callers cast
   * it): over the block's own array on heap, over a copy of the key for a direct block.
   */
  @Override
  public Cell getKey() {
    if (array != null) {
      return new KeyValue.KeyOnlyKeyValue(array, arrayOffset + curStart + LENGTHS, curKeyLength);
    }
    byte[] copy = new byte[curKeyLength];
    // Absolute bulk get(int, byte[], ...) is JDK 13+; this module's jar runs on JDK 11.
    ByteBufferUtils.copyFromBufferToArray(copy, buf, curStart + LENGTHS, 0, curKeyLength);
    return new KeyValue.KeyOnlyKeyValue(copy, 0, curKeyLength);
  }

  @Override
  public ByteBuffer getValueShallowCopy() {
    ByteBuffer dup = buf.duplicate();
    int valueStart = curStart + LENGTHS + curKeyLength;
    dup.position(valueStart).limit(valueStart + curValueLength);
    return dup.slice();
  }

  @Override
  public Cell getCell() {
    int length = LENGTHS + curKeyLength + curValueLength;
    boolean withTags = curTagsLength > 0;
    if (withTags) {
      length += Bytes.SIZEOF_SHORT + curTagsLength;
    }
    if (array != null) {
      int offset = arrayOffset + curStart;
      return withTags
        ? new SizeCachedKeyValue(array, offset, length, curSeqId, curKeyLength)
        : new SizeCachedNoTagsKeyValue(array, offset, length, curSeqId, curKeyLength);
    }
    return withTags
      ? new SizeCachedByteBufferKeyValue(buf, curStart, length, curSeqId, curKeyLength)
      : new SizeCachedNoTagsByteBufferKeyValue(buf, curStart, length, curSeqId, curKeyLength);
  }
}
