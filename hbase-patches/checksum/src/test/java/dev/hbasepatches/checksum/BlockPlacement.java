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
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.nio.ByteBuff;
import org.apache.hadoop.hbase.nio.MultiByteBuff;
import org.apache.hadoop.hbase.nio.SingleByteBuff;

/**
 * Every kind of storage a block reaches the checksummer in. Blocks are placed away from the start
 * of their storage, with other bytes around them, so offsets and limits are exercised too.
 */
enum BlockPlacement {
  BYTE_ARRAY(false),
  HEAP_BUFFER(false),
  DIRECT_BUFFER(false),
  READ_ONLY_HEAP_BUFFER(true),
  SINGLE_HEAP_BUFF(false),
  SINGLE_DIRECT_BUFF(false),
  /** Two direct segments split mid-chunk, like a block larger than one pooled buffer. */
  MULTI_TWO_DIRECT(false),
  /** Pooled-size direct segments plus a heap tail, as HBase's ByteBuffAllocator hands them out. */
  MULTI_DIRECT_HEAP_TAIL(false),
  /** Seven-byte segments: boundaries inside the header, every chunk and the checksums. */
  MULTI_TINY_SEGMENTS(false),
  /** A MultiByteBuff whose second segment holds exactly the block. */
  MULTI_BLOCK_IN_ONE_SEGMENT(false);

  private static final int LEAD = 7;
  private static final int TRAIL = 5;

  private final boolean readOnly;

  BlockPlacement(boolean readOnly) {
    this.readOnly = readOnly;
  }

  boolean readOnly() {
    return readOnly;
  }

  /** The block copied into storage of this kind. */
  Placed place(byte[] block) {
    byte[] padded = new byte[LEAD + block.length + TRAIL];
    for (int i = 0; i < padded.length; i++) {
      padded[i] = (byte) (0xA5 ^ i);
    }
    System.arraycopy(block, 0, padded, LEAD, block.length);
    switch (this) {
      case BYTE_ARRAY:
        return new Placed(padded, null, null, block.length);
      case HEAP_BUFFER:
        return new Placed(null, window(ByteBuffer.wrap(padded), block.length), null, block.length);
      case DIRECT_BUFFER:
        return new Placed(null, window(direct(padded), block.length), null, block.length);
      case READ_ONLY_HEAP_BUFFER:
        return new Placed(null, window(ByteBuffer.wrap(padded), block.length).asReadOnlyBuffer(),
          null, block.length);
      case SINGLE_HEAP_BUFF:
        return new Placed(null, null,
          new SingleByteBuff(window(ByteBuffer.wrap(padded), block.length)), block.length);
      case SINGLE_DIRECT_BUFF:
        return new Placed(null, null, new SingleByteBuff(window(direct(padded), block.length)),
          block.length);
      case MULTI_TWO_DIRECT:
        return multi(padded, block.length, new int[] { padded.length / 2 + 13 }, false);
      case MULTI_DIRECT_HEAP_TAIL:
        return multi(padded, block.length, evenSplits(padded.length, 1000), true);
      case MULTI_TINY_SEGMENTS:
        return multi(padded, block.length, evenSplits(padded.length, 7), false);
      case MULTI_BLOCK_IN_ONE_SEGMENT:
        return multi(padded, block.length, new int[] { LEAD, LEAD + block.length }, false);
      default:
        throw new AssertionError(this);
    }
  }

  /** A MultiByteBuff over {@code padded} cut at the given points (each clamped into range). */
  static Placed multi(byte[] padded, int blockLength, int[] cuts, boolean heapTail) {
    List<ByteBuffer> segments = new ArrayList<>();
    int from = 0;
    for (int i = 0; i <= cuts.length; i++) {
      int to = i < cuts.length ? Math.max(from, Math.min(cuts[i], padded.length)) : padded.length;
      if (to == from && i < cuts.length) {
        continue;
      }
      byte[] part = java.util.Arrays.copyOfRange(padded, from, to);
      boolean last = i == cuts.length;
      segments.add(last && heapTail ? ByteBuffer.wrap(part) : direct(part));
      from = to;
    }
    MultiByteBuff mbb = new MultiByteBuff(segments.toArray(new ByteBuffer[0]));
    mbb.position(LEAD);
    mbb.limit(LEAD + blockLength);
    return new Placed(null, null, mbb, blockLength);
  }

  private static int[] evenSplits(int length, int segment) {
    int[] cuts = new int[(length - 1) / segment];
    for (int i = 0; i < cuts.length; i++) {
      cuts[i] = (i + 1) * segment;
    }
    return cuts;
  }

  private static ByteBuffer window(ByteBuffer whole, int blockLength) {
    whole.position(LEAD).limit(LEAD + blockLength);
    return whole;
  }

  private static ByteBuffer direct(byte[] bytes) {
    ByteBuffer d = ByteBuffer.allocateDirect(bytes.length);
    d.put(bytes).clear();
    return d;
  }

  /** A block in one kind of storage. */
  static final class Placed {
    private final byte[] array;
    private final ByteBuffer buffer;
    private final ByteBuff buff;
    private final int length;

    private Placed(byte[] array, ByteBuffer buffer, ByteBuff buff, int length) {
      this.array = array;
      this.buffer = buffer;
      this.buff = buff;
      this.length = length;
    }

    BlockVerification verify(BlockChecksummer c) throws MalformedBlockException {
      if (array != null) {
        return c.verify(array, LEAD, length);
      }
      return buffer != null ? c.verify(buffer) : c.verify(buff);
    }

    BlockLayout fill(BlockChecksummer c) throws MalformedBlockException {
      if (array != null) {
        return c.fillChecksums(array, LEAD, length);
      }
      return buffer != null ? c.fillChecksums(buffer) : c.fillChecksums(buff);
    }

    /** Position and limit as they were placed (the checksummer must not move them). */
    int[] positionAndLimit() {
      if (buffer != null) {
        return new int[] { buffer.position(), buffer.limit() };
      }
      if (buff != null) {
        return new int[] { buff.position(), buff.limit() };
      }
      return new int[] { LEAD, LEAD + length };
    }

    /** The block's bytes as they are now. */
    byte[] bytes() {
      byte[] out = new byte[length];
      if (array != null) {
        System.arraycopy(array, LEAD, out, 0, length);
      } else if (buffer != null) {
        buffer.duplicate().get(out);
      } else {
        buff.duplicate().get(out);
      }
      return out;
    }

    /** Flips one bit of the block in place. */
    void flipBit(int bit) {
      int i = bit >>> 3;
      byte mask = (byte) (1 << (bit & 7));
      if (array != null) {
        array[LEAD + i] ^= mask;
      } else if (buffer != null) {
        int at = buffer.position() + i;
        if (buffer.isReadOnly()) {
          throw new UnsupportedOperationException("read-only placement");
        }
        buffer.put(at, (byte) (buffer.get(at) ^ mask));
      } else {
        int at = buff.position() + i;
        buff.put(at, (byte) (buff.get(at) ^ mask));
      }
    }
  }
}
