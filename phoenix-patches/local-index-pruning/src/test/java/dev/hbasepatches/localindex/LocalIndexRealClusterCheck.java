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

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.phoenix.jdbc.PhoenixConnection;
import org.apache.phoenix.monitoring.MetricType;
import org.apache.phoenix.util.PhoenixRuntime;

/**
 * The module as a Phoenix application uses it, against a cluster started the operator's way
 * ({@code dev-support/real-cluster.sh --module local-index-pruning}): a Phoenix JDBC client by
 * the cluster's ZooKeeper quorum, with this module's jar on its class path, nothing of it on the
 * RegionServers. Not a JUnit test: {@link #main} exits 0 when every check holds, 1 otherwise.
 * <p>
 * It creates a table pre-split into {@code --regions} regions ({@code K CHAR(8)}, region r
 * starting at key r), a covered and an uncovered LOCAL index, upserts {@code --rows-per-key} rows
 * per region, and runs local index queries three ways: through
 * {@link LocalIndexQueryExecutor#forConnection} on a connection with
 * {@code hbasepatches.localindex.mode=PATCHED} (the module on), on one with {@code UPSTREAM}
 * (the module's executor, Phoenix's own pruning), and as a plain {@code executeQuery} (the
 * module not involved). Checks, each of which fails the run:
 * <ul>
 * <li>the table has {@code --regions} regions, on both RegionServers;</li>
 * <li>the three return the same rows, equal to a {@code NO_INDEX} read of the data table;</li>
 * <li>the module is on: {@code forConnection} resolves PATCHED, the plan reads the LOCAL index,
 * the pruner kept regions without falling back, and the plan asks exactly the regions the pk
 * predicate reaches (each key's region and the one before it, where the key's range starts),
 * the same regions Phoenix's own pruning asks;</li>
 * <li>Phoenix's request metrics count no more scanned regions than the plan asks;</li>
 * <li>an aggregate over the local index is refused in PATCHED with the module's message, and
 * answered by UPSTREAM.</li>
 * </ul>
 */
public final class LocalIndexRealClusterCheck {

  private static final String TABLE = "LIP_REAL";
  private static final String PREFIX = "[local-index] ";

  private final String url;
  private final int regions;
  private final int rowsPerKey;
  private final List<String> failures = new ArrayList<>();
  /** The table's region start keys, in order (region 0's is empty). */
  private final List<byte[]> regionStarts = new ArrayList<>();

  private LocalIndexRealClusterCheck(String url, int regions, int rowsPerKey) {
    this.url = url;
    this.regions = regions;
    this.rowsPerKey = rowsPerKey;
  }

