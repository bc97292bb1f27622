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
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.apache.hadoop.hbase.io.ByteBuffAllocator;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.io.hfile.BlockCacheKey;
import org.apache.hadoop.hbase.io.hfile.CacheStats;
import org.apache.hadoop.hbase.io.hfile.Cacheable;
import org.apache.hadoop.hbase.io.hfile.CachedBlock;
import org.apache.hadoop.hbase.nio.ByteBuff;
import org.apache.hadoop.hbase.nio.SingleByteBuff;
import org.apache.hadoop.hbase.util.ByteBufferUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A block cache over direct slabs: fixed size classes, one contiguous slot per block, one
 * reference count per entry. A hit is a map lookup, a retain and a clock bit. An insert copies the
 * block into a free slot on the caller's thread. Each size class evicts with its own clock, which
 * passes over entries readers still hold.
 * <p>
 * With {@code copyDataOnHit} (BASELINE) every data-block hit is copied into a new heap block, the
 * read path before HBASE-11425; everything else is the same.
 */
public class SlabBlockCache implements BlockCache {
  private static final Logger LOG = LoggerFactory.getLogger(SlabBlockCache.class);

  private final OffHeapCacheConfig config;
  private final boolean copyDataOnHit;
  private final SlabPool pool;
  private final SizeClass[] classes;
  private final ConcurrentHashMap<BlockCacheKey, CacheEntry> map = new ConcurrentHashMap<>();
  private final CacheStats stats = new CacheStats(getClass().getSimpleName());
  private final LongAdder blockBytes = new LongAdder();
  private final LongAdder dataBlockBytes = new LongAdder();
  private final LongAdder dataBlocks = new LongAdder();
  private final LongAdder tooLarge = new LongAdder();
  private final LongAdder lostRaces = new LongAdder();
  private final LongAdder reclaimedSlabs = new LongAdder();
  private final LongAdder borrowedSlots = new LongAdder();
  private final LongAdder overReleases = new LongAdder();
  /**
   * Set by {@link #shutdown()}: a RegionServer that is stopping can still offer blocks (a read
   * or a flush that was under way), which must not land in a cache already emptied.
   */
  private volatile boolean shutDown;

  public SlabBlockCache(OffHeapCacheConfig config, boolean copyDataOnHit) {
    this.config = config;
    this.copyDataOnHit = copyDataOnHit;
    this.pool = new SlabPool(config.slabSize(), config.slabCount());
    int[] sizes = config.sizeClasses();
    this.classes = new SizeClass[sizes.length];
    for (int i = 0; i < sizes.length; i++) {
      classes[i] = new SizeClass(sizes[i], config.slabSize(), this);
    }
    LOG.info("Off-heap block cache: {} ({} slabs), copy data blocks on hit: {}", config,
      config.slabCount(), copyDataOnHit);
  }

  int slabSize() {
    return config.slabSize();
  }

  public OffHeapCacheConfig config() {
    return config;
  }

  public boolean copiesDataOnHit() {
    return copyDataOnHit;
  }

  /** The live entry for a key, for tests. */
  CacheEntry entryFor(BlockCacheKey key) {
    return map.get(key);
  }

  private SizeClass classFor(int length) {
    for (SizeClass c : classes) {
      if (length <= c.slotSize) {
        return c;
      }
    }
    return null;
  }

  @Override
  public void cacheBlock(BlockCacheKey cacheKey, Cacheable buf) {
    cacheBlock(cacheKey, buf, false);
  }

