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
 * <p>
 * Per-block setup is kept to one small array: header fields and checksums are read and written
 * with absolute accesses on the segments themselves (which change no buffer state, so a segment
 * shared with other readers is safe). A direct segment's bytes go to the CRC through this thread's
 * {@link DirectCarrier}, a buffer of the carrier's own pointed at the piece being read, so the
 * segment is neither duplicated nor moved; where the carrier is unavailable, a direct segment gets
 * a private duplicate while its bytes are fed to the CRC, which consumes a buffer through its
 * position and limit. Moving the segments' own position and limit instead would also avoid the
 * duplicates but is not safe in general: the same ByteBuffer objects may back another ByteBuff
 * read by another thread (a MultiByteBuff built with {@code ByteBuff.wrap} over shared buffers),
 * and this class promises to leave the caller's state alone.
 */
final class SegmentedBlockBytes extends BlockBytes {

  private static final VarHandle INT_BE =
    MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

  /** The MultiByteBuff's own segment array (not copied, never modified). */
  private final ByteBuffer[] items;
  /** Index in {@link #items} of the segment holding the block's first byte. */
  private final int first;
  private final int length;
  /** Segment {@code first}'s index of the block's first byte. */
  private final int firstBase;
  /** Block offset where the block's part of segment {@code first + s} ends (exclusive). */
  private final int[] ends;

