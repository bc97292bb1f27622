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
package dev.hbasepatches.checksum;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.Checksum;
import org.apache.hadoop.hbase.nio.MultiByteBuff;
import org.apache.hadoop.hbase.util.ObjectIntPair;

/**
 * A block spread over the segments of a {@link MultiByteBuff} (HBase's pooled off-heap buffers,
 * often with a heap tail). A chunk that crosses a segment boundary is fed to the CRC in two pieces
 * straight from each segment; nothing is copied, however the boundaries fall.
 */
final class SegmentedBlockBytes extends BlockBytes {

  private static final VarHandle INT_BE =
    MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

  private final int length;
  /** Block offset where each segment's part of the block ends (exclusive); ascending. */
  private final int[] ends;
  /** Added to a block offset to get the index in the segment (array index for heap ones). */
  private final int[] shifts;
  /** The backing array of a heap segment, else null. */
  private final byte[][] arrays;
  /** A private duplicate of a segment with no accessible array, else null. */
  private final ByteBuffer[] views;

  private SegmentedBlockBytes(int length, int[] ends, int[] shifts, byte[][] arrays,
    ByteBuffer[] views) {
    this.length = length;
    this.ends = ends;
    this.shifts = shifts;
    this.arrays = arrays;
    this.views = views;
  }

  /**
   * The block {@code [position, limit)} of a MultiByteBuff. A block that lies inside one segment
   * gets that segment's plain array or buffer loop.
   */
  static BlockBytes of(MultiByteBuff buff) {
    int blockStart = buff.position();
    int blockEnd = buff.limit();
    ByteBuffer[] items = buff.nioByteBuffers();
    // A MultiByteBuff numbers its bytes across its segments in order, each segment from its index
    // 0 to its capacity (HBase fills every segment but the last, which it cuts with the limit).
    // The MultiByteBuff keeps those starts private, so derive them and confirm each against the
    // MultiByteBuff's own lookup: a wrong start would checksum the wrong bytes.
    int first = -1;
    int last = -1;
    long firstStart = 0;
    long start = 0;
    for (int i = 0; i < items.length && start < blockEnd; i++) {
      long end = start + items[i].capacity();
      if (end > blockStart) {
        if (first < 0) {
          first = i;
          firstStart = start;
        }
        last = i;
      }
      start = end;
    }
    if (start < blockEnd) {
      throw new IllegalArgumentException("MultiByteBuff limit " + blockEnd
        + " lies beyond its segments' total capacity " + start);
    }
    int length = blockEnd - blockStart;
    ObjectIntPair<ByteBuffer> probe = first > 0 || first < last ? new ObjectIntPair<>() : null;
    if (first < 0 || first == last) {
      ByteBuffer only = items[Math.max(first, 0)];
      checkStart(buff, first, only, firstStart, probe);
      int base = (int) (blockStart - firstStart);
      return only.hasArray()
        ? new ArrayBlockBytes(only.array(), only.arrayOffset() + base, length)
        : new BufferBlockBytes(only, base, length);
    }
    int count = last - first + 1;
    int[] ends = new int[count];
    int[] shifts = new int[count];
    byte[][] arrays = new byte[count][];
    ByteBuffer[] views = new ByteBuffer[count];
    long segStart = firstStart;
    for (int s = 0; s < count; s++) {
      int i = first + s;
      ByteBuffer item = items[i];
      checkStart(buff, i, item, segStart, probe);
      ends[s] = (int) Math.min(segStart + item.capacity() - blockStart, length);
      int shift = (int) (blockStart - segStart);
      if (item.hasArray()) {
        arrays[s] = item.array();
        shift += item.arrayOffset();
      } else {
        views[s] = item.duplicate().order(ByteOrder.BIG_ENDIAN);
      }
      shifts[s] = shift;
      segStart += item.capacity();
    }
    return new SegmentedBlockBytes(length, ends, shifts, arrays, views);
  }

  /** Confirms segment {@code i} starts where the capacities before it say. */
  private static void checkStart(MultiByteBuff buff, int i, ByteBuffer item, long start,
    ObjectIntPair<ByteBuffer> probe) {
    if (i <= 0 || item.capacity() == 0) {
      return;
    }
    buff.asSubByteBuffer((int) start, 1, probe);
    if (probe.getFirst() != item || probe.getSecond() != 0) {
      throw new IllegalArgumentException("MultiByteBuff segment " + i + " does not start at byte "
        + start + ", the sum of the capacities before it; it was built from partly filled"
        + " buffers, so its layout is unknown");
    }
  }

