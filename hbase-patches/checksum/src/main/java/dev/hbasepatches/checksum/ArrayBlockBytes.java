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
import java.nio.ByteOrder;
import java.util.zip.Checksum;

/** A block in a byte array (plain, or behind a heap ByteBuffer). */
final class ArrayBlockBytes extends BlockBytes {

  private static final VarHandle INT_BE =
    MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

  private final byte[] array;
  private final int base;
  private final int length;

  ArrayBlockBytes(byte[] array, int base, int length) {
    this.array = array;
    this.base = base;
    this.length = length;
  }

  @Override
  int length() {
    return length;
  }

  @Override
  byte byteAt(int index) {
    return array[base + index];
  }

  @Override
  int intAt(int index) {
    return (int) INT_BE.get(array, base + index);
  }

  @Override
  void putInt(int index, int value) {
    INT_BE.set(array, base + index, value);
  }

  @Override
  void generate(Checksum crc, int dataLen, int bytesPerChecksum, int sumsAt) {
    generate(crc, array, base, dataLen, bytesPerChecksum, array, base + sumsAt);
  }

  /** Chunk CRCs of {@code data[from, from + len)} into {@code sums} from {@code sumsFrom}. */
  static void generate(Checksum crc, byte[] data, int from, int len, int bytesPerChecksum,
    byte[] sums, int sumsFrom) {
    int sum = sumsFrom;
    for (int off = from, end = from + len; off < end; sum += BlockLayout.CHECKSUM_SIZE) {
      int n = Math.min(bytesPerChecksum, end - off);
      crc.reset();
      crc.update(data, off, n);
      INT_BE.set(sums, sum, (int) crc.getValue());
      off += n;
    }
  }

  @Override
  int firstBadChunk(Checksum crc, int dataLen, int bytesPerChecksum, int sumsAt) {
    byte[] a = array;
    int sum = base + sumsAt;
    int chunk = 0;
    for (int off = base, end = base + dataLen; off < end; chunk++) {
      int n = Math.min(bytesPerChecksum, end - off);
      crc.reset();
      crc.update(a, off, n);
      if ((int) crc.getValue() != (int) INT_BE.get(a, sum)) {
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
    crc.update(array, base + start, len);
    return (int) crc.getValue();
  }
}
