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
package dev.hbasepatches.localindex;

import dev.hbasepatches.testkit.MiniCluster;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/**
 * The one place that knows how to run Phoenix on the testkit minicluster: the server settings
 * Phoenix's coprocessors need, and the client properties every JDBC connection must carry.
 * <p>
 * Every Phoenix test class in a JVM gets the same cluster (the first Phoenix connection costs far
 * more than starting HBase, so it should be paid once).
 */
final class PhoenixCluster {

  /** Name under which the cluster is shared by every Phoenix test class of a surefire fork. */
  static final String SHARED_NAME = "phoenix";

  /**
   * Phoenix waits this long before building an index over existing rows; the tests write no
   * concurrent data, so there is nothing to wait for.
   */
  private static final String INDEX_POPULATION_WAIT = "phoenix.index.population.wait.time";

  private PhoenixCluster() {
  }

  /** The shared cluster, to be held in a {@code @ClassRule}. */
  static MiniCluster shared() {
    return MiniCluster.builder()
      .sharedPerJvm(SHARED_NAME)
      // Phoenix's index maintenance can put its own cells in WAL edits; this codec can write
      // and replay them, the default one cannot.
      .conf("hbase.regionserver.wal.codec",
        "org.apache.hadoop.hbase.regionserver.wal.IndexedWALEditCodec")
      // Phoenix gives index and metadata RPCs their own queues so they cannot starve behind
      // the data calls that trigger them.
      .conf("hbase.region.server.rpc.scheduler.factory.class",
        "org.apache.hadoop.hbase.ipc.PhoenixRpcSchedulerFactory")
      // Phoenix's build notes for minicluster runs: without this, HBase's create-time
      // descriptor checks can refuse tables Phoenix creates.
      .conf("hbase.table.sanity.checks", "false")
      .conf(INDEX_POPULATION_WAIT, "0")
      .build();
  }

  /** The JDBC URL of the cluster's ZooKeeper quorum. */
  static String url(MiniCluster cluster) {
    return "jdbc:phoenix:localhost:" + cluster.zkPort();
  }

  /** Properties every connection needs on a minicluster. */
  static Properties clientProperties() {
    Properties p = new Properties();
    // Asynchronous UPDATE STATISTICS leaves a client thread that keeps the JVM from exiting
    // for many minutes after the cluster has gone.
    p.setProperty("phoenix.update.stats.command.async", "false");
    p.setProperty(INDEX_POPULATION_WAIT, "0");
    return p;
  }

  /** Opens a Phoenix connection to the cluster; the caller closes it. */
  static Connection connect(MiniCluster cluster) throws SQLException {
    return DriverManager.getConnection(url(cluster), clientProperties());
  }
}
