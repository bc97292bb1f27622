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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The direct slabs of the cache, handed to size classes on demand. Slabs are allocated the first
 * time a size class needs one and stay allocated until the cache is dropped. When the JVM has no
 * direct memory left for a slab (other users took what the configured size counted on), the pool
 * stops at the slabs it has: the cache's capacity shrinks to them, once, with a warning, and no
 * caller sees the {@link OutOfMemoryError}.
 */
final class SlabPool {
  private static final Logger LOG = LoggerFactory.getLogger(SlabPool.class);

  private final int slabSize;
  private final int configuredSlabs;
  private int slabCount;
  private int allocated;
  private final java.util.ArrayDeque<ByteBuffer> returned = new java.util.ArrayDeque<>();

  SlabPool(int slabSize, int slabCount) {
    this.slabSize = slabSize;
    this.configuredSlabs = slabCount;
    this.slabCount = slabCount;
  }

  /** A slab for a size class, or null when every slab is in use. */
  synchronized ByteBuffer take() {
    ByteBuffer b = returned.poll();
    if (b != null) {
      return b;
    }
    if (allocated == slabCount) {
      return null;
    }
    ByteBuffer slab;
    try {
      slab = allocate();
    } catch (OutOfMemoryError e) {
      // Direct memory ran out (the JVM already tried a GC): keep what we have, stop asking.
      slabCount = allocated;
      LOG.warn("Off-heap block cache: no direct memory for slab {} of {} ({} bytes each): the "
        + "cache now holds {} bytes, not the configured {} (-XX:MaxDirectMemorySize is {} bytes; "
        + "other direct buffers use the rest): {}", allocated + 1, configuredSlabs, slabSize,
        (long) slabCount * slabSize, (long) configuredSlabs * slabSize, DirectMemory.max(),
        e.getMessage());
      return null;
    }
    allocated++;
    return slab;
  }

  /** One new direct slab; an {@link OutOfMemoryError} when direct memory is exhausted. */
  ByteBuffer allocate() {
    return ByteBuffer.allocateDirect(slabSize);
  }

  /** Takes back a slab whose slots are all free. */
  synchronized void give(ByteBuffer slab) {
    returned.push(slab);
  }

  /** Slabs no size class holds. */
  synchronized int freeSlabs() {
    return slabCount - allocated + returned.size();
  }

  int slabSize() {
    return slabSize;
  }

  /** Slabs the cache can have: the configured count, less any it could not allocate. */
  synchronized int slabCount() {
    return slabCount;
  }

  /** Bytes the cache can hold: {@link #slabCount()} slabs. */
  synchronized long capacity() {
    return (long) slabCount * slabSize;
  }

  /** Configured bytes that direct memory could not supply. */
  synchronized long shortfall() {
    return (long) (configuredSlabs - slabCount) * slabSize;
  }
}
