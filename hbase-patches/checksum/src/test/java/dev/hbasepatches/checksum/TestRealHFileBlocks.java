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

import dev.hbasepatches.testkit.LocalRegion;
import dev.hbasepatches.testkit.UpstreamChecksumUtil;
import java.io.File;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.io.hfile.FixedFileTrailer;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.nio.ByteBuff;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.ChecksumType;
import org.junit.Test;

/**
 * HFiles written by a real HRegion's flush: every block in them (data, index, bloom, file info)
 * verifies with ours in every kind of storage, and refilling a block's checksums gives back the
 * writer's bytes.
 */
public class TestRealHFileBlocks {

  private static final byte[] FAMILY = Bytes.toBytes("f");

  private final BlockChecksummer checksummer = BlockChecksummer.intrinsic();

  @Test
  public void crc32cDefaultChunksLargeBlocks() throws Exception {
    checkRegion(ChecksumType.CRC32C, HFile.DEFAULT_BYTES_PER_CHECKSUM, 64 * 1024);
  }

  @Test
  public void crc32OddChunksSmallBlocks() throws Exception {
    checkRegion(ChecksumType.CRC32, 1000, 4 * 1024);
  }

  @Test
  public void nullChecksumsOddChunks() throws Exception {
    checkRegion(ChecksumType.NULL, 513, 16 * 1024);
  }

  private void checkRegion(ChecksumType type, int bpc, int blockSize) throws Exception {
    try (LocalRegion region = LocalRegion.builder("checksum_" + type).family("f")
      .blockSize(blockSize).blockCacheBytes(0)
      .conf(HConstants.CHECKSUM_TYPE_NAME, type.getName())
      .conf(HConstants.BYTES_PER_CHECKSUM, Integer.toString(bpc)).build()) {
      Random rnd = new Random(type.ordinal());
      List<Put> puts = new ArrayList<>();
      for (int row = 0; row < 20_000; row++) {
        byte[] value = new byte[20 + rnd.nextInt(150)];
        rnd.nextBytes(value);
        puts.add(new Put(Bytes.toBytes(String.format("row-%08d", row)))
          .addColumn(FAMILY, Bytes.toBytes("q"), value));
      }
      region.writeAndFlush(puts);
      int files = 0;
      for (HStoreFile sf : region.store(FAMILY).getStorefiles()) {
        checkFile(sf.getPath(), type, bpc);
        files++;
      }
      assertEquals(1, files);
    }
  }

  private void checkFile(Path path, ChecksumType type, int bpc) throws Exception {
    byte[] file = Files.readAllBytes(new File(path.toUri()).toPath());
    FileSystem fs = FileSystem.getLocal(new Configuration());
    int blocksEnd;
    try (FSDataInputStream in = fs.open(path)) {
      FixedFileTrailer trailer = FixedFileTrailer.readFromStream(in, file.length);
      blocksEnd = file.length - trailer.getTrailerSize();
    }
    int blocks = 0;
    int damagedChecked = 0;
    BlockPlacement[] kinds = { BlockPlacement.BYTE_ARRAY, BlockPlacement.DIRECT_BUFFER,
      BlockPlacement.MULTI_TWO_DIRECT, BlockPlacement.MULTI_DIRECT_HEAP_TAIL };
    for (int offset = 0; offset < blocksEnd;) {
      int size = BlockLayout.HEADER_SIZE
        + Bytes.toInt(file, offset + BlockLayout.ON_DISK_SIZE_WITHOUT_HEADER_OFFSET);
      byte[] block = Arrays.copyOfRange(file, offset, offset + size);
      String what = path.getName() + " block at " + offset;
      assertEquals(what, type.getCode(), block[BlockLayout.CHECKSUM_TYPE_OFFSET]);
      assertEquals(what, bpc, Bytes.toInt(block, BlockLayout.BYTES_PER_CHECKSUM_OFFSET));
      assertTrue(what, UpstreamChecksumUtil
        .validateChecksum(ByteBuff.wrap(ByteBuffer.wrap(block)), what, offset));
      for (BlockPlacement p : kinds) {
        assertTrue(what + " " + p, p.place(block).verify(checksummer).passed());
        // Refill from scratch: the writer's bytes come back.
        byte[] unsummed = block.clone();
        int dataSize = Bytes.toInt(block, BlockLayout.ON_DISK_DATA_SIZE_WITH_HEADER_OFFSET);
        Arrays.fill(unsummed, dataSize, unsummed.length, (byte) 0x33);
        BlockPlacement.Placed placed = p.place(unsummed);
        placed.fill(checksummer);
        assertArrayEquals(what + " " + p, block, placed.bytes());
      }
      if (type != ChecksumType.NULL && size > 2 * bpc) {
        byte[] damaged = block.clone();
        damaged[bpc + 17] ^= 0x40;
        BlockVerification v = checksummer.verify(damaged, 0, damaged.length);
        assertFalse(what, v.passed());
        assertEquals(what, 1, v.badChunk());
        assertFalse(what, UpstreamChecksumUtil
          .validateChecksum(ByteBuff.wrap(ByteBuffer.wrap(damaged)), what, offset));
        damagedChecked++;
      }
      blocks++;
      offset += size;
    }
    assertTrue(path + " had " + blocks + " blocks", blocks > 10);
    if (type != ChecksumType.NULL) {
      assertTrue(damagedChecked > 0);
    }
  }
}
