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
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.io.hfile.BlockCacheFactory;
import org.apache.hadoop.hbase.io.hfile.BlockCacheKey;
import org.apache.hadoop.hbase.io.hfile.CacheStats;
import org.apache.hadoop.hbase.io.hfile.Cacheable;
import org.apache.hadoop.hbase.io.hfile.CachedBlock;
import org.apache.hadoop.hbase.io.hfile.HFileBlock;
import org.apache.hadoop.hbase.io.hfile.bucket.BucketCache;
import org.apache.hadoop.hbase.util.Pair;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * The RegionServer's L2 block cache, named in {@code hbase.blockcache.external.class}. By
 * {@link OffHeapMode#KEY} it runs our {@link SlabBlockCache} (PATCHED, or BASELINE copying data
 * blocks on every hit) or HBase's own off-heap {@link BucketCache} of the same size (UPSTREAM).
 * <p>
 * HBase's factory swallows a constructor failure and silently runs without an L2; pair this
 * class with {@link OffHeapCacheGuard}, which refuses to start such a RegionServer.
 */
@InterfaceAudience.LimitedPrivate("Configuration")
public final class OffHeapBlockCache extends VersionedBlockCache {

  private final OffHeapMode mode;
  private final BlockCache delegate;

  public OffHeapBlockCache(Configuration conf) {
    this.mode = OffHeapMode.from(conf);
    OffHeapCacheConfig config = OffHeapCacheConfig.from(conf);
    this.delegate = mode == OffHeapMode.UPSTREAM
      ? upstreamBucketCache(conf, config)
      : new SlabBlockCache(config, mode == OffHeapMode.BASELINE);
  }

  private static BlockCache upstreamBucketCache(Configuration conf, OffHeapCacheConfig config) {
    try {
      return new BucketCache("offheap", config.capacity(),
        conf.getInt(BlockCacheFactory.BLOCKCACHE_BLOCKSIZE_KEY, HConstants.DEFAULT_BLOCKSIZE), null,
        conf.getInt(BlockCacheFactory.BUCKET_CACHE_WRITER_THREADS_KEY,
          BlockCacheFactory.DEFAULT_BUCKET_CACHE_WRITER_THREADS),
        conf.getInt(BlockCacheFactory.BUCKET_CACHE_WRITER_QUEUE_KEY,
          BlockCacheFactory.DEFAULT_BUCKET_CACHE_WRITER_QUEUE),
        null, BucketCache.DEFAULT_ERROR_TOLERATION_DURATION, conf);
    } catch (IOException e) {
      throw new UncheckedIOException("could not create the UPSTREAM BucketCache", e);
    }
  }

  public OffHeapMode mode() {
    return mode;
  }

  /** The cache doing the work: a {@link SlabBlockCache}, or a {@link BucketCache} in UPSTREAM. */
  @Override
  public BlockCache delegate() {
    return delegate;
  }

  @Override
  public void cacheBlock(BlockCacheKey cacheKey, Cacheable buf, boolean inMemory) {
    delegate.cacheBlock(cacheKey, buf, inMemory);
  }

  @Override
  public void cacheBlock(BlockCacheKey cacheKey, Cacheable buf, boolean inMemory,
    boolean waitWhenCache) {
    delegate.cacheBlock(cacheKey, buf, inMemory, waitWhenCache);
  }

  @Override
  public void cacheBlock(BlockCacheKey cacheKey, Cacheable buf) {
    delegate.cacheBlock(cacheKey, buf);
  }

  @Override
  public Cacheable getBlock(BlockCacheKey cacheKey, boolean caching, boolean repeat,
    boolean updateCacheMetrics) {
    return delegate.getBlock(cacheKey, caching, repeat, updateCacheMetrics);
  }

  @Override
  public boolean evictBlock(BlockCacheKey cacheKey) {
    return delegate.evictBlock(cacheKey);
  }

  @Override
  public int evictBlocksByHfileName(String hfileName) {
    return delegate.evictBlocksByHfileName(hfileName);
  }

  @Override
  public CacheStats getStats() {
    return delegate.getStats();
  }

  @Override
  public void shutdown() {
    delegate.shutdown();
  }

  @Override
  public long size() {
    return delegate.size();
  }

  @Override
  public long getMaxSize() {
    return delegate.getMaxSize();
  }

  @Override
  public long getFreeSize() {
    return delegate.getFreeSize();
  }

  @Override
  public long getCurrentSize() {
    return delegate.getCurrentSize();
  }

  @Override
  public long getCurrentDataSize() {
    return delegate.getCurrentDataSize();
  }

  @Override
  public long getBlockCount() {
    return delegate.getBlockCount();
  }

  @Override
  public long getDataBlockCount() {
    return delegate.getDataBlockCount();
  }

  @Override
  public Iterator<CachedBlock> iterator() {
    return delegate.iterator();
  }

  @Override
  public BlockCache[] getBlockCaches() {
    return delegate.getBlockCaches();
  }

  @Override
  public void notifyFileCachingCompleted(Path fileName, int totalBlockCount, int dataBlockCount,
    long size) {
    delegate.notifyFileCachingCompleted(fileName, totalBlockCount, dataBlockCount, size);
  }

  @Override
  public Optional<Boolean> blockFitsIntoTheCache(HFileBlock block) {
    return delegate.blockFitsIntoTheCache(block);
  }

  @Override
  public Optional<Boolean> isAlreadyCached(BlockCacheKey key) {
    return delegate.isAlreadyCached(key);
  }

  @Override
  public Optional<Integer> getBlockSize(BlockCacheKey key) {
    return delegate.getBlockSize(key);
  }

  @Override
  public Optional<Map<String, Pair<String, Long>>> getFullyCachedFiles() {
    return delegate.getFullyCachedFiles();
  }

  @Override
  public Optional<Map<String, Long>> getRegionCachedInfo() {
    return delegate.getRegionCachedInfo();
  }

  @Override
  public String toString() {
    return "OffHeapBlockCache{mode=" + mode + ", " + delegate + "}";
  }
}
