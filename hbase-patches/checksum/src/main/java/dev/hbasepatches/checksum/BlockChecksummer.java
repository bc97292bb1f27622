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

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.zip.Checksum;
import org.apache.hadoop.fs.ChecksumException;
import org.apache.hadoop.hbase.nio.ByteBuff;
import org.apache.hadoop.hbase.util.ChecksumType;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * Generates and verifies HFile block checksums in HBase's layout (see {@link BlockLayout}) over a
 * {@code byte[]}, a heap or direct {@link ByteBuffer}, or a {@link ByteBuff} of one or many
 * segments, without copying the block: each chunk goes to the CRC straight from where it lies.
 * <p>
 * With {@link CrcEngine#INTRINSIC} the CRC is java.util.zip's, which HotSpot compiles to the CPU's
 * CRC instructions for arrays and direct memory alike. Hadoop's {@code DataChecksum} reaches the
 * same instructions for arrays, but copies every chunk of a direct buffer into a fresh heap array
 * unless libhadoop is loaded, and HBase's {@code ChecksumUtil} copies multi-segment blocks 256
 * bytes at a time; that copying is what this class removes.
 * <p>
 * Stateless and thread-safe: each call makes its own CRC object.
 */
@InterfaceAudience.Private
public final class BlockChecksummer {

  private static final BlockChecksummer DEFAULT = new BlockChecksummer(CrcEngine.INTRINSIC,
    ChecksumConfig.NULL_SLOTS_MUST_BE_ZERO_DEFAULT);

  private final CrcEngine engine;
  private final boolean nullSlotsMustBeZero;

  public BlockChecksummer(CrcEngine engine, boolean nullSlotsMustBeZero) {
    if (engine == null) {
      throw new IllegalArgumentException("engine is null");
    }
    this.engine = engine;
    this.nullSlotsMustBeZero = nullSlotsMustBeZero;
  }

  /** Hardware CRC, NULL-type blocks held to zeroed slots: the settings to use. */
  public static BlockChecksummer intrinsic() {
    return DEFAULT;
  }

  public CrcEngine engine() {
    return engine;
  }

  /** Verifies the block in {@code block[offset, offset + length)}. */
  public BlockVerification verify(byte[] block, int offset, int length)
    throws MalformedBlockException {
    return verify(BlockBytes.of(block, offset, length));
  }

  /** Verifies the block in {@code [position, limit)}; the buffer's state is unchanged. */
  public BlockVerification verify(ByteBuffer block) throws MalformedBlockException {
    return verify(BlockBytes.of(block));
  }

  /** Verifies the block in {@code [position, limit)}; the ByteBuff's state is unchanged. */
  public BlockVerification verify(ByteBuff block) throws MalformedBlockException {
    return verify(BlockBytes.of(block));
  }

  /**
   * Verifies the block in {@code [position, limit)} and throws on a mismatch, naming the file and
   * the file position of the bad chunk (as Hadoop's {@code ChecksumException} does).
   */
  public void verifyOrThrow(ByteBuff block, String fileName, long blockFileOffset)
    throws IOException {
    BlockVerification v = verify(block);
    if (!v.passed()) {
      long pos = blockFileOffset + v.chunkStart();
      throw new ChecksumException(v + " in file " + fileName + " at block offset "
        + blockFileOffset + " (file position " + pos + ")", pos);
    }
  }

  /**
   * Writes the checksums of a block whose header is already filled in (type, bytes per checksum,
   * sizes) into its checksum area; NULL-type blocks get zeroed slots, as HBase's writer leaves
   * them.
   * @return the layout the header describes
   */
  public BlockLayout fillChecksums(byte[] block, int offset, int length)
    throws MalformedBlockException {
    return fill(BlockBytes.of(block, offset, length));
  }

  /** {@link #fillChecksums(byte[], int, int)} for the block in {@code [position, limit)}. */
  public BlockLayout fillChecksums(ByteBuffer block) throws MalformedBlockException {
    return fill(BlockBytes.of(block));
  }

  /** {@link #fillChecksums(byte[], int, int)} for the block in {@code [position, limit)}. */
  public BlockLayout fillChecksums(ByteBuff block) throws MalformedBlockException {
    return fill(BlockBytes.of(block));
  }

  /**
   * Chunk checksums of {@code data[from, to)} into {@code sums} from {@code sumsOffset}: the shape
   * of HBase's writer path ({@code ChecksumUtil.generateChecksums}). NULL writes nothing.
   */
  public void generateChunks(ChecksumType type, int bytesPerChecksum, byte[] data, int from,
    int to, byte[] sums, int sumsOffset) {
    if (type == null) {
      throw new IllegalArgumentException("checksum type is null");
    }
    if (data == null || sums == null) {
      throw new IllegalArgumentException("data or sums array is null");
    }
    if (from < 0 || to < from || to > data.length) {
      throw new IllegalArgumentException("data range [" + from + ", " + to
        + ") lies outside the " + data.length + "-byte array");
    }
    long needed = BlockLayout.chunkCount(to - from, bytesPerChecksum) * BlockLayout.CHECKSUM_SIZE;
    if (sumsOffset < 0 || sumsOffset + needed > sums.length) {
      throw new IllegalArgumentException("sums need " + needed + " bytes from offset "
        + sumsOffset + " but the array has " + sums.length);
    }
    if (type == ChecksumType.NULL) {
      return;
    }
    ArrayBlockBytes.generate(engine.newChecksum(type), data, from, to - from, bytesPerChecksum,
      sums, sumsOffset);
  }

  private BlockVerification verify(BlockBytes block) throws MalformedBlockException {
    BlockLayout layout = BlockLayout.read(block);
    int dataLen = layout.dataSizeWithHeader();
    int bytesPerChecksum = layout.bytesPerChecksum();
    if (layout.type() == ChecksumType.NULL) {
      return nullSlotsMustBeZero ? checkNullSlots(block, layout) : BlockVerification.PASSED;
    }
    Checksum crc = engine.newChecksum(layout.type());
    int bad = block.firstBadChunk(crc, dataLen, bytesPerChecksum, dataLen);
    if (bad < 0) {
      return BlockVerification.PASSED;
    }
    return describe(block, layout, bad, block.intAt(dataLen + bad * BlockLayout.CHECKSUM_SIZE),
      crc);
  }

  private static BlockVerification describe(BlockBytes block, BlockLayout layout, int bad,
    int stored, Checksum crcOrNull) {
    int dataLen = layout.dataSizeWithHeader();
    int start = (int) ((long) bad * layout.bytesPerChecksum());
    int len = Math.min(layout.bytesPerChecksum(), dataLen - start);
    int computed = crcOrNull == null ? 0 : block.crcOf(crcOrNull, start, len);
    return BlockVerification.mismatch(layout.type(), bad, start, len,
      dataLen + bad * BlockLayout.CHECKSUM_SIZE, stored, computed);
  }

  private static BlockVerification checkNullSlots(BlockBytes block, BlockLayout layout) {
    int at = layout.dataSizeWithHeader();
    for (int chunk = 0; chunk < layout.chunkCount(); chunk++) {
      int stored = block.intAt(at);
      if (stored != 0) {
        return describe(block, layout, chunk, stored, null);
      }
      at += BlockLayout.CHECKSUM_SIZE;
    }
    return BlockVerification.PASSED;
  }

  private BlockLayout fill(BlockBytes block) throws MalformedBlockException {
    BlockLayout layout = BlockLayout.read(block);
    int dataLen = layout.dataSizeWithHeader();
    if (layout.type() == ChecksumType.NULL) {
      for (int chunk = 0; chunk < layout.chunkCount(); chunk++) {
        block.putInt(dataLen + chunk * BlockLayout.CHECKSUM_SIZE, 0);
      }
    } else {
      block.generate(engine.newChecksum(layout.type()), dataLen, layout.bytesPerChecksum(),
        dataLen);
    }
    return layout;
  }
}
