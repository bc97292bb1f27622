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
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.phoenix.monitoring.MetricType;
import org.apache.phoenix.util.PhoenixRuntime;

/**
 * The minicluster benchmark of the three modes, one fork per run of {@link #main}: starts one
 * minicluster, makes a table pre-split into each of the asked region counts with a covered LOCAL
 * index, and for each table and query shape measures, per mode, the regions the scans ask, the
 * HBase RPCs and scanned regions Phoenix's request metrics count, and the mean client latency of
 * a query (execute and read every row). It runs from the module's test class path (not a JUnit
 * test, never part of {@code mvn verify}); {@code results/<date>-cluster/run.sh} runs it once per
 * fork under the benchmark lock and turns the forks into ratios with the project's ForkStats.
 * <p>
 * Table {@code (K CHAR(8), ID INTEGER)}, one key {@code K} per region (region r starts at key r),
 * {@code --rows-per-key} rows each, {@code V1 = 'v' + ID % 10}; local index on {@code V1}
 * including {@code V2}. Shapes:
 * <ul>
 * <li>{@code point}: {@code V1 = 'v3'}, no pk predicate: every region in every mode;</li>
 * <li>{@code pointPrefix}: {@code V1 = 'v3' AND K = ?} (the middle region);</li>
 * <li>{@code in}: {@code V1 IN ('v3', 'v7')}, no pk predicate;</li>
 * <li>{@code inPrefix}: {@code V1 IN ('v3', 'v7') AND K IN} four keys spread over the table.</li>
 * </ul>
 * Latency is measured in blocks of {@code --block} queries, the modes taking turns block by block
 * in an order that rotates, so drift on the shared machine falls on every mode alike; each mode
 * first runs {@code --warmup} queries of the shape unmeasured.
 * <p>
 * Output, one tab-separated line per (regions, shape, mode): {@code regions shape mode rows
 * planRegions scannedRegions rpcs meanMicros queries}.
 */
public final class LocalIndexClusterScenario {

  static final String[] SHAPES = { "point", "pointPrefix", "in", "inPrefix" };

  private LocalIndexClusterScenario() {
  }

