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

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;
import static org.junit.Assume.assumeTrue;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;
import java.lang.management.ManagementFactory;
import dev.hbasepatches.testkit.LocalRegion;
import java.lang.management.BufferPoolMXBean;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.io.hfile.BlockCacheFactory;
import org.apache.hadoop.hbase.io.hfile.BlockCacheKey;
import org.apache.hadoop.hbase.io.hfile.Cacheable;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Direct memory smaller than the configured cache. Runs in its own JVM with
 * {@code -XX:MaxDirectMemorySize=64m} (the module's {@code direct-memory-short} surefire
 * execution): a size above that is refused at start naming both numbers, and when other users
 * take the direct memory a size below it counted on, inserts fail counted and capacity shrinks,
 * while every call a read makes returns normally.
 */
public class DirectMemoryShortTest {
  private static final long MAX_DIRECT = 64L << 20;
  private static RealBlocks blocks;

  @BeforeClass
  public static void onlyWithSmallDirectMemory() throws Exception {
    VMOption opt = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
      .getVMOption("MaxDirectMemorySize");
    assumeTrue("needs -XX:MaxDirectMemorySize=64m (mvn verify runs it so)",
      Long.parseLong(opt.getValue()) == MAX_DIRECT);
    blocks = RealBlocks.write(4096, 3000, 100);
  }

  @Test
  public void aSizeAboveMaxDirectMemoryIsRefusedNamingBothNumbers() {
    Configuration conf = HBaseConfiguration.create();
    for (String[] kv : OffHeapMiniClusterTest.KEYS) {
      conf.set(kv[0], kv[1]);
    }
    conf.set(OffHeapCacheConfig.SIZE_KEY, "128m");
    try {
      OffHeapCacheConfig.from(conf);
      fail("accepted a 128 MB cache with 64 MB of direct memory");
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("hbasepatches.offheap.size=134217728"));
      assertTrue(e.getMessage(), e.getMessage().contains(Long.toString(MAX_DIRECT)));
    }
    // The RegionServer's path: HBase's factory swallows the refusal, the guard names it.
    try {
      OffHeapCacheGuard.check(conf, BlockCacheFactory.createBlockCache(conf));
      fail("the guard accepted a 128 MB cache with 64 MB of direct memory");
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("hbasepatches.offheap.size=134217728"));
      assertTrue(e.getMessage(), e.getMessage().contains(Long.toString(MAX_DIRECT)));
    }
  }

  @Test
  public void whenDirectMemoryRunsOutInsertsAreCountedAndReadsGoOn() {
    int slab = 1 << 20;
    long configured = 48L * slab;
    SlabBlockCache c = new SlabBlockCache(new OffHeapCacheConfig(configured, slab,
      new int[] { 5120 }), false);
    // Another user of direct memory (RPC buffers, HDFS) leaves the cache about 20 of its slabs.
    ByteBuffer other = ByteBuffer.allocateDirect(40 << 20);
    try {
      int keys = 3 * (int) (configured / 5120);
      for (int k = 0; k < keys; k++) {
        BlockCacheKey key = RealBlocks.key(k / blocks.size(), k % blocks.size());
        // Throws nothing: a read that caches the block it read must not fail for want of space.
        c.cacheBlock(key, blocks.blocks.get(k % blocks.size()));
        Cacheable got = c.getBlock(key, true, false, true);
        if (got != null) {
          assertArrayEquals(blocks.serialized.get(k % blocks.size()), RealBlocks.serialize(got));
          got.release();
        }
      }
      assertTrue("the cache shrank to what it could allocate: " + c,
        c.getMaxSize() < configured && c.getMaxSize() > 0);
      assertEquals(configured - c.getMaxSize(), c.getDirectMemoryShortfall());
      // It goes on caching within what it has: the latest blocks are served.
      BlockCacheKey last = RealBlocks.key((keys - 1) / blocks.size(), (keys - 1) % blocks.size());
      Cacheable got = c.getBlock(last, true, false, true);
      assertNotNull(got);
      got.release();
      assertTrue(c.getStats().getEvictedCount() > 0);
      List<String> problems = c.invariantViolations(true);
      assertTrue(problems.toString(), problems.isEmpty());
      assertEquals(c.getMaxSize(), c.getUsedSize() + c.getFreeSize());
      c.shutdown();
      assertTrue(c.invariantViolations(true).isEmpty());
    } finally {
      other.clear();
    }
  }

  @Test
  public void readsThroughARegionSucceedWhileTheCacheIsShortOfDirectMemory() throws Exception {
    List<List<Cell>> expected;
    try (LocalRegion r =
      TableShape.builder("nocache", DataBlockEncoding.NONE).blockCacheBytes(0).build()) {
      TableShape.load(r);
      expected = TableShape.queries(r.region());
    }
    Configuration conf = ReadPathEquivalenceTest.smallCacheConf();
    BlockCache cache = OffHeapCaches.create(conf, OffHeapMode.PATCHED, 4L << 20, 40L << 20);
    SlabBlockCache slab = OffHeapCaches.slabCache(cache);
    // Others hold all but about one 256 KB slab of the 64 MB: the table's blocks need several.
    ByteBuffer other = ByteBuffer.allocateDirect((int) (MAX_DIRECT - directInUse() - (384 << 10)));
    try (LocalRegion r =
      TableShape.builder("short", DataBlockEncoding.NONE).blockCache(cache).build()) {
      TableShape.load(r);
      for (int round = 0; round < 2; round++) {
        List<List<Cell>> got = TableShape.queries(r.region());
        assertEquals(expected.size(), got.size());
        for (int q = 0; q < got.size(); q++) {
          assertEquals("query " + q, expected.get(q), got.get(q));
        }
      }
    } finally {
      other.clear();
    }
    assertTrue("the cache was not short: " + slab, slab.getDirectMemoryShortfall() > 0);
    assertTrue("the L2 served nothing", slab.getStats().getHitCount() > 0);
    List<String> problems = slab.invariantViolations(true);
    assertTrue(problems.toString(), problems.isEmpty());
    cache.shutdown();
  }

  private static long directInUse() {
    for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
      if ("direct".equals(pool.getName())) {
        return pool.getMemoryUsed();
      }
    }
    throw new IllegalStateException("no direct buffer pool bean");
  }
}
