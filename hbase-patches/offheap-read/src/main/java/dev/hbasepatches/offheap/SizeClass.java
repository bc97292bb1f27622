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

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.io.hfile.BlockCacheKey;

/**
 * The slots of one size: carved from whole slabs, so a block never crosses a slab and lives in one
 * contiguous buffer. Slot bookkeeping (free stack, clock hand) is guarded by this object's lock;
 * hits never take it.
 */
final class SizeClass {
  /** Written over the start of a freed slot, so a read of a freed slot fails loudly. */
  static final byte POISON = (byte) 0xDB;
  static final int POISON_BYTES = 64;

  final int slotSize;
  final int slotsPerSlab;
  private final SlabBlockCache cache;
  private ByteBuffer[] slabs = new ByteBuffer[0];
  private int[] slabOccupied = new int[0];
  private CacheEntry[] entries = new CacheEntry[0];
  private int[] free = new int[0];
  private int freeTop;
  private int hand;
  private int slabsHeld;
  private int occupied;

  SizeClass(int slotSize, int slabSize, SlabBlockCache cache) {
    this.slotSize = slotSize;
    this.slotsPerSlab = slabSize / slotSize;
    this.cache = cache;
  }

  /** A free slot: from the free stack, else from a new slab, else by clock eviction; or -1. */
  synchronized int acquire(SlabPool pool) {
    int slot = acquireFree(pool);
    if (slot >= 0) {
      return slot;
    }
    clockEvict();
    return take();
  }

  /** A free slot from the free stack or a new slab from the pool, evicting nothing; or -1. */
  synchronized int acquireFree(SlabPool pool) {
    if (freeTop == 0) {
      ByteBuffer slab = pool.take();
      if (slab != null) {
        addSlab(slab);
      }
    }
    return take();
  }

  private int take() {
    if (freeTop == 0) {
      return -1;
    }
    occupied++;
    int slot = free[--freeTop];
    slabOccupied[slot / slotsPerSlab]++;
    return slot;
  }

  /**
   * True when this size holds slabs but fills at most a quarter of them: a slab it could give
   * back to a size that would otherwise evict (a few index or bloom blocks must not pin a slab).
   */
  synchronized boolean mostlyEmpty(int slabSize) {
    return slabsHeld > 0 && (long) occupied * slotSize * 4 <= (long) slabsHeld * slabSize;
  }

  synchronized int slabsHeld() {
    return slabsHeld;
  }

  /**
   * The clock: one step per slot, at most two turns. Entries a reader holds are skipped (their
   * bit kept); a set bit buys one more turn; the first idle unreferenced entry is evicted.
   */
  private void clockEvict() {
    int n = entries.length;
    for (int step = 0; step < 2 * n && freeTop == 0; step++) {
      CacheEntry e = entries[hand];
      hand = hand + 1 == n ? 0 : hand + 1;
      if (e == null || e.readers() > 0) {
        continue;
      }
      if (e.referenced) {
        e.referenced = false;
        continue;
      }
      // Frees the slot through the recycler, on this thread, unless a reader retained it since.
      cache.evictEntry(e, true);
    }
  }

  /** Adds a slab; its slots go on the free stack, lowest first. */
  synchronized void addSlab(ByteBuffer slab) {
    int index = -1;
    for (int i = 0; i < slabs.length; i++) {
      if (slabs[i] == null) {
        index = i;
        break;
      }
    }
    if (index < 0) {
      index = slabs.length;
      slabs = Arrays.copyOf(slabs, index + 1);
      slabOccupied = Arrays.copyOf(slabOccupied, index + 1);
      entries = Arrays.copyOf(entries, (index + 1) * slotsPerSlab);
      free = Arrays.copyOf(free, (index + 1) * slotsPerSlab);
    }
    slabs[index] = slab;
    slabOccupied[index] = 0;
    slabsHeld++;
    for (int i = slotsPerSlab - 1; i >= 0; i--) {
      int slot = index * slotsPerSlab + i;
      poison(slot);
      free[freeTop++] = slot;
    }
  }

