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
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.io.hfile.CacheStats;
import org.apache.hadoop.hbase.io.hfile.CombinedBlockCache;
import org.apache.hadoop.hbase.regionserver.HRegionServer;

/**
 * The default cluster: an in-process minicluster on the local file system
 * ({@link LocalMiniCluster}). Clusters are shared per JVM by a name made of their settings, so a
 * test that asks for the same settings and the tool use one cluster.
 */
final class EmbeddedCluster implements ClusterSession {

  /** Secondary region replicas pick up flushed files this often, so TIMELINE reads see data. */
  static final String REPLICA_REFRESH_KEY = "hbase.regionserver.storefile.refresh.period";
  static final String REPLICA_REFRESH_MILLIS = "5000";
  /**
   * How long the in-process master may take to come up (HBase's default is 30 s, which a busy
   * 2-core machine can miss: "Master not active after 30000ms").
   */
  static final String MASTER_START_TIMEOUT_KEY = "hbase.master.start.timeout.localHBaseCluster";
  static final String MASTER_START_TIMEOUT_MILLIS = "180000";

  private final LocalMiniCluster cluster;
  private final Connection connection;
  private final int regionServers;
  private final Map<String, String> settings;
  private final List<String> changesOn;

  private EmbeddedCluster(LocalMiniCluster cluster, Connection connection, int regionServers,
    Map<String, String> settings, List<String> changesOn) {
    this.cluster = cluster;
    this.connection = connection;
    this.regionServers = regionServers;
    this.settings = settings;
    this.changesOn = changesOn;
  }

  /** The server settings an embedded run with these options uses; -D settings win. */
  static Map<String, String> settings(PerfOptions o, ChangeModules.Selection changes) {
    Map<String, String> s = new TreeMap<>();
    s.put(REPLICA_REFRESH_KEY, REPLICA_REFRESH_MILLIS);
    s.put(MASTER_START_TIMEOUT_KEY, MASTER_START_TIMEOUT_MILLIS);
    if (changes != null) {
      for (ChangeModules.ChangeModule m : changes.present()) {
        m.settings(o.changeMode).forEach((k, v) -> s.merge(k, v,
          (a, b) -> k.equals(ChangeModules.COPROCESSORS_KEY) ? a + "," + b : b));
      }
    }
    if (o.commands.contains(Command.REPLICA_FAILOVER)) {
      s.putAll(ReplicaFailover.SERVER_SETTINGS);
    }
    if (o.commands.contains(Command.THROTTLED_USERS)) {
      s.putAll(ThrottledUsers.SERVER_SETTINGS);
    }
    s.putAll(o.settings);
    return s;
  }

  /** The (shared, perhaps already running) minicluster these options describe. */
  static LocalMiniCluster miniCluster(PerfOptions o, ChangeModules.Selection changes) {
    Map<String, String> s = settings(o, changes);
    return LocalMiniCluster.shared("hbase-perf-embedded rs=" + o.regionServers + " " + s,
      o.regionServers, s);
  }

  static EmbeddedCluster start(PerfOptions o, PrintStream notes) {
    ChangeModules.Selection changes = o.changes.isEmpty() ? null
      : ChangeModules.select(o.changes, o.changeMode);
    List<String> on = new ArrayList<>();
    if (changes != null) {
      for (ChangeModules.ChangeModule m : changes.present()) {
        on.add(m.name());
        notes.println("change module " + m.name() + ": on, mode " + o.changeMode + " "
          + (m.isClientSide() ? "(client side) " + m.clientSettings(o.changeMode)
            : m.settings(o.changeMode)));
      }
      for (ChangeModules.ChangeModule m : changes.present()) {
        m.systemProperties(o.changeMode).forEach((k, v) -> {
          System.setProperty(k, v);
          notes.println("change module " + m.name() + ": system property " + k + "=" + v);
        });
      }
      changes.skipped.forEach(why -> notes.println("change module " + why + "; left out"));
      for (ChangeModules.ChangeModule m : changes.missing()) {
        notes.println("change module " + m.name() + ": NOT on the classpath (no class "
          + m.probeClass() + "); running without it");
      }
    }
    LocalMiniCluster cluster = miniCluster(o, changes);
    long t0 = System.nanoTime();
    notes.println("starting embedded minicluster (" + o.regionServers + " region server(s), "
      + "local file system)...");
    try {
      cluster.start();
    } catch (Exception e) {
      throw ToolFailure.cluster("the embedded minicluster did not start", e);
    }
    notes.println(String.format(Locale.ROOT, "minicluster up in %.1f s",
      (System.nanoTime() - t0) / 1e9));
    try {
      Connection c = ConnectionFactory.createConnection(cluster.conf());
      return new EmbeddedCluster(cluster, c, o.regionServers, settings(o, changes), on);
    } catch (IOException e) {
      throw ToolFailure.cluster("could not connect to the embedded minicluster", e);
    }
  }

  LocalMiniCluster miniCluster() {
    return cluster;
  }

  @Override
  public Connection connection() {
    return connection;
  }

  @Override
  public boolean embedded() {
    return true;
  }

  @Override
  public String summary() {
    return "embedded minicluster, " + regionServers + " region server(s)"
      + (changesOn.isEmpty() ? "" : ", change modules " + changesOn);
  }

  @Override
  public Map<String, Object> describe() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("mode", "embedded");
    m.put("regionServers", regionServers);
    m.put("changeModules", changesOn);
    m.put("settings", new LinkedHashMap<>(settings));
    m.put("blockCaches", blockCaches());
    return m;
  }

  @Override
  public List<String> closingNotes() {
    List<String> lines = new ArrayList<>();
    for (Map<String, Object> c : blockCaches()) {
      String l2 = !c.containsKey("l2") ? ""
        : "; L2 " + c.get("l2Description") + ": hits " + c.get("l2Hits") + ", misses "
          + c.get("l2Misses") + ", evicted " + c.get("l2Evicted")
          + " (whole run, loads and warm-up included)";
      lines.add("block cache of " + c.get("server") + ": " + c.get("caches") + l2);
    }
    return lines;
  }

  /** Each region server's block cache: its classes and, where it has one, its L2's counts. */
  List<Map<String, Object>> blockCaches() {
    List<Map<String, Object>> all = new ArrayList<>();
    for (int i = 0; i < regionServers; i++) {
      HRegionServer rs;
      try {
        rs = cluster.regionServer(i);
      } catch (RuntimeException e) {
        continue;
      }
      if (rs == null) {
        continue;
      }
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("server", rs.getServerName().toShortString());
      BlockCache cache = rs.getBlockCache().orElse(null);
      m.put("caches", cache == null ? "none" : cache.getClass().getSimpleName());
      if (cache instanceof CombinedBlockCache) {
        BlockCache l2 = ((CombinedBlockCache) cache).getSecondLevelCache();
        CacheStats stats = l2.getStats();
        m.put("l2", l2.getClass().getSimpleName());
        m.put("l2Description", l2.toString());
        m.put("l2Hits", stats.getHitCount());
        m.put("l2Misses", stats.getMissCount());
        m.put("l2Evicted", stats.getEvictedCount());
      }
      all.add(m);
    }
    return all;
  }

  @Override
  public void close() {
    try {
      connection.close();
    } catch (IOException e) {
      // Closing a client connection to an in-process cluster; nothing left to save.
    }
  }
}
