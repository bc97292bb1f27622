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

import dev.hbasepatches.jmh.HBaseBenchmark.Mode;
import dev.hbasepatches.localindex.LocalIndexMode;
import dev.hbasepatches.localindex.LocalIndexQueryExecutor;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.TreeSet;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The local index benchmarks' query: a connectionless Phoenix table {@code (K CHAR(8), ID
 * INTEGER)} pre-split into {@code regions} regions, with a LOCAL index on {@code V1}, and one
 * prepared query of a {@code shape} (see {@link LocalIndexPlanBenchmark}). Also what a plan asks:
 * its regions, and whether that many is what a mode must ask.
 */
final class LocalIndexQuery implements AutoCloseable {

  final int regions;
  final String shape;
  final Connection conn;
  final PreparedStatement statement;

  static String key(int region) {
    return String.format(Locale.ROOT, "%08d", region);
  }

  /** @throws IllegalArgumentException for a shape other than point, inList or noPrefix */
  static LocalIndexQuery open(int regions, String shape) throws SQLException {
    if (!shape.equals("point") && !shape.equals("inList") && !shape.equals("noPrefix")) {
      throw new IllegalArgumentException("shape=" + shape
        + " is not a query shape; use point, inList or noPrefix");
    }
    if (regions < 10) {
      // inList asks for ten keys a tenth of the table apart, one region each.
      throw new IllegalArgumentException("regions=" + regions + " is below the 10 regions the "
        + "queries need");
    }
    Properties props = new Properties();
    props.setProperty("phoenix.index.population.wait.time", "0");
    Connection conn = DriverManager.getConnection("jdbc:phoenix:none", props);
    try {
      return new LocalIndexQuery(conn, regions, shape);
    } catch (SQLException | RuntimeException e) {
      conn.close();
      throw e;
    }
  }

  private LocalIndexQuery(Connection conn, int regions, String shape) throws SQLException {
    this.conn = conn;
    this.regions = regions;
    this.shape = shape;
    String table = "LIP_" + regions + "_" + System.nanoTime();
    StringBuilder splits = new StringBuilder(regions * 12);
    for (int r = 1; r < regions; r++) {
      splits.append(r == 1 ? "'" : ", '").append(key(r)).append('\'');
    }
    try (Statement st = conn.createStatement()) {
      st.execute("CREATE TABLE " + table + " (K CHAR(8) NOT NULL, ID INTEGER NOT NULL,"
        + " V1 VARCHAR, V2 VARCHAR CONSTRAINT PK PRIMARY KEY (K, ID))"
        + " USE_STATS_FOR_PARALLELIZATION=false SPLIT ON (" + splits + ")");
      st.execute("CREATE LOCAL INDEX " + table + "_I ON " + table + " (V1)");
    }
    String hint = "/*+ INDEX(" + table + " " + table + "_I) */";
    String select = "SELECT " + hint + " V1, K, ID FROM " + table + " WHERE V1 = 'v' ";
    switch (shape) {
      case "point":
        statement = conn.prepareStatement(select + "AND K = ?");
        statement.setString(1, key(regions / 2));
        break;
      case "inList": {
        StringBuilder in = new StringBuilder();
        for (int i = 0; i < 10; i++) {
          in.append(i == 0 ? "'" : ", '").append(key(regions / 10 * i + regions / 20))
            .append('\'');
        }
        statement = conn.prepareStatement(select + "AND K IN (" + in + ")");
        break;
      }
      default:
        statement = conn.prepareStatement(select);
        break;
    }
  }

  /** The executor of a mode. */
  static LocalIndexQueryExecutor executor(Mode mode) {
    return new LocalIndexQueryExecutor(LocalIndexMode.valueOf(mode.name()));
  }

  /** How many scans a plan plans (one per region asked, for a LOCAL index). */
  static int scans(LocalIndexQueryExecutor.Planned planned) {
    int scans = 0;
    for (List<Scan> group : planned.plan.getScans()) {
      scans += group.size();
    }
    return scans;
  }

  /** The regions a plan asks, as "start..stop" of its scans, in key order. */
  static TreeSet<String> regionsAsked(LocalIndexQueryExecutor.Planned planned) {
    TreeSet<String> out = new TreeSet<>();
    for (List<Scan> group : planned.plan.getScans()) {
      for (Scan scan : group) {
        out.add(Bytes.toStringBinary(scan.getStartRow()) + ".."
          + Bytes.toStringBinary(scan.getStopRow()));
      }
    }
    return out;
  }

  /**
   * Checks that {@code asked} regions is about what {@code mode} must ask for this query: every
   * region for BASELINE or noPrefix, else one per key (point: 1, inList: 10).
   */
  void checkAsked(Mode mode, int asked) {
    int expected = "point".equals(shape) ? 1 : "inList".equals(shape) ? 10 : regions;
    if (mode == Mode.BASELINE) {
      expected = regions;
    }
    // Phoenix keeps the region before a CHAR key's first region too when the key equals a split
    // point's padding; allow one more region per key, never fewer.
    if (asked < expected || asked > 2 * expected) {
      throw new IllegalStateException(mode + " " + shape + " asked " + asked + " regions of "
        + regions + ", expected about " + expected);
    }
  }

  @Override
  public void close() throws SQLException {
    conn.close();
  }
}