  /** How many of this size's emptiest slabs {@link #surrenderSlab} looks at, at most. */
  private static final int SURRENDER_CANDIDATES = 4;

  /**
   * Gives up a slab (its last one only if {@code evenTheLast}): the emptiest of those whose every
   * occupied slot holds an idle cached entry. Those entries are evicted and the slab returned.
   * If every candidate has a slot a reader holds (or an evicted block still held, or an insert in
   * flight), nothing is evicted and null returned: evicting the idle neighbours of a held slot
   * would cost their hits and free no slab. At most {@value #SURRENDER_CANDIDATES} slabs are
   * examined per call, so a size of many slabs costs a few slabs' worth of slots per insert.
   */
  synchronized ByteBuffer surrenderSlab(boolean evenTheLast) {
    if (slabsHeld == 0 || (slabsHeld == 1 && !evenTheLast)) {
      return null;
    }
    int victim = -1;
    int examined = 0;
    int floor = -1;
    int floorIndex = -1;
    while (victim < 0 && examined < SURRENDER_CANDIDATES) {
      // The next emptiest slab after (floor, floorIndex), in (occupancy, index) order.
      int next = -1;
      for (int i = 0; i < slabs.length; i++) {
        if (slabs[i] == null) {
          continue;
        }
        int occ = slabOccupied[i];
        boolean after = occ > floor || (occ == floor && i > floorIndex);
        if (after && (next < 0 || occ < slabOccupied[next])) {
          next = i;
        }
      }
      if (next < 0) {
        break;
      }
      examined++;
      floor = slabOccupied[next];
      floorIndex = next;
      if (allIdle(next)) {
        victim = next;
      }
    }
    if (victim < 0) {
      return null;
    }
    int base = victim * slotsPerSlab;
    for (int i = 0; i < slotsPerSlab; i++) {
      CacheEntry e = entries[base + i];
      if (e != null && e.readers() == 0) {
        cache.evictEntry(e, true);
      }
    }
    if (slabOccupied[victim] != 0) {
      // A reader retained one of them after the check: the rest are gone, the slab stays.
      return null;
    }
    int kept = 0;
    for (int i = 0; i < freeTop; i++) {
      if (free[i] / slotsPerSlab != victim) {
        free[kept++] = free[i];
      }
    }
    freeTop = kept;
    ByteBuffer slab = slabs[victim];
    slabs[victim] = null;
    slabsHeld--;
    return slab;
  }

  /**
   * True if every occupied slot of the slab holds a published entry no reader holds: evicting
   * them frees the whole slab.
   */
  private boolean allIdle(int slabIndex) {
    int base = slabIndex * slotsPerSlab;
    int idle = 0;
    for (int i = 0; i < slotsPerSlab; i++) {
      CacheEntry e = entries[base + i];
      if (e != null) {
        if (e.readers() > 0) {
          return false;
        }
        idle++;
      }
    }
    return idle == slabOccupied[slabIndex];
  }

  /** The slot's bytes as one buffer of {@code length} bytes at position 0. */
  synchronized ByteBuffer slotBuffer(int slot, int length) {
    ByteBuffer dup = slabs[slot / slotsPerSlab].duplicate();
    int off = (slot % slotsPerSlab) * slotSize;
    dup.limit(off + length).position(off);
    return dup.slice();
  }

  /** Makes a freshly filled entry visible to the clock, unless it was already evicted and freed. */
  synchronized void publish(CacheEntry e) {
    if (!e.freed) {
      entries[e.slot] = e;
    }
  }

  /** Recycler target: the entry's count reached zero. */
  synchronized void free(CacheEntry e) {
    if (e.freed) {
      throw new IllegalStateException("slot " + e.slot + " of size " + slotSize + " freed twice ("
        + e.key + ")");
    }
    e.freed = true;
    if (entries[e.slot] == e) {
      entries[e.slot] = null;
    }
    poison(e.slot);
    free[freeTop++] = e.slot;
    occupied--;
    slabOccupied[e.slot / slotsPerSlab]--;
    cache.onFreed(e);
  }

