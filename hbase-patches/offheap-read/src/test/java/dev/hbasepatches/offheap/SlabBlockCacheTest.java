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
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.io.hfile.BlockCacheKey;
import org.apache.hadoop.hbase.io.hfile.Cacheable;
import org.apache.hadoop.hbase.io.hfile.HFileBlock;
import org.apache.hbase.thirdparty.io.netty.util.IllegalReferenceCountException;
import org.junit.BeforeClass;
import org.junit.Test;

/** Reference counts, slots and eviction of {@link SlabBlockCache}, on real HFile blocks. */
public class SlabBlockCacheTest {
  private static RealBlocks small;
  private static RealBlocks large;

  @BeforeClass
  public static void writeBlocks() throws Exception {
    small = RealBlocks.write(4096, 3000, 100);
    large = RealBlocks.write(10000, 300, 100);
  }

  @Test
  public void hitReturnsTheEntrysOneSharedBlockAndCountsReferences() {
    SlabBlockCache c = cache(1 << 20, 256 << 10, 5120, 17408);
    BlockCacheKey k = RealBlocks.key(0, 0);
    c.cacheBlock(k, small.blocks.get(0));
    assertInvariants(c);
    Cacheable got = c.getBlock(k, true, false, true);
    assertNotNull(got);
    assertTrue(((HFileBlock) got).isSharedMem());
    assertEquals(2, got.refCnt());
    assertArrayEquals(small.serialized.get(0), RealBlocks.serialize(got));
    Cacheable again = c.getBlock(k, true, false, true);
    assertSame(got, again);
    assertEquals(3, got.refCnt());
    got.release();
    again.release();
    assertEquals(1, got.refCnt());
    assertNull(c.getBlock(RealBlocks.key(9, 0), true, false, true));
    assertEquals(2, c.getStats().getHitCount());
    assertEquals(1, c.getStats().getMissCount());
    assertEquals(1, c.getBlockCount());
    assertEquals(1, c.getDataBlockCount());
    assertEquals(small.serialized.get(0).length, c.getCurrentSize());
    assertInvariants(c);
  }

  @Test
  public void evictionWhileHeldKeepsTheBytesUntilTheLastRelease() {
    SlabBlockCache c = cache(1 << 20, 256 << 10, 5120);
    BlockCacheKey k = RealBlocks.key(0, 0);
    c.cacheBlock(k, small.blocks.get(0));
    Cacheable held = c.getBlock(k, true, false, true);
    assertTrue(c.evictBlock(k));
    assertFalse(c.evictBlock(k));
    assertNull(c.getBlock(k, true, false, true));
    assertEquals(1, held.refCnt());
    assertEquals(1, c.getHeldEvictedCount());
    assertArrayEquals(small.serialized.get(0), RealBlocks.serialize(held));
    assertTrue(c.invariantViolations(false).toString(), c.invariantViolations(false).isEmpty());
    assertFalse("a held evicted block is a leak once readers are done",
      c.invariantViolations(true).isEmpty());
    held.release();
    assertEquals(0, c.getHeldEvictedCount());
    assertEquals(0, c.getCurrentSize());
    assertInvariants(c);
    try {
      held.release();
      fail("a second release by a buggy reader must not free the slot again");
    } catch (IllegalReferenceCountException expected) {
      // the count stays released; the slot was freed once
    }
    assertInvariants(c);
  }

  @Test
  public void retainThatLosesTheRaceWithEvictionIsAMiss() {
    SlabBlockCache c = cache(1 << 20, 256 << 10, 5120);
    BlockCacheKey k = RealBlocks.key(0, 0);
    c.cacheBlock(k, small.blocks.get(0));
    CacheEntry e = c.entryFor(k);
    // The evictor dropped the cache's reference between a reader's lookup and its retain.
    assertTrue(e.releaseCacheRef());
    assertFalse(e.releaseCacheRef());
    assertNull(c.getBlock(k, true, false, true));
    assertEquals(1, c.getLostRaceCount());
    assertFalse(c.evictBlock(k));
    assertNull(c.entryFor(k));
    assertInvariants(c);
  }

