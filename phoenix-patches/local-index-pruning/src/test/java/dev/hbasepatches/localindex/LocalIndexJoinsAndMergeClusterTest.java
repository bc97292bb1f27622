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
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import dev.hbasepatches.testkit.MiniCluster;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.phoenix.compile.QueryPlan;
import org.apache.phoenix.execute.DelegateQueryPlan;
import org.apache.phoenix.execute.SortMergeJoinPlan;
import org.apache.phoenix.execute.UnionPlan;
import org.apache.phoenix.schema.PTable.IndexType;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;

/**
 * On a real cluster: a sort-merge join and a UNION ALL over LOCAL index lookups return the rows
 * the data says in every mode, and their index sides keep Phoenix's own pruning (the executor
 * leaves composite plans to Phoenix); a PHOENIX-3941 index declared with the pk prefix returns
 * the same rows in every mode; and merging two regions of the data table between queries loses
 * no rows. Expected rows are computed from the generator, not read back through Phoenix.
 */
public class LocalIndexJoinsAndMergeClusterTest {

  @ClassRule
  public static final MiniCluster CLUSTER = PhoenixCluster.shared();

  private static final String TABLE = "LI_JOIN";
  private static final String DIM = "LI_JOIN_DIM";
  private static final int ROWS = 400;
  private static final String[] KEYS = { "a", "b", "b0", "c", "c0", "d", "e", "f", "g", "h0" };
  private static final String SPLITS = "SPLIT ON ('b', 'c', 'c0', 'e', 'g')";
  /**
   * Regions of {@link #TABLE}: the five split points above make six (five once the merge test
   * has run; the other tests hold in either layout, so the order of the tests does not matter).
   */
  private static final int TABLE_REGIONS = 6;

  static String k1(int i) {
    return KEYS[i % KEYS.length];
  }

  static String v1(int i) {
    return "v" + (i % 7);
  }

  static long v2(int i) {
    return (long) i * 31 % 997;
  }

  /** Varies within one K1 (K1 follows i % 10, so i % 5 would not). */
  static String v3(int i) {
    return "w" + (i / 10 % 5);
  }

  /** Dimension rows exist for every third id only, so the join drops rows. */
  static boolean hasDim(int i) {
    return i % 3 == 0;
  }

  static String dimName(int i) {
    return "n" + (i % 11);
  }

  @BeforeClass
  public static void load() throws Exception {
    try (Connection conn = PhoenixCluster.connect(CLUSTER); Statement st = conn.createStatement()) {
      st.execute("CREATE TABLE " + TABLE + " (K1 VARCHAR NOT NULL, K2 INTEGER NOT NULL,"
        + " V1 VARCHAR, V2 BIGINT, V3 VARCHAR CONSTRAINT PK PRIMARY KEY (K1, K2))"
        + " USE_STATS_FOR_PARALLELIZATION=false " + SPLITS);
      st.execute("CREATE LOCAL INDEX " + TABLE + "_COVERED ON " + TABLE + " (V1) INCLUDE (V2)");
      st.execute("CREATE LOCAL INDEX " + TABLE + "_UNCOVERED ON " + TABLE + " (V3)");
      // PHOENIX-3941's shape: the index leads with the data table's pk prefix.
      st.execute("CREATE LOCAL INDEX " + TABLE + "_PREFIXED ON " + TABLE + " (K1, V3, V1)");
      st.execute("CREATE TABLE " + DIM + " (ID INTEGER NOT NULL PRIMARY KEY, NAME VARCHAR)");
      conn.setAutoCommit(false);
      try (PreparedStatement ps =
        conn.prepareStatement("UPSERT INTO " + TABLE + " VALUES (?, ?, ?, ?, ?)")) {
        for (int i = 0; i < ROWS; i++) {
          ps.setString(1, k1(i));
          ps.setInt(2, i);
          ps.setString(3, v1(i));
          ps.setLong(4, v2(i));
          ps.setString(5, v3(i));
          ps.executeUpdate();
        }
      }
      try (PreparedStatement ps = conn.prepareStatement("UPSERT INTO " + DIM + " VALUES (?, ?)")) {
        for (int i = 0; i < ROWS; i++) {
          if (hasDim(i)) {
            ps.setInt(1, i);
            ps.setString(2, dimName(i));
            ps.executeUpdate();
          }
        }
      }
      conn.commit();
    }
  }

