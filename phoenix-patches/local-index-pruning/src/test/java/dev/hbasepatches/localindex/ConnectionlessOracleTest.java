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

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.Test;

/**
 * PATCHED must ask exactly the regions Phoenix 5.2.1's own pruning asks, and BASELINE every
 * region, for the query shapes local index pruning is about: pk prefixes of one and two columns,
 * IN lists, skip scans, row value constructors, ranges open at either end, no pk predicate at all,
 * an index led by the pk prefix (PHOENIX-3941), salted and multi-tenant tables, DESC keys and
 * region boundaries of different lengths. Connectionless: Phoenix plans against the split points
 * given in SPLIT ON, no cluster involved.
 */
public class ConnectionlessOracleTest {

  private static final AtomicInteger NEXT = new AtomicInteger();

  /** A fresh table name: connectionless metadata lives as long as the JVM. */
  static String name(String prefix) {
    return prefix + "_" + NEXT.incrementAndGet();
  }

  static void ddl(Connection conn, String... statements) throws SQLException {
    try (Statement st = conn.createStatement()) {
      for (String s : statements) {
        st.execute(s);
      }
    }
  }

  /**
   * Checks one query: PATCHED equals UPSTREAM region for region, BASELINE asks all
   * {@code regions}; returns how many PATCHED kept.
   */
  static int check(Connection conn, int regions, String sql, Object... params)
    throws SQLException {
    return check(conn, regions, true, sql, params);
  }

  /**
   * @param allInBaseline whether BASELINE must ask every region; false where some region's end
   *   key extends its start key ('CC' to 'CCE'), for which Phoenix 5.2.1 plans no local index
   *   scan in any mode (its scan intersection compares the end key's tail with index keys)
   */
  static int check(Connection conn, int regions, boolean allInBaseline, String sql,
    Object... params) throws SQLException {
    PlanRegions.Result upstream = PlanRegions.plan(conn, LocalIndexMode.UPSTREAM, sql, params);
    TreeSet<String> patched = PlanRegions.regions(conn, LocalIndexMode.PATCHED, sql, params);
    TreeSet<String> baseline = PlanRegions.regions(conn, LocalIndexMode.BASELINE, sql, params);
    assertEquals("PATCHED vs UPSTREAM for " + sql, upstream.regions, patched);
    if (upstream.localIndex) {
      assertTrue("BASELINE asks every region UPSTREAM asks: " + sql,
        baseline.containsAll(upstream.regions));
      if (allInBaseline) {
        assertEquals("BASELINE for " + sql + ": " + baseline, regions, baseline.size());
      }
    } else {
      // Phoenix chose the data table: nothing to prune, every mode plans alike.
      assertEquals("BASELINE for " + sql, upstream.regions, baseline);
    }
    if (System.getProperty("oracle.verbose") != null) {
      System.out.println(sql + " -> " + (upstream.localIndex ? "local index " : "data table ")
        + patched);
    }
    return upstream.localIndex ? patched.size() : -1;
  }

  /** {@link #check}, and PATCHED must have left some region out. */
  static void prunes(Connection conn, int regions, String sql, Object... params)
    throws SQLException {
    int kept = check(conn, regions, sql, params);
    assertTrue("kept " + kept + " of " + regions + " for " + sql, kept >= 0 && kept < regions);
  }

  private static final String ONE_CHAR_PK = " (A CHAR(1) NOT NULL, B CHAR(1) NOT NULL,"
    + " C CHAR(1) NOT NULL, V1 VARCHAR, V2 VARCHAR CONSTRAINT PK PRIMARY KEY (A, B, C))"
    + " USE_STATS_FOR_PARALLELIZATION=false";

