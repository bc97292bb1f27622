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

import java.nio.charset.StandardCharsets;
import org.apache.hadoop.hbase.util.ChecksumType;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * Where the checksums of one HFile block (format v2+, HBase checksums on) live, as read from its
 * 33-byte header. The on-disk block is: header, data, then one 4-byte big-endian CRC per
 * {@code bytesPerChecksum} chunk of header+data, the last chunk possibly short.
 *
 * <pre>
 * offset size field
 *      0    8 block magic
 *      8    4 onDiskSizeWithoutHeader   (data + checksums)
 *     12    4 uncompressedSizeWithoutHeader
 *     16    8 prevBlockOffset
 *     24    1 checksum type code        (0 NULL, 1 CRC32, 2 CRC32C)
 *     25    4 bytesPerChecksum
 *     29    4 onDiskDataSizeWithHeader  (header + data: the checksummed bytes)
 * </pre>
 *
 * Every size is checked against the others and against the bytes actually given before any chunk
 * is touched, so a damaged header is reported as such instead of steering the CRC loop.
 */
@InterfaceAudience.Private
public final class BlockLayout {

  public static final int HEADER_SIZE = 33;
  public static final int CHECKSUM_SIZE = 4;

  static final int ON_DISK_SIZE_WITHOUT_HEADER_OFFSET = 8;
  static final int UNCOMPRESSED_SIZE_WITHOUT_HEADER_OFFSET = 12;
  static final int PREV_BLOCK_OFFSET_OFFSET = 16;
  static final int CHECKSUM_TYPE_OFFSET = 24;
  static final int BYTES_PER_CHECKSUM_OFFSET = 25;
  static final int ON_DISK_DATA_SIZE_WITH_HEADER_OFFSET = 29;

  /** values() copies its array on every call; this is read once per block. */
  private static final ChecksumType[] TYPES = ChecksumType.values();

  private static final byte[] DATA_BLOCK_MAGIC = "DATABLK*".getBytes(StandardCharsets.US_ASCII);

  private final ChecksumType type;
  private final int bytesPerChecksum;
  private final int dataSizeWithHeader;
  private final int blockSize;
  private final int chunkCount;

  private BlockLayout(ChecksumType type, int bytesPerChecksum, int dataSizeWithHeader,
    int blockSize, int chunkCount) {
    this.type = type;
    this.bytesPerChecksum = bytesPerChecksum;
    this.dataSizeWithHeader = dataSizeWithHeader;
    this.blockSize = blockSize;
    this.chunkCount = chunkCount;
  }

  public ChecksumType type() {
    return type;
  }

  public int bytesPerChecksum() {
    return bytesPerChecksum;
  }

  /** Header plus data: the bytes the checksums cover; the first checksum starts here. */
  public int dataSizeWithHeader() {
    return dataSizeWithHeader;
  }

  /** Header, data and checksums. */
  public int blockSize() {
    return blockSize;
  }

  public int chunkCount() {
    return chunkCount;
  }

  /** Number of chunks {@code dataSize} bytes make at {@code bytesPerChecksum}, last one partial. */
  public static long chunkCount(long dataSize, int bytesPerChecksum) {
    if (bytesPerChecksum <= 0) {
      throw new IllegalArgumentException("bytesPerChecksum must be positive, was "
        + bytesPerChecksum);
    }
    return (dataSize + bytesPerChecksum - 1) / bytesPerChecksum;
  }

  /** Bytes of checksum that follow {@code dataSizeWithHeader} bytes of header and data. */
  public static int checksumBytes(int dataSizeWithHeader, int bytesPerChecksum) {
    return Math.toIntExact(chunkCount(dataSizeWithHeader, bytesPerChecksum) * CHECKSUM_SIZE);
  }

  /**
   * Writes a data-block header at {@code dest[offset]} for a block of {@code dataSizeWithHeader}
   * bytes of header and data, followed by its checksum area; the block is
   * {@code dataSizeWithHeader + checksumBytes(...)} long. For building blocks outside HBase's
   * writer (tests, benchmarks).
   */
  public static void writeDataBlockHeader(byte[] dest, int offset, ChecksumType type,
    int bytesPerChecksum, int dataSizeWithHeader) {
    if (dataSizeWithHeader < HEADER_SIZE) {
      throw new IllegalArgumentException("dataSizeWithHeader " + dataSizeWithHeader
        + " is smaller than the " + HEADER_SIZE + "-byte header");
    }
    int onDiskSize = dataSizeWithHeader + checksumBytes(dataSizeWithHeader, bytesPerChecksum);
    System.arraycopy(DATA_BLOCK_MAGIC, 0, dest, offset, DATA_BLOCK_MAGIC.length);
    putInt(dest, offset + ON_DISK_SIZE_WITHOUT_HEADER_OFFSET, onDiskSize - HEADER_SIZE);
    putInt(dest, offset + UNCOMPRESSED_SIZE_WITHOUT_HEADER_OFFSET,
      dataSizeWithHeader - HEADER_SIZE);
    putInt(dest, offset + PREV_BLOCK_OFFSET_OFFSET, -1);
    putInt(dest, offset + PREV_BLOCK_OFFSET_OFFSET + 4, -1);
    dest[offset + CHECKSUM_TYPE_OFFSET] = type.getCode();
    putInt(dest, offset + BYTES_PER_CHECKSUM_OFFSET, bytesPerChecksum);
    putInt(dest, offset + ON_DISK_DATA_SIZE_WITH_HEADER_OFFSET, dataSizeWithHeader);
  }

