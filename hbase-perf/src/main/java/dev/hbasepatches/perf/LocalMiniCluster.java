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
package dev.hbasepatches.perf;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.StartMiniClusterOption;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HRegionServer;

/**
 * The embedded cluster itself: ZooKeeper and an in-process HBase on the local file system (no
 * MiniDFS), started through {@link HBaseTestingUtility} directly rather than through a JUnit
 * rule, so the tool carries no JUnit at run time. One cluster per distinct name (the tool's
 * names are made of the settings) is kept for the life of the JVM, so tests and the tool meet on
 * the same cluster without a second start-up.
 */
final class LocalMiniCluster {

  private static final Map<String, LocalMiniCluster> SHARED = new ConcurrentHashMap<>();

  private final int regionServers;
  private final Map<String, String> settings;
  private HBaseTestingUtility util;
  private Connection connection;

  private LocalMiniCluster(int regionServers, Map<String, String> settings) {
    this.regionServers = regionServers;
    this.settings = new LinkedHashMap<>(settings);
  }

  /** The cluster of this name, created (not started) on first use and stopped at JVM exit. */
  static LocalMiniCluster shared(String name, int regionServers, Map<String, String> settings) {
    return SHARED.computeIfAbsent(name, n -> {
      LocalMiniCluster c = new LocalMiniCluster(regionServers, settings);
      Runtime.getRuntime().addShutdownHook(new Thread(c::stop, "hbase-perf-minicluster-stop"));
      return c;
    });
  }

  /** Starts the cluster unless it runs already. */
  synchronized void start() throws Exception {
    if (util != null) {
      return;
    }
    HBaseTestingUtility u = new HBaseTestingUtility();
    Configuration conf = u.getConfiguration();
    // No web UIs, fewer handler threads: the cluster shares the JVM and 2 cores with the clients.
    conf.setInt("hbase.master.info.port", -1);
    conf.setInt("hbase.regionserver.info.port", -1);
    conf.setInt("hbase.regionserver.handler.count", 8);
    conf.setInt("hbase.regionserver.metahandler.count", 4);
    conf.setInt("hbase.master.handler.count", 4);
    // WALs on the local file system, which has no hflush/hsync capability to enforce.
    conf.set("hbase.wal.provider", "filesystem");
    conf.setBoolean("hbase.unsafe.stream.capability.enforce", false);
    settings.forEach(conf::set);
    try {
      u.startMiniZKCluster();
      u.startMiniHBaseCluster(
        StartMiniClusterOption.builder().numRegionServers(regionServers).build());
    } catch (Exception | LinkageError e) {
      try {
        u.shutdownMiniCluster();
      } catch (IOException | RuntimeException ignored) {
        // Already failing; the start-up error is the one to report.
      }
      throw e;
    }
    util = u;
    connection = u.getConnection();
  }

  synchronized void stop() {
    if (util == null) {
      return;
    }
    try {
      util.shutdownMiniCluster();
    } catch (IOException e) {
      // The JVM is on its way out or the run is over; nothing is left to save.
    } finally {
      util = null;
      connection = null;
    }
  }

  private HBaseTestingUtility running() {
    if (util == null) {
      throw new IllegalStateException("the embedded minicluster is not running");
    }
    return util;
  }

  /** The running cluster's testing utility, for scenarios that stop and start servers. */
  HBaseTestingUtility util() {
    return running();
  }

  Configuration conf() {
    return running().getConfiguration();
  }

  Connection connection() {
    running();
    return connection;
  }

  Admin admin() throws IOException {
    return running().getAdmin();
  }

  int zkPort() {
    return running().getZkCluster().getClientPort();
  }

  HRegionServer regionServer(int i) {
    return running().getMiniHBaseCluster().getRegionServer(i);
  }

  List<HRegion> regions(TableName table) {
    return running().getMiniHBaseCluster().getRegions(table);
  }
}
