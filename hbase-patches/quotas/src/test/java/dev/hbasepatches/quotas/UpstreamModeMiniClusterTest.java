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
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import dev.hbasepatches.testkit.MiniCluster;
import java.lang.reflect.Field;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.quotas.FixedIntervalRateLimiter;
import org.apache.hadoop.hbase.quotas.QuotaCache;
import org.apache.hadoop.hbase.quotas.QuotaLimiter;
import org.apache.hadoop.hbase.quotas.QuotaSettingsFactory;
import org.apache.hadoop.hbase.quotas.QuotaUtil;
import org.apache.hadoop.hbase.quotas.RateLimiter;
import org.apache.hadoop.hbase.quotas.RegionServerRpcQuotaManager;
import org.apache.hadoop.hbase.quotas.RpcThrottlingException;
import org.apache.hadoop.hbase.quotas.ThrottleType;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.Timeout;

/**
 * UPSTREAM runs HBase's own quota manager through the same RegionServer class, with the limiter
 * class this server's configuration names (here fixed-interval).
 */
public class UpstreamModeMiniClusterTest {

  @ClassRule
  public static final MiniCluster CLUSTER = MiniCluster.builder()
    .conf(HConstants.REGION_SERVER_IMPL, ThrottlingRegionServer.class)
    .conf(QuotaUtil.QUOTA_CONF_KEY, "true").conf(QuotaCache.REFRESH_CONF_KEY, "500")
    .conf(RateLimiter.QUOTA_RATE_LIMITER_CONF_KEY, FixedIntervalRateLimiter.class)
    .conf(QuotaMode.MODE_KEY, "UPSTREAM").build();

  @Rule
  public final Timeout timeout = Timeout.builder().withTimeout(240, TimeUnit.SECONDS).build();

  @Test
  public void hbaseOwnManagerEnforcesStoredThrottles() throws Exception {
    RegionServerRpcQuotaManager manager =
      CLUSTER.regionServer(0).getRegionServerRpcQuotaManager();
    assertEquals("HBase's own manager, not a subclass", RegionServerRpcQuotaManager.class,
      manager.getClass());

    TableName name = TableName.valueOf("upstream_reads");
    OtherModesSupport.createTable(CLUSTER.admin(), CLUSTER.connection(), name);
    CLUSTER.util().waitTableAvailable(QuotaUtil.QUOTA_TABLE_NAME, 60_000);
    CLUSTER.admin().setQuota(
      QuotaSettingsFactory.throttleUser("erin", ThrottleType.REQUEST_NUMBER, 5, TimeUnit.MINUTES));
    try (Connection erin =
      LoadProbe.connect(CLUSTER.conf(), LoadProbe.user(CLUSTER.conf(), "erin"))) {
      // HBase's cache learns of a user on its first request and loads the user's quota on the
      // next refresh, so the first requests are free: read until refused, however many that
      // takes (ten thousand reads outlast any refresh period; the case's timeout bounds them).
      RpcThrottlingException r = OtherModesSupport.readUntilThrottled(erin, name, 10_000);
      // Per minute, so a slow client on a loaded machine still runs out (5/sec did not at load
      // averages above 20 on 2.6.4).
      assertNotNull("erin is throttled at 5/min", r);
      assertTrue(r.toString(), r.getWaitInterval() > 0 && r.getWaitInterval() <= 60_000);
    }
    // The limiter HBase built for erin is the configured class, on 2.6.1 (static configuration,
    // set by the module) and on 2.6.4 (the server's own configuration) alike. Test-only reads of
    // private members: the manager's cache and the limiter's request-number rate limiter.
    Field cacheField = RegionServerRpcQuotaManager.class.getDeclaredField("quotaCache");
    cacheField.setAccessible(true);
    QuotaCache cache = (QuotaCache) cacheField.get(manager);
    QuotaLimiter limiter = cache.getUserLimiter(
      LoadProbe.user(CLUSTER.conf(), "erin").getUGI(), name);
    Field reqs = limiter.getClass().getDeclaredField("reqsLimiter");
    reqs.setAccessible(true);
    assertEquals("the limiter " + limiter, FixedIntervalRateLimiter.class,
      reqs.get(limiter).getClass());
  }
}