  @Override
  public void cacheBlock(BlockCacheKey key, Cacheable buf, boolean inMemory) {
    if (shutDown) {
      stats.failInsert();
      return;
    }
    CacheEntry present = map.get(key);
    if (present != null && !dropIfDead(present)) {
      return;
    }
    int length = buf.getSerializedLength();
    SizeClass sc = classFor(length);
    if (sc == null) {
      tooLarge.increment();
      stats.failInsert();
      return;
    }
    long placed = acquireSlot(sc);
    if (placed < 0) {
      // Every slot that could take it is held by readers right now: counted, never silent.
      stats.failInsert();
      return;
    }
    sc = classes[(int) (placed >>> 32)];
    int slot = (int) placed;
    ByteBuffer data = sc.slotBuffer(slot, length);
    CacheEntry entry;
    try {
      buf.serialize(data, true);
      data.rewind();
      entry = new CacheEntry(key, sc, slot, data, buf.getBlockType(), inMemory);
      entry.buff = ByteBuff.wrap(new ByteBuffer[] { data.duplicate() }, new EntryRefCnt(entry));
      entry.deserializer = buf.getDeserializer();
      entry.block = prebuild(entry);
    } catch (IOException | RuntimeException e) {
      sc.abandon(slot);
      stats.failInsert();
      LOG.warn("Could not cache block {}", key, e);
      return;
    }
    blockBytes.add(length);
    if (entry.type != null && entry.type.isData()) {
      dataBlocks.increment();
      dataBlockBytes.add(length);
    }
    for (;;) {
      CacheEntry raced = map.putIfAbsent(key, entry);
      if (raced == null) {
        break;
      }
      if (!dropIfDead(raced)) {
        entry.releaseCacheRef();
        return;
      }
    }
    sc.publish(entry);
    // shutdown() sets its flag, then empties the map: an insert it did not see sees the flag.
    if (shutDown) {
      evictEntry(entry, false);
    }
  }

  /**
   * The block every hit will share, if its deserializer builds it over the slot (an HFileBlock
   * does, sharing the slot's count: a retain on it shows on the slot); else null.
   */
  private static Cacheable prebuild(CacheEntry entry) throws IOException {
    Cacheable built = entry.deserializer.deserialize(entry.buff.duplicate(), ByteBuffAllocator.HEAP);
    built.retain();
    boolean shared = entry.buff.refCnt() == 2;
    built.release();
    return shared ? built : null;
  }

  /**
   * A slot for a block of size class {@code sc}, as (class index << 32 | slot), or -1. In order:
   * a free slot or a new slab of its own size; a slab given back by a size that fills at most a
   * quarter of what it holds; when its size holds no slab, one slot of the smallest larger size
   * that holds one (evicting one entry there, not a whole slab's); the emptiest slab of the size
   * holding the most when no larger size exists; else its own clock.
   */
  private long acquireSlot(SizeClass sc) {
    int own = indexOf(sc);
    int slot = sc.acquireFree(pool);
    if (slot >= 0) {
      return placed(own, slot);
    }
    for (SizeClass c : classes) {
      if (c != sc && c.mostlyEmpty(config.slabSize())) {
        ByteBuffer slab = c.surrenderSlab(true);
        if (slab != null) {
          sc.addSlab(slab);
          slot = sc.acquireFree(pool);
          if (slot >= 0) {
            reclaimedSlabs.increment();
            return placed(own, slot);
          }
        }
      }
    }
    if (sc.slabsHeld() == 0) {
      for (int i = own + 1; i < classes.length; i++) {
        if (classes[i].slabsHeld() > 0) {
          slot = classes[i].acquire(pool);
          if (slot >= 0) {
            borrowedSlots.increment();
            return placed(i, slot);
          }
        }
      }
      // No larger size holds a slab: take one from the size holding the most.
      SizeClass donor = null;
      for (SizeClass c : classes) {
        if (c != sc && (donor == null || c.slabsHeld() > donor.slabsHeld())) {
          donor = c;
        }
      }
      ByteBuffer slab = donor == null ? null : donor.surrenderSlab(false);
      if (slab == null) {
        return -1;
      }
      sc.addSlab(slab);
    }
    slot = sc.acquire(pool);
    return slot < 0 ? -1 : placed(own, slot);
  }

  private static long placed(int classIndex, int slot) {
    return ((long) classIndex << 32) | slot;
  }

  private int indexOf(SizeClass sc) {
    for (int i = 0; i < classes.length; i++) {
      if (classes[i] == sc) {
        return i;
      }
    }
    throw new IllegalArgumentException("not a size class of this cache: " + sc.slotSize);
  }