  @Test
  public void leadingPkColumnShapes() throws Exception {
    String t = name("T1");
    try (Connection conn = PlanRegions.connect()) {
      ddl(conn, "CREATE TABLE " + t + ONE_CHAR_PK + " SPLIT ON ('A','C','E','G','I')",
        "CREATE LOCAL INDEX " + t + "_I ON " + t + " (V1)");
      String q = "SELECT V1, A, B, C FROM " + t + " WHERE V1 = 'x' AND ";
      prunes(conn, 6, q + "A = 'C'");
      prunes(conn, 6, q + "A = 'D'");
      prunes(conn, 6, q + "A = ?", "H");
      prunes(conn, 6, q + "A IN ('A', 'E')");
      prunes(conn, 6, q + "A IN ('0', 'B', 'Z')");
      prunes(conn, 6, q + "A >= 'B' AND A < 'F'");
      prunes(conn, 6, q + "A > 'E'");
      prunes(conn, 6, q + "A <= 'C'");
      check(conn, 6, q + "A BETWEEN 'C' AND 'G'");
      check(conn, 6, q + "A = 'C' AND B = '1'");
      check(conn, 6, q + "A = 'C' AND B IN ('1', '2') AND C > '3'");
      check(conn, 6, q + "A IN ('A', 'G') AND B >= '5'");
      check(conn, 6, q + "(A, B) IN (('A', '1'), ('G', '2'), ('I', '0'))");
      check(conn, 6, q + "(A, B) > ('C', '5')");
      check(conn, 6, q + "(A, B) >= ('C', '5') AND (A, B) < ('F', '0')");
      check(conn, 6, q + "B = '1'");
      check(conn, 6, q + "A = 'Q' AND B = 'Q' AND C = 'Q'");
      check(conn, 6, q + "A IN ('B', 'D', 'F', 'H') AND C = '1'");
      assertEquals(6, check(conn, 6, "SELECT V1, A FROM " + t + " WHERE V1 = 'x'"));
      check(conn, 6, q + "A = 'C' ORDER BY V1 LIMIT 5");
    }
  }

  @Test
  public void twoColumnSplitPoints() throws Exception {
    String t = name("T2");
    try (Connection conn = PlanRegions.connect()) {
      ddl(conn, "CREATE TABLE " + t + ONE_CHAR_PK
        + " SPLIT ON ('A1','A3','B2','C1','C5','C9')",
        "CREATE LOCAL INDEX " + t + "_I ON " + t + " (V1) INCLUDE (V2)");
      String q = "SELECT V1, V2 FROM " + t + " WHERE V1 = 'x' AND ";
      prunes(conn, 7, q + "A = 'A' AND B = '2'");
      prunes(conn, 7, q + "A = 'A'");
      check(conn, 7, q + "A = 'C' AND B IN ('0', '5', '9')");
      check(conn, 7, q + "(A, B) IN (('A', '0'), ('B', '3'), ('C', '6'))");
      check(conn, 7, q + "A IN ('A', 'C') AND B BETWEEN '2' AND '4'");
      check(conn, 7, q + "(A, B) BETWEEN ('A', '2') AND ('B', '2')");
    }
  }

  @Test
  public void variableLengthKeysAndBoundaries() throws Exception {
    String t = name("T3");
    try (Connection conn = PlanRegions.connect()) {
      ddl(conn, "CREATE TABLE " + t + " (K1 VARCHAR NOT NULL, K2 INTEGER NOT NULL, V1 VARCHAR,"
        + " CONSTRAINT PK PRIMARY KEY (K1, K2)) USE_STATS_FOR_PARALLELIZATION=false"
        + " SPLIT ON ('b', 'bb', 'c', 'czzz', 'd')",
        "CREATE LOCAL INDEX " + t + "_I ON " + t + " (V1)");
      String q = "SELECT V1, K1, K2 FROM " + t + " WHERE V1 = 'x' AND ";
      prunes(conn, 6, q + "K1 = 'b'");
      prunes(conn, 6, q + "K1 = 'bbb'");
      check(conn, 6, q + "K1 IN ('a', 'bb', 'd')");
      check(conn, 6, q + "K1 IN ('ba', 'czzz') AND K2 = 3");
      check(conn, 6, q + "K1 > 'bb' AND K1 < 'cz'");
      check(conn, 6, q + "K1 LIKE 'c%'");
      check(conn, 6, q + "K1 = 'c' AND K2 > 10");
      check(conn, 6, q + "(K1, K2) IN (('a', 1), ('czzz', 2))");
    }
  }

