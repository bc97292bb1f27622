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

import dev.hbasepatches.quotas.limit.SmoothRateLimit;
import dev.hbasepatches.quotas.limit.Ticker;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseInterfaceAudience;
import org.apache.hadoop.hbase.quotas.FixedIntervalRateLimiter;
import org.apache.hadoop.hbase.quotas.QuotaUtil;
import org.apache.hadoop.hbase.quotas.RateLimiter;
import org.apache.hadoop.hbase.quotas.RegionServerRpcQuotaManager;
import org.apache.hadoop.hbase.regionserver.HRegionServer;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.RegionServerStartupResponse;
import org.apache.hadoop.hbase.util.VersionInfo;
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
    this(conf, Ticker.SYSTEM);
  }

  /** @param clock the PATCHED limiters' clock (tests step a manual one) */
  ThrottlingRegionServer(Configuration conf, Ticker clock) throws IOException {
    super(checkedBeforeStart(conf));
    this.mode = QuotaMode.from(conf);
    switch (mode) {
      case PATCHED:
        ours = new PacedRpcQuotaManager(this,
          (units, period) -> new SmoothRateLimit(units, period, clock));
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

  /**
   * Checks the quota settings before the server allocates anything (ports, ZooKeeper): a bad
   * mode, a capacity unit that is not a positive number of bytes, or (PATCHED) a throttle type of
   * the running HBase this module cannot enforce, a per-user default limit the limiters cannot
   * hold or a bad bound on default users stops the start with a message naming the key or the
   * HBase version.
   */
  static Configuration checkedBeforeStart(Configuration conf) {
    QuotaMode mode = QuotaMode.from(conf);
    if (QuotaUtil.isQuotaEnabled(conf) && mode != QuotaMode.BASELINE) {
      // HBase's own manager divides by these too (UPSTREAM): a zero fails every request there.
      CostModel.from(conf);
      if (mode == QuotaMode.PATCHED) {
        ThrottleTypes.checkSupported();
        DefaultUserLimits.check(conf);
      }
    }
    return conf;
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
   * HBase 2.6.1's limiters read {@code hbase.quota.rate.limiter} from a static configuration of
   * their own, built from the classpath's hbase-site.xml, not from the server's configuration:
   * copy the server's choice there so UPSTREAM runs the limiter this server was configured with
   * (one JVM holds one choice; a minicluster's servers share it). Later releases (2.6.4) build
   * each limiter from the server's configuration, so there is nothing to copy. A release with
   * neither stops the start, naming its version.
   */
  static void applyUpstreamLimiterChoice(Configuration conf) {
    String limiter = conf.get(RateLimiter.QUOTA_RATE_LIMITER_CONF_KEY);
    String refill = conf.get(FixedIntervalRateLimiter.RATE_LIMITER_REFILL_INTERVAL_MS);
    if (limiter == null && refill == null) {
      return;
    }
    Class<?> c;
    try {
      c = Class.forName("org.apache.hadoop.hbase.quotas.TimeBasedLimiter");
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(cannotPass(limiter, "it has no TimeBasedLimiter"), e);
    }
    if (limitersTakeTheServerConfiguration(c)) {
      LOG.info("UPSTREAM limiter {} (refill interval {}), from the server's configuration",
        limiter, refill);
      return;
    }
    Field f;
    try {
      f = c.getDeclaredField("conf");
      f.setAccessible(true);
    } catch (NoSuchFieldException | RuntimeException e) {
      throw new IllegalStateException(cannotPass(limiter,
        "its TimeBasedLimiter neither takes the server's configuration (2.6.4) nor keeps the"
          + " static 'conf' of 2.6.1"), e);
    }
    try {
      Configuration limiterConf = (Configuration) f.get(null);
      if (limiter != null) {
        limiterConf.set(RateLimiter.QUOTA_RATE_LIMITER_CONF_KEY, limiter);
      }
      if (refill != null) {
        limiterConf.set(FixedIntervalRateLimiter.RATE_LIMITER_REFILL_INTERVAL_MS, refill);
      }
    } catch (IllegalAccessException | RuntimeException e) {
      throw new IllegalStateException(cannotPass(limiter, e.toString()), e);
    }
    LOG.info("UPSTREAM limiter {} (refill interval {}), copied into HBase's limiter configuration",
      limiter, refill);
  }

  /** HBase 2.6.4 and later: {@code fromThrottle(Configuration, Throttle)}. */
  static boolean limitersTakeTheServerConfiguration(Class<?> timeBasedLimiter) {
    for (Method m : timeBasedLimiter.getDeclaredMethods()) {
      if (m.getName().equals("fromThrottle") && m.getParameterCount() == 2
        && m.getParameterTypes()[0] == Configuration.class) {
        return true;
      }
    }
    return false;
  }

  private static String cannotPass(String limiter, String why) {
    return "hbasepatches.quotas.mode=UPSTREAM cannot pass "
      + RateLimiter.QUOTA_RATE_LIMITER_CONF_KEY + "=" + limiter + " to the limiters of HBase " + VersionInfo.getVersion() + ": " + why
      + ". Set it in the hbase-site.xml on the RegionServer's classpath and drop it from the"
      + " server configuration, or use a build of the module for this release.";
  }
}
