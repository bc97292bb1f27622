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
package dev.hbasepatches.offheap;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.io.hfile.BlockCacheKey;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.Cacheable;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.io.hfile.HFileBlock;
import org.apache.hadoop.hbase.io.hfile.HFileContext;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;
import org.apache.hadoop.hbase.util.Bytes;

/** Real HFile blocks for cache tests: written by HBase's writer, read back by its reader. */
final class RealBlocks {
  final List<HFileBlock> blocks = new ArrayList<>();
  final List<byte[]> serialized = new ArrayList<>();

  private RealBlocks() {
  }

  /** Every block of a fresh HFile with {@code cells} cells of {@code valueSize} bytes. */
  static RealBlocks write(int blockSize, int cells, int valueSize) throws IOException {
    Configuration conf = HBaseConfiguration.create();
    FileSystem fs = FileSystem.getLocal(conf);
    java.nio.file.Path dir = Files.createTempDirectory("offheap-blocks-");
    Path path = new Path(dir.toUri().toString(), "blocks");
    HFileContext ctx = new HFileContextBuilder().withBlockSize(blockSize).build();
    byte[] fam = Bytes.toBytes("f");
    byte[] value = new byte[valueSize];
    try (HFile.Writer w =
      HFile.getWriterFactory(conf, CacheConfig.DISABLED).withPath(fs, path).withFileContext(ctx)
        .create()) {
      for (int i = 0; i < cells; i++) {
        Arrays.fill(value, (byte) i);
        w.append(new KeyValue(Bytes.toBytes(String.format("row%08d", i)), fam,
          Bytes.toBytes("q"), 1L, value));
      }
    }
    RealBlocks rb = new RealBlocks();
    try (HFile.Reader r = HFile.createReader(fs, path, CacheConfig.DISABLED, true, conf)) {
      long end = r.getTrailer().getLoadOnOpenDataOffset();
      for (long off = 0; off < end;) {
        HFileBlock b = r.readBlock(off, -1, false, true, false, false, null, null);
        rb.blocks.add(b);
        rb.serialized.add(serialize(b));
        off += b.getOnDiskSizeWithHeader();
      }
    }
    fs.delete(new Path(dir.toUri().toString()), true);
    return rb;
  }

  static byte[] serialize(Cacheable c) {
    ByteBuffer bb = ByteBuffer.allocate(c.getSerializedLength());
    c.serialize(bb, true);
    return bb.array();
  }

  int size() {
    return blocks.size();
  }

  static BlockCacheKey key(int file, long offset) {
    return new BlockCacheKey("file" + file, offset);
  }

  /** A slab cache of {@code capacity} bytes in slabs of {@code slab} bytes, size classes as given. */
  static SlabBlockCache cache(long capacity, int slab, int... classes) {
    return new SlabBlockCache(new OffHeapCacheConfig(capacity, slab, classes), false);
  }

  /** Fails with the cache's invariant violations (reference counts, slots, capacity), if any. */
  static void assertInvariants(SlabBlockCache c) {
    java.util.List<String> problems = c.invariantViolations(true);
    org.junit.Assert.assertTrue(problems.toString(), problems.isEmpty());
  }
}