  @Override
  public Cacheable getBlock(BlockCacheKey key, boolean caching, boolean repeat,
    boolean updateCacheMetrics) {
    CacheEntry e = map.get(key);
    if (e == null || !e.tryRetain()) {
      if (e != null) {
        lostRaces.increment();
        dropIfDead(e);
      }
      if (updateCacheMetrics && !repeat) {
        stats.miss(caching, key.isPrimary(), key.getBlockType());
      }
      return null;
    }
    if (!e.referenced) {
      e.referenced = true;
    }
    if (updateCacheMetrics) {
      stats.hit(caching, key.isPrimary(), e.type);
    }
    if (copyDataOnHit && e.type != null && e.type.isData()) {
      return copyToHeap(e);
    }
    return e.block != null ? e.block : deserializeCopy(e);
  }

  /** A Cacheable that is not reference counted with the slot: a fresh copy per hit. */
  private Cacheable deserializeCopy(CacheEntry e) {
    try {
      return e.deserializer.deserialize(e.buff.duplicate(), ByteBuffAllocator.HEAP);
    } catch (IOException ex) {
      throw new IllegalStateException("cached block " + e.key + " does not deserialize", ex);
    } finally {
      e.buff.release();
    }
  }

  /** BASELINE: the pre-HBASE-11425 hit, a heap copy of the block per read. */
  private Cacheable copyToHeap(CacheEntry e) {
    try {
      byte[] copy = new byte[e.length];
      ByteBufferUtils.copyFromBufferToArray(copy, e.data, 0, 0, e.length);
      return e.deserializer.deserialize(new SingleByteBuff(ByteBuffer.wrap(copy)),
        ByteBuffAllocator.HEAP);
    } catch (IOException ex) {
      throw new IllegalStateException("cached block " + e.key + " does not deserialize", ex);
    } finally {
      e.buff.release();
    }
  }

  @Override
  public boolean evictBlock(BlockCacheKey key) {
    CacheEntry e = map.get(key);
    return e != null && evictEntry(e, false);
  }

  /** Removes the entry from the map and drops the cache's reference, once. */
  boolean evictEntry(CacheEntry e, boolean forSpace) {
    if (!map.remove(e.key, e)) {
      return false;
    }
    if (e.releaseCacheRef()) {
      stats.evicted(e.cachedNanos, true);
      return true;
    }
    return false;
  }

  /**
   * Unmaps an entry whose count already reached zero while the cache still held its reference:
   * some reader released once more than it retained. Its slot went back when the count hit zero;
   * the cache's reference is dropped without a release, so the key can be cached again and the
   * damage stays with that one reader's block. True if the entry is dead (unmapped now or before).
   */
  private boolean dropIfDead(CacheEntry e) {
    if (e.refCnt() > 0) {
      return false;
    }
    if (e.abandonCacheRef()) {
      overReleases.increment();
      LOG.warn("Block {} was released once more than it was retained, while cached: a reader's "
        + "reference-counting bug; dropped it from the cache", e.key);
    }
    map.remove(e.key, e);
    return true;
  }

  /** Called under the size class's lock when an entry's count reached zero. */
  void onFreed(CacheEntry e) {
    if (e.cacheRefHeld()) {
      // Freed under the mapping: over-released by a reader. Unmap it before anyone else looks.
      dropIfDead(e);
    }
    blockBytes.add(-e.length);
    if (e.type != null && e.type.isData()) {
      dataBlocks.decrement();
      dataBlockBytes.add(-e.length);
    }
  }

  @Override
  public int evictBlocksByHfileName(String hfileName) {
    int n = 0;
    for (CacheEntry e : map.values()) {
      if (e.key.getHfileName().equals(hfileName) && evictEntry(e, false)) {
        n++;
      }
    }
    return n;
  }

  @Override
  public CacheStats getStats() {
    return stats;
  }

  @Override
  public void shutdown() {
    shutDown = true;
    for (CacheEntry e : map.values()) {
      evictEntry(e, false);
    }
  }

  @Override
  public long size() {
    return getMaxSize();
  }

  /**
   * The configured size, less any slabs direct memory could not supply
   * ({@link #getDirectMemoryShortfall()}).
   */
  @Override
  public long getMaxSize() {
    return pool.capacity();
  }

