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
import static org.junit.Assert.fail;

import java.util.Random;
import org.apache.hadoop.hbase.util.ChecksumType;
import org.junit.Test;

/** Damage anywhere in a block is reported, at the chunk where it is, in every kind of storage. */
public class TestCorruptionDetection {

  private final BlockChecksummer checksummer = BlockChecksummer.intrinsic();

  /**
   * Flips every bit of a small block (header, data, checksums) one at a time. A flip in the data or
   * checksums must name the chunk it hit; a flip in the header must fail one way or the other
   * (mismatch, or a malformed header), never pass.
   */
  @Test
  public void everySingleBitFlipInSmallBlockIsDetected() throws Exception {
    int bpc = 64;
    int dataSize = BlockLayout.HEADER_SIZE + 300;
    for (ChecksumType type : new ChecksumType[] { ChecksumType.CRC32, ChecksumType.CRC32C }) {
      byte[] block = TestBlocks.upstreamBlock(type, bpc, dataSize, type.getCode());
      for (BlockPlacement p : BlockPlacement.values()) {
        BlockPlacement.Placed placed = p.place(block);
        for (int bit = 0; bit < block.length * 8; bit++) {
          if (p.readOnly()) {
            byte[] damaged = block.clone();
            TestBlocks.flipBit(damaged, bit);
            assertDetected(p.place(damaged), bit, bpc, dataSize, type + " " + p);
          } else {
            placed.flipBit(bit);
            assertDetected(placed, bit, bpc, dataSize, type + " " + p);
            placed.flipBit(bit);
          }
        }
        assertTrue(type + " " + p + " restored", placed.verify(checksummer).passed());
      }
    }
  }

  private void assertDetected(BlockPlacement.Placed placed, int bit, int bpc, int dataSize,
    String what) {
    int index = bit >>> 3;
    BlockVerification v;
    try {
      v = placed.verify(checksummer);
    } catch (MalformedBlockException e) {
      boolean headerLayoutField = index >= BlockLayout.ON_DISK_SIZE_WITHOUT_HEADER_OFFSET
        && index < BlockLayout.UNCOMPRESSED_SIZE_WITHOUT_HEADER_OFFSET
        || index >= BlockLayout.CHECKSUM_TYPE_OFFSET && index < BlockLayout.HEADER_SIZE;
      assertTrue(what + " bit " + bit + " only layout fields may make a block malformed: " + e,
        headerLayoutField);
      return;
    }
    assertFalse(what + " bit " + bit + " passed", v.passed());
    if (index >= dataSize) {
      assertEquals(what + " bit " + bit, (index - dataSize) / 4, v.badChunk());
      assertEquals(what + " bit " + bit, dataSize + 4 * v.badChunk(), v.checksumOffset());
    } else if (index < BlockLayout.CHECKSUM_TYPE_OFFSET || index >= BlockLayout.HEADER_SIZE) {
      assertEquals(what + " bit " + bit, index / bpc, v.badChunk());
      assertEquals(what + " bit " + bit, v.badChunk() * bpc, v.chunkStart());
      assertTrue(what + " bit " + bit,
        v.chunkLength() == Math.min(bpc, dataSize - v.chunkStart()));
      assertTrue(what, v.storedChecksum() != v.computedChecksum());
    }
  }

  @Test
  public void randomFlipsAndBurstsInLargeBlocksAreDetected() throws Exception {
    Random rnd = new Random(42);
    BlockPlacement[] kinds = { BlockPlacement.BYTE_ARRAY, BlockPlacement.DIRECT_BUFFER,
      BlockPlacement.MULTI_TWO_DIRECT, BlockPlacement.MULTI_DIRECT_HEAP_TAIL };
    for (ChecksumType type : new ChecksumType[] { ChecksumType.CRC32, ChecksumType.CRC32C }) {
      for (int bpc : new int[] { 512, 16384 }) {
        int dataSize = 70001;
        byte[] block = TestBlocks.upstreamBlock(type, bpc, dataSize, rnd.nextLong());
        for (BlockPlacement p : kinds) {
          BlockPlacement.Placed placed = p.place(block);
          for (int trial = 0; trial < 150; trial++) {
            // Anywhere after the header: data or checksums.
            int first = BlockLayout.HEADER_SIZE * 8 + rnd.nextInt((block.length
              - BlockLayout.HEADER_SIZE) * 8 - 32);
            int burst = trial % 3 == 0 ? 1 + rnd.nextInt(32) : 1;
            int[] bits = new int[burst];
            for (int k = 0; k < burst; k++) {
              // A burst: the first and last bit flipped, the rest at random in between.
              bits[k] = first + (k == 0 ? 0 : k == burst - 1 ? burst - 1 : rnd.nextInt(burst));
            }
            for (int b : bits) {
              placed.flipBit(b);
            }
            byte[] now = placed.bytes();
            BlockVerification v = placed.verify(checksummer);
            if (java.util.Arrays.equals(now, block)) {
              assertTrue(v.passed()); // the burst flipped some bit back to where it was
            } else {
              assertFalse(type + " " + bpc + " " + p + " trial " + trial, v.passed());
              int expectedChunk = Integer.MAX_VALUE;
              for (int i = 0; i < now.length; i++) {
                if (now[i] != block[i]) {
                  int chunk = i < dataSize ? i / bpc : (i - dataSize) / 4;
                  expectedChunk = Math.min(expectedChunk, chunk);
                }
              }
              assertEquals(type + " " + bpc + " " + p + " trial " + trial, expectedChunk,
                v.badChunk());
            }
            for (int b : bits) {
              placed.flipBit(b);
            }
          }
          assertTrue(placed.verify(checksummer).passed());
        }
      }
    }
  }