  @Test
  public void clockSkipsHeldEntriesAndCountsAFailedInsertWhenAllAreHeld() {
    SlabBlockCache c = cache(5 * 5120, 5 * 5120, 5120);
    for (int i = 0; i < 5; i++) {
      c.cacheBlock(RealBlocks.key(0, i), small.blocks.get(i));
    }
    List<Cacheable> held = new ArrayList<>();
    held.add(c.getBlock(RealBlocks.key(0, 0), true, false, true));
    held.add(c.getBlock(RealBlocks.key(0, 1), true, false, true));
    c.cacheBlock(RealBlocks.key(0, 5), small.blocks.get(5));
    assertTrue(c.isAlreadyCached(RealBlocks.key(0, 0)).get());
    assertTrue(c.isAlreadyCached(RealBlocks.key(0, 1)).get());
    assertTrue(c.isAlreadyCached(RealBlocks.key(0, 5)).get());
    assertEquals(5, c.getBlockCount());
    for (int i = 2; i <= 5; i++) {
      Cacheable b = c.getBlock(RealBlocks.key(0, i), true, false, true);
      if (b != null) {
        held.add(b);
      }
    }
    assertEquals(5, held.size());
    c.cacheBlock(RealBlocks.key(0, 6), small.blocks.get(6));
    assertEquals(1, c.getStats().getFailedInserts());
    assertFalse(c.isAlreadyCached(RealBlocks.key(0, 6)).get());
    assertArrayEquals(small.serialized.get(0), RealBlocks.serialize(held.get(0)));
    held.forEach(Cacheable::release);
    assertInvariants(c);
  }

  @Test
  public void clockBitGivesARecentlyReadEntryASecondChance() {
    SlabBlockCache c = cache(5 * 5120, 5 * 5120, 5120);
    for (int i = 0; i < 5; i++) {
      c.cacheBlock(RealBlocks.key(0, i), small.blocks.get(i));
    }
    c.getBlock(RealBlocks.key(0, 0), true, false, true).release();
    c.cacheBlock(RealBlocks.key(0, 5), small.blocks.get(5));
    assertTrue(c.isAlreadyCached(RealBlocks.key(0, 0)).get());
    assertFalse(c.isAlreadyCached(RealBlocks.key(0, 1)).get());
    assertEquals(1, c.getStats().getEvictedCount());
    assertInvariants(c);
  }

  @Test
  public void aSizeWithNoSlabTakesOneFromTheSizeHoldingTheMost() {
    int slab = 64 * 1024;
    SlabBlockCache c = cache(2 * slab, slab, 5120, 17408);
    int n = 2 * (slab / 5120);
    for (int i = 0; i < n; i++) {
      c.cacheBlock(RealBlocks.key(0, i), small.blocks.get(i));
    }
    assertEquals(n, c.getBlockCount());
    BlockCacheKey big = RealBlocks.key(1, 0);
    assertTrue(large.serialized.get(0).length > 5120);
    c.cacheBlock(big, large.blocks.get(0));
    Cacheable got = c.getBlock(big, true, false, true);
    assertNotNull(got);
    assertArrayEquals(large.serialized.get(0), RealBlocks.serialize(got));
    got.release();
    assertInvariants(c);
  }

  @Test
  public void aSizeFillingAQuarterOfItsSlabGivesItToASizeThatWouldEvict() {
    int slab = 64 * 1024;
    SlabBlockCache c = cache(2 * slab, slab, 5120, 17408);
    c.cacheBlock(RealBlocks.key(0, 0), small.blocks.get(0));
    int perSlab = slab / 17408;
    int n = large.blocks.size();
    for (int i = 0; i < 2 * perSlab; i++) {
      c.cacheBlock(RealBlocks.key(1, i), large.blocks.get(i % n));
    }
    // The one small block gave its slab up: every large block fits, none was evicted for space.
    assertEquals(1, c.getReclaimedSlabCount());
    assertEquals(2 * perSlab, c.getBlockCount());
    assertEquals(1, c.getStats().getEvictedCount());
    assertFalse(c.isAlreadyCached(RealBlocks.key(0, 0)).get());
    for (int i = 0; i < 2 * perSlab; i++) {
      Cacheable got = c.getBlock(RealBlocks.key(1, i), true, false, true);
      assertArrayEquals(large.serialized.get(i % n), RealBlocks.serialize(got));
      got.release();
    }
    assertInvariants(c);
    // The small size now holds no slab: its next block takes one large slot, not a whole slab.
    c.cacheBlock(RealBlocks.key(0, 1), small.blocks.get(1));
    assertEquals(1, c.getBorrowedSlotCount());
    assertEquals(2 * perSlab, c.getBlockCount());
    Cacheable got = c.getBlock(RealBlocks.key(0, 1), true, false, true);
    assertArrayEquals(small.serialized.get(1), RealBlocks.serialize(got));
    got.release();
    assertEquals(Integer.valueOf(small.serialized.get(1).length),
      c.getBlockSize(RealBlocks.key(0, 1)).get());
    assertInvariants(c);
  }

