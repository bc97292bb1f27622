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

/**
 * The direct slabs of the cache, handed to size classes on demand. Slabs are allocated the first
 * time a size class needs one and stay allocated until the cache is dropped.
 */
final class SlabPool {
  private final int slabSize;
  private final int slabCount;
  private int allocated;
  private final java.util.ArrayDeque<ByteBuffer> returned = new java.util.ArrayDeque<>();

  SlabPool(int slabSize, int slabCount) {
    this.slabSize = slabSize;
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
    allocated++;
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

  int slabCount() {
    return slabCount;
  }
}
