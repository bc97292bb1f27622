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
package dev.hbasepatches.jmh.offheapread;

import dev.hbasepatches.jmh.HBaseBenchmark;
import dev.hbasepatches.offheap.OffHeapCacheConfig;
import dev.hbasepatches.offheap.SlabBlockCache;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.io.hfile.BlockCacheKey;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.Cacheable;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.io.hfile.HFileBlock;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;
import org.apache.hadoop.hbase.io.hfile.bucket.BucketCache;
import org.apache.hadoop.hbase.util.Bytes;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One L2 hit and its release, nothing else: the cost and the bytes a block-cache hit adds to a
 * read (run with {@code -prof gc}). PATCHED/BASELINE: our slab cache without/with the heap copy;
 * UPSTREAM: HBase's off-heap BucketCache. 64 real 64 KB data blocks, all cached.
 */
@State(Scope.Benchmark)
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 1)
public class CacheHitBenchmark extends HBaseBenchmark {
  @Param({ "BASELINE", "PATCHED", "UPSTREAM" })
  public Mode mode;

  private BlockCache cache;
  private BlockCacheKey[] keys;
  private int next;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    List<HFileBlock> blocks = dataBlocks();
    if (mode == Mode.UPSTREAM) {
      cache = new BucketCache("offheap", 64L << 20, 64 * 1024, null, 1, 64, null);
    } else {
      cache = new SlabBlockCache(new OffHeapCacheConfig(64L << 20, 8 << 20,
        new int[] { 5120, 17408, 70656 }), mode == Mode.BASELINE);
    }
    keys = new BlockCacheKey[blocks.size()];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = new BlockCacheKey("hit-bench", i * 65536L);
      cache.cacheBlock(keys[i], blocks.get(i), false, true);
    }
    long deadline = System.currentTimeMillis() + 30_000;
    while (cache.getBlockCount() < keys.length && System.currentTimeMillis() < deadline) {
      Thread.sleep(10);
    }
    if (cache.getBlockCount() < keys.length) {
      throw new IllegalStateException(mode + " cached " + cache.getBlockCount() + " of "
        + keys.length + " blocks");
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    cache.shutdown();
  }

  private static List<HFileBlock> dataBlocks() throws IOException {
    Configuration conf = HBaseConfiguration.create();
    FileSystem fs = FileSystem.getLocal(conf);
    java.nio.file.Path dir = Files.createTempDirectory("hit-bench-");
    Path path = new Path(dir.toUri().toString(), "f");
    try (HFile.Writer w = HFile.getWriterFactory(conf, CacheConfig.DISABLED).withPath(fs, path)
      .withFileContext(new HFileContextBuilder().withBlockSize(64 * 1024).build()).create()) {
      byte[] v = new byte[1000];
      for (int i = 0; i < 64 * 64; i++) {
        w.append(new KeyValue(Bytes.toBytes(String.format("row%08d", i)), Bytes.toBytes("f"),
          Bytes.toBytes("q"), 1L, v));
      }
    }
    List<HFileBlock> out = new ArrayList<>();
    try (HFile.Reader r = HFile.createReader(fs, path, CacheConfig.DISABLED, true, conf)) {
      long end = r.getTrailer().getLoadOnOpenDataOffset();
      for (long off = 0; off < end && out.size() < 64;) {
        HFileBlock b = r.readBlock(off, -1, false, true, false, false, null, null);
        if (b.getBlockType().isData()) {
          out.add(b);
        }
        off += b.getOnDiskSizeWithHeader();
      }
    }
    fs.delete(new Path(dir.toUri().toString()), true);
    return out;
  }

  @Benchmark
  public int hit() {
    Cacheable b = cache.getBlock(keys[next++ & 63], true, false, true);
    int size = b.getSerializedLength();
    b.release();
    return size;
  }
}
