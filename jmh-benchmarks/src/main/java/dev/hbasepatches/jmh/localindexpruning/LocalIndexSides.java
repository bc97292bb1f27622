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
package dev.hbasepatches.jmh.localindexpruning;

import dev.hbasepatches.jmh.series.SideWorkload;
import dev.hbasepatches.localindex.LocalIndexMode;
import dev.hbasepatches.localindex.LocalIndexQueryExecutor;
import java.io.IOException;
import java.net.URL;
import java.security.CodeSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.phoenix.compile.QueryPlan;
import org.apache.phoenix.iterate.BaseResultIterators;
import org.apache.phoenix.iterate.DefaultParallelScanGrouper;
import org.apache.phoenix.jdbc.PhoenixDriver;
import org.apache.phoenix.jdbc.PhoenixPreparedStatement;
import org.apache.phoenix.schema.PTable.IndexType;

/**
 * Local-index-pruning's sides for the series comparison ({@code dev.hbasepatches.jmh.series}):
 * the region selection of {@link LocalIndexPlanBenchmark#select}, Phoenix's
 * {@code getParallelScans} for a LOCAL index plan compiled once at set-up, connectionless
 * ({@code jdbc:phoenix:none}), over the same table of {@code regions} regions
 * ({@code (K CHAR(8), ID INTEGER)}, local index on {@code V1}, statistics parallelization off).
 * <ul>
 * <li>UPSTREAM: Phoenix 5.2.1 as released, its walk over every region of the range with a key
 * range check each;</li>
 * <li>SERIES: Phoenix 5.2.1 with the upstream series ({@code upstream/5.2.1}) in front, and
 * {@value #SERIES_KEY} set to {@value #SERIES_PRUNER} (the series' default, set so that the run
 * says what it measured): the series' binary searches, then the walk's checks on the regions
 * kept;</li>
 * <li>PATCHED: this project's module ({@code LocalIndexQueryExecutor} in PATCHED mode) on stock
 * Phoenix 5.2.1.</li>
 * </ul>
 * BASELINE asks every region, so it selects other regions than the sides it would be compared
 * with; {@link LocalIndexPlanBenchmark} measures it.
 * <p>
 * Case {@code shape/regions}, e.g. {@code point/10000}: shapes as in
 * {@link LocalIndexPlanBenchmark}, with literal keys: {@code point} ({@code K =} the middle
 * region's key, one or two regions selected), {@code inList} ({@code K IN} ten spread keys, ten
 * to twenty regions), {@code noPrefix} (no pk predicate, every region); regions from
 * {@value #MIN_REGIONS} to {@value #MAX_REGIONS}.
 * <p>
 * An operation returns a fingerprint of the start and stop rows of every scan planned (positive,
 * 63 bits), so that {@code SeriesToggleBenchmark}'s set-up check, that both sides' first
 * operations return the same, checks that both selected the same regions. Each side also checks
 * at set-up that it selected as many regions as the shape should; the SERIES side checks that its
 * planning consults the series' pruner (a pruner name that is no class must fail the planning,
 * naming {@value #SERIES_KEY}), so a series that silently fell back to the walk cannot be
 * measured as the series.
 */
public final class LocalIndexSides {

  static final String CHANGE = "local-index-pruning";
  /** The upstream series' key, {@code QueryServices.LOCAL_INDEX_REGION_PRUNER_ATTRIB}. */
  public static final String SERIES_KEY = "phoenix.index.local.region.pruner";
  /** The series' default pruner. */
  public static final String SERIES_PRUNER =
    "org.apache.phoenix.iterate.BinarySearchLocalIndexRegionPruner";
  static final int MIN_REGIONS = 20;
  /** The largest table the benchmarks plan over (LocalIndexPlanBenchmark's grid). */
  static final int MAX_REGIONS = 100_000;
  static final List<String> SHAPES = List.of("point", "inList", "noPrefix");

  private LocalIndexSides() {
  }

