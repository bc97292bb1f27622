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
import java.sql.SQLException;
import java.util.List;
import java.util.Properties;
import java.util.TreeSet;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.phoenix.schema.PTable.IndexType;

/** Plans a query in one mode and names the regions its scans ask, as "start..stop" strings. */
final class PlanRegions {

  static final String CONNECTIONLESS_URL = "jdbc:phoenix:none";

  private PlanRegions() {
  }

  /** Properties a connectionless Phoenix connection needs for these tests. */
  static Properties connectionless() {
    Properties p = new Properties();
    // Connectionless mode cannot wait for an index build; nothing needs it to.
    p.setProperty("phoenix.index.population.wait.time", "0");
    return p;
  }

  static Connection connect() throws SQLException {
    return DriverManager.getConnection(CONNECTIONLESS_URL, connectionless());
  }

  static Connection connect(String tenant) throws SQLException {
    Properties p = connectionless();
    p.setProperty("TenantId", tenant);
    return DriverManager.getConnection(CONNECTIONLESS_URL, p);
  }

  /**
   * The distinct (start, stop) pairs over the plan's scans in that mode, in key order; each pair
   * is one region for a LOCAL index, whose scans run from region start to region end.
   */
  static TreeSet<String> regions(Connection conn, LocalIndexMode mode, String sql,
    Object... params) throws SQLException {
    return plan(conn, mode, sql, params).regions;
  }

  /** What one planning gave: the regions asked and whether the plan reads a LOCAL index. */
  static final class Result {
    final TreeSet<String> regions = new TreeSet<>();
    boolean localIndex;
  }

  static Result plan(Connection conn, LocalIndexMode mode, String sql,
    Object... params) throws SQLException {
    Result result = new Result();
    try (PreparedStatement ps = conn.prepareStatement(sql)) {
      for (int i = 0; i < params.length; i++) {
        ps.setObject(i + 1, params[i]);
      }
      LocalIndexQueryExecutor.Planned planned =
        new LocalIndexQueryExecutor(mode).planScans(ps);
      if (planned.pruner != null && planned.pruner.fallbackReason() != null) {
        throw new AssertionError("pruner fell back: " + planned.pruner.fallbackReason());
      }
      TreeSet<String> out = result.regions;
      result.localIndex = planned.plan.getTableRef() != null
        && planned.plan.getTableRef().getTable().getIndexType() == IndexType.LOCAL;
      for (List<Scan> group : planned.plan.getScans()) {
        for (Scan scan : group) {
          out.add(Bytes.toStringBinary(scan.getStartRow()) + ".."
            + Bytes.toStringBinary(scan.getStopRow()));
        }
      }
      return result;
    }
  }
}
