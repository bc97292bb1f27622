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
package dev.hbasepatches.quotas;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionStatesCount;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.quotas.QuotaTableUtil;
import org.apache.hadoop.hbase.regionserver.RegionServerServices;
import org.apache.hadoop.hbase.shaded.protobuf.generated.QuotaProtos.Quotas;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Reads every throttle setting from {@code hbase:quota} in one scan of its settings family (the
 * table holds a row per user, table, namespace and region-server setting, so it is small), using
 * HBase's own row parser, so any setting {@code Admin.setQuota} writes is understood.
 */
final class QuotaTableReader {

  /** The row where {@code Admin.exceedThrottleQuotaSwitch} keeps its flag. */
  private static final byte[] EXCEED_THROTTLE_ROW = Bytes.toBytes("exceedThrottleQuota");
  private static final byte[] SETTINGS_FAMILY = Bytes.toBytes("q");
  private static final byte[] SETTINGS_QUALIFIER = Bytes.toBytes("s");

  /** What one read found. */
  static final class Contents {
    final List<QuotaEntry> entries;
    final boolean exceedThrottle;
    /** This server's share of CLUSTER-scoped limits. */
    final ScopeFactors factors;

    Contents(List<QuotaEntry> entries, boolean exceedThrottle) {
      this(entries, exceedThrottle, ScopeFactors.WHOLE);
    }

    Contents(List<QuotaEntry> entries, boolean exceedThrottle, ScopeFactors factors) {
      this.entries = entries;
      this.exceedThrottle = exceedThrottle;
      this.factors = factors;
    }
  }

  /**
   * Everything a refresh applies: the settings and, when some limit is CLUSTER-scoped, this
   * server's share of it from the master.
   */
  static Contents readAll(RegionServerServices rs) throws IOException {
    Contents c = read(rs.getConnection());
    return QuotaBook.anyClusterScope(c.entries)
      ? new Contents(c.entries, c.exceedThrottle, factors(rs, c.entries))
      : c;
  }

  private QuotaTableReader() {
  }

  static Contents read(Connection connection) throws IOException {
    List<QuotaEntry> entries = new ArrayList<>();
    boolean exceed = false;
    QuotaTableUtil.QuotasVisitor visitor = new QuotaTableUtil.QuotasVisitor() {
      @Override
      public void visitUserQuotas(String user, Quotas quotas) {
        entries.add(QuotaEntry.user(user, quotas));
      }

      @Override
      public void visitUserQuotas(String user, TableName table, Quotas quotas) {
        entries.add(QuotaEntry.userTable(user, table, quotas));
      }

      @Override
      public void visitUserQuotas(String user, String namespace, Quotas quotas) {
        entries.add(QuotaEntry.userNamespace(user, namespace, quotas));
      }

      @Override
      public void visitTableQuotas(TableName table, Quotas quotas) {
        entries.add(QuotaEntry.table(table, quotas));
      }

      @Override
      public void visitNamespaceQuotas(String namespace, Quotas quotas) {
        entries.add(QuotaEntry.namespace(namespace, quotas));
      }

      @Override
      public void visitRegionServerQuotas(String regionServer, Quotas quotas) {
        entries.add(QuotaEntry.regionServer(regionServer, quotas));
      }
    };
    try (Table t = connection.getTable(QuotaTableUtil.QUOTA_TABLE_NAME);
      ResultScanner scanner = t.getScanner(QuotaTableUtil.makeScan(null))) {
      for (Result r : scanner) {
        if (Bytes.equals(r.getRow(), EXCEED_THROTTLE_ROW)) {
          byte[] v = r.getValue(SETTINGS_FAMILY, SETTINGS_QUALIFIER);
          exceed = v != null && Bytes.toBoolean(v);
          continue;
        }
        QuotaTableUtil.parseResult(r, visitor);
      }
    }
    return new Contents(entries, exceed);
  }

  /**
   * Fetches this server's share of CLUSTER-scoped limits from the master, as HBase's own quota
   * cache does; called only when some stored limit is CLUSTER-scoped.
   */
  static ScopeFactors factors(RegionServerServices rs, List<QuotaEntry> entries)
    throws IOException {
    ClusterMetrics metrics;
    try (Admin admin = rs.getConnection().getAdmin()) {
      metrics = admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.SERVERS_NAME,
        ClusterMetrics.Option.TABLE_TO_REGIONS_COUNT));
    }
    int servers = metrics.getServersName().size();
    double perServer = servers == 0 ? 1 : 1.0 / servers;
    Map<TableName, RegionStatesCount> counts = metrics.getTableRegionStatesCount();
    Map<TableName, Double> tables = new HashMap<>();
    for (QuotaEntry e : entries) {
      TableName table = e.table();
      if (table == null || tables.containsKey(table)) {
        continue;
      }
      RegionStatesCount c = counts.get(table);
      if (c == null) {
        tables.put(table, 1.0);
      } else if (c.getOpenRegions() == 0) {
        tables.put(table, 0.0);
      } else {
        tables.put(table, (double) rs.getRegions(table).size() / c.getOpenRegions());
      }
    }
    return new ScopeFactors() {
      @Override
      public double perServer() {
        return perServer;
      }

      @Override
      public double forTable(TableName table) {
        return tables.getOrDefault(table, 1.0);
      }
    };
  }
}
