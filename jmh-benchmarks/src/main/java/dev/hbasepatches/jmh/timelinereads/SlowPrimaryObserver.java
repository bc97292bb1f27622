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
package dev.hbasepatches.jmh.timelinereads;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLongArray;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessor;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.RegionObserver;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The region observer of the timeline benchmark's table, on the (stock) RegionServers: counts
 * every Get each replica serves and makes the primary (replica 0) slow for the rows whose key
 * starts with {@link #SLOW_PREFIX}: it sleeps {@link #PAUSES_MS}[0] before serving them.
 * Secondaries sleep {@link #PAUSES_MS}[1] before serving those rows (0 unless a test sets it: they
 * serve every row at once). Answers are left as they are, so every replica returns the same cells.
 * <p>
 * The state is static in the class loader that runs the cluster ({@link TimelineCluster}); the
 * benchmark's sides, in loaders of their own, reach the same objects through JDK types only.
 */
public class SlowPrimaryObserver implements RegionCoprocessor, RegionObserver {

  /** Rows whose primary is slow. */
  static final String SLOW_PREFIX = "slow-";
  private static final byte[] SLOW = Bytes.toBytes(SLOW_PREFIX);

  /** Gets served, index = replica id (0 the primary). */
  static final AtomicLongArray GETS = new AtomicLongArray(4);
  /**
   * How long a replica sleeps before serving a slow row, in milliseconds: index 0 the primary,
   * index 1 every secondary.
   */
  static final AtomicLongArray PAUSES_MS = new AtomicLongArray(2);

  @Override
  public Optional<RegionObserver> getRegionObserver() {
    return Optional.of(this);
  }

  @Override
  public void preGetOp(ObserverContext<RegionCoprocessorEnvironment> c, Get get,
    List<Cell> result) throws IOException {
    int replica = c.getEnvironment().getRegionInfo().getReplicaId();
    GETS.incrementAndGet(Math.min(replica, GETS.length() - 1));
    long pause = PAUSES_MS.get(replica == 0 ? 0 : 1);
    if (pause > 0 && Bytes.startsWith(get.getRow(), SLOW)) {
      try {
        Thread.sleep(pause);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("slow replica " + replica + " interrupted");
      }
    }
  }
}
