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

import org.apache.hadoop.hbase.io.ByteBuffAllocator;
import org.apache.hadoop.hbase.nio.RefCnt;

/**
 * An entry's reference count. The slot goes back when the count reaches zero, like a recycler's,
 * but without netty's leak tracker: HBase's {@code RefCnt} tracks one recycled buffer in 128 and
 * records a stack trace on every retain and release of a tracked one, which would make one
 * cached block in 128 allocate on every hit. The tracker only reports objects garbage-collected
 * unreleased; a held entry stays reachable from its size class until freed, so it could never
 * fire here, and {@link SlabBlockCache#invariantViolations} is the leak check instead.
 */
final class EntryRefCnt extends RefCnt {
  private final CacheEntry entry;

  EntryRefCnt(CacheEntry entry) {
    super(ByteBuffAllocator.NONE);
    this.entry = entry;
  }

  /** Keeps ByteBuff's released-buffer checks on, as for a recycled buffer. */
  @Override
  public boolean hasRecycler() {
    return true;
  }

  @Override
  public boolean release() {
    boolean freed = super.release();
    if (freed) {
      entry.free();
    }
    return freed;
  }

  @Override
  public boolean release(int decrement) {
    boolean freed = super.release(decrement);
    if (freed) {
      entry.free();
    }
    return freed;
  }
}