  /** Two segments cut at every offset of a small block, then chunk-edge cuts of a large one. */
  @Test
  public void segmentBoundariesAnywhereInChunksHeaderOrChecksums() throws Exception {
    int bpc = 50;
    int dataSize = BlockLayout.HEADER_SIZE + 200;
    byte[] block = TestBlocks.upstreamBlock(ChecksumType.CRC32C, bpc, dataSize, 3);
    int lead = 7; // BlockPlacement's padding before the block
    for (int cut = 1; cut < block.length + 2 * lead; cut++) {
      for (boolean heapTail : new boolean[] { false, true }) {
        checkSegmented(block, new int[] { cut }, heapTail, bpc, dataSize, "cut " + cut);
      }
    }
    Random rnd = new Random(5);
    for (int trial = 0; trial < 200; trial++) {
      int a = 1 + rnd.nextInt(block.length + lead);
      int b = a + 1 + rnd.nextInt(40);
      checkSegmented(block, new int[] { a, b }, trial % 2 == 0, bpc, dataSize,
        "cuts " + a + "," + b);
    }
    int bigBpc = 16384;
    int bigData = 70001;
    byte[] big = TestBlocks.upstreamBlock(ChecksumType.CRC32C, bigBpc, bigData, 9);
    for (int edge : new int[] { bigBpc, 2 * bigBpc, 4 * bigBpc, bigData, bigData + 4 }) {
      for (int delta = -3; delta <= 3; delta++) {
        checkSegmented(big, new int[] { lead + edge + delta }, delta < 0, bigBpc, bigData,
          "big cut " + (edge + delta));
      }
    }
  }

  private void checkSegmented(byte[] block, int[] cuts, boolean heapTail, int bpc, int dataSize,
    String what) throws Exception {
    byte[] padded = new byte[7 + block.length + 5];
    System.arraycopy(block, 0, padded, 7, block.length);
    BlockPlacement.Placed placed = BlockPlacement.multi(padded, block.length, cuts, heapTail);
    assertTrue(what, placed.verify(checksummer).passed());
    // One flipped bit per chunk, each must be found where it is.
    for (int chunk = 0; chunk * bpc < dataSize; chunk++) {
      int at = Math.min(dataSize - 1, chunk * bpc + bpc / 2);
      if (at < BlockLayout.HEADER_SIZE) {
        at = BlockLayout.HEADER_SIZE; // keep the header's layout fields intact
      }
      placed.flipBit(at * 8 + 3);
      BlockVerification v = placed.verify(checksummer);
      assertEquals(what + " chunk " + chunk, at / bpc, v.badChunk());
      placed.flipBit(at * 8 + 3);
    }
    // Filling over the boundaries writes the same bytes back.
    byte[] zeroed = padded.clone();
    java.util.Arrays.fill(zeroed, 7 + dataSize, 7 + block.length, (byte) 0);
    BlockPlacement.Placed refill = BlockPlacement.multi(zeroed, block.length, cuts, heapTail);
    refill.fill(checksummer);
    assertArrayEquals(what, block, refill.bytes());
  }

  @Test
  public void nullTypeBlocksMustKeepZeroedSlots() throws Exception {
    byte[] crcBlock = TestBlocks.upstreamBlock(ChecksumType.CRC32C, 512, 4133, 1);
    // One bit turns CRC32C (2) into NULL (0); the CRCs left in the slots give it away.
    crcBlock[BlockLayout.CHECKSUM_TYPE_OFFSET] ^= 2;
    BlockVerification v = checksummer.verify(crcBlock, 0, crcBlock.length);
    assertFalse(v.passed());
    assertEquals(0, v.badChunk());
    assertTrue(v.toString(), v.toString().contains("zeroed"));
    BlockChecksummer lenient = new BlockChecksummer(CrcEngine.INTRINSIC, false);
    assertTrue(lenient.verify(crcBlock, 0, crcBlock.length).passed());

    byte[] nullBlock = TestBlocks.upstreamBlock(ChecksumType.NULL, 512, 4133, 1);
    assertTrue(checksummer.verify(nullBlock, 0, nullBlock.length).passed());
    nullBlock[nullBlock.length - 1] = 1;
    BlockVerification last = checksummer.verify(nullBlock, 0, nullBlock.length);
    assertEquals((4133 + 511) / 512 - 1, last.badChunk());
  }

  @Test
  public void verifyOrThrowNamesFileAndPosition() throws Exception {
    byte[] block = TestBlocks.upstreamBlock(ChecksumType.CRC32C, 1000, 5000, 2);
    block[2500] ^= 0x10;
    try {
      checksummer.verifyOrThrow(org.apache.hadoop.hbase.nio.ByteBuff.wrap(
        java.nio.ByteBuffer.wrap(block)), "/hbase/data/t/f", 1_000_000L);
      fail("damaged block passed");
    } catch (org.apache.hadoop.fs.ChecksumException e) {
      assertEquals(1_000_000L + 2000, e.getPos());
      assertTrue(e.getMessage(), e.getMessage().contains("/hbase/data/t/f"));
      assertTrue(e.getMessage(), e.getMessage().contains("chunk 2"));
    }
  }
}