  @Test
  public void descendingPkColumns() throws Exception {
    String t = name("T4");
    try (Connection conn = PlanRegions.connect()) {
      ddl(conn, "CREATE TABLE " + t + " (A CHAR(1) NOT NULL, B VARCHAR NOT NULL, V1 VARCHAR"
        + " CONSTRAINT PK PRIMARY KEY (A, B DESC)) USE_STATS_FOR_PARALLELIZATION=false"
        + " SPLIT ON ('A', 'C', 'E')",
        "CREATE LOCAL INDEX " + t + "_I ON " + t + " (V1)");
      String q = "SELECT V1, A, B FROM " + t + " WHERE V1 = 'x' AND ";
      prunes(conn, 4, q + "A = 'C'");
      check(conn, 4, q + "A = 'C' AND B = 'm'");
      prunes(conn, 4, q + "A = 'B' AND B > 'm'");
      prunes(conn, 4, q + "A IN ('A', 'D') AND B < 'k'");
      check(conn, 4, q + "B = 'q'");
    }
  }

  @Test
  public void indexLedByThePkPrefix() throws Exception {
    // PHOENIX-3941's shape: the index keeps the data pk prefix first, after its own id.
    String t = name("T5");
    try (Connection conn = PlanRegions.connect()) {
      ddl(conn, "CREATE TABLE " + t + ONE_CHAR_PK + " SPLIT ON ('A','C','E','G','I')",
        "CREATE LOCAL INDEX " + t + "_I ON " + t + " (A, V1)");
      String q = "SELECT /*+ INDEX(" + t + " " + t + "_I) */ V1, A, B FROM " + t + " WHERE ";
      prunes(conn, 6, q + "A = 'C' AND V1 = 'x'");
      check(conn, 6, q + "A IN ('A', 'F') AND V1 = 'x'");
      check(conn, 6, q + "A IN ('A', 'F') AND V1 IN ('x', 'y')");
      check(conn, 6, q + "A > 'D' AND V1 = 'x'");
      check(conn, 6, q + "(A, B) IN (('B', '1'), ('H', '2')) AND V1 = 'x'");
      check(conn, 6, q + "A = 'B' AND B = '3' AND V1 > 'q'");
    }
  }

  @Test
  public void saltedTableIsNotPrunedByUsButAnswersAlike() throws Exception {
    String t = name("T6");
    try (Connection conn = PlanRegions.connect()) {
      ddl(conn, "CREATE TABLE " + t + " (A CHAR(1) NOT NULL, B CHAR(1) NOT NULL, V1 VARCHAR"
        + " CONSTRAINT PK PRIMARY KEY (A, B)) SALT_BUCKETS=4, USE_STATS_FOR_PARALLELIZATION=false",
        "CREATE LOCAL INDEX " + t + "_I ON " + t + " (V1)");
      String q = "SELECT V1, A FROM " + t + " WHERE V1 = 'x' AND ";
      check(conn, 4, q + "A = 'C'");
      check(conn, 4, q + "A = 'C' AND B = 'D'");
      check(conn, 4, q + "A IN ('C', 'X')");
    }
  }

  @Test
  public void multiTenantTableThroughATenantConnection() throws Exception {
    String t = name("T7");
    try (Connection conn = PlanRegions.connect()) {
      ddl(conn, "CREATE TABLE " + t + " (TENANT_ID VARCHAR NOT NULL, A CHAR(1) NOT NULL,"
        + " V1 VARCHAR CONSTRAINT PK PRIMARY KEY (TENANT_ID, A)) MULTI_TENANT=true,"
        + " USE_STATS_FOR_PARALLELIZATION=false SPLIT ON ('t1', 't2A', 't2M', 't3')",
        "CREATE LOCAL INDEX " + t + "_I ON " + t + " (V1)");
      String q = "SELECT V1, A FROM " + t + " WHERE V1 = 'x' AND ";
      check(conn, 5, q + "TENANT_ID = 't2'");
      check(conn, 5, q + "TENANT_ID = 't2' AND A = 'Q'");
      check(conn, 5, q + "TENANT_ID IN ('t1', 't3')");
    }
    try (Connection tenant = PlanRegions.connect("t2")) {
      String q = "SELECT V1, A FROM " + t + " WHERE V1 = 'x'";
      prunes(tenant, 5, q);
      check(tenant, 5, q + " AND A = 'B'");
      check(tenant, 5, q + " AND A > 'N'");
    }
  }

