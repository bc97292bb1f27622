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

import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import dev.hbasepatches.testkit.UpstreamChecksumUtil;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.nio.ByteBuff;
import org.apache.hadoop.hbase.nio.MultiByteBuff;
import org.apache.hadoop.hbase.util.ChecksumType;
import org.junit.Test;

/**
 * Headers that cannot describe a block are reported as such, in every kind of storage; nothing
 * passes silently and nothing escapes as an unchecked crash. HBASE-29158 (an unknown type code
 * threw a RuntimeException out of the reader) and HBASE-28065 (corrupt sizes trusted before the
 * block was checked) are the upstream failures these mirror.
 */
public class TestMalformedBlocks {

  private final BlockChecksummer checksummer = BlockChecksummer.intrinsic();

  private static byte[] good() {
    return TestBlocks.upstreamBlock(ChecksumType.CRC32C, 512, 4133, 77);
  }

  private void assertMalformed(byte[] block, String messagePart) {
    for (BlockPlacement p : BlockPlacement.values()) {
      MalformedBlockException e = assertThrows(p.name(), MalformedBlockException.class,
        () -> p.place(block).verify(checksummer));
      assertTrue(p + ": " + e.getMessage(), e.getMessage().contains(messagePart));
      if (!p.readOnly()) {
        MalformedBlockException f = assertThrows(p.name(), MalformedBlockException.class,
          () -> p.place(block.clone()).fill(checksummer));
        assertTrue(p + ": " + f.getMessage(), f.getMessage().contains(messagePart));
      }
    }
  }

  @Test
  public void unknownChecksumTypeCode() {
    for (byte code : new byte[] { 3, 4, 0x7f, -1, -128 }) {
      byte[] block = good();
      block[BlockLayout.CHECKSUM_TYPE_OFFSET] = code;
      assertMalformed(block, "unknown checksum type code " + code);
      // Upstream throws an unchecked error from deep in the reader instead (HBASE-29158).
      assertThrows(RuntimeException.class, () -> UpstreamChecksumUtil
        .validateChecksum(ByteBuff.wrap(ByteBuffer.wrap(block)), "t", 0));
    }
  }

  @Test
  public void bytesPerChecksumNotPositive() {
    for (int bpc : new int[] { 0, -1, Integer.MIN_VALUE }) {
      byte[] block = good();
      ByteBuffer.wrap(block).putInt(BlockLayout.BYTES_PER_CHECKSUM_OFFSET, bpc);
      assertMalformed(block, "bytes per checksum is " + bpc);
    }
  }

  @Test
  public void truncatedBlocks() {
    byte[] block = good();
    for (int keep : new int[] { block.length - 1, block.length - 4, 4133, 100, 33 }) {
      assertMalformed(Arrays.copyOf(block, keep), "truncated block: header says");
    }
    for (int keep : new int[] { 32, 1, 0 }) {
      assertMalformed(Arrays.copyOf(block, keep), "shorter than the 33-byte header");
    }
  }

  @Test
  public void trailingBytesAreNotIgnored() {
    byte[] block = good();
    assertMalformed(Arrays.copyOf(block, block.length + 33), "pass exactly one block");
  }

  @Test
  public void inconsistentSizes() {
    byte[] negative = good();
    ByteBuffer.wrap(negative).putInt(BlockLayout.ON_DISK_SIZE_WITHOUT_HEADER_OFFSET, -5);
    assertMalformed(negative, "cannot be negative");

    for (int dataSize : new int[] { 0, 32, -1, 1 << 30 }) {
      byte[] block = good();
      ByteBuffer.wrap(block).putInt(BlockLayout.ON_DISK_DATA_SIZE_WITH_HEADER_OFFSET, dataSize);
      assertMalformed(block, "onDiskDataSizeWithHeader is " + dataSize);
    }
    // Sizes each in range, but a checksum area that does not fit the chunk count.
    byte[] area = good();
    ByteBuffer.wrap(area).putInt(BlockLayout.ON_DISK_DATA_SIZE_WITH_HEADER_OFFSET, 4133 - 512);
    assertMalformed(area, "checksum area is");
    byte[] bpc = good();
    ByteBuffer.wrap(bpc).putInt(BlockLayout.BYTES_PER_CHECKSUM_OFFSET, 16384);
    assertMalformed(bpc, "checksum area is");
  }

  @Test
  public void badArguments() {
    byte[] block = good();
    assertThrows(IllegalArgumentException.class, () -> checksummer.verify(null, 0, 10));
    assertThrows(IllegalArgumentException.class, () -> checksummer.verify(block, -1, 10));
    assertThrows(IllegalArgumentException.class,
      () -> checksummer.verify(block, 10, block.length));
    assertThrows(IllegalArgumentException.class, () -> checksummer.verify((ByteBuffer) null));
    assertThrows(IllegalArgumentException.class, () -> checksummer.verify((ByteBuff) null));
    byte[] sums = new byte[100];
    assertThrows(IllegalArgumentException.class,
      () -> checksummer.generateChunks(ChecksumType.CRC32C, 0, block, 0, 100, sums, 0));
    assertThrows(IllegalArgumentException.class,
      () -> checksummer.generateChunks(ChecksumType.CRC32C, 16, block, 0, 1000, sums, 0));
    assertThrows(IllegalArgumentException.class,
      () -> checksummer.generateChunks(null, 16, block, 0, 100, sums, 0));
    assertThrows(IllegalArgumentException.class,
      () -> checksummer.generateChunks(ChecksumType.CRC32, 16, block, 50, 10, sums, 0));
    assertThrows(IllegalArgumentException.class, () -> new BlockChecksummer(null, true));
  }

  @Test
  public void multiByteBuffOfPartlyFilledSegmentsIsRefused() {
    byte[] block = good();
    // The first segment holds 100 bytes of a 200-byte array: the MultiByteBuff numbers its bytes
    // by fill, not capacity, so the layout cannot be derived from the segments alone.
    byte[] first = Arrays.copyOf(block, 200);
    ByteBuffer partial = ByteBuffer.wrap(first, 0, 100);
    ByteBuffer rest = ByteBuffer.wrap(Arrays.copyOfRange(block, 100, block.length));
    MultiByteBuff mbb = new MultiByteBuff(partial, rest);
    IllegalArgumentException e =
      assertThrows(IllegalArgumentException.class, () -> checksummer.verify(mbb));
    assertTrue(e.getMessage(), e.getMessage().contains("partly filled"));
  }

  @Test
  public void configuration() {
    Configuration conf = new Configuration(false);
    assertTrue(ChecksumConfig.enabled(conf));
    conf.setBoolean(ChecksumConfig.ENABLED_KEY, false);
    assertTrue(!ChecksumConfig.enabled(conf));
    assertTrue(ChecksumConfig.checksummer(conf).engine() == CrcEngine.INTRINSIC);
    conf.set(ChecksumConfig.ENGINE_KEY, " Pure-Java ");
    assertTrue(ChecksumConfig.checksummer(conf).engine() == CrcEngine.PURE_JAVA);
    conf.set(ChecksumConfig.ENGINE_KEY, "table");
    IllegalArgumentException gone =
      assertThrows(IllegalArgumentException.class, () -> ChecksumConfig.checksummer(conf));
    assertTrue(gone.getMessage(), gone.getMessage().contains("pure-java"));
    conf.set(ChecksumConfig.ENGINE_KEY, "native");
    IllegalArgumentException e =
      assertThrows(IllegalArgumentException.class, () -> ChecksumConfig.checksummer(conf));
    assertTrue(e.getMessage(), e.getMessage().contains("unknown checksum engine 'native'"));
  }
}
