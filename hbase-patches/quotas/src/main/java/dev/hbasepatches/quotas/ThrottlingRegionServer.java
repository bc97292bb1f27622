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
import java.lang.reflect.Field;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseInterfaceAudience;
import org.apache.hadoop.hbase.quotas.FixedIntervalRateLimiter;
import org.apache.hadoop.hbase.quotas.RateLimiter;
import org.apache.hadoop.hbase.quotas.RegionServerRpcQuotaManager;
import org.apache.hadoop.hbase.regionserver.HRegionServer;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.RegionServerStartupResponse;
import org.apache.yetus.audience.InterfaceAudience;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A RegionServer whose request throttling follows {@link QuotaMode#MODE_KEY}. Set
 * {@code hbase.regionserver.impl} to this class; a minicluster honours the same key.
 * <p>
 * HBase builds and starts its own quota manager in private code, so PATCHED and BASELINE managers
 * are made here, handed out by {@link #getRegionServerRpcQuotaManager()} (which is what
 * {@code RSRpcServices} and region coprocessors ask), started once the server has registered with
 * the master, and stopped with the server. UPSTREAM hands out HBase's own manager.
 */
@InterfaceAudience.LimitedPrivate(HBaseInterfaceAudience.CONFIG)
public class ThrottlingRegionServer extends HRegionServer {

  private static final Logger LOG = LoggerFactory.getLogger(ThrottlingRegionServer.class);

  private final QuotaMode mode;
  private final RegionServerRpcQuotaManager ours;

  public ThrottlingRegionServer(Configuration conf) throws IOException {
    super(conf);
    this.mode = QuotaMode.from(conf);
    switch (mode) {
      case PATCHED:
        ours = new PacedRpcQuotaManager(this);
        break;
      case BASELINE:
        ours = new UnthrottledRpcQuotaManager(this);
        break;
      case UPSTREAM:
        ours = null;
        applyUpstreamLimiterChoice(conf);
        break;
      default:
        throw new AssertionError(mode);
    }
    LOG.info("Request throttling mode {}", mode);
  }

  public QuotaMode quotaMode() {
    return mode;
  }

  @Override
  public RegionServerRpcQuotaManager getRegionServerRpcQuotaManager() {
    return ours != null ? ours : super.getRegionServerRpcQuotaManager();
  }

  @Override
  protected void handleReportForDutyResponse(RegionServerStartupResponse c) throws IOException {
    super.handleReportForDutyResponse(c);
    // The server's connection and chore service exist from here on, as they do when HBase
    // starts its own manager a moment later.
    if (ours != null) {
      ours.start(getRpcServer().getScheduler());
    }
  }

  @Override
  public void stop(String why) {
    if (ours != null) {
      ours.stop();
    }
    super.stop(why);
  }

  /**
   * HBase's limiters read {@code hbase.quota.rate.limiter} from a static configuration of their
   * own, built from the classpath's hbase-site.xml, not from the server's configuration. Copy the
   * server's choice there so UPSTREAM runs the limiter this server was configured with (one JVM
   * holds one choice; a minicluster's servers share it).
   */
  static void applyUpstreamLimiterChoice(Configuration conf) {
    String limiter = conf.get(RateLimiter.QUOTA_RATE_LIMITER_CONF_KEY);
    String refill = conf.get(FixedIntervalRateLimiter.RATE_LIMITER_REFILL_INTERVAL_MS);
    if (limiter == null && refill == null) {
      return;
    }
    try {
      Class<?> c = Class.forName("org.apache.hadoop.hbase.quotas.TimeBasedLimiter");
      Field f = c.getDeclaredField("conf");
      f.setAccessible(true);
      Configuration limiterConf = (Configuration) f.get(null);
      if (limiter != null) {
        limiterConf.set(RateLimiter.QUOTA_RATE_LIMITER_CONF_KEY, limiter);
      }
      if (refill != null) {
        limiterConf.set(FixedIntervalRateLimiter.RATE_LIMITER_REFILL_INTERVAL_MS, refill);
      }
      LOG.info("UPSTREAM limiter {} (refill interval {})", limiter, refill);
    } catch (ReflectiveOperationException | RuntimeException e) {
      LOG.warn("Could not pass {}={} to HBase's limiters; they use the classpath hbase-site.xml",
        RateLimiter.QUOTA_RATE_LIMITER_CONF_KEY, limiter, e);
    }
  }
}