  /** Case {@code shape/regions}, e.g. {@code point/10000}. */
  public static SideWorkload open(String side, String caseSpec) throws IOException {
    String[] p = SideWorkload.parts(CHANGE, caseSpec, 2, "shape", "regions");
    if (!SHAPES.contains(p[0])) {
      throw new IllegalArgumentException(CHANGE + " case '" + caseSpec + "': shape must be one of "
        + SHAPES + ", not '" + p[0] + "'");
    }
    int regions = SideWorkload.intPart(CHANGE, p, 1, 0);
    if (regions < MIN_REGIONS || regions > MAX_REGIONS) {
      throw new IllegalArgumentException(CHANGE + " case '" + caseSpec + "': regions is "
        + regions + ", must be from " + MIN_REGIONS + " to " + MAX_REGIONS);
    }
    switch (side) {
      case "UPSTREAM":
      case "SERIES":
      case "PATCHED":
        break;
      case "BASELINE":
        throw SideWorkload.noSide(CHANGE, side, "BASELINE asks every region, not the regions "
          + "the other sides select; LocalIndexPlanBenchmark measures it");
      default:
        throw SideWorkload.noSide(CHANGE, side, "not a side");
    }
    try {
      return new Selection(side, p[0], regions);
    } catch (SQLException e) {
      throw new IOException(CHANGE + " " + side + " " + caseSpec + ": " + e.getMessage(), e);
    }
  }

  /** The query of a shape over the table, keys written into the statement. */
  static String query(String table, String shape, int regions) {
    String select = "SELECT /*+ INDEX(" + table + " " + table + "_I) */ V1, K, ID FROM " + table
      + " WHERE V1 = 'v'";
    switch (shape) {
      case "point":
        return select + " AND K = '" + LocalIndexQuery.key(regions / 2) + "'";
      case "inList": {
        StringBuilder in = new StringBuilder();
        for (int i = 0; i < 10; i++) {
          in.append(i == 0 ? "'" : ", '")
            .append(LocalIndexQuery.key(regions / 10 * i + regions / 20)).append('\'');
        }
        return select + " AND K IN (" + in + ")";
      }
      default:
        return select;
    }
  }

  /** A positive 63-bit FNV-1a hash of every planned scan's start and stop rows, in plan order. */
  static long fingerprint(List<List<Scan>> scans) {
    long h = 0xcbf29ce484222325L;
    for (List<Scan> group : scans) {
      for (Scan scan : group) {
        h = mix(mix(h, scan.getStartRow()), scan.getStopRow());
      }
      h = (h ^ 0xff) * 0x100000001b3L;
    }
    return (h >>> 1) | 1L;
  }

  private static long mix(long h, byte[] row) {
    h = (h ^ row.length) * 0x100000001b3L;
    for (byte b : row) {
      h = (h ^ (b & 0xff)) * 0x100000001b3L;
    }
    return h;
  }

  /** One side's connection, table and compiled plan; an operation plans its scans again. */
  private static final class Selection extends SideWorkload {
    private final String side;
    private final Connection conn;
    private final QueryPlan plan;
    private final LocalIndexQueryExecutor.Planned patched;
    private final String what;

    Selection(String side, String shape, int regions) throws SQLException {
      this.side = side;
      Properties props = new Properties();
      props.setProperty("phoenix.index.population.wait.time", "0");
      if (side.equals("SERIES")) {
        props.setProperty(SERIES_KEY, SERIES_PRUNER);
      }
      // The driver of this side's class loader (each side has its own Phoenix).
      conn = PhoenixDriver.INSTANCE.connect("jdbc:phoenix:none", props);
      try {
        String table = "LIS_" + regions;
        StringBuilder splits = new StringBuilder(regions * 12);
        for (int r = 1; r < regions; r++) {
          splits.append(r == 1 ? "'" : ", '").append(LocalIndexQuery.key(r)).append('\'');
        }
        try (Statement st = conn.createStatement()) {
          st.execute("CREATE TABLE " + table + " (K CHAR(8) NOT NULL, ID INTEGER NOT NULL,"
            + " V1 VARCHAR, V2 VARCHAR CONSTRAINT PK PRIMARY KEY (K, ID))"
            + " USE_STATS_FOR_PARALLELIZATION=false SPLIT ON (" + splits + ")");
          st.execute("CREATE LOCAL INDEX " + table + "_I ON " + table + " (V1)");
        }
        String sql = query(table, shape, regions);
        PreparedStatement statement = conn.prepareStatement(sql);
        if (side.equals("PATCHED")) {
          patched = new LocalIndexQueryExecutor(LocalIndexMode.PATCHED).planScans(statement);
          plan = patched.plan;
        } else {
          patched = null;
          plan = statement.unwrap(PhoenixPreparedStatement.class).optimizeQuery();
        }
        if (plan.getTableRef().getTable().getIndexType() != IndexType.LOCAL) {
          throw new IllegalStateException(side + ": Phoenix did not plan " + sql
            + " over the local index but over " + plan.getTableRef().getTable().getName());
        }
        if (side.equals("SERIES")) {
          checkSeriesAsksItsPruner(sql);
        }
        int selected = countScans(select());
        int expected = shape.equals("point") ? 1 : shape.equals("inList") ? 10 : regions;
        // Phoenix keeps the region before a CHAR key's region too when the key equals a split
        // point; one more region per key, never fewer.
        if (selected < expected || selected > 2 * expected) {
          throw new IllegalStateException(side + " " + shape + " selected " + selected
            + " regions of " + regions + ", expected " + expected + " to " + 2 * expected);
        }
        what = CHANGE + " " + side + " shape=" + shape + " regions=" + regions + " selected="
          + selected + " " + firstScans(plan.getScans(), 3)
          + (side.equals("SERIES") ? " " + SERIES_KEY + "=" + SERIES_PRUNER : "")
          + " BaseResultIterators from " + jarOf(BaseResultIterators.class);
      } catch (SQLException | RuntimeException e) {
        closeQuietly(e);
        throw e;
      }
    }

