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

import dev.hbasepatches.testkit.MiniCluster;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Consistency;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HStore;

/**
 * The cluster the timeline sides read from, started once per JVM in a class loader of its own
 * holding stock HBase ({@link TimelineSides} makes the loader and keeps what {@link #start()}
 * returns): a minicluster of 3 RegionServers, one table of region replication 3, one replica per
 * server with the primary away from hbase:meta's server, {@link #ROWS} fast rows and as many slow
 * ones (one 100-byte cell each, {@link TimelineSides#value}), flushed, and served by every
 * replica before it returns. Secondaries read the primary's files (store files refreshed every
 * second); there is no writer, so every replica holds the same cells.
 */
public final class TimelineCluster {

  static final TableName TABLE = TableName.valueOf("timeline_sides");
  static final byte[] FAMILY = org.apache.hadoop.hbase.util.Bytes.toBytes("f");
  static final byte[] QUALIFIER = org.apache.hadoop.hbase.util.Bytes.toBytes("q");
  /** Rows of each kind, fast and slow. */
  static final int ROWS = 1000;
  /** Client settings a side needs to reach the cluster. */
  static final List<String> CLIENT_KEYS = List.of(HConstants.ZOOKEEPER_QUORUM,
    HConstants.ZOOKEEPER_CLIENT_PORT, HConstants.ZOOKEEPER_ZNODE_PARENT);

  private TimelineCluster() {
  }

  /**
   * Starts the cluster and loads the table; returns, as JDK types only: {@code conf} (the
   * {@link #CLIENT_KEYS}), {@code gets} (the observer's Gets per replica, an
   * {@code AtomicLongArray}), {@code pausesMs} (the primary's and the secondaries' pauses, an
   * {@code AtomicLongArray}),
   * {@code stop} (a {@code Runnable}) and {@code what} (a description).
   */
  public static Map<String, Object> start() throws Exception {
    long began = System.nanoTime();
    MiniCluster cluster = MiniCluster.builder().regionServers(3)
      .conf("hbase.regionserver.storefile.refresh.period", "1000")
      .conf("hbase.master.wait.on.regionservers.mintostart", "3")
      .conf("hbase.regionserver.handler.count", "16")
      .conf("hbase.balancer.period", Long.toString(TimeUnit.HOURS.toMillis(1)))
      .build();
    cluster.start();
    String placed;
    try {
      Admin admin = cluster.admin();
      admin.createTable(TableDescriptorBuilder.newBuilder(TABLE).setRegionReplication(3)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.of(FAMILY))
        .setCoprocessor(SlowPrimaryObserver.class.getName()).build());
      cluster.util().waitTableAvailable(TABLE, 120_000);
      admin.balancerSwitch(false, true);
      MiniCluster.ReplicaPlacement placement = cluster.placeReplicas(TABLE, 3);
      if (placement.servers().size() != 3) {
        throw new IllegalStateException("the table's 3 replicas are not on 3 servers: "
          + placement);
      }
      placed = placement.toString();
      try (BufferedMutator m = cluster.connection().getBufferedMutator(TABLE)) {
        for (int i = 0; i < ROWS; i++) {
          for (boolean slow : new boolean[] { false, true }) {
            byte[] row = TimelineSides.row(slow, i);
            m.mutate(new Put(row).addColumn(FAMILY, QUALIFIER, TimelineSides.value(row)));
          }
        }
      }
      admin.flush(TABLE);
      awaitSecondaries(cluster);
    } catch (Exception | Error e) {
      cluster.stop();
      throw e;
    }
    for (int i = 0; i < SlowPrimaryObserver.GETS.length(); i++) {
      SlowPrimaryObserver.GETS.set(i, 0);
    }
    Map<String, String> conf = new HashMap<>();
    for (String key : CLIENT_KEYS) {
      conf.put(key, cluster.conf().get(key));
    }
    ClassLoader loader = TimelineCluster.class.getClassLoader();
    Runnable stop = () -> {
      Thread me = Thread.currentThread();
      ClassLoader previous = me.getContextClassLoader();
      me.setContextClassLoader(loader);
      try {
        cluster.stop();
      } finally {
        me.setContextClassLoader(previous);
      }
    };
    Map<String, Object> held = new HashMap<>();
    held.put("conf", conf);
    held.put("gets", SlowPrimaryObserver.GETS);
    held.put("pausesMs", SlowPrimaryObserver.PAUSES_MS);
    held.put("stop", stop);
    held.put("what", "3-RegionServer minicluster (stock HBase), table " + TABLE
      + " with region replication 3, " + ROWS + " fast and " + ROWS + " slow rows of one "
      + TimelineSides.VALUE_BYTES + "-byte cell, flushed; " + placed + "; ready in "
      + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - began) + " s");
    return held;
  }

  /**
   * Waits (at most a minute) until every secondary has picked up the flushed file and serves the
   * first and last row of each kind with the primary's cells.
   */
  private static void awaitSecondaries(MiniCluster cluster) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    List<byte[]> probes = List.of(TimelineSides.row(false, 0), TimelineSides.row(false, ROWS - 1),
      TimelineSides.row(true, 0), TimelineSides.row(true, ROWS - 1));
    while (true) {
      String missing = null;
      List<HRegion> regions = cluster.regions(TABLE);
      if (regions.size() != 3) {
        missing = regions.size() + " replicas online";
      }
      for (HRegion r : regions) {
        for (HStore s : r.getStores()) {
          if (missing == null && s.getStorefilesCount() == 0) {
            missing = "replica " + r.getRegionInfo().getReplicaId() + " has no store file";
          }
        }
      }
      if (missing == null) {
        missing = probe(cluster, probes);
      }
      if (missing == null) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IOException("the secondaries did not serve the table within a minute: "
          + missing);
      }
      Thread.sleep(200);
    }
  }

  private static String probe(MiniCluster cluster, List<byte[]> rows) throws IOException {
    try (Table t = cluster.connection().getTable(TABLE)) {
      for (int replica = 1; replica < 3; replica++) {
        for (byte[] row : rows) {
          Result r = t.get(new Get(row).setConsistency(Consistency.TIMELINE)
            .setReplicaId(replica));
          if (!java.util.Arrays.equals(TimelineSides.value(row),
            r.getValue(FAMILY, QUALIFIER))) {
            return "replica " + replica + " does not serve "
              + org.apache.hadoop.hbase.util.Bytes.toString(row) + " yet";
          }
        }
      }
    }
    return null;
  }
}
