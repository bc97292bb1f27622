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
package dev.hbasepatches.timeline;

import dev.hbasepatches.testkit.MiniCluster;

/** The 3-RegionServer minicluster settings region replicas need, shared by the cluster tests. */
final class ReplicaClusters {

  private ReplicaClusters() {
  }

  /**
   * Replica replication on, store files refreshed every second, replication retries every
   * 100 ms (the default 1 s gives a 2 s lag p90), short ZooKeeper session and RPC timeouts; the
   * caller adds its own operation timeout and anything else.
   */
  static MiniCluster.Builder threeServers() {
    return MiniCluster.builder().regionServers(3)
      .conf("hbase.region.replica.replication.enabled", "true")
      .conf("hbase.region.replica.wait.for.primary.flush", "true")
      .conf("hbase.regionserver.storefile.refresh.period", "1000")
      .conf("replication.source.sleepforretries", "100")
      .conf("hbase.master.wait.on.regionservers.mintostart", "3")
      .conf("zookeeper.session.timeout", "6000")
      .conf("hbase.rpc.timeout", "2000");
  }
}