  @Test
  public void aBlockLargerThanEverySizeIsCountedAsAFailedInsert() {
    SlabBlockCache c = cache(1 << 20, 256 << 10, 1024);
    c.cacheBlock(RealBlocks.key(0, 0), small.blocks.get(0));
    assertEquals(1, c.getTooLargeCount());
    assertEquals(1, c.getStats().getFailedInserts());
    assertEquals(0, c.getBlockCount());
    assertInvariants(c);
  }

  @Test
  public void baselineCopiesEveryDataBlockHitToTheHeap() {
    SlabBlockCache c =
      new SlabBlockCache(new OffHeapCacheConfig(1 << 20, 256 << 10, new int[] { 5120 }), true);
    BlockCacheKey k = RealBlocks.key(0, 0);
    c.cacheBlock(k, small.blocks.get(0));
    Cacheable got = c.getBlock(k, true, false, true);
    assertFalse(((HFileBlock) got).isSharedMem());
    assertEquals(1, c.entryFor(k).refCnt());
    assertArrayEquals(small.serialized.get(0), RealBlocks.serialize(got));
    got.release();
    assertInvariants(c);
  }

  @Test
  public void evictByFileAndShutdownReleaseEveryCacheReference() {
    SlabBlockCache c = cache(1 << 20, 256 << 10, 5120);
    for (int i = 0; i < 10; i++) {
      c.cacheBlock(RealBlocks.key(i % 2, i), small.blocks.get(i));
    }
    c.cacheBlock(RealBlocks.key(0, 0), small.blocks.get(0));
    assertEquals(10, c.getBlockCount());
    Cacheable held = c.getBlock(RealBlocks.key(1, 1), true, false, true);
    assertEquals(5, c.evictBlocksByHfileName("file0"));
    assertEquals(5, c.getBlockCount());
    c.shutdown();
    assertEquals(0, c.getBlockCount());
    assertEquals(1, c.getHeldEvictedCount());
    held.release();
    assertInvariants(c);
    assertEquals(c.getMaxSize(), c.getFreeSize() + c.getUsedSize());
  }

  @Test
  public void badSettingsAreRefusedNamingKeyAndValue() {
    assertRefused(conf("hbasepatches.offheap.size", "banana"), "hbasepatches.offheap.size=banana");
    assertRefused(new Configuration(false), "hbasepatches.offheap.size is not set");
    assertRefused(conf("hbasepatches.offheap.size", "-5"), "hbasepatches.offheap.size=-5");
    assertRefused(conf("hbasepatches.offheap.size", "1k"), "hbasepatches.offheap.size=1024");
    Configuration classes = conf("hbasepatches.offheap.size", "64m");
    classes.set(OffHeapCacheConfig.SIZE_CLASSES_KEY, "9k,5k");
    assertRefused(classes, "hbasepatches.offheap.size.classes=[9216, 5120]");
    try {
      OffHeapMode.parse("FAST");
      fail();
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("hbasepatches.offheap.mode=FAST"));
    }
    assertEquals(64L << 20, OffHeapCacheConfig.from(conf("hbasepatches.offheap.size", "64m"))
      .capacity());
  }

  private static Configuration conf(String key, String value) {
    Configuration c = new Configuration(false);
    c.set(key, value);
    return c;
  }

  private static void assertRefused(Configuration conf, String expected) {
    try {
      OffHeapCacheConfig.from(conf);
      fail("accepted " + expected);
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().contains(expected));
    }
  }
}