    /**
     * The series asks the pruner its key names before the region loop of the local index plan:
     * a name that is no class must fail that planning, naming the key. Stock Phoenix ignores the
     * key, and a series whose pruner never ran would be measured as the walk.
     */
    private void checkSeriesAsksItsPruner(String sql) throws SQLException {
      Properties probe = new Properties();
      probe.setProperty(SERIES_KEY, "dev.hbasepatches.NoSuchLocalIndexRegionPruner");
      try (Connection c = PhoenixDriver.INSTANCE.connect("jdbc:phoenix:none", probe);
        PreparedStatement ps = c.prepareStatement(sql)) {
        QueryPlan p = ps.unwrap(PhoenixPreparedStatement.class).optimizeQuery();
        p.iterator(DefaultParallelScanGrouper.getInstance()).close();
      } catch (SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
          if (String.valueOf(t.getMessage()).contains(SERIES_KEY)) {
            return;
          }
        }
        throw e;
      }
      throw new IllegalStateException("SERIES planned " + sql + " with " + SERIES_KEY
        + " naming no class: its getParallelScans did not ask the series' pruner (stock "
        + "BaseResultIterators from " + jarOf(BaseResultIterators.class) + "?)");
    }

    /** Plans the compiled plan's scans again (the region selection); returns them. */
    private List<List<Scan>> select() throws SQLException {
      if (patched != null) {
        return patched.replanScans().plan.getScans();
      }
      plan.iterator(DefaultParallelScanGrouper.getInstance()).close();
      return plan.getScans();
    }

    @Override
    public long getAsLong() {
      try {
        return fingerprint(select());
      } catch (SQLException e) {
        throw new IllegalStateException(CHANGE + " " + side + ": planning failed", e);
      }
    }

    @Override
    public void close() throws SQLException {
      closeQuietly(null);
    }

    /** Closes the connection and this side's driver (its class loader's own). */
    private void closeQuietly(Exception failure) throws SQLException {
      SQLException first = null;
      try {
        conn.close();
      } catch (SQLException e) {
        first = e;
      }
      try {
        DriverManager.deregisterDriver(PhoenixDriver.INSTANCE);
        PhoenixDriver.INSTANCE.close();
      } catch (SQLException e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
      if (first != null) {
        if (failure != null) {
          failure.addSuppressed(first);
        } else {
          throw first;
        }
      }
    }

    @Override
    public String toString() {
      return what;
    }
  }

  private static int countScans(List<List<Scan>> scans) {
    int n = 0;
    for (List<Scan> group : scans) {
      n += group.size();
    }
    return n;
  }

  private static String firstScans(List<List<Scan>> scans, int max) {
    List<String> out = new ArrayList<>();
    for (List<Scan> group : scans) {
      for (Scan scan : group) {
        if (out.size() == max) {
          out.add("...");
          return out.toString();
        }
        out.add(Bytes.toStringBinary(scan.getStartRow()) + ".." + Bytes.toStringBinary(
          scan.getStopRow()));
      }
    }
    return out.toString();
  }

  private static String jarOf(Class<?> c) {
    CodeSource source = c.getProtectionDomain().getCodeSource();
    URL where = source == null ? null : source.getLocation();
    if (where == null) {
      return "(unknown)";
    }
    String path = where.getPath();
    return path.substring(path.lastIndexOf('/', path.length() - 2) + 1);
  }
}
