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
package dev.hbasepatches.testkit;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.MiniHBaseCluster;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.StartMiniClusterOption;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HRegionServer;
import org.apache.hadoop.hbase.util.JVMClusterUtil.RegionServerThread;
import org.junit.rules.ExternalResource;

/**
 * An HBase minicluster for tests, as a JUnit {@code @ClassRule}: started once per test class and
 * stopped after it, or, with {@link Builder#sharedPerJvm(String)}, started once per JVM and kept
 * for every class that asks for the same name (Phoenix's first connection is too slow to pay per
 * class).
 * <p>
 * By default it runs on the local file system with ZooKeeper and no MiniDFS, which roughly halves
 * start-up on a small machine; {@link Builder#withDfs()} brings HDFS back for tests that need it.
 */
public final class MiniCluster extends ExternalResource {

  private static final Map<String, MiniCluster> SHARED = new ConcurrentHashMap<>();

  private final int regionServers;
  private final boolean dfs;
  private final Map<String, String> settings;
  private final String sharedName;
  private HBaseTestingUtility util;
  private Connection connection;

  private MiniCluster(Builder b) {
    this.regionServers = b.regionServers;
    this.dfs = b.dfs;
    this.settings = new LinkedHashMap<>(b.settings);
    this.sharedName = b.sharedName;
  }

  public static Builder builder() {
    return new Builder();
  }

  @Override
  protected void before() throws Throwable {
    start();
  }

  @Override
  protected void after() {
    if (sharedName == null) {
      stop();
    }
  }

  /** Starts the cluster if it is not running yet; safe to call more than once. */
  public synchronized void start() throws Exception {
    if (util != null) {
      return;
    }
    HBaseTestingUtility u = new HBaseTestingUtility();
    Configuration conf = u.getConfiguration();
    conf.setInt("hbase.master.info.port", -1);
    conf.setInt("hbase.regionserver.info.port", -1);
    conf.setInt("hbase.regionserver.handler.count", 8);
    conf.setInt("hbase.regionserver.metahandler.count", 4);
    conf.setInt("hbase.master.handler.count", 4);
    // HBase waits 30 s for its master to become active; on the 2-vCPU build VM at load averages
    // above 30 (other sessions' builds) it took longer, and the cluster gave up ("Master not
    // active after 30000ms"). The wait is an upper bound, so a quiet machine starts as fast.
    conf.setInt("hbase.master.start.timeout.localHBaseCluster", 180_000);
    if (!dfs) {
      conf.set("hbase.wal.provider", "filesystem");
      conf.setBoolean("hbase.unsafe.stream.capability.enforce", false);
    }
    for (Map.Entry<String, String> e : settings.entrySet()) {
      conf.set(e.getKey(), e.getValue());
    }
    StartMiniClusterOption.Builder option =
      StartMiniClusterOption.builder().numRegionServers(regionServers).numDataNodes(1);
    if (dfs) {
      u.startMiniCluster(option.build());
    } else {
      u.startMiniZKCluster();
      u.startMiniHBaseCluster(option.build());
    }
    util = u;
    connection = u.getConnection();
  }

  public synchronized void stop() {
    if (util == null) {
      return;
    }
    try {
      util.shutdownMiniCluster();
    } catch (IOException e) {
      throw new IllegalStateException("minicluster did not shut down cleanly", e);
    } finally {
      util = null;
      connection = null;
    }
  }

  private HBaseTestingUtility running() {
    if (util == null) {
      throw new IllegalStateException("the minicluster is not running; use it as a @ClassRule");
    }
    return util;
  }

  public HBaseTestingUtility util() {
    return running();
  }

  public Configuration conf() {
    return running().getConfiguration();
  }

  public Connection connection() {
    running();
    return connection;
  }

  public Admin admin() throws IOException {
    return running().getAdmin();
  }

  /** The ZooKeeper client port, for clients (e.g. a Phoenix JDBC URL) that connect by quorum. */
  public int zkPort() {
    return running().getZkCluster().getClientPort();
  }

  public HRegionServer regionServer(int i) {
    return running().getMiniHBaseCluster().getRegionServer(i);
  }

  /** Every online region of the table, over every region server. */
  public java.util.List<HRegion> regions(org.apache.hadoop.hbase.TableName table) {
    return running().getMiniHBaseCluster().getRegions(table);
  }

