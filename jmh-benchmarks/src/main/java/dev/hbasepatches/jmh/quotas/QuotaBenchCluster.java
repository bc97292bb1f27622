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
package dev.hbasepatches.jmh.quotas;

import dev.hbasepatches.jmh.HBaseBenchmark.Mode;
import dev.hbasepatches.quotas.QuotaMode;
import dev.hbasepatches.quotas.ThrottlingRegionServer;
import dev.hbasepatches.testkit.MiniCluster;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.quotas.QuotaCache;
import org.apache.hadoop.hbase.quotas.QuotaSettingsFactory;
import org.apache.hadoop.hbase.quotas.QuotaUtil;
import org.apache.hadoop.hbase.quotas.ThrottleType;
import org.apache.hadoop.hbase.util.Bytes;

/** The minicluster both quota benchmarks read from: quotas on, our region server, one table. */
final class QuotaBenchCluster {
  /** A user with a throttle that never sees a request: quotas are in force for everyone. */
  static final String IDLE = "idle";
  static final byte[] F = Bytes.toBytes("f");
  static final byte[] Q = Bytes.toBytes("q");
  /** Quota settings refresh period; short so a trial sees its settings within seconds. */
  static final int REFRESH_MS = 1000;

  private QuotaBenchCluster() {
  }

  /** Quotas on, the region servers are {@link ThrottlingRegionServer} in {@code mode}. */
  static MiniCluster.Builder builder(Mode mode) {
    return MiniCluster.builder()
      .conf(HConstants.REGION_SERVER_IMPL, ThrottlingRegionServer.class)
      .conf(QuotaUtil.QUOTA_CONF_KEY, "true")
      .conf(QuotaCache.REFRESH_CONF_KEY, Integer.toString(REFRESH_MS))
      .conf(QuotaMode.MODE_KEY, QuotaMode.valueOf(mode.name()).name());
  }

  /**
   * Creates {@code table} with {@code rows} rows of one 1 KB cell (row i's value starts with i),
   * flushed, and throttles {@link #IDLE}.
   */
  static void loadTable(MiniCluster cluster, TableName table, int rows) throws Exception {
    cluster.util().waitTableAvailable(QuotaUtil.QUOTA_TABLE_NAME, 60_000);
    Admin admin = cluster.admin();
    admin.createTable(TableDescriptorBuilder.newBuilder(table)
      .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F)).build());
    try (BufferedMutator m = cluster.connection().getBufferedMutator(table)) {
      for (int i = 0; i < rows; i++) {
        byte[] value = new byte[1000];
        Bytes.putInt(value, 0, i);
        m.mutate(new Put(KeyChooser.row(i)).addColumn(F, Q, value));
      }
    }
    admin.flush(table);
    admin.setQuota(QuotaSettingsFactory.throttleUser(IDLE, ThrottleType.REQUEST_NUMBER, 10,
      TimeUnit.SECONDS));
  }
}