  @Override
  int length() {
    return length;
  }

  /** The first segment whose part of the block ends after {@code index}. */
  private int segmentOf(int index) {
    if (index < ends[0]) {
      return 0; // the header, and all of a block that starts well inside its first segment
    }
    int lo = 1;
    int hi = ends.length - 1;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (ends[mid] <= index) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  @Override
  byte byteAt(int index) {
    int s = segmentOf(index);
    byte[] a = arrays[s];
    return a != null ? a[index + shifts[s]] : views[s].clear().get(index + shifts[s]);
  }

  @Override
  int intAt(int index) {
    return intAt(index, segmentOf(index));
  }

  /** {@link #intAt(int)} when the segment holding {@code index} is known. */
  private int intAt(int index, int s) {
    if (index + 4 <= ends[s]) {
      byte[] a = arrays[s];
      return a != null
        ? (int) INT_BE.get(a, index + shifts[s])
        : views[s].clear().getInt(index + shifts[s]);
    }
    // The four bytes straddle a segment boundary.
    return (byteAt(index) & 0xff) << 24 | (byteAt(index + 1) & 0xff) << 16
      | (byteAt(index + 2) & 0xff) << 8 | (byteAt(index + 3) & 0xff);
  }

  @Override
  void putInt(int index, int value) {
    int s = segmentOf(index);
    if (index + 4 <= ends[s]) {
      byte[] a = arrays[s];
      if (a != null) {
        INT_BE.set(a, index + shifts[s], value);
      } else {
        views[s].clear().putInt(index + shifts[s], value);
      }
      return;
    }
    // The four bytes straddle a segment boundary.
    for (int k = 0; k < 4; k++) {
      int i = index + k;
      int t = segmentOf(i);
      byte b = (byte) (value >>> (24 - 8 * k));
      byte[] a = arrays[t];
      if (a != null) {
        a[i + shifts[t]] = b;
      } else {
        views[t].clear().put(i + shifts[t], b);
      }
    }
  }

  /** Feeds {@code [start, end)} to the CRC segment by segment, beginning at segment {@code s}. */
  private int update(Checksum crc, int s, int start, int end) {
    int off = start;
    while (off < end) {
      while (ends[s] <= off) {
        s++;
      }
      int stop = Math.min(end, ends[s]);
      byte[] a = arrays[s];
      if (a != null) {
        crc.update(a, off + shifts[s], stop - off);
      } else {
        // Limit first: it pulls the position back if needed, so the position can always follow.
        crc.update(views[s].limit(stop + shifts[s]).position(off + shifts[s]));
      }
      off = stop;
    }
    return s;
  }

  @Override
  void generate(Checksum crc, int dataLen, int bytesPerChecksum, int sumsAt) {
    int s = 0;
    int sum = sumsAt;
    for (int off = 0; off < dataLen; sum += BlockLayout.CHECKSUM_SIZE) {
      int n = Math.min(bytesPerChecksum, dataLen - off);
      crc.reset();
      s = update(crc, s, off, off + n);
      putInt(sum, (int) crc.getValue());
      off += n;
    }
  }

  @Override
  int firstBadChunk(Checksum crc, int dataLen, int bytesPerChecksum, int sumsAt) {
    int s = 0;
    int sum = sumsAt;
    int sumSegment = segmentOf(sumsAt);
    int chunk = 0;
    for (int off = 0; off < dataLen; chunk++) {
      int n = Math.min(bytesPerChecksum, dataLen - off);
      crc.reset();
      s = update(crc, s, off, off + n);
      while (ends[sumSegment] <= sum) {
        sumSegment++;
      }
      if ((int) crc.getValue() != intAt(sum, sumSegment)) {
        return chunk;
      }
      off += n;
      sum += BlockLayout.CHECKSUM_SIZE;
    }
    return -1;
  }

  @Override
  int crcOf(Checksum crc, int start, int len) {
    crc.reset();
    update(crc, segmentOf(start), start, start + len);
    return (int) crc.getValue();
  }
}
