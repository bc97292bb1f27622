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
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * The {@link BlockCache} members whose signatures differ between HBase 2.6 releases, delegated;
 * this copy is HBase 2.6.1's (the module's pom picks {@code src/main/hbase-<line>/java} by the
 * {@code hbase-2.6.1} profile). 2.6.1 asks {@code shouldCacheFile(String)} before prefetching a
 * file, which BucketCache (UPSTREAM mode) answers from the files it holds in full.
 */
@InterfaceAudience.Private
abstract class VersionedBlockCache implements BlockCache {

  /** The cache doing the work. */
  public abstract BlockCache delegate();

  @Override
  public Optional<Boolean> shouldCacheFile(String fileName) {
    return delegate().shouldCacheFile(fileName);
  }
}