  static String key(int region) {
    return String.format(Locale.ROOT, "%08d", region);
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> opts = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (!args[i].startsWith("--") || i + 1 >= args.length) {
        throw new IllegalArgumentException("usage: LocalIndexRealClusterCheck --url"
          + " jdbc:phoenix:HOST:PORT [--regions 200] [--rows-per-key 10]; got '" + args[i] + "'");
      }
      opts.put(args[i].substring(2), args[++i]);
    }
    String url = opts.remove("url");
    if (url == null) {
      throw new IllegalArgumentException("--url jdbc:phoenix:HOST:PORT is required");
    }
    int regions = Integer.parseInt(opts.getOrDefault("regions", "200"));
    int rowsPerKey = Integer.parseInt(opts.getOrDefault("rows-per-key", "10"));
    opts.remove("regions");
    opts.remove("rows-per-key");
    if (!opts.isEmpty()) {
      throw new IllegalArgumentException("unknown options " + opts.keySet());
    }
    if (regions < 16 || rowsPerKey < 10) {
      throw new IllegalArgumentException("--regions must be at least 16 and --rows-per-key at"
        + " least 10, got " + regions + " and " + rowsPerKey);
    }
    int rc = new LocalIndexRealClusterCheck(url, regions, rowsPerKey).run();
    System.exit(rc);
  }

  private Connection connect(String mode) throws SQLException {
    Properties p = new Properties();
    if (mode != null) {
      p.setProperty(LocalIndexMode.MODE_KEY, mode);
    }
    p.setProperty("phoenix.query.request.metrics.enabled", "true");
    return DriverManager.getConnection(url, p);
  }

  private static void say(String line) {
    System.out.println(PREFIX + line);
    System.out.flush();
  }

  private void check(boolean ok, String what) {
    if (!ok) {
      failures.add(what);
      say("CHECK FAILED: " + what);
    }
  }

  private int run() throws Exception {
    long start = System.nanoTime();
    try (Connection on = connect("PATCHED"); Connection off = connect("UPSTREAM");
      Connection plain = connect(null)) {
      say("connected: " + url + " (" + on.getMetaData().getDatabaseProductName() + " "
        + on.getMetaData().getDatabaseProductVersion() + ")");
      createAndLoad(plain);
      LocalIndexQueryExecutor onExec = LocalIndexQueryExecutor.forConnection(on);
      LocalIndexQueryExecutor offExec = LocalIndexQueryExecutor.forConnection(off);
      say("LocalIndexQueryExecutor.forConnection: " + LocalIndexMode.MODE_KEY + "=PATCHED -> "
        + onExec.mode() + ", =UPSTREAM -> " + offExec.mode());
      check(onExec.mode() == LocalIndexMode.PATCHED, "the PATCHED connection resolved "
        + onExec.mode());
      check(offExec.mode() == LocalIndexMode.UPSTREAM, "the UPSTREAM connection resolved "
        + offExec.mode());

      String covered = "SELECT K, ID, V2 FROM " + TABLE + " WHERE V1 = 'v3' AND ";
      String uncovered = "SELECT K, ID, V3, V2 FROM " + TABLE + " WHERE V3 = 'w2' AND ";
      int mid = regions / 2;
      StringBuilder four = new StringBuilder();
      for (int i = 0; i < 4; i++) {
        four.append(i == 0 ? "'" : ", '").append(key(regions / 4 * i + regions / 8)).append('\'');
      }
      // Expected: each key's region and the one before it. Phoenix pads the split points to
      // the row key's width (region r starts at key r and four zero bytes), so the key range of
      // K = key(r) starts in the last bytes of region r - 1, where no row can be; Phoenix 5.2.1's
      // own pruning asks that region too, and the module asks exactly Phoenix's regions.
      int a = regions / 8;
      int b = regions / 4 + regions / 8;
      int c = regions / 2 + regions / 8;
      int d = regions / 4 * 3 + regions / 8;
      check(on, off, plain, onExec, offExec, "point", covered, "K = '" + key(mid) + "'",
        regionsFrom(mid - 1, mid));
      check(on, off, plain, onExec, offExec, "inList", covered, "K IN (" + four + ")",
        regionsFrom(a - 1, a, b - 1, b, c - 1, c, d - 1, d));
      check(on, off, plain, onExec, offExec, "range", covered,
        "K BETWEEN '" + key(10) + "' AND '" + key(19) + "'",
        regionsFrom(9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19));
      check(on, off, plain, onExec, offExec, "pointUncovered", uncovered,
        "K = '" + key(mid + 1) + "'", regionsFrom(mid, mid + 1));
      check(on, off, plain, onExec, offExec, "inListUncovered", uncovered,
        "K IN ('" + key(1) + "', '" + key(regions - 2) + "')",
        regionsFrom(0, 1, regions - 3, regions - 2));
      aggregate(on, off);
    }
    long ms = (System.nanoTime() - start) / 1_000_000;
    if (failures.isEmpty()) {
      say(String.format(Locale.ROOT, "passed: %d regions, rows identical with the module on"
        + " (PATCHED) and off (UPSTREAM, plain JDBC), pruned to the regions the pk predicate"
        + " reaches (%.1f s)", regions, ms / 1000.0));
      return 0;
    }
    say("FAILED: " + failures.size() + " check(s): " + failures);
    return 1;
  }

  private void createAndLoad(Connection conn) throws SQLException {
    StringBuilder splits = new StringBuilder();
    for (int r = 1; r < regions; r++) {
      splits.append(r == 1 ? "'" : ", '").append(key(r)).append('\'');
    }
    long t0 = System.nanoTime();
    try (Statement st = conn.createStatement()) {
      st.execute("CREATE TABLE " + TABLE + " (K CHAR(8) NOT NULL, ID INTEGER NOT NULL,"
        + " V1 VARCHAR, V2 VARCHAR, V3 VARCHAR CONSTRAINT PK PRIMARY KEY (K, ID))"
        + " USE_STATS_FOR_PARALLELIZATION=false SPLIT ON (" + splits + ")");
      say(String.format(Locale.ROOT, "CREATE TABLE %s ... SPLIT ON (%d keys): %.1f s", TABLE,
        regions - 1, (System.nanoTime() - t0) / 1e9));
      t0 = System.nanoTime();
      st.execute("CREATE LOCAL INDEX " + TABLE + "_COVERED ON " + TABLE + " (V1) INCLUDE (V2)");
      st.execute("CREATE LOCAL INDEX " + TABLE + "_UNCOVERED ON " + TABLE + " (V3)");
      say(String.format(Locale.ROOT, "CREATE LOCAL INDEX %s_COVERED ON %s (V1) INCLUDE (V2);"
        + " CREATE LOCAL INDEX %s_UNCOVERED ON %s (V3): %.1f s", TABLE, TABLE, TABLE, TABLE,
        (System.nanoTime() - t0) / 1e9));
    }
    t0 = System.nanoTime();
    conn.setAutoCommit(false);
    try (PreparedStatement ps =
      conn.prepareStatement("UPSERT INTO " + TABLE + " VALUES (?, ?, ?, ?, ?)")) {
      for (int r = 0; r < regions; r++) {
        for (int id = 0; id < rowsPerKey; id++) {
          ps.setString(1, key(r));
          ps.setInt(2, id);
          ps.setString(3, "v" + (id % 10));
          ps.setString(4, "p" + r + "-" + id);
          ps.setString(5, "w" + ((r + id) % 5));
          ps.executeUpdate();
        }
        if (r % 50 == 49) {
          conn.commit();
        }
      }
      conn.commit();
    }
    conn.setAutoCommit(true);
    say(String.format(Locale.ROOT, "UPSERT %d rows: %.1f s", regions * rowsPerKey,
      (System.nanoTime() - t0) / 1e9));
    List<HRegionLocation> locations = conn.unwrap(PhoenixConnection.class).getQueryServices()
      .getAllTableRegions(Bytes.toBytes(TABLE));
    Map<String, Integer> perServer = new TreeMap<>();
    for (HRegionLocation loc : locations) {
      perServer.merge(String.valueOf(loc.getServerName()), 1, Integer::sum);
      regionStarts.add(loc.getRegion().getStartKey());
    }
    regionStarts.sort(Bytes.BYTES_COMPARATOR);
    say("table " + TABLE + ": " + locations.size() + " regions, per RegionServer " + perServer);
    check(locations.size() == regions, TABLE + " has " + locations.size() + " regions, not "
      + regions);
    check(perServer.size() == 2, TABLE + "'s regions are on " + perServer.size()
      + " RegionServer(s), not 2");
  }

  /** One query shape: rows in every way, the regions each mode asks, the module's pruner. */
  private void check(Connection on, Connection off, Connection plain,
    LocalIndexQueryExecutor onExec, LocalIndexQueryExecutor offExec, String shape, String select,
    String where, TreeSet<Integer> expectedRegions) throws SQLException {
    String sql = select + where;
    List<String> truth;
    try (Statement st = plain.createStatement(); ResultSet rs =
      st.executeQuery(select.replace("SELECT ", "SELECT /*+ NO_INDEX */ ") + where)) {
      truth = rows(rs);
    }
    List<String> plainRows;
    try (Statement st = plain.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      plainRows = rows(rs);
    }
    String explain;
    try (Statement st = plain.createStatement(); ResultSet rs = st.executeQuery("EXPLAIN " + sql)) {
      rs.next();
      explain = rs.getString(1);
    }
    Run patched = run(on, onExec, sql, regionStarts);
    Run upstream = run(off, offExec, sql, regionStarts);
    say(String.format(Locale.ROOT, "%-16s %s", shape, sql));
    say(String.format(Locale.ROOT, "%-16s   plan: %s", "", explain));
    say(String.format(Locale.ROOT, "%-16s   rows: data table (NO_INDEX) %d, plain JDBC %d,"
      + " PATCHED %d, UPSTREAM %d", "", truth.size(), plainRows.size(), patched.rows.size(),
      upstream.rows.size()));
    say(String.format(Locale.ROOT, "%-16s   regions asked of %d: PATCHED %d %s (pruner kept %d,"
      + " fallback %s), UPSTREAM %d %s; scanned regions (request metrics): PATCHED %d,"
      + " UPSTREAM %d", "", regions, patched.asked.size(), patched.asked, patched.kept,
      patched.fallback, upstream.asked.size(), upstream.asked, patched.scannedRegions,
      upstream.scannedRegions));
    check(!truth.isEmpty(), shape + ": the data table has no rows for it");
    check(explain.toUpperCase(Locale.ROOT).contains(TABLE + "_"), shape
      + ": Phoenix's plan does not read a local index: " + explain);
    check(truth.equals(plainRows), shape + ": plain JDBC rows differ from the data table's");
    check(truth.equals(patched.rows), shape + ": PATCHED rows differ from the data table's");
    check(truth.equals(upstream.rows), shape + ": UPSTREAM rows differ from the data table's");
    check(patched.pruned, shape + ": PATCHED did not prune (no pruner: Phoenix's plan was left"
      + " to Phoenix)");
    check(patched.fallback == null, shape + ": PATCHED fell back: " + patched.fallback);
    check(patched.asked.equals(expectedRegions), shape + ": PATCHED asks regions "
      + patched.asked + ", expected " + expectedRegions);
    check(upstream.asked.equals(patched.asked), shape + ": PATCHED asks regions "
      + patched.asked + ", Phoenix's own pruning " + upstream.asked);
    check(patched.asked.size() < regions, shape + ": PATCHED asks every region");
    check(patched.scannedRegions <= patched.asked.size(), shape + ": PATCHED scanned "
      + patched.scannedRegions + " regions, more than the " + patched.asked.size() + " planned");
  }

  /** What one mode did for one query. */
  private static final class Run {
    List<String> rows;
    /** The regions the plan's scans ask, by number (region r starts at key r). */
    final TreeSet<Integer> asked = new TreeSet<>();
    boolean pruned;
    int kept = -1;
    String fallback;
    long scannedRegions;
  }

  private static Run run(Connection conn, LocalIndexQueryExecutor exec, String sql,
    List<byte[]> starts) throws SQLException {
    Run run = new Run();
    try (PreparedStatement ps = conn.prepareStatement(sql)) {
      LocalIndexQueryExecutor.Planned planned = exec.planScans(ps);
      for (List<Scan> group : planned.plan.getScans()) {
        for (Scan scan : group) {
          run.asked.add(regionOf(starts, scan.getStartRow()));
        }
      }
      if (planned.pruner != null) {
        run.pruned = true;
        run.kept = planned.pruner.keptRegions();
        run.fallback = planned.pruner.fallbackReason();
      }
    }
    try (PreparedStatement ps = conn.prepareStatement(sql);
      ResultSet rs = exec.executeQuery(ps)) {
      run.rows = rows(rs);
      for (Map<MetricType, Long> perTable : PhoenixRuntime.getRequestReadMetricInfo(rs)
        .values()) {
        run.scannedRegions += perTable.getOrDefault(MetricType.COUNT_SCANNED_REGIONS, 0L);
      }
    }
    return run;
  }

  private void aggregate(Connection on, Connection off) throws SQLException {
    String where = " FROM " + TABLE + " WHERE V1 = 'v3' AND K = '" + key(3) + "'";
    String sql = "SELECT COUNT(*)" + where;
    List<String> truth;
    try (Statement st = off.createStatement();
      ResultSet rs = st.executeQuery("SELECT /*+ NO_INDEX */ COUNT(*)" + where)) {
      truth = rows(rs);
    }
    List<String> upstream;
    try (PreparedStatement ps = off.prepareStatement(sql);
      ResultSet rs = LocalIndexQueryExecutor.forConnection(off).executeQuery(ps)) {
      upstream = rows(rs);
    }
    String refusal = null;
    try (PreparedStatement ps = on.prepareStatement(sql);
      ResultSet rs = LocalIndexQueryExecutor.forConnection(on).executeQuery(ps)) {
      rows(rs);
    } catch (SQLException e) {
      refusal = e.getMessage();
    }
    say("aggregate        " + sql + ": UPSTREAM " + upstream + " (data table " + truth
      + "), PATCHED refused: " + refusal);
    check(truth.equals(upstream), "aggregate: UPSTREAM " + upstream + ", data table " + truth);
    check(refusal != null && refusal.contains(LocalIndexMode.MODE_KEY + "=PATCHED cannot prune"),
      "aggregate: PATCHED did not refuse it with the module's message: " + refusal);
  }

  static TreeSet<Integer> regionsFrom(int... numbers) {
    TreeSet<Integer> out = new TreeSet<>();
    for (int n : numbers) {
      out.add(n);
    }
    return out;
  }

  /** The number of the region holding a row: the last whose start key is not after it. */
  private static int regionOf(List<byte[]> starts, byte[] row) {
    int lo = 0;
    int hi = starts.size() - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (Bytes.compareTo(starts.get(mid), row) <= 0) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  /** The rows, one string each, sorted. */
  private static List<String> rows(ResultSet rs) throws SQLException {
    List<String> out = new ArrayList<>();
    ResultSetMetaData md = rs.getMetaData();
    while (rs.next()) {
      StringBuilder row = new StringBuilder();
      for (int c = 1; c <= md.getColumnCount(); c++) {
        row.append(c == 1 ? "" : "|").append(rs.getString(c));
      }
      out.add(row.toString());
    }
    Collections.sort(out);
    return out;
  }
}