  private static void putInt(byte[] dest, int at, int v) {
    dest[at] = (byte) (v >>> 24);
    dest[at + 1] = (byte) (v >>> 16);
    dest[at + 2] = (byte) (v >>> 8);
    dest[at + 3] = (byte) v;
  }

  /** Reads and cross-checks the header of a block that is exactly {@code block.length()} long. */
  static BlockLayout read(BlockBytes block) throws MalformedBlockException {
    int length = block.length();
    if (length < HEADER_SIZE) {
      throw new MalformedBlockException("truncated block: " + length
        + " bytes given, shorter than the " + HEADER_SIZE + "-byte header");
    }
    byte code = block.byteAt(CHECKSUM_TYPE_OFFSET);
    ChecksumType type = typeOf(code);
    if (type == null) {
      throw new MalformedBlockException("unknown checksum type code " + code + " at header byte "
        + CHECKSUM_TYPE_OFFSET + "; HBase knows 0 (NULL), 1 (CRC32) and 2 (CRC32C)");
    }
    int bytesPerChecksum = block.intAt(BYTES_PER_CHECKSUM_OFFSET);
    if (bytesPerChecksum <= 0) {
      throw new MalformedBlockException("bytes per checksum is " + bytesPerChecksum
        + " at header byte " + BYTES_PER_CHECKSUM_OFFSET + "; it must be positive");
    }
    int onDiskSizeWithoutHeader = block.intAt(ON_DISK_SIZE_WITHOUT_HEADER_OFFSET);
    if (onDiskSizeWithoutHeader < 0) {
      throw new MalformedBlockException("onDiskSizeWithoutHeader is " + onDiskSizeWithoutHeader
        + " at header byte " + ON_DISK_SIZE_WITHOUT_HEADER_OFFSET + "; it cannot be negative");
    }
    long blockSize = (long) HEADER_SIZE + onDiskSizeWithoutHeader;
    if (blockSize > length) {
      throw new MalformedBlockException("truncated block: header says " + blockSize
        + " bytes (" + HEADER_SIZE + " + onDiskSizeWithoutHeader " + onDiskSizeWithoutHeader
        + ") but only " + length + " were given");
    }
    if (blockSize < length) {
      throw new MalformedBlockException("header says the block is " + blockSize + " bytes but "
        + length + " were given; pass exactly one block");
    }
    int dataSizeWithHeader = block.intAt(ON_DISK_DATA_SIZE_WITH_HEADER_OFFSET);
    if (dataSizeWithHeader < HEADER_SIZE || dataSizeWithHeader > blockSize) {
      throw new MalformedBlockException("onDiskDataSizeWithHeader is " + dataSizeWithHeader
        + " at header byte " + ON_DISK_DATA_SIZE_WITH_HEADER_OFFSET + "; it must lie between the "
        + HEADER_SIZE + "-byte header and the " + blockSize + "-byte block");
    }
    long chunks = chunkCount(dataSizeWithHeader, bytesPerChecksum);
    long wanted = chunks * CHECKSUM_SIZE;
    long present = blockSize - dataSizeWithHeader;
    if (wanted != present) {
      throw new MalformedBlockException("checksum area is " + present + " bytes but " + chunks
        + " chunks of " + bytesPerChecksum + " over " + dataSizeWithHeader
        + " bytes of header and data need " + wanted);
    }
    return new BlockLayout(type, bytesPerChecksum, dataSizeWithHeader, (int) blockSize,
      (int) chunks);
  }

  /** The type with this code, or null; HBase's own lookup throws an unchecked error instead. */
  static ChecksumType typeOf(byte code) {
    for (ChecksumType t : TYPES) {
      if (t.getCode() == code) {
        return t;
      }
    }
    return null;
  }

  @Override
  public String toString() {
    return "BlockLayout[" + type + ", bytesPerChecksum=" + bytesPerChecksum
      + ", dataSizeWithHeader=" + dataSizeWithHeader + ", blockSize=" + blockSize + ", chunks="
      + chunkCount + "]";
  }
}