  /** Returns a slot taken by {@link #acquire} that never got an entry. */
  synchronized void abandon(int slot) {
    poison(slot);
    free[freeTop++] = slot;
    occupied--;
    slabOccupied[slot / slotsPerSlab]--;
  }

  private void poison(int slot) {
    ByteBuffer slab = slabs[slot / slotsPerSlab];
    int off = (slot % slotsPerSlab) * slotSize;
    for (int i = 0, n = Math.min(POISON_BYTES, slotSize); i < n; i++) {
      slab.put(off + i, POISON);
    }
  }

  /** Bytes of slots in use plus the unusable tail of each held slab. */
  synchronized long usedBytes() {
    return (long) occupied * slotSize + (long) slabsHeld * (cache.slabSize() - slotsPerSlab * slotSize);
  }

  synchronized long freeSlotBytes() {
    return (long) freeTop * slotSize;
  }

  synchronized int occupied() {
    return occupied;
  }

  /**
   * Adds every broken invariant to {@code problems}. With {@code quiescent} (no reader holds a
   * block, no insert in flight) also: every occupied slot holds a published entry at count 1.
   */
  synchronized void check(List<String> problems, Map<BlockCacheKey, CacheEntry> map,
    boolean quiescent) {
    String me = "size " + slotSize + ": ";
    boolean[] isFree = new boolean[entries.length];
    for (int i = 0; i < freeTop; i++) {
      int s = free[i];
      if (slabs[s / slotsPerSlab] == null) {
        problems.add(me + "free slot " + s + " is in a surrendered slab");
        continue;
      }
      if (isFree[s]) {
        problems.add(me + "slot " + s + " is on the free stack twice");
      }
      isFree[s] = true;
      if (entries[s] != null) {
        problems.add(me + "free slot " + s + " still has entry " + entries[s].key);
      }
      ByteBuffer slab = slabs[s / slotsPerSlab];
      int off = (s % slotsPerSlab) * slotSize;
      for (int j = 0, n = Math.min(POISON_BYTES, slotSize); j < n; j++) {
        if (slab.get(off + j) != POISON) {
          problems.add(me + "free slot " + s + " is not poisoned at byte " + j);
          break;
        }
      }
    }
    int live = 0;
    int published = 0;
    int[] perSlab = new int[slabs.length];
    for (int s = 0; s < entries.length; s++) {
      if (slabs[s / slotsPerSlab] == null) {
        continue;
      }
      live++;
      if (!isFree[s]) {
        perSlab[s / slotsPerSlab]++;
      }
      CacheEntry e = entries[s];
      if (e == null) {
        continue;
      }
      published++;
      if (e.slot != s || e.freed) {
        problems.add(me + "entry " + e.key + " at slot " + s + " is stale (slot " + e.slot
          + ", freed " + e.freed + ")");
      }
      int rc = e.refCnt();
      if (rc < 1) {
        problems.add(me + "entry " + e.key + " is published with count " + rc);
      }
      if (quiescent) {
        if (rc != 1 || !e.cacheRefHeld()) {
          problems.add(me + "idle entry " + e.key + " has count " + rc + " (cache ref "
            + e.cacheRefHeld() + "): a reader leaked or released twice");
        }
        if (map.get(e.key) != e) {
          problems.add(me + "published entry " + e.key + " is not the map's entry");
        }
      }
    }
    if (live != slabsHeld * slotsPerSlab) {
      problems.add(me + "slabs held " + slabsHeld + " but " + live + " live slots");
    }
    if (occupied != live - freeTop) {
      problems.add(me + "occupied " + occupied + " but " + (live - freeTop) + " slots not free");
    }
    for (int i = 0; i < slabs.length; i++) {
      if (slabs[i] != null && perSlab[i] != slabOccupied[i]) {
        problems.add(me + "slab " + i + " counts " + slabOccupied[i] + " but holds " + perSlab[i]);
      }
    }
    if (quiescent && published != occupied) {
      problems.add(me + (occupied - published) + " occupied slots have no published entry: "
        + "evicted blocks still held by a reader (leaked references)");
    }
  }
}
