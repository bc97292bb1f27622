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

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import dev.hbasepatches.testkit.MiniCluster;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;

/**
 * On a real cluster, every mode returns the same rows as a scan of the data table, for the
 * shapes the pruner handles, through a covered and an uncovered LOCAL index; and still does
 * after a region of the data table is split between two queries.
 */
public class LocalIndexModesClusterTest {

  @ClassRule
  public static final MiniCluster CLUSTER = PhoenixCluster.shared();

  private static final String TABLE = "LI_MODES";
  private static final int ROWS = 600;

  /** Shapes over the data pk (K1, K2), each ANDed with an index predicate. */
  private static final String[] PK_SHAPES = { "K1 = 'c'", "K1 = 'c0'", "K1 IN ('a', 'e', 'h0')",
    "K1 >= 'b' AND K1 < 'd'", "K1 > 'g'", "(K1, K2) IN (('a', 3), ('f', 100), ('h0', 7))",
    "K1 IN ('b', 'f') AND K2 < 200", "K1 = 'd' AND K2 BETWEEN 50 AND 300", "K2 = 12", "1 = 1" };

  private static final String[] KEYS = { "a", "b", "b0", "c", "c0", "d", "e", "f", "g", "h0" };

  static String v1(int i) {
    return "v" + (i % 7);
  }

  static String v3(int i) {
    return "w" + (i % 5);
  }

  @BeforeClass
  public static void load() throws Exception {
    try (Connection conn = PhoenixCluster.connect(CLUSTER); Statement st = conn.createStatement()) {
      st.execute("CREATE TABLE " + TABLE + " (K1 VARCHAR NOT NULL, K2 INTEGER NOT NULL,"
        + " V1 VARCHAR, V2 BIGINT, V3 VARCHAR CONSTRAINT PK PRIMARY KEY (K1, K2))"
        + " USE_STATS_FOR_PARALLELIZATION=false SPLIT ON ('b', 'c', 'c0', 'e', 'g')");
      st.execute("CREATE LOCAL INDEX " + TABLE + "_COVERED ON " + TABLE + " (V1) INCLUDE (V2)");
      st.execute("CREATE LOCAL INDEX " + TABLE + "_UNCOVERED ON " + TABLE + " (V3)");
      conn.setAutoCommit(false);
      try (PreparedStatement ps =
        conn.prepareStatement("UPSERT INTO " + TABLE + " VALUES (?, ?, ?, ?, ?)")) {
        for (int i = 0; i < ROWS; i++) {
          ps.setString(1, KEYS[i % KEYS.length]);
          ps.setInt(2, i);
          ps.setString(3, v1(i));
          ps.setLong(4, (long) i * 31 % 997);
          ps.setString(5, v3(i));
          ps.executeUpdate();
        }
      }
      conn.commit();
    }
  }

  /** The rows of a query, one string per row, in the order given or sorted when unordered. */
  static List<String> rows(ResultSet rs, boolean sort) throws SQLException {
    List<String> out = new ArrayList<>();
    ResultSetMetaData md = rs.getMetaData();
    while (rs.next()) {
      StringBuilder row = new StringBuilder();
      for (int c = 1; c <= md.getColumnCount(); c++) {
        row.append(c == 1 ? "" : "|").append(rs.getString(c));
      }
      out.add(row.toString());
    }
    if (sort) {
      Collections.sort(out);
    }
    return out;
  }

  /** What the data table says, read with indexes switched off. */
  static List<String> truth(Connection conn, String select, String where) throws SQLException {
    try (Statement st = conn.createStatement(); ResultSet rs =
      st.executeQuery(select.replace("SELECT ", "SELECT /*+ NO_INDEX */ ") + where)) {
      return rows(rs, true);
    }
  }

  static List<String> inMode(Connection conn, LocalIndexMode mode, String sql)
    throws SQLException {
    try (PreparedStatement ps = conn.prepareStatement(sql);
      ResultSet rs = new LocalIndexQueryExecutor(mode).executeQuery(ps)) {
      return rows(rs, true);
    }
  }

  private static void checkAllShapes(Connection conn) throws SQLException {
    String covered = "SELECT K1, K2, V2 FROM " + TABLE + " WHERE V1 = 'v3' AND ";
    String uncovered = "SELECT K1, K2, V3, V2 FROM " + TABLE + " WHERE V3 = 'w2' AND ";
    for (String shape : PK_SHAPES) {
      for (String select : new String[] { covered, uncovered }) {
        List<String> expected = truth(conn, select, shape);
        String sql = select + shape;
        for (LocalIndexMode mode : LocalIndexMode.values()) {
          assertEquals(mode + ": " + sql, expected, inMode(conn, mode, sql));
        }
      }
    }
  }

  @Test
  public void everyModeReturnsTheDataTablesRows() throws Exception {
    try (Connection conn = PhoenixCluster.connect(CLUSTER)) {
      assertUsesLocalIndex(conn,
        "SELECT K1, K2, V2 FROM " + TABLE + " WHERE V1 = 'v3' AND K1 = 'c'");
      assertUsesLocalIndex(conn,
        "SELECT K1, K2, V3, V2 FROM " + TABLE + " WHERE V3 = 'w2' AND K1 = 'c'");
      checkAllShapes(conn);
    }
  }

  @Test
  public void aSplitBetweenQueriesLosesNoRows() throws Exception {
    try (Connection conn = PhoenixCluster.connect(CLUSTER)) {
      checkAllShapes(conn);
      TableName table = TableName.valueOf(TABLE);
      int before = CLUSTER.admin().getRegions(table).size();
      // Split the region [c0, e) at 'd': K1 = 'd' rows move to a new region.
      CLUSTER.admin().split(table, Bytes.toBytes("d"));
      long deadline = System.currentTimeMillis() + 60_000;
      while (CLUSTER.admin().getRegions(table).size() <= before) {
        if (System.currentTimeMillis() > deadline) {
          fail("split of " + TABLE + " did not finish");
        }
        Thread.sleep(200);
      }
      checkAllShapes(conn);
    }
  }

  @Test
  public void patchedRefusesAnAggregatePlanAndTheOthersAgree() throws Exception {
    String sql = "SELECT COUNT(*) FROM " + TABLE + " WHERE V1 = 'v3' AND K1 = 'c'";
    try (Connection conn = PhoenixCluster.connect(CLUSTER)) {
      List<String> expected = truth(conn, "SELECT COUNT(*) FROM " + TABLE + " WHERE ",
        "V1 = 'v3' AND K1 = 'c'");
      assertEquals(expected, inMode(conn, LocalIndexMode.UPSTREAM, sql));
      assertEquals(expected, inMode(conn, LocalIndexMode.BASELINE, sql));
      try {
        inMode(conn, LocalIndexMode.PATCHED, sql);
        fail("PATCHED planned an aggregate it cannot prune");
      } catch (SQLException e) {
        assertTrue(e.getMessage(), e.getMessage().contains("AggregatePlan"));
      }
    }
  }

  private static void assertUsesLocalIndex(Connection conn, String sql) throws SQLException {
    List<String> plan = new ArrayList<>();
    try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery("EXPLAIN " + sql)) {
      while (rs.next()) {
        plan.add(rs.getString(1));
      }
    }
    assertTrue("plan: " + plan, plan.get(0).toUpperCase(Locale.ROOT).contains(TABLE + "_"));
  }
}
