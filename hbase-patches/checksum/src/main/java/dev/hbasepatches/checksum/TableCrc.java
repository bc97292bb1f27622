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
import java.util.Objects;
import java.util.zip.Checksum;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * A pure-Java, table-driven CRC-32 over a reflected polynomial, eight bytes per step ("slicing by
 * 8"). This is the cost HBase paid per byte before it reached the CPU's CRC instructions; it is the
 * BASELINE the benchmarks compare against, and results equal java.util.zip's for the same
 * polynomial.
 */
@InterfaceAudience.Private
public final class TableCrc implements Checksum {

  /** Reflected CRC-32 (IEEE 802.3, zlib) polynomial. */
  static final int CRC32_POLY = 0xEDB88320;
  /** Reflected CRC-32C (Castagnoli, iSCSI) polynomial. */
  static final int CRC32C_POLY = 0x82F63B78;

  private static final int[] CRC32_TABLES = tables(CRC32_POLY);
  private static final int[] CRC32C_TABLES = tables(CRC32C_POLY);

  // Little-endian views: the reflected CRC consumes the lowest-addressed byte first.
  private static final VarHandle ARRAY_INT_LE =
    MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle BUFFER_INT_LE =
    MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

  private final int[] t;
  private int crc = 0xFFFFFFFF;

  private TableCrc(int[] tables) {
    this.t = tables;
  }

  public static TableCrc crc32() {
    return new TableCrc(CRC32_TABLES);
  }

  public static TableCrc crc32c() {
    return new TableCrc(CRC32C_TABLES);
  }

  /** Eight 256-entry tables, back to back; table k advances a byte through k more zero bytes. */
  private static int[] tables(int poly) {
    int[] t = new int[8 * 256];
    for (int n = 0; n < 256; n++) {
      int c = n;
      for (int bit = 0; bit < 8; bit++) {
        c = (c & 1) != 0 ? (c >>> 1) ^ poly : c >>> 1;
      }
      t[n] = c;
    }
    for (int k = 1; k < 8; k++) {
      for (int n = 0; n < 256; n++) {
        int prev = t[(k - 1) * 256 + n];
        t[k * 256 + n] = (prev >>> 8) ^ t[prev & 0xff];
      }
    }
    return t;
  }

  @Override
  public void update(int b) {
    crc = (crc >>> 8) ^ t[(crc ^ b) & 0xff];
  }

  @Override
  public void update(byte[] b, int off, int len) {
    Objects.checkFromIndexSize(off, len, b.length);
    int[] t = this.t;
    int c = crc;
    int i = off;
    int end = off + len;
    for (; end - i >= 8; i += 8) {
      int lo = c ^ (int) ARRAY_INT_LE.get(b, i);
      int hi = (int) ARRAY_INT_LE.get(b, i + 4);
      c = step8(t, lo, hi);
    }
    for (; i < end; i++) {
      c = (c >>> 8) ^ t[(c ^ b[i]) & 0xff];
    }
    crc = c;
  }

  /** Reads the buffer in place (absolute indexes), whatever its kind; no copy. */
  @Override
  public void update(ByteBuffer buffer) {
    int pos = buffer.position();
    int end = buffer.limit();
    if (buffer.hasArray()) {
      update(buffer.array(), buffer.arrayOffset() + pos, end - pos);
    } else {
      int[] t = this.t;
      int c = crc;
      int i = pos;
      for (; end - i >= 8; i += 8) {
        int lo = c ^ (int) BUFFER_INT_LE.get(buffer, i);
        int hi = (int) BUFFER_INT_LE.get(buffer, i + 4);
        c = step8(t, lo, hi);
      }
      for (; i < end; i++) {
        c = (c >>> 8) ^ t[(c ^ buffer.get(i)) & 0xff];
      }
      crc = c;
    }
    buffer.position(end);
  }

  private static int step8(int[] t, int lo, int hi) {
    return t[7 * 256 + (lo & 0xff)] ^ t[6 * 256 + ((lo >>> 8) & 0xff)]
      ^ t[5 * 256 + ((lo >>> 16) & 0xff)] ^ t[4 * 256 + (lo >>> 24)]
      ^ t[3 * 256 + (hi & 0xff)] ^ t[2 * 256 + ((hi >>> 8) & 0xff)]
      ^ t[256 + ((hi >>> 16) & 0xff)] ^ t[hi >>> 24];
  }

  @Override
  public long getValue() {
    return ~crc & 0xFFFFFFFFL;
  }

  @Override
  public void reset() {
    crc = 0xFFFFFFFF;
  }
}