  /**
   * Where {@link #placeReplicas} left a table's replicas: the servers holding one, the primary's
   * server, hbase:meta's server, and how many placements it took.
   */
  public record ReplicaPlacement(java.util.Set<ServerName> servers, ServerName primary,
    ServerName meta, int attempts) {

    @Override
    public String toString() {
      return "replicas on " + servers.size() + " servers, primary "
        + (meta.equals(primary) ? "with" : "away from") + " hbase:meta (" + meta + ")"
        + (attempts > 1 ? ", placed in " + attempts + " attempts" : "");
    }
  }

  /**
   * Puts replica r of {@code table}'s first region on the r-th live RegionServer, hbase:meta's
   * server last: with as many servers as replicas no two replicas share a server and the primary
   * is away from meta (so stopping the primary's server fails over the replica, not meta). Waits
   * (at most a minute) for {@code servers} live RegionServers first (a minicluster can hand over
   * tables before the last one has reported), and places again, up to three times, while a
   * replica is not where it was sent (a move can be lost while a server starts).
   *
   * @return where the replicas are after the last placement; the caller checks what it needs
   */
  public ReplicaPlacement placeReplicas(TableName table, int servers) throws Exception {
    MiniHBaseCluster c = running().getMiniHBaseCluster();
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MINUTES.toNanos(1);
    try (Admin admin = admin()) {
      while (c.getLiveRegionServerThreads().size() < servers
        || admin.getRegionServers().size() < servers) {
        if (System.nanoTime() > deadline) {
          throw new IOException(servers + " RegionServers were not live within a minute: "
            + admin.getRegionServers());
        }
        Thread.sleep(200);
      }
      ReplicaPlacement placed = null;
      for (int attempt = 1; attempt <= 3; attempt++) {
        util.waitUntilNoRegionsInTransition(120_000);
        ServerName meta = c.getServerHoldingMeta();
        List<ServerName> targets = new ArrayList<>();
        for (RegionServerThread t : c.getLiveRegionServerThreads()) {
          ServerName s = t.getRegionServer().getServerName();
          if (!s.equals(meta)) {
            targets.add(s);
          }
        }
        targets.add(meta);
        try (RegionLocator l = connection.getRegionLocator(table)) {
          for (HRegionLocation loc : l.getRegionLocations(HConstants.EMPTY_START_ROW, true)) {
            ServerName want = targets.get(loc.getRegion().getReplicaId() % targets.size());
            if (!want.equals(loc.getServerName())) {
              admin.move(loc.getRegion().getEncodedNameAsBytes(), want);
            }
          }
        }
        util.waitUntilNoRegionsInTransition(120_000);
        java.util.Set<ServerName> seen = new java.util.HashSet<>();
        ServerName primary = null;
        int replicas = 0;
        try (RegionLocator l = connection.getRegionLocator(table)) {
          for (HRegionLocation loc : l.getRegionLocations(HConstants.EMPTY_START_ROW, true)) {
            seen.add(loc.getServerName());
            replicas++;
            if (loc.getRegion().getReplicaId() == 0) {
              primary = loc.getServerName();
            }
          }
        }
        placed = new ReplicaPlacement(seen, primary, meta, attempt);
        if (seen.size() == Math.min(replicas, targets.size())) {
          return placed;
        }
      }
      return placed;
    }
  }

  /** Settings for a {@link MiniCluster}. */
  public static final class Builder {
    private int regionServers = 1;
    private boolean dfs;
    private final Map<String, String> settings = new LinkedHashMap<>();
    private String sharedName;

    public Builder regionServers(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("need at least one region server, asked for " + n);
      }
      this.regionServers = n;
      return this;
    }

    public Builder withDfs() {
      this.dfs = true;
      return this;
    }

    public Builder conf(String key, String value) {
      settings.put(key, value);
      return this;
    }

    public Builder conf(String key, Class<?> value) {
      return conf(key, value.getName());
    }

    /**
     * Shares one cluster among every caller that uses this name in the same JVM. The first
     * caller's settings win; the cluster stops when the JVM exits.
     */
    public Builder sharedPerJvm(String name) {
      this.sharedName = name;
      return this;
    }

    public MiniCluster build() {
      if (sharedName == null) {
        return new MiniCluster(this);
      }
      return SHARED.computeIfAbsent(sharedName, n -> {
        MiniCluster c = new MiniCluster(this);
        Runtime.getRuntime().addShutdownHook(new Thread(c::stop, "minicluster-" + n + "-stop"));
        return c;
      });
    }
  }
}
