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

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.io.hfile.BlockCacheFactory;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * Builds the block cache a RegionServer would build for each mode, for standalone regions
 * ({@code HRegion.setBlockCache}) in tests and benchmarks: the same keys, the same factory.
 */
@InterfaceAudience.Private
public final class OffHeapCaches {
  private OffHeapCaches() {
  }

  /**
   * Sets the documented keys on {@code conf}: an L1 of {@code l1Bytes} on the heap for index and
   * bloom blocks and an L2 of {@code l2Bytes} off heap; UPSTREAM gets HBase's
   * CombinedBlockCache(LRU, offheap BucketCache) instead.
   */
  public static Configuration configure(Configuration conf, OffHeapMode mode, long l1Bytes,
    long l2Bytes) {
    long heap = Runtime.getRuntime().maxMemory();
    conf.setFloat(HConstants.HFILE_BLOCK_CACHE_SIZE_KEY, (float) ((double) l1Bytes / heap));
    if (mode == OffHeapMode.UPSTREAM) {
      conf.set(HConstants.BUCKET_CACHE_IOENGINE_KEY, "offheap");
      conf.setFloat(HConstants.BUCKET_CACHE_SIZE_KEY, l2Bytes / (1024f * 1024f));
      return conf;
    }
    conf.setBoolean(OffHeapCacheGuard.USE_EXTERNAL_KEY, true);
    conf.set(OffHeapCacheGuard.EXTERNAL_CLASS_KEY, OffHeapBlockCache.class.getName());
    conf.set(BlockCacheFactory.BLOCKCACHE_POLICY_KEY, "IndexOnlyLRU");
    conf.set(OffHeapCacheConfig.SIZE_KEY, Long.toString(l2Bytes));
    conf.set(OffHeapMode.KEY, mode.name());
    return conf;
  }

  /** The cache BlockCacheFactory builds from {@link #configure}; checked to be the asked-for one. */
  public static BlockCache create(Configuration base, OffHeapMode mode, long l1Bytes,
    long l2Bytes) {
    Configuration conf = configure(new Configuration(base), mode, l1Bytes, l2Bytes);
    BlockCache cache = BlockCacheFactory.createBlockCache(conf);
    if (mode != OffHeapMode.UPSTREAM) {
      OffHeapCacheGuard.check(conf, cache);
    }
    return cache;
  }

  /** The off-heap slab cache inside a cache from {@link #create}, or null (UPSTREAM). */
  public static SlabBlockCache slabCache(BlockCache cache) {
    if (cache == null || cache.getBlockCaches() == null) {
      return null;
    }
    for (BlockCache c : cache.getBlockCaches()) {
      if (c instanceof OffHeapBlockCache
        && ((OffHeapBlockCache) c).delegate() instanceof SlabBlockCache) {
        return (SlabBlockCache) ((OffHeapBlockCache) c).delegate();
      }
    }
    return null;
  }
}
