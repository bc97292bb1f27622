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
import static org.junit.Assert.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.TreeSet;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.phoenix.compile.QueryPlan;
import org.apache.phoenix.jdbc.PhoenixStatement;
import org.apache.phoenix.schema.PTable.IndexType;
import org.junit.Test;

/**
 * Documents upstream behaviour (stock Phoenix 5.2.1, no class of this module involved): a LOCAL
 * index query plans no scan at all for a region whose end key extends its start key (region
 * {@code ['CC', 'CCE')}), in connectionless planning, whatever the query's predicates.
 * <p>
 * Why: {@code BaseResultIterators.getParallelScans} takes the local index key offset of a region
 * as its start key's length ({@code ScanUtil.getRowKeyOffset}) and intersects the index plan's
 * ranges with {@code [start, end)} shifted by that offset, so the end key's tail past the offset
 * ({@code "E"}) becomes an upper bound on index row keys, which begin with the index id and
 * compare above it: the intersection is empty and the region is dropped. A region whose end key
 * is shorter, or empty, leaves no tail and is planned. Found by this module's oracle tests (every
 * mode plans alike, so they compare around it). On a cluster the rows of such a region would not
 * be read; that has not been checked on a minicluster yet. When Phoenix fixes it, this test fails.
 */
public class UpstreamLocalIndexEndKeyTest {

  @Test
  public void stockPhoenixPlansNoScanForARegionWhoseEndKeyExtendsItsStartKey()
    throws SQLException {
    String table = "UPSTREAM_EXT_" + System.nanoTime();
    try (Connection conn = PlanRegions.connect(); Statement st = conn.createStatement()) {
      st.execute("CREATE TABLE " + table + " (K VARCHAR NOT NULL PRIMARY KEY, V1 VARCHAR)"
        + " USE_STATS_FOR_PARALLELIZATION=false SPLIT ON ('B', 'CC', 'CCE', 'D')");
      st.execute("CREATE LOCAL INDEX " + table + "_I ON " + table + " (V1)");
      PhoenixStatement stmt = conn.createStatement().unwrap(PhoenixStatement.class);
      QueryPlan plan = stmt.optimizeQuery("SELECT /*+ INDEX(" + table + " " + table + "_I) */"
        + " V1, K FROM " + table + " WHERE V1 = 'v'");
      assertEquals(IndexType.LOCAL, plan.getTableRef().getTable().getIndexType());
      plan.iterator().close();
      TreeSet<String> starts = new TreeSet<>();
      for (List<Scan> group : plan.getScans()) {
        for (Scan scan : group) {
          starts.add(regionStart(scan));
        }
      }
      // Five regions: [, B) [B, CC) [CC, CCE) [CCE, D) [D, ). Every other region is planned...
      assertTrue(starts.toString(), starts.containsAll(List.of("", "B", "CCE", "D")));
      // ...but the one whose end key extends its start key gets no scan.
      assertFalse("Phoenix now plans region [CC, CCE): " + starts, starts.contains("CC"));
      assertEquals(4, starts.size());
    }
  }

  /** A local index scan runs from its region's start key to its end key (Phoenix sets both). */
  private static String regionStart(Scan scan) {
    return Bytes.toStringBinary(scan.getStartRow());
  }
}
