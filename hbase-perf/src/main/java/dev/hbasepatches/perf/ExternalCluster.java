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

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * A real cluster, found through its ZooKeeper quorum (--zk) or its hbase-site.xml (--siteXml).
 * Before any load runs, ZooKeeper must accept a TCP connection and the master must answer, each
 * within a bound, so a wrong address ends in a message rather than a hang.
 */
final class ExternalCluster implements ClusterSession {

  private static final int ZK_PROBE_MILLIS = 3000;

  private final Connection connection;
  private final String quorum;
  private final String znodeParent;
  private final int liveServers;

  private ExternalCluster(Connection connection, String quorum, String znodeParent,
    int liveServers) {
    this.connection = connection;
    this.quorum = quorum;
    this.znodeParent = znodeParent;
    this.liveServers = liveServers;
  }

  /** The client configuration the options describe. */
  static Configuration configuration(PerfOptions o) {
    Configuration conf = HBaseConfiguration.create();
    if (o.siteXml != null) {
      File site = new File(o.siteXml);
      if (!site.isFile() || !site.canRead()) {
        throw ToolFailure.usage("--siteXml: cannot read " + site.getAbsolutePath());
      }
      try {
        // Hadoop parses the file here or at the first get, depending on what is loaded already.
        conf.addResource(new Path(site.getAbsoluteFile().toURI()));
        conf.get(HConstants.ZOOKEEPER_QUORUM);
      } catch (RuntimeException e) {
        throw ToolFailure.usage("--siteXml: " + site + " is not a readable Hadoop configuration "
          + "file: " + ToolFailure.describe(e));
      }
    }
    if (o.zkQuorum != null) {
      conf.set(HConstants.ZOOKEEPER_QUORUM, o.zkQuorum);
    }
    if (o.zkParent != null) {
      conf.set(HConstants.ZOOKEEPER_ZNODE_PARENT, o.zkParent);
    }
    o.settings.forEach(conf::set);
    return conf;
  }

  static ExternalCluster connect(PerfOptions o, PrintStream notes) {
    Configuration conf = configuration(o);
    String quorum = conf.get(HConstants.ZOOKEEPER_QUORUM, "localhost");
    int defaultPort = conf.getInt(HConstants.ZOOKEEPER_CLIENT_PORT,
      HConstants.DEFAULT_ZOOKEEPER_CLIENT_PORT);
    String parent = conf.get(HConstants.ZOOKEEPER_ZNODE_PARENT,
      HConstants.DEFAULT_ZOOKEEPER_ZNODE_PARENT);
    probeZooKeeper(quorum, defaultPort);
    notes.println("connecting to the cluster at " + quorum + " (" + parent + ")...");
    ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "hbase-perf-connect");
      t.setDaemon(true);
      return t;
    });
    Future<Object[]> attempt = executor.submit(() -> {
      Connection c = ConnectionFactory.createConnection(conf);
      try (Admin admin = c.getAdmin()) {
        ClusterMetrics metrics = admin.getClusterMetrics(
          EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS));
        return new Object[] { c, metrics.getLiveServerMetrics().size() };
      } catch (IOException | RuntimeException e) {
        c.close();
        throw e;
      }
    });
    long timeout = o.connectTimeout.toMillis();
    try {
      Object[] got = attempt.get(timeout, TimeUnit.MILLISECONDS);
      return new ExternalCluster((Connection) got[0], quorum, parent, (Integer) got[1]);
    } catch (TimeoutException e) {
      attempt.cancel(true);
      throw ToolFailure.cluster("ZooKeeper at " + quorum + " answered, but no HBase master did "
        + "within " + timeout / 1000.0 + " s; is the cluster up, and is " + parent
        + " its zookeeper.znode.parent (--zkParent)?");
    } catch (ExecutionException e) {
      throw ToolFailure.cluster("could not reach HBase through ZooKeeper at " + quorum + " ("
        + parent + ")", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw ToolFailure.cluster("interrupted while connecting to " + quorum);
    } finally {
      executor.shutdownNow();
    }
  }

  /** Fails fast when no quorum member even accepts a TCP connection. */
  static void probeZooKeeper(String quorum, int defaultPort) {
    List<String> failures = new ArrayList<>();
    for (String member : quorum.split(",")) {
      String m = member.trim();
      if (m.isEmpty()) {
        continue;
      }
      int colon = m.lastIndexOf(':');
      String host = colon > 0 ? m.substring(0, colon) : m;
      int port = defaultPort;
      if (colon > 0) {
        try {
          port = Integer.parseInt(m.substring(colon + 1));
        } catch (NumberFormatException e) {
          throw ToolFailure.usage("ZooKeeper quorum member '" + m + "' has a bad port");
        }
      }
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress(host, port), ZK_PROBE_MILLIS);
        return;
      } catch (IOException | IllegalArgumentException e) {
        failures.add(host + ":" + port + " (" + ToolFailure.describe(e) + ")");
      }
    }
    throw ToolFailure.cluster("no ZooKeeper server of the quorum answers: "
      + String.join(", ", failures) + "; check --zk, or hbase.zookeeper.quorum and "
      + "hbase.zookeeper.property.clientPort in --siteXml");
  }

  @Override
  public Connection connection() {
    return connection;
  }

  @Override
  public boolean embedded() {
    return false;
  }

  @Override
  public String summary() {
    return "cluster at " + quorum + " (" + znodeParent + "), " + liveServers
      + " live region server(s)";
  }

  @Override
  public Map<String, Object> describe() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("mode", "external");
    m.put("zookeeperQuorum", quorum);
    m.put("znodeParent", znodeParent);
    m.put("liveRegionServers", liveServers);
    return m;
  }

  @Override
  public void close() {
    try {
      connection.close();
    } catch (IOException e) {
      // The run is over; a connection that will not close cleanly loses nothing.
    }
  }
}
