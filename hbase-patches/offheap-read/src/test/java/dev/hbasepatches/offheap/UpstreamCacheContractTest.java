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

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.ByteBuffer;
import org.apache.hadoop.hbase.io.hfile.CacheTestUtils;
import org.apache.hadoop.hbase.io.hfile.HFileBlock;
import org.junit.Test;

/**
 * HBase's own block-cache contract checks ({@code CacheTestUtils} from the hbase-server 2.6.1
 * tests jar, the harness TestBucketCache and TestLruBlockCache drive) run against our cache.
 * Upstream's test classes themselves build their own concrete caches and have no seam for
 * another implementation; this is the seam.
 */
public class UpstreamCacheContractTest {

  private static SlabBlockCache cache() {
    return new SlabBlockCache(new OffHeapCacheConfig(64L << 20, 1 << 20,
      new int[] { 2048, 5120, 9216, 17408, 66560 }), false);
  }

  @Test
  public void cacheSimple() throws Exception {
    SlabBlockCache c = cache();
    // Upstream expects a re-cache of a cached block to throw, except from BucketCache, which
    // ignores it as we do; the blocks' contents and hits are checked either way.
    try {
      CacheTestUtils.testCacheSimple(c, 8192, 200);
    } catch (AssertionError e) {
      assertTrue(e.getMessage(), e.getMessage().contains("should not allow re-caching"));
    }
    assertEquals(200, c.getBlockCount());
    // The harness never releases what getBlock returned: every hit is still held.
    assertEquals(c.getStats().getHitCount(), heldByReaders(c));
    assertTrue(c.invariantViolations(false).toString(), c.invariantViolations(false).isEmpty());
  }

  private static long heldByReaders(SlabBlockCache c) {
    long n = 0;
    for (org.apache.hadoop.hbase.io.hfile.CachedBlock b : c) {
      n += ((CacheEntry) b).readers();
    }
    return n + c.getHeldEvictedCount();
  }

  @Test
  public void cacheMultiThreaded() throws Exception {
    SlabBlockCache c = cache();
    CacheTestUtils.testCacheMultiThreaded(c, 8192, 2, 1000, 0.80);
    // Upstream's harness evicts each block it got without releasing it (a reference leak in the
    // test, harmless on heap): those slots stay held, exactly one per hit, and nothing else.
    assertEquals(c.getStats().getHitCount(), c.getHeldEvictedCount());
    assertTrue(c.invariantViolations(false).toString(), c.invariantViolations(false).isEmpty());
  }

  @Test
  public void hammerSingleKey() throws Exception {
    SlabBlockCache c = cache();
    CacheTestUtils.hammerSingleKey(c, 4, 2000);
    // Its ByteArrayCacheable deserializes into a heap copy: served by a copy per hit, released.
    c.shutdown();
    assertTrue(c.invariantViolations(true).toString(), c.invariantViolations(true).isEmpty());
  }

  @Test
  public void getBlockAndAssertEquals() throws Exception {
    SlabBlockCache c = cache();
    CacheTestUtils.HFileBlockPair[] blocks = CacheTestUtils.generateHFileBlocks(4000, 3);
    for (CacheTestUtils.HFileBlockPair p : blocks) {
      HFileBlock b = p.getBlock();
      ByteBuffer expected = ByteBuffer.allocate(b.getSerializedLength());
      b.serialize(expected, true);
      ByteBuffer dest = ByteBuffer.allocate(b.getSerializedLength());
      CacheTestUtils.getBlockAndAssertEquals(c, p.getBlockName(), b, dest, expected);
    }
    assertTrue(c.invariantViolations(true).toString(), c.invariantViolations(true).isEmpty());
  }
}
