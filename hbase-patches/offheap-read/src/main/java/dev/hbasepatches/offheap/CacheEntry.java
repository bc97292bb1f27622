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
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import org.apache.hadoop.hbase.io.ByteBuffAllocator;
import org.apache.hadoop.hbase.io.hfile.BlockCacheKey;
import org.apache.hadoop.hbase.io.hfile.BlockPriority;
import org.apache.hadoop.hbase.io.hfile.BlockType;
import org.apache.hadoop.hbase.io.hfile.Cacheable;
import org.apache.hadoop.hbase.io.hfile.CacheableDeserializer;
import org.apache.hadoop.hbase.io.hfile.CachedBlock;
import org.apache.hadoop.hbase.nio.ByteBuff;
import org.apache.hbase.thirdparty.io.netty.util.IllegalReferenceCountException;

/**
 * One cached block: its slot, and the block object built once over that slot. The slot buffer's
 * reference count, which that block shares, is the entry's only count; the cache holds one
 * reference until it evicts the entry, each reader one more until it releases the block, and
 * when the count reaches zero
 * {@link #free()} (the recycler) gives the slot back.
 */
final class CacheEntry implements ByteBuffAllocator.Recycler, CachedBlock {

  private static final AtomicIntegerFieldUpdater<CacheEntry> CACHE_REF =
    AtomicIntegerFieldUpdater.newUpdater(CacheEntry.class, "cacheRef");

  final BlockCacheKey key;
  final SizeClass owner;
  final int slot;
  final int length;
  final BlockType type;
  final long cachedNanos;
  final boolean inMemory;
  /** The slot's bytes: position 0, limit {@link #length}; only read with absolute gets. */
  final ByteBuffer data;
  /** Owns the entry's one reference count ({@link EntryRefCnt}), which frees via this entry. */
  ByteBuff buff;
  /**
   * Built once at insert over {@link #buff}, sharing its count; every hit returns this same
   * object. Null for a Cacheable whose deserializer copies out of the slot: such hits deserialize.
   */
  Cacheable block;
  CacheableDeserializer<Cacheable> deserializer;
  /** The clock bit: set by hits, cleared by the clock hand. */
  volatile boolean referenced;
  /** 1 while the cache's own reference is held; released exactly once. */
  private volatile int cacheRef = 1;
  /** Set under the owner's lock when the slot went back; guards a late publish. */
  boolean freed;

  CacheEntry(BlockCacheKey key, SizeClass owner, int slot, ByteBuffer data, BlockType type,
    boolean inMemory) {
    this.key = key;
    this.owner = owner;
    this.slot = slot;
    this.data = data;
    this.length = data.limit();
    this.type = type;
    this.inMemory = inMemory;
    this.cachedNanos = System.nanoTime();
  }

  /** Takes a reader's reference; false if eviction won the race (the entry is then a miss). */
  boolean tryRetain() {
    try {
      buff.retain();
      return true;
    } catch (IllegalReferenceCountException e) {
      return false;
    }
  }

  /**
   * Drops the cache's reference; true only for the one caller that actually dropped it. If a
   * reader over-released the block, the count is already zero and the slot already went back:
   * nothing more to release.
   */
  boolean releaseCacheRef() {
    if (CACHE_REF.compareAndSet(this, 1, 0)) {
      try {
        buff.release();
      } catch (IllegalReferenceCountException overReleased) {
        // The slot was freed by the reader's extra release; the cache's reference is gone too.
      }
      return true;
    }
    return false;
  }

  /**
   * Marks the cache's reference dropped without releasing it, for an entry whose count a reader
   * already took to zero; true only for the one caller that marked it.
   */
  boolean abandonCacheRef() {
    return CACHE_REF.compareAndSet(this, 1, 0);
  }

  boolean cacheRefHeld() {
    return cacheRef == 1;
  }

  int refCnt() {
    return buff.refCnt();
  }

  /** Reader references beyond the cache's own. */
  int readers() {
    return buff.refCnt() - cacheRef;
  }

  @Override
  public void free() {
    owner.free(this);
  }

  @Override
  public BlockPriority getBlockPriority() {
    return inMemory ? BlockPriority.MEMORY : BlockPriority.SINGLE;
  }

  @Override
  public BlockType getBlockType() {
    return type;
  }

  @Override
  public long getOffset() {
    return key.getOffset();
  }

  @Override
  public long getSize() {
    return length;
  }

  @Override
  public long getCachedTime() {
    return cachedNanos;
  }

  @Override
  public String getFilename() {
    return key.getHfileName();
  }

  @Override
  public int compareTo(CachedBlock other) {
    int c = getFilename().compareTo(other.getFilename());
    return c != 0 ? c : Long.compare(getOffset(), other.getOffset());
  }

  @Override
  public boolean equals(Object o) {
    return this == o;
  }

  @Override
  public int hashCode() {
    return System.identityHashCode(this);
  }
}
