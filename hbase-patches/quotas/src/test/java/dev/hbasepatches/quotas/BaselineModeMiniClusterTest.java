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

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import dev.hbasepatches.testkit.MiniCluster;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.quotas.QuotaCache;
import org.apache.hadoop.hbase.quotas.QuotaSettingsFactory;
import org.apache.hadoop.hbase.quotas.QuotaUtil;
import org.apache.hadoop.hbase.quotas.ThrottleType;
import org.junit.ClassRule;
import org.junit.Test;

/** BASELINE ignores {@code hbase:quota} even with quota support on and a throttle stored. */
public class BaselineModeMiniClusterTest {

  @ClassRule
  public static final MiniCluster CLUSTER = MiniCluster.builder()
    .conf(HConstants.REGION_SERVER_IMPL, ThrottlingRegionServer.class)
    .conf(QuotaUtil.QUOTA_CONF_KEY, "true").conf(QuotaCache.REFRESH_CONF_KEY, "500")
    .conf(QuotaMode.MODE_KEY, "baseline").build();

  @Test
  public void storedThrottlesAreNotEnforced() throws Exception {
    assertEquals(UnthrottledRpcQuotaManager.class,
      CLUSTER.regionServer(0).getRegionServerRpcQuotaManager().getClass());
    TableName name = TableName.valueOf("baseline_reads");
    OtherModesSupport.createTable(CLUSTER.admin(), CLUSTER.connection(), name);
    CLUSTER.util().waitTableAvailable(QuotaUtil.QUOTA_TABLE_NAME, 60_000);
    CLUSTER.admin().setQuota(
      QuotaSettingsFactory.throttleUser("dave", ThrottleType.REQUEST_NUMBER, 1, TimeUnit.MINUTES));
    CLUSTER.admin().setQuota(
      QuotaSettingsFactory.throttleTable(name, ThrottleType.REQUEST_NUMBER, 1, TimeUnit.MINUTES));
    Thread.sleep(1500); // three refresh periods: long enough for any server that reads them
    try (Connection dave =
      LoadProbe.connect(CLUSTER.conf(), LoadProbe.user(CLUSTER.conf(), "dave"))) {
      assertNull("1 request/min is stored, yet nothing is refused",
        OtherModesSupport.readUntilThrottled(dave, name, 20));
    }
  }
}
