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

import dev.hbasepatches.testkit.UpstreamChecksumUtil;
import java.util.Random;
import org.apache.hadoop.hbase.util.ChecksumType;

/** Builds HFile-layout blocks whose checksums come from HBase's own writer code. */
final class TestBlocks {

  private TestBlocks() {
  }

  /**
   * A block of {@code dataSizeWithHeader} bytes of header and random data followed by its checksum
   * area, filled in by {@code ChecksumUtil.generateChecksums} (NULL leaves the slots zeroed, as
   * HBase's writer does).
   */
  static byte[] upstreamBlock(ChecksumType type, int bytesPerChecksum, int dataSizeWithHeader,
    long seed) {
    byte[] block = unsummedBlock(type, bytesPerChecksum, dataSizeWithHeader, seed);
    UpstreamChecksumUtil.generateChecksums(block, 0, dataSizeWithHeader, block,
      dataSizeWithHeader, type, bytesPerChecksum);
    return block;
  }

  /** Header and random data, checksum area left zero. */
  static byte[] unsummedBlock(ChecksumType type, int bytesPerChecksum, int dataSizeWithHeader,
    long seed) {
    int size = dataSizeWithHeader + BlockLayout.checksumBytes(dataSizeWithHeader, bytesPerChecksum);
    byte[] block = new byte[size];
    byte[] data = new byte[dataSizeWithHeader - BlockLayout.HEADER_SIZE];
    new Random(seed).nextBytes(data);
    System.arraycopy(data, 0, block, BlockLayout.HEADER_SIZE, data.length);
    BlockLayout.writeDataBlockHeader(block, 0, type, bytesPerChecksum, dataSizeWithHeader);
    return block;
  }

  static void flipBit(byte[] block, int bit) {
    block[bit >>> 3] ^= (byte) (1 << (bit & 7));
  }
}
