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
package dev.hbasepatches.checksum.overlay;

import java.nio.ByteBuffer;
import org.apache.hadoop.fs.ChecksumException;
import org.apache.hadoop.hbase.nio.ByteBuff;
import org.apache.hadoop.hbase.nio.SingleByteBuff;
import org.apache.hadoop.hbase.util.ChecksumType;
import org.apache.hadoop.util.DataChecksum;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * What the overlay's {@code ChecksumUtil} does when {@code hbasepatches.checksum.enabled} is
 * false: the stock HBase 2.6 behaviour over Hadoop's {@link DataChecksum}, written here because the
 * overlay hides HBase's own class. Same results and same failures as stock (an unknown type code
 * throws, as {@code ChecksumType.codeToType} does), including the copies the change removes.
 */
@InterfaceAudience.Private
public final class StockChecksumPath {

  /** HBase's header: checksum type byte, bytes per checksum, on-disk data size with header. */
  private static final int TYPE_AT = 24;
  private static final int BYTES_PER_CHECKSUM_AT = 25;
  private static final int DATA_SIZE_WITH_HEADER_AT = 29;
  /** Stock HBase feeds multi-segment blocks through a scratch array this big. */
  private static final int COPY_BYTES = 256;

  private StockChecksumPath() {
  }

  /** Chunk checksums of {@code in[start, end)} into {@code out} from {@code outOffset}. */
  public static void generate(byte[] in, int start, int end, byte[] out, int outOffset,
    ChecksumType type, int bytesPerChecksum) {
    if (type == ChecksumType.NULL) {
      return;
    }
    DataChecksum sum = DataChecksum.newDataChecksum(type.getDataChecksumType(), bytesPerChecksum);
    sum.calculateChunkedSums(ByteBuffer.wrap(in, start, end - start),
      ByteBuffer.wrap(out, outOffset, out.length - outOffset));
  }

  /** Whether the block from index 0 of {@code block} to its limit carries good checksums. */
  public static boolean validate(ByteBuff block, String pathName) {
    ChecksumType type = ChecksumType.codeToType(block.get(TYPE_AT));
    if (type == ChecksumType.NULL) {
      return true;
    }
    int bytesPerChecksum = block.getInt(BYTES_PER_CHECKSUM_AT);
    DataChecksum sum = DataChecksum.newDataChecksum(type.getDataChecksumType(), bytesPerChecksum);
    if (sum == null) {
      // Hadoop refuses a non-positive chunk size by returning null; stock fails on it too.
      throw new IllegalStateException("bytes per checksum " + bytesPerChecksum + " in " + pathName);
    }
    int dataLen = block.getInt(DATA_SIZE_WITH_HEADER_AT);
    int end = block.limit();
    if (block instanceof SingleByteBuff) {
      ByteBuffer whole = block.nioByteBuffers()[0];
      ByteBuffer data = whole.duplicate();
      data.position(0).limit(dataLen);
      ByteBuffer sums = whole.duplicate();
      sums.position(dataLen).limit(end);
      try {
        sum.verifyChunkedSums(data, sums, pathName, 0);
        return true;
      } catch (ChecksumException e) {
        return false;
      }
    }
    byte[] scratch = new byte[COPY_BYTES];
    int sumAt = dataLen;
    for (int off = 0; off < dataLen; off += bytesPerChecksum, sumAt += 4) {
      int chunkEnd = Math.min(dataLen, off + bytesPerChecksum);
      sum.reset();
      for (int at = off; at < chunkEnd; at += COPY_BYTES) {
        int n = Math.min(COPY_BYTES, chunkEnd - at);
        block.get(at, scratch, 0, n);
        sum.update(scratch, 0, n);
      }
      if ((int) sum.getValue() != block.getInt(sumAt)) {
        return false;
      }
    }
    return true;
  }
}
