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
import java.util.zip.Checksum;
import org.apache.hadoop.hbase.nio.ByteBuff;
import org.apache.hadoop.hbase.nio.MultiByteBuff;
import org.apache.hadoop.hbase.nio.SingleByteBuff;

/**
 * One block's bytes in one kind of storage, with the per-chunk CRC loops written for that storage
 * so that the loop itself never dispatches on the buffer kind and never copies. Offsets are
 * relative to the block's first byte.
 */
abstract class BlockBytes {

  abstract int length();

  abstract byte byteAt(int index);

  /** Big-endian, as HBase stores header fields and checksums. */
  abstract int intAt(int index);

  abstract void putInt(int index, int value);

  /** Stores the CRC of each chunk of {@code [0, dataLen)} at {@code sumsAt + 4 * chunk}. */
  abstract void generate(Checksum crc, int dataLen, int bytesPerChecksum, int sumsAt);

  /** Index of the first chunk of {@code [0, dataLen)} whose stored CRC differs, or -1. */
  abstract int firstBadChunk(Checksum crc, int dataLen, int bytesPerChecksum, int sumsAt);

  /** CRC of {@code [start, start + len)}; for describing a mismatch, not for the hot loop. */
  abstract int crcOf(Checksum crc, int start, int len);

  static BlockBytes of(byte[] block, int offset, int length) {
    if (block == null) {
      throw new IllegalArgumentException("block array is null");
    }
    if (offset < 0 || length < 0 || offset > block.length - length) {
      throw new IllegalArgumentException("block range [" + offset + ", " + offset + "+" + length
        + ") lies outside the " + block.length + "-byte array");
    }
    return new ArrayBlockBytes(block, offset, length);
  }

  /** The block is {@code [position, limit)} of the buffer; the buffer's state is not changed. */
  static BlockBytes of(ByteBuffer block) {
    if (block == null) {
      throw new IllegalArgumentException("block buffer is null");
    }
    if (block.hasArray()) {
      return new ArrayBlockBytes(block.array(), block.arrayOffset() + block.position(),
        block.remaining());
    }
    return new BufferBlockBytes(block, block.position(), block.remaining());
  }

  /** The block is {@code [position, limit)} of the ByteBuff; its state is not changed. */
  static BlockBytes of(ByteBuff block) {
    if (block == null) {
      throw new IllegalArgumentException("block ByteBuff is null");
    }
    if (block instanceof SingleByteBuff) {
      // A SingleByteBuff's position and limit are its buffer's.
      return of(block.nioByteBuffers()[0]);
    }
    if (block instanceof MultiByteBuff) {
      return SegmentedBlockBytes.of((MultiByteBuff) block);
    }
    throw new IllegalArgumentException("unsupported ByteBuff kind " + block.getClass().getName());
  }
}
