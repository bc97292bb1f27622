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

import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.io.hfile.BlockCacheKey;
import org.apache.hadoop.hbase.io.hfile.HFileInfo;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * The {@link BlockCache} members whose signatures differ between HBase 2.6 releases, delegated;
 * this copy is HBase 2.6.4's (the module's pom picks {@code src/main/hbase-<line>/java} by the
 * {@code hbase-2.6.1} profile; this one is the default). 2.6.4 replaced {@code shouldCacheFile(String)} by a form taking
 * the file's info and added per-block and range-eviction questions and configuration reloads,
 * all of which BucketCache (UPSTREAM mode) answers; our slab cache keeps the defaults.
 */
@InterfaceAudience.Private
abstract class VersionedBlockCache implements BlockCache {

  /** The cache doing the work. */
  public abstract BlockCache delegate();

  @Override
  public Optional<Boolean> shouldCacheFile(HFileInfo hFileInfo, Configuration conf) {
    return delegate().shouldCacheFile(hFileInfo, conf);
  }

  @Override
  public Optional<Boolean> shouldCacheBlock(BlockCacheKey key, long maxTimeStamp,
    Configuration conf) {
    return delegate().shouldCacheBlock(key, maxTimeStamp, conf);
  }

  @Override
  public int evictBlocksRangeByHfileName(String hfileName, long initOffset, long endOffset) {
    return delegate().evictBlocksRangeByHfileName(hfileName, initOffset, endOffset);
  }

  @Override
  public void onConfigurationChange(Configuration config) {
    delegate().onConfigurationChange(config);
  }
}
