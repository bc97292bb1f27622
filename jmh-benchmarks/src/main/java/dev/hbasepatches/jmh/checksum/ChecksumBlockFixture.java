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
package dev.hbasepatches.jmh.checksum;

import dev.hbasepatches.checksum.BlockChecksummer;
import dev.hbasepatches.checksum.BlockLayout;
import dev.hbasepatches.checksum.CrcEngine;
import dev.hbasepatches.checksum.MalformedBlockException;
import dev.hbasepatches.testkit.UpstreamChecksumUtil;
import dev.hbasepatches.jmh.HBaseBenchmark.Mode;
import java.nio.ByteBuffer;
import java.util.Random;
import org.apache.hadoop.hbase.nio.ByteBuff;
import org.apache.hadoop.hbase.nio.MultiByteBuff;
import org.apache.hadoop.hbase.nio.SingleByteBuff;
import org.apache.hadoop.hbase.util.ChecksumType;
import org.apache.hadoop.util.DataChecksum;

/**
 * One HFile-layout block held the way a benchmark asks (heap, direct, or a two-segment
 * MultiByteBuff), with the generate and verify calls each mode makes on it.
 */
final class ChecksumBlockFixture {

  private static final BlockChecksummer PATCHED = BlockChecksummer.intrinsic();
  private static final BlockChecksummer BASELINE = new BlockChecksummer(CrcEngine.PURE_JAVA, true);

  private final Mode mode;
  private final BufferKind buffer;
  private final ChecksumType type;
  private final int bytesPerChecksum;
  private final int dataSize;
  private final byte[] array;
  private final ByteBuff block;
  /** UPSTREAM generate on MULTI: HBase has no ByteBuff writer path, so it must copy out first. */
  private final byte[] scratch;

  ChecksumBlockFixture(Mode mode, BufferKind buffer, ChecksumType type, int bytesPerChecksum,
    int dataSizeWithHeader) throws MalformedBlockException {
    if (mode == Mode.UPSTREAM) {
      // With the overlay jar on the class path, "UPSTREAM" would silently run PATCHED.
      UpstreamChecksumUtil.requireStock();
    }
    this.mode = mode;
    this.buffer = buffer;
    this.type = type;
    this.bytesPerChecksum = bytesPerChecksum;
    this.dataSize = dataSizeWithHeader;
    int size = dataSizeWithHeader + BlockLayout.checksumBytes(dataSizeWithHeader, bytesPerChecksum);
    byte[] bytes = new byte[size];
    new Random(dataSizeWithHeader * 31L + bytesPerChecksum).nextBytes(bytes);
    BlockLayout.writeDataBlockHeader(bytes, 0, type, bytesPerChecksum, dataSizeWithHeader);
    UpstreamChecksumUtil.generateChecksums(bytes, 0, dataSizeWithHeader, bytes,
      dataSizeWithHeader, type, bytesPerChecksum);
    switch (buffer) {
      case HEAP:
        this.array = bytes;
        this.block = new SingleByteBuff(ByteBuffer.wrap(bytes));
        break;
      case DIRECT:
        this.array = null;
        this.block = new SingleByteBuff(direct(bytes, 0, size));
        break;
      case MULTI:
        this.array = null;
        int cut = size / 2 + 13;
        this.block =
          new MultiByteBuff(direct(bytes, 0, cut), direct(bytes, cut, size));
        break;
      default:
        throw new IllegalArgumentException("buffer " + buffer);
    }
    this.scratch = buffer == BufferKind.MULTI ? new byte[size] : null;
    // Every mode must agree the block is good before anything is timed, and after generating.
    if (!PATCHED.verify(block).passed() || !UpstreamChecksumUtil.validateChecksum(block, "b", 0)) {
      throw new IllegalStateException("fixture block does not verify: " + this);
    }
    generate();
    if (!verify()) {
      throw new IllegalStateException(mode + " generate left a block that does not verify");
    }
  }

  private static ByteBuffer direct(byte[] bytes, int from, int to) {
    ByteBuffer d = ByteBuffer.allocateDirect(to - from);
    d.put(bytes, from, to - from).clear();
    return d;
  }

  /** Bytes one call checksums: header and data. */
  int checksummedBytes() {
    return dataSize;
  }

  /** The whole block (header, data and checksums) copied out, to compare two modes' work. */
  byte[] contents() {
    byte[] out = new byte[block.limit()];
    block.get(0, out, 0, out.length);
    return out;
  }

  /**
   * This mode's verdict on the block with the data byte at {@code offset} changed; the byte is
   * put back before returning. A mode that really checksums the block says false.
   */
  boolean verifyWithByteChanged(int offset) throws MalformedBlockException {
    if (offset < BlockLayout.HEADER_SIZE || offset >= dataSize) {
      throw new IllegalArgumentException("offset " + offset + " is not a data byte of " + this);
    }
    byte original = block.get(offset);
    block.put(offset, (byte) (original ^ 0x5a));
    try {
      return verify();
    } finally {
      block.put(offset, original);
    }
  }

  boolean verify() throws MalformedBlockException {
    switch (mode) {
      case BASELINE:
        return BASELINE.verify(block).passed();
      case PATCHED:
        return PATCHED.verify(block).passed();
      case UPSTREAM:
        return UpstreamChecksumUtil.validateChecksum(block, "bench", 0L);
      default:
        throw new IllegalArgumentException("mode " + mode);
    }
  }

  void generate() throws MalformedBlockException {
    switch (mode) {
      case BASELINE:
        generateWith(BASELINE);
        break;
      case PATCHED:
        generateWith(PATCHED);
        break;
      case UPSTREAM:
        generateUpstream();
        break;
      default:
        throw new IllegalArgumentException("mode " + mode);
    }
  }

  private void generateWith(BlockChecksummer c) throws MalformedBlockException {
    if (array != null) {
      // HBase's writer holds the block in a byte[]; this is the call its path would make.
      c.generateChunks(type, bytesPerChecksum, array, 0, dataSize, array, dataSize);
    } else {
      c.fillChecksums(block);
    }
  }

  private void generateUpstream() {
    switch (buffer) {
      case HEAP:
        UpstreamChecksumUtil.generateChecksums(array, 0, dataSize, array, dataSize, type,
          bytesPerChecksum);
        break;
      case DIRECT: {
        // Hadoop's ByteBuffer entry point, as ChecksumUtil would reach it for a direct block.
        ByteBuffer whole = block.nioByteBuffers()[0];
        ByteBuffer data = whole.duplicate().position(0).limit(dataSize);
        ByteBuffer sums = whole.duplicate().position(dataSize).limit(whole.capacity());
        DataChecksum.newDataChecksum(type.getDataChecksumType(), bytesPerChecksum)
          .calculateChunkedSums(data, sums);
        break;
      }
      case MULTI:
        block.get(0, scratch, 0, scratch.length);
        UpstreamChecksumUtil.generateChecksums(scratch, 0, dataSize, scratch, dataSize, type,
          bytesPerChecksum);
        block.put(dataSize, ByteBuff.wrap(ByteBuffer.wrap(scratch)), dataSize,
          scratch.length - dataSize);
        break;
      default:
        throw new IllegalArgumentException("buffer " + buffer);
    }
  }

  @Override
  public String toString() {
    return mode + "/" + buffer + "/" + type + "/bpc=" + bytesPerChecksum + "/size=" + dataSize
     ;
  }
}
