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

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.Checksum;

/**
 * A block in a ByteBuffer with no accessible array: direct (the CRC reads it by address), or a
 * read-only heap buffer (the JDK's CRC then reads it through a small scratch array; rare in HBase).
 * A direct buffer's chunks go to the CRC through this thread's {@link DirectCarrier}, so the
 * caller's buffer is neither duplicated nor moved; without a carrier (and for read-only heap
 * buffers) they go through one private duplicate whose limit is moved chunk by chunk.
 */
final class BufferBlockBytes extends BlockBytes {

  /**
   * Walked chunk by chunk when there is no carrier: its limit is moved to each chunk's end and the
   * CRC consumes it. Made on first use, so the carrier path allocates none.
   */
  private ByteBuffer chunkView;
  /**
   * The caller's buffer, for absolute reads and writes of header fields and checksums: they change
   * no buffer state, so no duplicate is needed for them.
   */
  private final ByteBuffer fields;
  /** Whether the caller's buffer is little-endian (HBase's fields are big-endian). */
  private final boolean swap;
  private final int base;
  private final int length;

  BufferBlockBytes(ByteBuffer buffer, int base, int length) {
    this.fields = buffer;
    this.swap = buffer.order() != ByteOrder.BIG_ENDIAN;
    this.base = base;
    this.length = length;
  }

  /** The duplicate the no-carrier path walks, cleared. */
  private ByteBuffer view() {
    ByteBuffer v = chunkView;
    if (v == null) {
      v = fields.duplicate();
      chunkView = v;
    }
    v.clear();
    return v;
  }

  @Override
  int length() {
    return length;
  }

  @Override
  byte byteAt(int index) {
    return fields.get(base + index);
  }

  @Override
  int intAt(int index) {
    int v = fields.getInt(base + index);
    return swap ? Integer.reverseBytes(v) : v;
  }

  @Override
  void putInt(int index, int value) {
    fields.putInt(base + index, swap ? Integer.reverseBytes(value) : value);
  }

  @Override
  void generate(Checksum crc, int dataLen, int bytesPerChecksum, int sumsAt) {
    DirectCarrier carrier = DirectCarrier.acquire();
    long address = carrier == null ? 0 : DirectCarrier.addressOf(fields);
    ByteBuffer v = address == 0 ? view().position(base) : null;
    int sum = base + sumsAt;
    for (int off = base, end = base + dataLen; off < end; sum += BlockLayout.CHECKSUM_SIZE) {
      int n = Math.min(bytesPerChecksum, end - off);
      crc.reset();
      if (address != 0) {
        carrier.update(crc, fields, address, off, off + n);
      } else {
        // The previous chunk left the position at this chunk's start.
        crc.update(v.limit(off + n));
      }
      off += n;
      int value = (int) crc.getValue();
      fields.putInt(sum, swap ? Integer.reverseBytes(value) : value);
    }
  }

  @Override
  int firstBadChunk(Checksum crc, int dataLen, int bytesPerChecksum, int sumsAt) {
    DirectCarrier carrier = DirectCarrier.acquire();
    long address = carrier == null ? 0 : DirectCarrier.addressOf(fields);
    ByteBuffer v = address == 0 ? view().position(base) : null;
    ByteBuffer sums = fields;
    int sum = base + sumsAt;
    int chunk = 0;
    for (int off = base, end = base + dataLen; off < end; chunk++) {
      int n = Math.min(bytesPerChecksum, end - off);
      crc.reset();
      if (address != 0) {
        carrier.update(crc, fields, address, off, off + n);
      } else {
        crc.update(v.limit(off + n));
      }
      off += n;
      int stored = sums.getInt(sum);
      if ((int) crc.getValue() != (swap ? Integer.reverseBytes(stored) : stored)) {
        return chunk;
      }
      sum += BlockLayout.CHECKSUM_SIZE;
    }
    return -1;
  }

  @Override
  int crcOf(Checksum crc, int start, int len) {
    crc.reset();
    DirectCarrier carrier = DirectCarrier.acquire();
    long address = carrier == null ? 0 : DirectCarrier.addressOf(fields);
    if (address != 0) {
      carrier.update(crc, fields, address, base + start, base + start + len);
    } else {
      crc.update(view().position(base + start).limit(base + start + len));
    }
    return (int) crc.getValue();
  }
}
