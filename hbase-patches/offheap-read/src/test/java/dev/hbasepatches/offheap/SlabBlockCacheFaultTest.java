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

import static dev.hbasepatches.offheap.RealBlocks.assertInvariants;
import static dev.hbasepatches.offheap.RealBlocks.cache;
import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import org.apache.hadoop.hbase.io.hfile.BlockCacheKey;
import org.apache.hadoop.hbase.io.hfile.BlockType;
import org.apache.hadoop.hbase.io.hfile.Cacheable;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Faults a caller or a workload can inject into {@link SlabBlockCache}: a reader that releases a
 * block twice, a reader that pins one slot of a slab another size wants, hits and misses on a
 * read replica's blocks. Each ends with the cache's invariants checked.
 */
public class SlabBlockCacheFaultTest {
  private static RealBlocks small;
  private static RealBlocks large;

  @BeforeClass
  public static void writeBlocks() throws Exception {
    small = RealBlocks.write(4096, 3000, 100);
    large = RealBlocks.write(10000, 300, 100);
  }

  @Test
  public void aDoubleReleaseWhileCachedStaysLocalToItsKey() {
    SlabBlockCache c = cache(1 << 20, 256 << 10, 5120);
    BlockCacheKey k = RealBlocks.key(0, 0);
    BlockCacheKey other = RealBlocks.key(0, 1);
    c.cacheBlock(k, small.blocks.get(0));
    c.cacheBlock(other, small.blocks.get(1));
    Cacheable b = c.getBlock(k, true, false, true);
    b.release();
    // A buggy reader: its second release drops the cache's own reference and frees the slot.
    b.release();
    assertFalse("the cache still maps a block whose slot went back",
      c.isAlreadyCached(k).get());
    assertEquals(1, c.getOverReleaseCount());
    // The key can be cached again and is served again.
    c.cacheBlock(k, small.blocks.get(0));
    Cacheable again = c.getBlock(k, true, false, true);
    assertNotNull("a key stays uncacheable after one double release", again);
    assertArrayEquals(small.serialized.get(0), RealBlocks.serialize(again));
    again.release();
    Cacheable neighbour = c.getBlock(other, true, false, true);
    assertArrayEquals(small.serialized.get(1), RealBlocks.serialize(neighbour));
    neighbour.release();
    assertInvariants(c);
    // Store-file close still evicts the file's blocks, the re-cached one included.
    assertEquals(2, c.evictBlocksByHfileName("file0"));
    assertEquals(0, c.getBlockCount());
    assertInvariants(c);
    assertEquals(c.getMaxSize(), c.getFreeSize() + c.getUsedSize());
  }

  @Test
  public void aDoubleReleaseBeforeEvictionAndShutdownThrowsNothing() {
    SlabBlockCache c = cache(1 << 20, 256 << 10, 5120);
    for (int i = 0; i < 4; i++) {
      c.cacheBlock(RealBlocks.key(i % 2, i), small.blocks.get(i));
    }
    for (int i = 0; i < 2; i++) {
      Cacheable b = c.getBlock(RealBlocks.key(i % 2, i), true, false, true);
      b.release();
      b.release();
    }
    assertFalse(c.evictBlock(RealBlocks.key(0, 0)));
    assertEquals(1, c.evictBlocksByHfileName("file0"));
    c.shutdown();
    assertEquals(0, c.getBlockCount());
    assertInvariants(c);
    assertEquals(c.getMaxSize(), c.getFreeSize() + c.getUsedSize());
  }

  /**
   * A stopping RegionServer shuts its cache down while a read or a flush may still offer a block:
   * the block is refused (counted as a failed insert), the emptied cache stays empty and whole.
   * Seen on a minicluster (OffHeapRegionServerRestartTest: one block left in a stopped server's
   * cache).
   */
  @Test
  public void aBlockOfferedAfterShutdownIsNotCached() {
    SlabBlockCache c = cache(1 << 20, 256 << 10, 5120);
    c.cacheBlock(RealBlocks.key(0, 0), small.blocks.get(0));
    c.shutdown();
    assertEquals(0, c.getBlockCount());
    long failed = c.getStats().getFailedInserts();
    c.cacheBlock(RealBlocks.key(0, 1), small.blocks.get(1));
    assertEquals("a block cached after shutdown", 0, c.getBlockCount());
    assertNull(c.getBlock(RealBlocks.key(0, 1), true, false, true));
    assertEquals(failed + 1, c.getStats().getFailedInserts());
    assertInvariants(c);
    assertEquals(c.getMaxSize(), c.getFreeSize() + c.getUsedSize());
  }

  @Test
  public void givingASlabBackEvictsNothingWhileOneOfItsSlotsIsHeld() {
    int slab = 64 * 1024;
    SlabBlockCache c = cache(2 * slab, slab, 5120, 17408);
    // The small size fills a quarter of its one slab: a slab it could give back.
    for (int i = 0; i < 3; i++) {
      c.cacheBlock(RealBlocks.key(0, i), small.blocks.get(i));
    }
    Cacheable pinned = c.getBlock(RealBlocks.key(0, 0), true, false, true);
    int perSlab = slab / 17408;
    int inserts = 4 * perSlab;
    for (int i = 0; i < inserts; i++) {
      c.cacheBlock(RealBlocks.key(1, i), large.blocks.get(i % large.size()));
    }
    // The slab could not be given back (one slot is held), so its idle blocks must stay cached.
    assertEquals(0, c.getReclaimedSlabCount());
    for (int i = 1; i < 3; i++) {
      assertTrue("small block " + i + " was evicted for a slab that was never given back",
        c.isAlreadyCached(RealBlocks.key(0, i)).get());
    }
    assertEquals("only the large size's own clock evicts", inserts - perSlab,
      c.getStats().getEvictedCount());
    for (int i = inserts - perSlab; i < inserts; i++) {
      Cacheable got = c.getBlock(RealBlocks.key(1, i), true, false, true);
      assertArrayEquals(large.serialized.get(i % large.size()), RealBlocks.serialize(got));
      got.release();
    }
    // Once the reader lets go, the slab moves.
    pinned.release();
    c.cacheBlock(RealBlocks.key(1, inserts), large.blocks.get(inserts % large.size()));
    assertEquals(1, c.getReclaimedSlabCount());
    for (int i = 0; i < 3; i++) {
      assertFalse(c.isAlreadyCached(RealBlocks.key(0, i)).get());
    }
    assertInvariants(c);
  }

  @Test
  public void hitsAndMissesOnAReplicaAreNotCountedAsPrimary() {
    SlabBlockCache c = cache(1 << 20, 256 << 10, 5120);
    BlockCacheKey replica = new BlockCacheKey("file0", 0, false, BlockType.DATA);
    BlockCacheKey primary = new BlockCacheKey("file1", 0, true, BlockType.DATA);
    c.cacheBlock(replica, small.blocks.get(0));
    c.cacheBlock(primary, small.blocks.get(0));
    c.getBlock(replica, true, false, true).release();
    c.getBlock(replica, true, false, true).release();
    c.getBlock(primary, true, false, true).release();
    c.getBlock(new BlockCacheKey("file0", 4096, false, BlockType.DATA), true, false, true);
    c.getBlock(new BlockCacheKey("file1", 4096, true, BlockType.DATA), true, false, true);
    assertEquals(3, c.getStats().getHitCount());
    assertEquals(1, c.getStats().getPrimaryHitCount());
    assertEquals(2, c.getStats().getMissCount());
    assertEquals(1, c.getStats().getPrimaryMissCount());
    assertInvariants(c);
  }
}