  /** Random split points and random predicates over a three-column key; prints its seed. */
  @Test
  public void randomShapes() throws Exception {
    long seed = Long.getLong("oracle.seed", System.nanoTime());
    System.out.println("ConnectionlessOracleTest.randomShapes seed " + seed
      + " (rerun with -Doracle.seed=" + seed + ")");
    java.util.Random random = new java.util.Random(seed);
    for (int table = 0; table < 6; table++) {
      String t = name("TR");
      java.util.TreeSet<String> splits = new java.util.TreeSet<>();
      int n = 2 + random.nextInt(30);
      while (splits.size() < n) {
        splits.add(randomText(random, 1 + random.nextInt(3)));
      }
      StringBuilder splitOn = new StringBuilder();
      for (String split : splits) {
        splitOn.append(splitOn.length() == 0 ? "" : ", ").append("'").append(split).append("'");
      }
      try (Connection conn = PlanRegions.connect()) {
        ddl(conn, "CREATE TABLE " + t + " (A CHAR(1) NOT NULL, B CHAR(1) NOT NULL,"
          + " C VARCHAR NOT NULL, V1 VARCHAR, V2 VARCHAR CONSTRAINT PK PRIMARY KEY (A, B, C))"
          + " USE_STATS_FOR_PARALLELIZATION=false SPLIT ON (" + splitOn + ")",
          "CREATE LOCAL INDEX " + t + "_I ON " + t + " (V1)");
        for (int query = 0; query < 25; query++) {
          String where = randomPredicate(random);
          String sql = "SELECT V1, A, B, C FROM " + t + " WHERE V1 = 'x' AND " + where;
          try {
            check(conn, n + 1, false, sql);
          } catch (AssertionError | SQLException e) {
            throw new AssertionError("seed " + seed + ", splits " + splits + ": " + e, e);
          }
        }
      }
    }
  }

  private static String randomPredicate(java.util.Random random) {
    switch (random.nextInt(7)) {
      case 0:
        return "A = '" + randomText(random, 1) + "'";
      case 1:
        return "A = '" + randomText(random, 1) + "' AND B = '" + randomText(random, 1) + "'";
      case 2:
        return "A IN (" + literals(random, 1 + random.nextInt(4), 1) + ")";
      case 3: {
        String a = randomText(random, 1);
        String b = randomText(random, 1);
        return "A " + (random.nextBoolean() ? ">=" : ">") + " '" + min(a, b) + "' AND A "
          + (random.nextBoolean() ? "<=" : "<") + " '" + max(a, b) + "'";
      }
      case 4:
        return "A IN (" + literals(random, 1 + random.nextInt(3), 1) + ") AND B IN ("
          + literals(random, 1 + random.nextInt(3), 1) + ")";
      case 5:
        return "(A, B) IN (('" + randomText(random, 1) + "', '" + randomText(random, 1)
          + "'), ('" + randomText(random, 1) + "', '" + randomText(random, 1) + "'))";
      default:
        return "A = '" + randomText(random, 1) + "' AND B " + (random.nextBoolean() ? ">" : "<")
          + " '" + randomText(random, 1) + "' AND C = '" + randomText(random, 2) + "'";
    }
  }

  private static String literals(java.util.Random random, int count, int length) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < count; i++) {
      out.append(i == 0 ? "" : ", ").append("'").append(randomText(random, length)).append("'");
    }
    return out.toString();
  }

  private static String randomText(java.util.Random random, int length) {
    String alphabet = "ABCDEF0123";
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < length; i++) {
      out.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return out.toString();
  }

  private static String min(String a, String b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  private static String max(String a, String b) {
    return a.compareTo(b) <= 0 ? b : a;
  }
}