  private SegmentedBlockBytes(ByteBuffer[] items, int first, int length, int firstBase,
    int[] ends) {
    this.items = items;
    this.first = first;
    this.length = length;
    this.firstBase = firstBase;
    this.ends = ends;
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
    int base = (int) (blockStart - firstStart);
    if (first < 0 || first == last) {
      ByteBuffer only = items[Math.max(first, 0)];
      checkStart(buff, first, only, firstStart, probe);
      return only.hasArray()
        ? new ArrayBlockBytes(only.array(), only.arrayOffset() + base, length)
        : new BufferBlockBytes(only, base, length);
    }
    int count = last - first + 1;
    int[] ends = new int[count];
    long segStart = firstStart;
    for (int s = 0; s < count; s++) {
      ByteBuffer item = items[first + s];
      checkStart(buff, first + s, item, segStart, probe);
      segStart += item.capacity();
      ends[s] = (int) Math.min(segStart - blockStart, length);
    }
    return new SegmentedBlockBytes(items, first, length, base, ends);
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

  /** Segment {@code s}'s own index of block offset {@code index} (not counting arrayOffset). */
  private int indexIn(int s, int index) {
    return s == 0 ? index + firstBase : index - ends[s - 1];
  }

  @Override
  byte byteAt(int index) {
    int s = segmentOf(index);
    return items[first + s].get(indexIn(s, index));
  }

  @Override
  int intAt(int index) {
    return intAt(index, segmentOf(index));
  }

  /** {@link #intAt(int)} when the segment holding {@code index} is known. */
  private int intAt(int index, int s) {
    if (index + 4 <= ends[s]) {
      ByteBuffer item = items[first + s];
      int at = indexIn(s, index);
      if (item.hasArray()) {
        return (int) INT_BE.get(item.array(), item.arrayOffset() + at);
      }
      int v = item.getInt(at);
      return item.order() == ByteOrder.BIG_ENDIAN ? v : Integer.reverseBytes(v);
    }
    // The four bytes straddle a segment boundary.
    return (byteAt(index) & 0xff) << 24 | (byteAt(index + 1) & 0xff) << 16
      | (byteAt(index + 2) & 0xff) << 8 | (byteAt(index + 3) & 0xff);
  }

  @Override
  void putInt(int index, int value) {
    int s = segmentOf(index);
    if (index + 4 <= ends[s]) {
      ByteBuffer item = items[first + s];
      int at = indexIn(s, index);
      if (item.hasArray()) {
        INT_BE.set(item.array(), item.arrayOffset() + at, value);
      } else {
        item.putInt(at, item.order() == ByteOrder.BIG_ENDIAN ? value : Integer.reverseBytes(value));
      }
      return;
    }
    // The four bytes straddle a segment boundary.
    for (int k = 0; k < 4; k++) {
      int i = index + k;
      int t = segmentOf(i);
      items[first + t].put(indexIn(t, i), (byte) (value >>> (24 - 8 * k)));
    }
  }

  /**
   * Feeds the chunks of {@code [0, dataLen)} to the CRC in block order and stores each chunk's
   * value at {@code sumsAt + 4 * chunk}, or with {@code verify} compares it with the value there
   * and stops at the first that differs; returns that chunk, or -1. A chunk is fed piece by piece,
   * one piece per segment it spans. A direct segment is read through this thread's
   * {@link DirectCarrier} when there is one (no allocation, the segment untouched); otherwise
   * through a private duplicate made when the walk enters that segment, one per direct segment at
   * most, since the CRC consumes a buffer through its position and limit. The walk state lives in
   * locals.
   */
  private int walk(Checksum crc, int dataLen, int bytesPerChecksum, int sumsAt,
    boolean verify) {
    DirectCarrier carrier = DirectCarrier.acquire();
    int s = 0;
    // The direct segment last entered: its carrier address, or its duplicate when it has none.
    int entered = -1;
    long address = 0;
    ByteBuffer view = null;
    int chunk = 0;
    for (int off = 0; off < dataLen; chunk++) {
      int end = Math.min(dataLen, off + bytesPerChecksum);
      crc.reset();
      while (off < end) {
        while (ends[s] <= off) {
          s++;
        }
        int stop = Math.min(end, ends[s]);
        ByteBuffer item = items[first + s];
        int shift = s == 0 ? firstBase : -ends[s - 1];
        if (item.hasArray()) {
          crc.update(item.array(), item.arrayOffset() + off + shift, stop - off);
        } else {
          if (entered != s) {
            entered = s;
            address = carrier == null ? 0 : DirectCarrier.addressOf(item);
            view = address == 0 ? item.duplicate() : null;
          }
          if (address != 0) {
            carrier.update(crc, item, address, off + shift, stop + shift);
          } else {
            // Limit first: it pulls the position back if needed, so the position can follow.
            crc.update(view.limit(stop + shift).position(off + shift));
          }
        }
        off = stop;
      }
      int sum = sumsAt + chunk * BlockLayout.CHECKSUM_SIZE;
      if (!verify) {
        putInt(sum, (int) crc.getValue());
      } else if ((int) crc.getValue() != intAt(sum)) {
        return chunk;
      }
    }
    return -1;
  }

  @Override
  void generate(Checksum crc, int dataLen, int bytesPerChecksum, int sumsAt) {
    walk(crc, dataLen, bytesPerChecksum, sumsAt, false);
  }

  @Override
  int firstBadChunk(Checksum crc, int dataLen, int bytesPerChecksum, int sumsAt) {
    return walk(crc, dataLen, bytesPerChecksum, sumsAt, true);
  }

  @Override
  int crcOf(Checksum crc, int start, int len) {
    // One chunk's CRC, only to describe a mismatch: not worth sharing the walk's duplicates.
    DirectCarrier carrier = DirectCarrier.acquire();
    crc.reset();
    int s = segmentOf(start);
    for (int off = start, end = start + len; off < end;) {
      while (ends[s] <= off) {
        s++;
      }
      int stop = Math.min(end, ends[s]);
      ByteBuffer item = items[first + s];
      int shift = s == 0 ? firstBase : -ends[s - 1];
      if (item.hasArray()) {
        crc.update(item.array(), item.arrayOffset() + off + shift, stop - off);
      } else {
        long address = carrier == null ? 0 : DirectCarrier.addressOf(item);
        if (address != 0) {
          carrier.update(crc, item, address, off + shift, stop + shift);
        } else {
          ByteBuffer view = item.duplicate();
          crc.update(view.limit(stop + shift).position(off + shift));
        }
      }
      off = stop;
    }
    return (int) crc.getValue();
  }
}