  /** The generator's rows matching {@code where}, formatted by {@code row}, sorted. */
  private static List<String> expected(IntPredicate where, IntFunction<String> row) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      if (where.test(i)) {
        out.add(row.apply(i));
      }
    }
    Collections.sort(out);
    return out;
  }

  @Test
  public void sortMergeJoinReturnsTheDataRowsAndItsIndexSideKeepsPruning() throws Exception {
    String sql = "SELECT /*+ USE_SORT_MERGE_JOIN */ T.K1, T.K2, T.V2, D.NAME FROM " + TABLE
      + " T JOIN " + DIM + " D ON T.K2 = D.ID WHERE T.V1 = 'v3' AND T.K1 IN ('c', 'g')";
    List<String> want = expected(
      i -> v1(i).equals("v3") && (k1(i).equals("c") || k1(i).equals("g")) && hasDim(i),
      i -> k1(i) + "|" + i + "|" + v2(i) + "|" + dimName(i));
    assertFalse(want.isEmpty());
    try (Connection conn = PhoenixCluster.connect(CLUSTER)) {
      checkComposite(conn, sql, want, SortMergeJoinPlan.class);
    }
  }

  @Test
  public void unionAllReturnsTheDataRowsAndEachIndexSideKeepsPruning() throws Exception {
    String sql = "SELECT K1, K2, V2 FROM " + TABLE + " WHERE V1 = 'v2' AND K1 = 'b0'"
      + " UNION ALL SELECT K1, K2, V2 FROM " + TABLE + " WHERE V3 = 'w4' AND K1 IN ('a', 'h0')";
    List<String> want = new ArrayList<>(expected(i -> v1(i).equals("v2") && k1(i).equals("b0"),
      i -> k1(i) + "|" + i + "|" + v2(i)));
    want.addAll(expected(i -> v3(i).equals("w4") && (k1(i).equals("a") || k1(i).equals("h0")),
      i -> k1(i) + "|" + i + "|" + v2(i)));
    Collections.sort(want);
    try (Connection conn = PhoenixCluster.connect(CLUSTER)) {
      checkComposite(conn, sql, want, UnionPlan.class);
    }
  }

  /**
   * Every mode returns {@code want}; the executor hands the composite plan to Phoenix unpruned
   * (no PATCHED grouper), and each LOCAL index scan inside it asks fewer regions than the table
   * has, the same ones in every mode.
   */
  private static void checkComposite(Connection conn, String sql, List<String> want,
    Class<? extends QueryPlan> shape) throws SQLException {
    Map<LocalIndexMode, TreeMap<String, TreeSet<String>>> asked = new TreeMap<>();
    for (LocalIndexMode mode : LocalIndexMode.values()) {
      assertEquals(mode + ": " + sql, want, LocalIndexModesClusterTest.inMode(conn, mode, sql));
      try (PreparedStatement ps = conn.prepareStatement(sql)) {
        LocalIndexQueryExecutor.Planned planned = new LocalIndexQueryExecutor(mode).planScans(ps);
        assertNull(mode + " pruned a composite plan itself", planned.pruner);
        assertTrue(mode + ": " + planned.plan.getClass(), shape.isInstance(unwrap(planned.plan)));
        TreeMap<String, TreeSet<String>> regions = new TreeMap<>();
        localIndexRegions(planned.plan, regions);
        assertFalse(mode + ": no LOCAL index inside " + sql, regions.isEmpty());
        for (Map.Entry<String, TreeSet<String>> side : regions.entrySet()) {
          int n = side.getValue().size();
          assertTrue(mode + " " + side.getKey() + " asked " + n + " regions",
            n >= 1 && n < TABLE_REGIONS);
        }
        asked.put(mode, regions);
      }
    }
    assertEquals(asked.get(LocalIndexMode.UPSTREAM), asked.get(LocalIndexMode.PATCHED));
    assertEquals(asked.get(LocalIndexMode.UPSTREAM), asked.get(LocalIndexMode.BASELINE));
  }

  private static QueryPlan unwrap(QueryPlan plan) {
    while (plan instanceof DelegateQueryPlan) {
      plan = ((DelegateQueryPlan) plan).getDelegate();
    }
    return plan;
  }

  /** Per LOCAL index scanned inside a composite plan (keyed by side), its regions asked. */
  private static void localIndexRegions(QueryPlan plan, Map<String, TreeSet<String>> out) {
    plan = unwrap(plan);
    if (plan instanceof UnionPlan) {
      List<QueryPlan> subs = ((UnionPlan) plan).getSubPlans();
      for (int s = 0; s < subs.size(); s++) {
        Map<String, TreeSet<String>> side = new TreeMap<>();
        localIndexRegions(subs.get(s), side);
        side.forEach((k, v) -> out.put(k + "#" + out.size(), v));
      }
      return;
    }
    if (plan instanceof SortMergeJoinPlan) {
      localIndexRegions(((SortMergeJoinPlan) plan).getLhsPlan(), out);
      localIndexRegions(((SortMergeJoinPlan) plan).getRhsPlan(), out);
      return;
    }
    if (plan.getTableRef() == null
      || plan.getTableRef().getTable().getIndexType() != IndexType.LOCAL) {
      return;
    }
    TreeSet<String> regions = new TreeSet<>();
    for (List<Scan> group : plan.getScans()) {
      for (Scan scan : group) {
        regions.add(Bytes.toStringBinary(scan.getStartRow()) + ".."
          + Bytes.toStringBinary(scan.getStopRow()));
      }
    }
    out.put(plan.getTableRef().getTable().getName().getString(), regions);
  }

  @Test
  public void anIndexLeadingWithThePkPrefixReturnsTheSameRowsInEveryMode() throws Exception {
    String hint = "/*+ INDEX(" + TABLE + " " + TABLE + "_PREFIXED) */ ";
    // { pk predicate, V3 value, the K1 values it admits }
    String[][] cases = {
      { "K1 = 'c0'", "w1", "c0" },
      { "K1 IN ('a', 'e', 'g')", "w3", "a,e,g" },
      { "K1 >= 'b' AND K1 < 'c0'", "w0", "b,b0,c" },
    };
    try (Connection conn = PhoenixCluster.connect(CLUSTER)) {
      for (String[] c : cases) {
        String sql = "SELECT " + hint + "K1, K2, V1 FROM " + TABLE + " WHERE " + c[0]
          + " AND V3 = '" + c[1] + "'";
        List<String> keys = List.of(c[2].split(","));
        List<String> want = expected(i -> keys.contains(k1(i)) && v3(i).equals(c[1]),
          i -> k1(i) + "|" + i + "|" + v1(i));
        assertFalse(sql, want.isEmpty());
        for (LocalIndexMode mode : LocalIndexMode.values()) {
          assertEquals(mode + ": " + sql, want, LocalIndexModesClusterTest.inMode(conn, mode, sql));
        }
        PlanRegions.Result patched = planOnCluster(conn, LocalIndexMode.PATCHED, sql);
        assertTrue(sql + " did not read the prefixed index", patched.localIndex);
        assertEquals(sql, planOnCluster(conn, LocalIndexMode.UPSTREAM, sql).regions,
          patched.regions);
      }
    }
  }

  private static PlanRegions.Result planOnCluster(Connection conn, LocalIndexMode mode,
    String sql) throws SQLException {
    return PlanRegions.plan(conn, mode, sql);
  }

  @Test
  public void aMergeBetweenQueriesLosesNoRows() throws Exception {
    String covered = "SELECT K1, K2, V2 FROM " + TABLE + " WHERE V1 = 'v5' AND ";
    String uncovered = "SELECT K1, K2, V3, V2 FROM " + TABLE + " WHERE V3 = 'w1' AND ";
    String[] shapes = { "K1 = 'b0'", "K1 IN ('b', 'c', 'e')", "K1 >= 'b' AND K1 < 'c0'",
      "K1 > 'a'" };
    try (Connection conn = PhoenixCluster.connect(CLUSTER)) {
      checkShapes(conn, covered, uncovered, shapes);
      TableName table = TableName.valueOf(TABLE);
      List<RegionInfo> regions = CLUSTER.admin().getRegions(table);
      regions.sort(RegionInfo.COMPARATOR);
      int before = regions.size();
      // Merge the regions starting at 'b' and 'c' (Phoenix pads split points to the pk's
      // layout): the rows of K1 = 'b', 'b0' and 'c' move into one new region.
      RegionInfo first = regions.get(1);
      RegionInfo second = regions.get(2);
      assertTrue("regions: " + regions, first.getStartKey()[0] == 'b'
        && second.getStartKey()[0] == 'c' && Bytes.equals(first.getEndKey(),
          second.getStartKey()));
      CLUSTER.admin().mergeRegionsAsync(
        new byte[][] { first.getEncodedNameAsBytes(), second.getEncodedNameAsBytes() }, false)
        .get(120, java.util.concurrent.TimeUnit.SECONDS);
      long deadline = System.currentTimeMillis() + 60_000;
      while (CLUSTER.admin().getRegions(table).size() >= before) {
        if (System.currentTimeMillis() > deadline) {
          fail("merge of " + TABLE + " did not finish");
        }
        Thread.sleep(200);
      }
      checkShapes(conn, covered, uncovered, shapes);
    }
  }

  private static void checkShapes(Connection conn, String covered, String uncovered,
    String[] shapes) throws SQLException {
    for (String shape : shapes) {
      for (String select : new String[] { covered, uncovered }) {
        String sql = select + shape;
        List<String> want = LocalIndexModesClusterTest.truth(conn, select, shape);
        assertFalse(sql, want.isEmpty());
        for (LocalIndexMode mode : LocalIndexMode.values()) {
          assertEquals(mode + ": " + sql, want, LocalIndexModesClusterTest.inMode(conn, mode, sql));
        }
      }
    }
  }
}
