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

import dev.hbasepatches.testkit.MiniCluster;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.junit.ClassRule;
import org.junit.Test;

/**
 * Proves the pinned HBase and Phoenix versions work together: a pre-split Phoenix table with a
 * local index, written through JDBC and read back through the index.
 */
public class LocalIndexSmokeTest {

  @ClassRule
  public static final MiniCluster CLUSTER = PhoenixCluster.shared();

  private static final String TABLE = "LOCAL_INDEX_SMOKE";
  private static final String INDEX = "LOCAL_INDEX_SMOKE_BY_GROUP";
  private static final int ROWS = 1_000;
  private static final int GROUPS = 25;
  /** The group the query asks for. */
  private static final int WANTED = 7;

  /** Every row's group; a string so the index key is not simply a copy of the primary key. */
  private static String groupOf(int id) {
    return String.format(Locale.ROOT, "G%02d", id % GROUPS);
  }

  /** Every row's value: fixed by the id, and not in id order. */
  private static long amountOf(int id) {
    return (long) id * 7919 % 1009;
  }

  @Test
  public void localIndexAnswersQueryOverFourRegions() throws Exception {
    try (Connection conn = PhoenixCluster.connect(CLUSTER)) {
      try (Statement st = conn.createStatement()) {
        st.execute("CREATE TABLE " + TABLE + " (ID INTEGER NOT NULL PRIMARY KEY,"
          + " GRP VARCHAR, AMOUNT BIGINT) SPLIT ON (250, 500, 750)");
        st.execute("CREATE LOCAL INDEX " + INDEX + " ON " + TABLE + " (GRP) INCLUDE (AMOUNT)");
      }

      List<RegionInfo> regions = CLUSTER.admin().getRegions(TableName.valueOf(TABLE));
      assertEquals("regions of " + TABLE + ": " + regions, 4, regions.size());
      assertEquals(4, CLUSTER.regions(TableName.valueOf(TABLE)).size());
      assertTrue("a local index keeps its rows in an extra family of the data table",
        hasLocalIndexFamily());

      conn.setAutoCommit(false);
      try (PreparedStatement ps =
        conn.prepareStatement("UPSERT INTO " + TABLE + " VALUES (?, ?, ?)")) {
        for (int id = 0; id < ROWS; id++) {
          ps.setInt(1, id);
          ps.setString(2, groupOf(id));
          ps.setLong(3, amountOf(id));
          ps.executeUpdate();
          if (id % 250 == 249) {
            conn.commit();
          }
        }
      }
      conn.commit();
      conn.setAutoCommit(true);

      try (Statement st = conn.createStatement();
        ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM " + TABLE)) {
        assertTrue(rs.next());
        assertEquals(ROWS, rs.getInt(1));
      }

      String query = "SELECT ID, AMOUNT FROM " + TABLE + " WHERE GRP = ? ORDER BY ID";
      List<String> plan = explain(conn, query.replace("?", "'" + groupOf(WANTED) + "'"));
      // One range scan per region over the index rows (index id 1, then the group), merged on
      // the client in ID order; the data rows themselves are never scanned.
      String scanOverIndex = "CLIENT \\d+-CHUNK PARALLEL 4-WAY RANGE SCAN OVER "
        + INDEX + "\\(" + TABLE + "\\) \\[1,'" + groupOf(WANTED) + "'\\]";
      assertEquals("plan: " + plan, 2, plan.size());
      assertTrue("plan: " + plan, plan.get(0).matches(scanOverIndex));
      assertEquals("plan: " + plan, "CLIENT MERGE SORT", plan.get(1));

      List<String> expected = new ArrayList<>();
      for (int id = WANTED; id < ROWS; id += GROUPS) {
        expected.add(id + "=" + amountOf(id));
      }
      List<String> actual = new ArrayList<>();
      try (PreparedStatement ps = conn.prepareStatement(query)) {
        ps.setString(1, groupOf(WANTED));
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            actual.add(rs.getInt(1) + "=" + rs.getLong(2));
          }
        }
      }
      assertEquals(ROWS / GROUPS, actual.size());
      assertEquals(expected, actual);
    }
  }

  private static boolean hasLocalIndexFamily() throws Exception {
    for (ColumnFamilyDescriptor cf : CLUSTER.admin().getDescriptor(TableName.valueOf(TABLE))
      .getColumnFamilies()) {
      if (cf.getNameAsString().startsWith("L#")) {
        return true;
      }
    }
    return false;
  }

  private static List<String> explain(Connection conn, String query) throws SQLException {
    List<String> plan = new ArrayList<>();
    try (Statement st = conn.createStatement();
      ResultSet rs = st.executeQuery("EXPLAIN " + query)) {
      while (rs.next()) {
        plan.add(rs.getString(1));
      }
    }
    return plan;
  }
}
