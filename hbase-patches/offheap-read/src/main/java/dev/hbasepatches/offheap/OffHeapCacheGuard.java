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
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.CoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.CoreCoprocessor;
import org.apache.hadoop.hbase.coprocessor.HasRegionServerServices;
import org.apache.hadoop.hbase.coprocessor.RegionServerCoprocessor;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.io.hfile.BlockCacheFactory;
import org.apache.hadoop.hbase.io.hfile.CombinedBlockCache;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * Refuses to start a RegionServer whose L2 cache is not {@link OffHeapBlockCache} although the
 * configuration asks for it. HBase's {@code BlockCacheFactory} falls back to an L1-only cache,
 * with one log line, when {@code hbase-external-blockcache} is missing from the class path or the
 * cache's constructor throws (a bad size, say); listed in
 * {@code hbase.coprocessor.regionserver.classes}, this guard turns that into a startup error
 * naming the cause.
 */
@CoreCoprocessor
@InterfaceAudience.LimitedPrivate("Configuration")
public final class OffHeapCacheGuard implements RegionServerCoprocessor {

  static final String USE_EXTERNAL_KEY = "hbase.blockcache.use.external";
  static final String EXTERNAL_CLASS_KEY = "hbase.blockcache.external.class";

  @Override
  public void start(CoprocessorEnvironment env) throws IOException {
    if (!(env instanceof HasRegionServerServices)) {
      throw new IOException(getClass().getName() + " must be loaded as a RegionServer "
        + "coprocessor (hbase.coprocessor.regionserver.classes)");
    }
    Optional<BlockCache> cache =
      ((HasRegionServerServices) env).getRegionServerServices().getBlockCache();
    check(env.getConfiguration(), cache.orElse(null));
  }

  /**
   * The L2 the configuration asks for, or an {@link IllegalStateException} /
   * {@link IllegalArgumentException} saying what is wrong: a bad key value, a missing jar, or a
   * cache HBase built without it.
   */
  public static OffHeapBlockCache check(Configuration conf, BlockCache cache) {
    // A bad value fails here with its key and value, the message HBase's factory swallowed.
    OffHeapMode.from(conf);
    OffHeapCacheConfig.from(conf);
    if (!conf.getBoolean(USE_EXTERNAL_KEY, false)) {
      throw new IllegalStateException(USE_EXTERNAL_KEY + " must be true for the off-heap cache");
    }
    String cls = conf.get(EXTERNAL_CLASS_KEY);
    if (!OffHeapBlockCache.class.getName().equals(cls)) {
      throw new IllegalStateException(EXTERNAL_CLASS_KEY + "=" + cls + "; expected "
        + OffHeapBlockCache.class.getName());
    }
    String policy = conf.get(BlockCacheFactory.BLOCKCACHE_POLICY_KEY,
      BlockCacheFactory.BLOCKCACHE_POLICY_DEFAULT);
    if (!"IndexOnlyLRU".equalsIgnoreCase(policy)) {
      throw new IllegalStateException(BlockCacheFactory.BLOCKCACHE_POLICY_KEY + "=" + policy
        + ": must be IndexOnlyLRU, or the L1 keeps heap copies of data blocks and serves them");
    }
    if (cache == null) {
      throw new IllegalStateException("the RegionServer has no block cache: "
        + "hfile.block.cache.size must be above 0.0001 for the L1 that fronts the off-heap L2");
    }
    BlockCache l2 =
      cache instanceof CombinedBlockCache ? ((CombinedBlockCache) cache).getSecondLevelCache() : null;
    if (!(l2 instanceof OffHeapBlockCache)) {
      boolean jar = classPresent("org.apache.hadoop.hbase.io.hfile.MemcachedBlockCache");
      throw new IllegalStateException("the RegionServer's block cache is "
        + cache.getClass().getSimpleName() + " with L2 " + (l2 == null ? "none" : l2.getClass())
        + ", not " + OffHeapBlockCache.class.getSimpleName() + ": "
        + (jar ? "its constructor failed; see the 'Error creating external block cache' warning"
          : "hbase-external-blockcache is not on the class path (BlockCacheFactory needs it)"));
    }
    return (OffHeapBlockCache) l2;
  }

  private static boolean classPresent(String name) {
    try {
      Class.forName(name, false, OffHeapCacheGuard.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }
}
