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
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

/** The 3-RegionServer minicluster settings region replicas need, shared by the cluster tests. */
final class ReplicaClusters {

  private ReplicaClusters() {
  }

  /**
   * Replica replication on, store files refreshed every second, replication retries every
   * 100 ms (the default 1 s gives a 2 s lag p90), short ZooKeeper session and RPC timeouts
   * (testkit's MiniCluster already gives the master a patient start); the caller adds its own
   * operation timeout and anything else.
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

  /**
   * Creates {@code table} with region replication 3, one family and {@link ReplicaTagObserver},
   * writes value {@code v0} to rows {@code rowNames[0..]} in batches of {@code batch} (a loaded
   * machine times one big batch out) and flushes, so the secondaries can read the file.
   */
  static void createAndLoad(MiniCluster cluster, TableName table, byte[] family, byte[] qualifier,
    List<String> rowNames, int batch) throws Exception {
    try (Admin admin = cluster.admin()) {
      admin.createTable(TableDescriptorBuilder.newBuilder(table).setRegionReplication(3)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.of(family))
        .setCoprocessor(ReplicaTagObserver.class.getName()).build());
      cluster.util().waitTableAvailable(table);
      try (Table t = cluster.connection().getTable(table)) {
        List<Put> puts = new ArrayList<>();
        for (String row : rowNames) {
          puts.add(new Put(Bytes.toBytes(row)).addColumn(family, qualifier, Bytes.toBytes("v0")));
          if (puts.size() == batch) {
            t.put(puts);
            puts.clear();
          }
        }
        if (!puts.isEmpty()) {
          t.put(puts);
        }
      }
      admin.flush(table);
    }
  }

  /**
   * One replica per server, the primary away from hbase:meta's server (testkit's
   * {@link MiniCluster#placeReplicas}); returns what it did, for the log.
   */
  static String placeReplicas(MiniCluster cluster, TableName table) throws Exception {
    return cluster.placeReplicas(table, 3).toString();
  }
}
