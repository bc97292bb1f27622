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

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import dev.hbasepatches.testkit.MiniCluster;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.quotas.QuotaCache;
import org.apache.hadoop.hbase.quotas.QuotaSettingsFactory;
import org.apache.hadoop.hbase.quotas.QuotaUtil;
import org.apache.hadoop.hbase.quotas.ThrottleType;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.Timeout;

/**
 * PATCHED with {@code hbase.quota.enabled=false}: nothing is throttled, not even by the per-user
 * defaults set here (one read a second for every user), which would refuse the second read with
 * quotas on; the master refuses to store a throttle, as stock HBase does.
 */
public class QuotasDisabledMiniClusterTest {

  @ClassRule
  public static final MiniCluster CLUSTER = MiniCluster.builder()
    .conf(HConstants.REGION_SERVER_IMPL, ThrottlingRegionServer.class)
    .conf(QuotaUtil.QUOTA_CONF_KEY, "false").conf(QuotaCache.REFRESH_CONF_KEY, "500")
    .conf(QuotaMode.MODE_KEY, "PATCHED")
    .conf(QuotaUtil.QUOTA_DEFAULT_USER_MACHINE_READ_NUM, "1")
    .conf(QuotaUtil.QUOTA_DEFAULT_USER_MACHINE_REQUEST_NUM, "1").build();

  @Rule
  public final Timeout timeout = Timeout.builder().withTimeout(240, TimeUnit.SECONDS).build();

  @Test
  public void nothingIsThrottledAndNoThrottleCanBeStored() throws Exception {
    PacedRpcQuotaManager manager =
      (PacedRpcQuotaManager) CLUSTER.regionServer(0).getRegionServerRpcQuotaManager();
    TableName name = TableName.valueOf("disabled_reads");
    OtherModesSupport.createTable(CLUSTER.admin(), CLUSTER.connection(), name);
    assertFalse("no hbase:quota without quota support",
      CLUSTER.admin().tableExists(QuotaUtil.QUOTA_TABLE_NAME));
    try {
      CLUSTER.admin().setQuota(
        QuotaSettingsFactory.throttleUser("dave", ThrottleType.REQUEST_NUMBER, 1,
          TimeUnit.MINUTES));
      fail("the master stored a throttle with quota support off");
    } catch (IOException e) {
      assertTrue(e.toString(), String.valueOf(e.getMessage()).contains("quota support disabled"));
    }
    assertFalse("nothing to read", manager.refresh());
    try (Connection dave =
      LoadProbe.connect(CLUSTER.conf(), LoadProbe.user(CLUSTER.conf(), "dave"))) {
      assertNull("defaults of 1 read/sec, yet nothing is refused",
        OtherModesSupport.readUntilThrottled(dave, name, 1500));
    }
    assertSame(FreeOperationQuota.INSTANCE, manager.getQuota(
      LoadProbe.user(CLUSTER.conf(), "dave").getUGI(), name, 65536));
    assertTrue("no settings read: " + manager.snapshot(), manager.snapshot().isEmpty());
  }
}