  /** Configured bytes the cache gave up because the JVM had no direct memory left for them. */
  public long getDirectMemoryShortfall() {
    return pool.shortfall();
  }

  /** Entries a reader released once more than it retained while they were cached. */
  public long getOverReleaseCount() {
    return overReleases.sum();
  }

  @Override
  public long getFreeSize() {
    long free = (long) pool.freeSlabs() * config.slabSize();
    for (SizeClass c : classes) {
      free += c.freeSlotBytes();
    }
    return free;
  }

  /** Bytes of the cached blocks themselves. */
  @Override
  public long getCurrentSize() {
    return blockBytes.sum();
  }

  @Override
  public long getCurrentDataSize() {
    return dataBlockBytes.sum();
  }

  @Override
  public long getBlockCount() {
    return map.size();
  }

  @Override
  public long getDataBlockCount() {
    return dataBlocks.sum();
  }

  /** Slot bytes in use, counting each held slab's unusable tail. */
  public long getUsedSize() {
    long used = 0;
    for (SizeClass c : classes) {
      used += c.usedBytes();
    }
    return used;
  }

  /** Inserts refused because the block is larger than the largest size class. */
  public long getTooLargeCount() {
    return tooLarge.sum();
  }

  /** Lookups that found an entry a concurrent eviction had just released (served as misses). */
  public long getLostRaceCount() {
    return lostRaces.sum();
  }

  /** Slabs a size class gave back because it filled at most a quarter of its slabs. */
  public long getReclaimedSlabCount() {
    return reclaimedSlabs.sum();
  }

  /** Blocks placed in a slot of a larger size because their own size held no slab. */
  public long getBorrowedSlotCount() {
    return borrowedSlots.sum();
  }

  /** Slots whose block was evicted but a reader still holds. */
  public long getHeldEvictedCount() {
    long occupied = 0;
    for (SizeClass c : classes) {
      occupied += c.occupied();
    }
    return occupied - map.size();
  }

  /**
   * Every broken invariant, empty when all hold. {@code quiescent}: no reader holds a block and
   * no insert is in flight, so every entry must be at count 1 and no evicted slot still held.
   */
  public List<String> invariantViolations(boolean quiescent) {
    List<String> problems = new ArrayList<>();
    for (SizeClass c : classes) {
      c.check(problems, map, quiescent);
    }
    for (Map.Entry<BlockCacheKey, CacheEntry> me : map.entrySet()) {
      CacheEntry e = me.getValue();
      if (e.freed) {
        problems.add("map holds freed entry " + me.getKey());
      }
    }
    long used = getUsedSize();
    long free = getFreeSize();
    long capacity = getMaxSize();
    if (used + free != capacity) {
      problems.add("used " + used + " + free " + free + " != capacity " + capacity);
    }
    if (quiescent && getHeldEvictedCount() != 0) {
      problems.add(getHeldEvictedCount() + " evicted blocks still held");
    }
    if (problems.size() > 20) {
      int more = problems.size() - 20;
      problems = new ArrayList<>(problems.subList(0, 20));
      problems.add("... and " + more + " more");
    }
    return problems;
  }

  @Override
  public Iterator<CachedBlock> iterator() {
    Iterator<CacheEntry> it = map.values().iterator();
    return new Iterator<CachedBlock>() {
      @Override
      public boolean hasNext() {
        return it.hasNext();
      }

      @Override
      public CachedBlock next() {
        return it.next();
      }
    };
  }

  @Override
  public BlockCache[] getBlockCaches() {
    return null;
  }

  @Override
  public Optional<Boolean> isAlreadyCached(BlockCacheKey key) {
    return Optional.of(map.containsKey(key));
  }

  @Override
  public Optional<Integer> getBlockSize(BlockCacheKey key) {
    CacheEntry e = map.get(key);
    return e == null ? Optional.empty() : Optional.of(e.length);
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + "{" + config + ", blocks=" + map.size() + ", free="
      + getFreeSize() + ", copyDataOnHit=" + copyDataOnHit + "}";
  }
}
