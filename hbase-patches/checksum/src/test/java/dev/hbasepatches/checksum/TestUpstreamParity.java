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
import static org.junit.Assert.assertTrue;

import dev.hbasepatches.testkit.UpstreamChecksumUtil;
import java.nio.ByteBuffer;
import org.apache.hadoop.hbase.nio.ByteBuff;
import org.apache.hadoop.hbase.util.ChecksumType;
import org.junit.Test;

/**
 * Our checksums are HBase's, byte for byte: for every checksum type, chunk sizes round and odd,
 * block sizes that end mid-chunk, and every kind of storage.
 */
public class TestUpstreamParity {

  private static final int[] BYTES_PER_CHECKSUM = { 1, 7, 512, 513, 1000, 16383, 16384, 65536 };
  private static final int[] DATA_SIZES_WITH_HEADER = { 33, 34, 100, 4096, 4133, 65536, 70001 };

  private final BlockChecksummer ours = BlockChecksummer.intrinsic();
  private final BlockChecksummer table = new BlockChecksummer(CrcEngine.PURE_JAVA, true);

  @Test
  public void upstreamIsHBasesOwnChecksumUtilFromTheHBaseServerJar() {
    String where = UpstreamChecksumUtil.requireStock();
    assertTrue(where, where.contains("hbase-server"));
  }

  @Test
  public void fillWritesUpstreamBytesAndVerifyAcceptsThem() throws Exception {
    long seed = 1;
    for (ChecksumType type : ChecksumType.values()) {
      for (int bpc : BYTES_PER_CHECKSUM) {
        for (int size : DATA_SIZES_WITH_HEADER) {
          byte[] expected = TestBlocks.upstreamBlock(type, bpc, size, seed++);
          String what = type + " bpc=" + bpc + " size=" + size;
          assertTrue(what + " upstream self-check",
            UpstreamChecksumUtil.validateChecksum(ByteBuff.wrap(ByteBuffer.wrap(expected)), "t",
              0));
          for (BlockPlacement p : BlockPlacement.values()) {
            BlockPlacement.Placed verifyOnly = p.place(expected);
            assertTrue(what + " " + p, verifyOnly.verify(ours).passed());
            if (p.readOnly()) {
              continue;
            }
            byte[] unsummed = expected.clone();
            java.util.Arrays.fill(unsummed, size, unsummed.length, (byte) 0x5C);
            BlockPlacement.Placed placed = p.place(unsummed);
            int[] before = placed.positionAndLimit();
            BlockLayout layout = placed.fill(ours);
            assertEquals(what, size, layout.dataSizeWithHeader());
            assertArrayEquals(what + " " + p, expected, placed.bytes());
            assertArrayEquals(what + " " + p + " position/limit moved", before,
              placed.positionAndLimit());
          }
        }
      }
    }
  }

  @Test
  public void tableEngineMatchesUpstreamOnEveryKind() throws Exception {
    long seed = 100;
    for (ChecksumType type : new ChecksumType[] { ChecksumType.CRC32, ChecksumType.CRC32C }) {
      for (int bpc : new int[] { 7, 512, 16384 }) {
        for (int size : new int[] { 33, 4133, 70001 }) {
          byte[] expected = TestBlocks.upstreamBlock(type, bpc, size, seed++);
          for (BlockPlacement p : BlockPlacement.values()) {
            assertTrue(type + " " + bpc + " " + size + " " + p,
              p.place(expected).verify(table).passed());
            if (!p.readOnly()) {
              BlockPlacement.Placed placed = p.place(expected.clone());
              placed.fill(table);
              assertArrayEquals(type + " " + bpc + " " + size + " " + p, expected,
                placed.bytes());
            }
          }
        }
      }
    }
  }

  @Test
  public void generateChunksMatchesWriterPath() {
    long seed = 500;
    for (ChecksumType type : ChecksumType.values()) {
      for (int bpc : BYTES_PER_CHECKSUM) {
        for (int size : DATA_SIZES_WITH_HEADER) {
          byte[] block = TestBlocks.unsummedBlock(type, bpc, size, seed++);
          int sumsLen = BlockLayout.checksumBytes(size, bpc);
          byte[] theirs = new byte[sumsLen + 3];
          byte[] mine = new byte[sumsLen + 3];
          UpstreamChecksumUtil.generateChecksums(block, 0, size, theirs, 3, type, bpc);
          ours.generateChunks(type, bpc, block, 0, size, mine, 3);
          assertArrayEquals(type + " bpc=" + bpc + " size=" + size, theirs, mine);
        }
      }
    }
  }

  @Test
  public void upstreamAcceptsBlocksWeFill() throws Exception {
    long seed = 900;
    for (ChecksumType type : ChecksumType.values()) {
      for (int bpc : new int[] { 512, 1000, 16384 }) {
        byte[] block = TestBlocks.unsummedBlock(type, bpc, 65569, seed++);
        ByteBuffer direct = ByteBuffer.allocateDirect(block.length);
        direct.put(block).clear();
        ours.fillChecksums(direct);
        assertTrue(type + " " + bpc,
          UpstreamChecksumUtil.validateChecksum(ByteBuff.wrap(direct), "t", 0));
      }
    }
  }
}
