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

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.apache.hadoop.hbase.nio.ByteBuff;
import org.apache.hadoop.hbase.nio.MultiByteBuff;
import org.apache.hadoop.hbase.nio.SingleByteBuff;
import org.apache.hadoop.hbase.util.ChecksumType;
import org.junit.Test;

/**
 * HBase's fields are big-endian whatever order the caller's buffers are set to: header fields and
 * checksums are read and written with absolute accesses on the caller's own buffers, so their
 * byte order must not leak in. Also checks the caller's buffers keep their position and limit.
 */
public class TestBufferByteOrder {

  private final BlockChecksummer checksummer = BlockChecksummer.intrinsic();

  @Test
  public void littleEndianDirectBuffer() throws Exception {
    for (int bpc : new int[] { 100, 16384 }) {
      byte[] block = TestBlocks.upstreamBlock(ChecksumType.CRC32C, bpc, 5000, bpc);
      check(block, () -> new SingleByteBuff(le(direct(block))));
    }
  }

  @Test
  public void littleEndianSegments() throws Exception {
    for (int bpc : new int[] { 100, 1000, 16384 }) {
      byte[] block = TestBlocks.upstreamBlock(ChecksumType.CRC32, bpc, 5000, bpc);
      // Cuts inside the header, inside a checksum and mid-chunk; a little-endian heap tail.
      int dataSize = 5000;
      int[] cuts = { 27, 1500, dataSize + 2, block.length };
      check(block, () -> {
        ByteBuffer[] segs = new ByteBuffer[cuts.length];
        int from = 0;
        for (int i = 0; i < cuts.length; i++) {
          byte[] part = Arrays.copyOfRange(block, from, cuts[i]);
          segs[i] = le(i == cuts.length - 1 ? ByteBuffer.wrap(part) : direct(part));
          from = cuts[i];
        }
        return new MultiByteBuff(segs);
      });
    }
  }

  private interface Storage {
    ByteBuff make();
  }

  private void check(byte[] block, Storage storage) throws Exception {
    ByteBuff good = storage.make();
    int position = good.position();
    int limit = good.limit();
    assertTrue(checksummer.verify(good).passed());
    assertEquals(position, good.position());
    assertEquals(limit, good.limit());

    byte[] unsummed = block.clone();
    int dataSize = block.length - BlockLayout.checksumBytes(5000, bytesPerChecksum(block));
    Arrays.fill(unsummed, dataSize, unsummed.length, (byte) 0x5A);
    ByteBuff refill = storage.make();
    ByteBuff fresh = wrapLike(refill, unsummed);
    checksummer.fillChecksums(fresh);
    byte[] out = new byte[block.length];
    fresh.duplicate().position(0).get(out);
    assertArrayEquals(block, out);

    ByteBuff damaged = storage.make();
    damaged.put(dataSize + 1, (byte) (damaged.get(dataSize + 1) ^ 1));
    BlockVerification v = checksummer.verify(damaged);
    assertFalse(v.passed());
    assertEquals(0, v.badChunk());
  }

  /** The same kind of storage as {@code like}, holding {@code bytes}. */
  private static ByteBuff wrapLike(ByteBuff like, byte[] bytes) {
    ByteBuffer[] segs = like.nioByteBuffers();
    int from = 0;
    for (ByteBuffer s : segs) {
      ByteBuffer d = s.duplicate();
      d.clear();
      d.put(bytes, from, d.capacity());
      from += d.capacity();
    }
    return like;
  }

  private static int bytesPerChecksum(byte[] block) {
    return ByteBuffer.wrap(block).getInt(BlockLayout.BYTES_PER_CHECKSUM_OFFSET);
  }

  private static ByteBuffer le(ByteBuffer b) {
    return b.order(ByteOrder.LITTLE_ENDIAN);
  }

  private static ByteBuffer direct(byte[] bytes) {
    ByteBuffer d = ByteBuffer.allocateDirect(bytes.length);
    d.put(bytes).clear();
    return d;
  }
}