  static String key(int region) {
    return String.format(Locale.ROOT, "%08d", region);
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> opts = new java.util.HashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (!args[i].startsWith("--") || i + 1 >= args.length) {
        throw new IllegalArgumentException("usage: LocalIndexClusterScenario --out FILE"
          + " [--regions 8,32,64] [--rows-per-key 20] [--warmup 30] [--queries 100]"
          + " [--block 10]; got '" + args[i] + "'");
      }
      opts.put(args[i].substring(2), args[++i]);
    }
    String out = opts.remove("out");
    if (out == null) {
      throw new IllegalArgumentException("--out FILE is required");
    }
    int[] regionCounts = Arrays.stream(opts.getOrDefault("regions", "8,32,64").split(","))
      .mapToInt(s -> positive("regions", s.trim())).toArray();
    int rowsPerKey = positive("rows-per-key", opts.getOrDefault("rows-per-key", "20"));
    int warmup = positive("warmup", opts.getOrDefault("warmup", "30"));
    int queries = positive("queries", opts.getOrDefault("queries", "100"));
    int block = positive("block", opts.getOrDefault("block", "10"));
    for (String k : List.of("regions", "rows-per-key", "warmup", "queries", "block")) {
      opts.remove(k);
    }
    if (!opts.isEmpty()) {
      throw new IllegalArgumentException("unknown options " + opts.keySet());
    }
    if (queries % block != 0) {
      throw new IllegalArgumentException("--queries must be a multiple of --block");
    }
    MiniCluster cluster = PhoenixCluster.shared();
    cluster.start();
    List<String> lines = new ArrayList<>();
    try (Connection conn = PhoenixCluster.connect(cluster);
      Connection metrics = metricsConnection(cluster)) {
      for (int n : regionCounts) {
        String table = "LIB_" + n;
        create(conn, table, n, rowsPerKey);
        for (String shape : SHAPES) {
          String sql = query(table, shape, n);
          Map<LocalIndexMode, long[]> counts = new EnumMap<>(LocalIndexMode.class);
          for (LocalIndexMode mode : LocalIndexMode.values()) {
            counts.put(mode, counts(metrics, mode, sql));
          }
          Map<LocalIndexMode, Double> micros = latency(conn, sql, warmup, queries, block);
          for (LocalIndexMode mode : LocalIndexMode.values()) {
            long[] c = counts.get(mode);
            String line = String.format(Locale.ROOT, "%d\t%s\t%s\t%d\t%d\t%d\t%d\t%.1f\t%d", n,
              shape, mode, c[0], c[1], c[2], c[3], micros.get(mode), queries);
            lines.add(line);
            System.out.println(line);
          }
        }
      }
    } finally {
      Files.write(Paths.get(out), lines, StandardCharsets.UTF_8);
      cluster.stop();
    }
    System.exit(0);
  }

  private static int positive(String name, String value) {
    try {
      int v = Integer.parseInt(value);
      if (v > 0) {
        return v;
      }
    } catch (NumberFormatException e) {
      // refused below
    }
    throw new IllegalArgumentException("--" + name + " must be a positive integer, got '"
      + value + "'");
  }

  private static Connection metricsConnection(MiniCluster cluster) throws SQLException {
    Properties p = PhoenixCluster.clientProperties();
    p.setProperty("phoenix.query.request.metrics.enabled", "true");
    return DriverManager.getConnection(PhoenixCluster.url(cluster), p);
  }

  private static void create(Connection conn, String table, int regions, int rowsPerKey)
    throws SQLException {
    StringBuilder splits = new StringBuilder();
    for (int r = 1; r < regions; r++) {
      splits.append(r == 1 ? "'" : ", '").append(key(r)).append('\'');
    }
    try (Statement st = conn.createStatement()) {
      st.execute("CREATE TABLE " + table + " (K CHAR(8) NOT NULL, ID INTEGER NOT NULL,"
        + " V1 VARCHAR, V2 VARCHAR CONSTRAINT PK PRIMARY KEY (K, ID))"
        + " USE_STATS_FOR_PARALLELIZATION=false"
        + (regions > 1 ? " SPLIT ON (" + splits + ")" : ""));
      st.execute("CREATE LOCAL INDEX " + table + "_I ON " + table + " (V1) INCLUDE (V2)");
    }
    boolean auto = conn.getAutoCommit();
    conn.setAutoCommit(false);
    try (PreparedStatement ps =
      conn.prepareStatement("UPSERT INTO " + table + " VALUES (?, ?, ?, ?)")) {
      for (int r = 0; r < regions; r++) {
        for (int id = 0; id < rowsPerKey; id++) {
          ps.setString(1, key(r));
          ps.setInt(2, id);
          ps.setString(3, "v" + (id % 10));
          ps.setString(4, "p" + r + "-" + id);
          ps.executeUpdate();
        }
      }
      conn.commit();
    } finally {
      conn.setAutoCommit(auto);
    }
  }

  static String query(String table, String shape, int regions) {
    String select = "SELECT K, ID, V2 FROM " + table + " WHERE ";
    switch (shape) {
      case "point":
        return select + "V1 = 'v3'";
      case "pointPrefix":
        return select + "V1 = 'v3' AND K = '" + key(regions / 2) + "'";
      case "in":
        return select + "V1 IN ('v3', 'v7')";
      case "inPrefix":
        StringBuilder in = new StringBuilder();
        for (int i = 0; i < 4; i++) {
          in.append(i == 0 ? "'" : ", '").append(key(regions / 4 * i + regions / 8)).append('\'');
        }
        return select + "V1 IN ('v3', 'v7') AND K IN (" + in + ")";
      default:
        throw new IllegalArgumentException("unknown shape " + shape);
    }
  }

  /** { rows, regions the plan's scans ask, regions scanned, RPC calls } of one query. */
  private static long[] counts(Connection conn, LocalIndexMode mode, String sql)
    throws SQLException {
    long planRegions;
    try (PreparedStatement ps = conn.prepareStatement(sql)) {
      LocalIndexQueryExecutor.Planned planned = new LocalIndexQueryExecutor(mode).planScans(ps);
      if (planned.pruner != null && planned.pruner.fallbackReason() != null) {
        throw new IllegalStateException("PATCHED fell back: " + planned.pruner.fallbackReason());
      }
      TreeSet<String> regions = new TreeSet<>();
      for (List<Scan> group : planned.plan.getScans()) {
        for (Scan scan : group) {
          regions.add(Bytes.toStringBinary(scan.getStartRow()) + ".."
            + Bytes.toStringBinary(scan.getStopRow()));
        }
      }
      planRegions = regions.size();
    }
    try (PreparedStatement ps = conn.prepareStatement(sql);
      ResultSet rs = new LocalIndexQueryExecutor(mode).executeQuery(ps)) {
      long rows = 0;
      while (rs.next()) {
        rows++;
      }
      long scanned = 0;
      long rpcs = 0;
      for (Map<MetricType, Long> perTable : PhoenixRuntime.getRequestReadMetricInfo(rs)
        .values()) {
        scanned += perTable.getOrDefault(MetricType.COUNT_SCANNED_REGIONS, 0L);
        rpcs += perTable.getOrDefault(MetricType.COUNT_RPC_CALLS, 0L);
      }
      return new long[] { rows, planRegions, scanned, rpcs };
    }
  }

  private static long runOnce(Connection conn, LocalIndexQueryExecutor executor, String sql)
    throws SQLException {
    try (PreparedStatement ps = conn.prepareStatement(sql);
      ResultSet rs = executor.executeQuery(ps)) {
      long rows = 0;
      while (rs.next()) {
        rows += rs.getInt(2);
      }
      return rows;
    }
  }

  /** Mean microseconds per query, per mode, the modes taking turns block by block. */
  private static Map<LocalIndexMode, Double> latency(Connection conn, String sql, int warmup,
    int queries, int block) throws SQLException {
    LocalIndexMode[] modes = LocalIndexMode.values();
    Map<LocalIndexMode, LocalIndexQueryExecutor> executors = new EnumMap<>(LocalIndexMode.class);
    Map<LocalIndexMode, Long> nanos = new EnumMap<>(LocalIndexMode.class);
    long sink = 0;
    for (LocalIndexMode mode : modes) {
      executors.put(mode, new LocalIndexQueryExecutor(mode));
      nanos.put(mode, 0L);
      for (int i = 0; i < warmup; i++) {
        sink += runOnce(conn, executors.get(mode), sql);
      }
    }
    int blocks = queries / block;
    for (int b = 0; b < blocks; b++) {
      for (int m = 0; m < modes.length; m++) {
        LocalIndexMode mode = modes[(b + m) % modes.length];
        LocalIndexQueryExecutor executor = executors.get(mode);
        long start = System.nanoTime();
        for (int i = 0; i < block; i++) {
          sink += runOnce(conn, executor, sql);
        }
        nanos.put(mode, nanos.get(mode) + System.nanoTime() - start);
      }
    }
    if (sink == 42) {
      System.out.println("sink");
    }
    Map<LocalIndexMode, Double> out = new EnumMap<>(LocalIndexMode.class);
    for (LocalIndexMode mode : modes) {
      out.put(mode, nanos.get(mode) / 1000.0 / queries);
    }
    return out;
  }
}
