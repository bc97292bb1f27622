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
import org.apache.hadoop.hbase.ScheduledChore;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.quotas.QuotaCache;
import org.apache.hadoop.hbase.quotas.QuotaLimiter;
import org.apache.hadoop.hbase.quotas.RegionServerRpcQuotaManager;
import org.apache.hadoop.hbase.quotas.RpcThrottlingException;
import org.apache.hadoop.hbase.regionserver.RegionServerServices;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.yetus.audience.InterfaceAudience;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HBase's {@link QuotaCache} seam kept working on the module's manager: what
 * {@code RegionServerRpcQuotaManager.getQuotaCache()} returns, so tools and HBase's own tests
 * that refresh or inspect "the quota cache" reach {@link PacedRpcQuotaManager}.
 * <p>
 * Its refresher chore is HBase's own ({@link QuotaCache#start()}), on the same
 * {@code hbase.quota.refresh.period}; a chore asks its stopper whether to go on before every run,
 * and that is where this cache re-reads the module's settings. So the chore's period and
 * {@code QuotaCache.triggerCacheRefresh()} both drive the module's refresh; HBase's own maps
 * behind the cache are filled as in a stock server but never consulted for a request. The
 * limiter lookups answer from the module's settings: bypass where no throttle applies.
 */
@InterfaceAudience.Private
final class PacedQuotaCache extends QuotaCache {
  private static final Logger LOG = LoggerFactory.getLogger(PacedQuotaCache.class);

  private final PacedRpcQuotaManager manager;
  private volatile ScheduledChore chore;

  PacedQuotaCache(RegionServerServices services, PacedRpcQuotaManager manager) {
    super(services);
    this.manager = manager;
  }

  /**
   * Makes this cache what {@code manager.getQuotaCache()} returns (HBase keeps it in a private
   * field its own start fills). False, with the reason logged, if this HBase build differs.
   */
  boolean installInto(RegionServerRpcQuotaManager target) {
    try {
      Field f = RegionServerRpcQuotaManager.class.getDeclaredField("quotaCache");
      f.setAccessible(true);
      f.set(target, this);
      return true;
    } catch (ReflectiveOperationException | RuntimeException e) {
      LOG.warn("Cannot expose the quota cache through getQuotaCache() on this HBase build", e);
      return false;
    }
  }

  @Override
  public void start() throws IOException {
    super.start();
    try {
      Field f = QuotaCache.class.getDeclaredField("refreshChore");
      f.setAccessible(true);
      chore = (ScheduledChore) f.get(this);
    } catch (ReflectiveOperationException | RuntimeException e) {
      LOG.warn("Cannot reach the quota cache's refresher: new users wait for the next period", e);
    }
  }

  /** Asks for a refresh soon, as HBase's cache does on a subject it has not seen. */
  void refreshSoon() {
    ScheduledChore c = chore;
    if (c != null) {
      c.triggerNow();
    }
  }

  /** The refresher chore asks this before every run (see the class comment). */
  @Override
  public boolean isStopped() {
    boolean stopped = super.isStopped();
    if (!stopped) {
      manager.refresh();
    }
    return stopped;
  }

  @Override
  public QuotaLimiter getUserLimiter(UserGroupInformation ugi, TableName table) {
    return LimiterView.of(!table.isSystemTable()
      && manager.userThrottled(manager.quotaUserName(ugi.getShortUserName()), table));
  }

  @Override
  public QuotaLimiter getTableLimiter(TableName table) {
    return LimiterView.of(manager.snapshot().table(table) != null);
  }

  @Override
  public QuotaLimiter getNamespaceLimiter(String namespace) {
    return LimiterView.of(manager.snapshot().namespace(namespace) != null);
  }

  @Override
  public QuotaLimiter getRegionServerQuotaLimiter(String regionServer) {
    return LimiterView.of(manager.snapshot().regionServers() != null);
  }

  @Override
  protected boolean isExceedThrottleQuotaEnabled() {
    return manager.exceedThrottleSwitch();
  }

  /**
   * What a limiter lookup answers: whether a throttle applies. Requests are charged through the
   * manager's own quotas, never through these views, so they admit everything and count nothing.
   */
  static final class LimiterView implements QuotaLimiter {
    static final LimiterView BYPASS = new LimiterView(true);
    static final LimiterView THROTTLED = new LimiterView(false);

    private final boolean bypass;

    private LimiterView(boolean bypass) {
      this.bypass = bypass;
    }

    static LimiterView of(boolean throttled) {
      return throttled ? THROTTLED : BYPASS;
    }

    // The charging members exist in two shapes: HBase 2.6.1's and 2.6.4's (which adds atomic and
    // handler-time limits). Both are here without @Override; a view charges nothing in either.
    public void checkQuota(long writeReqs, long estimateWriteSize, long readReqs,
      long estimateReadSize, long estimateWriteCapacityUnit, long estimateReadCapacityUnit)
      throws RpcThrottlingException {
    }

    public void checkQuota(long writeReqs, long estimateWriteSize, long readReqs,
      long estimateReadSize, long estimateWriteCapacityUnit, long estimateReadCapacityUnit,
      boolean isAtomic, long estimateHandlerThreadUsageMs) throws RpcThrottlingException {
    }

    public void grabQuota(long writeReqs, long writeSize, long readReqs, long readSize,
      long writeCapacityUnit, long readCapacityUnit) {
    }

    public void grabQuota(long writeReqs, long writeSize, long readReqs, long readSize,
      long writeCapacityUnit, long readCapacityUnit, boolean isAtomic,
      long estimateHandlerThreadUsageMs) {
    }

    public void consumeWrite(long size, long capacityUnit) {
    }

    public void consumeWrite(long size, long capacityUnit, boolean isAtomic) {
    }

    public void consumeRead(long size, long capacityUnit) {
    }

    public void consumeRead(long size, long capacityUnit, boolean isAtomic) {
    }

    public void consumeTime(long handlerMillisUsed) {
    }

    @Override
    public boolean isBypass() {
      return bypass;
    }

    @Override
    public long getReadAvailable() {
      return Long.MAX_VALUE;
    }

    @Override
    public long getReadLimit() {
      return Long.MAX_VALUE;
    }

    @Override
    public long getWriteLimit() {
      return Long.MAX_VALUE;
    }

    @Override
    public long getWriteAvailable() {
      return Long.MAX_VALUE;
    }

    @Override
    public long getRequestNumLimit() {
      return Long.MAX_VALUE;
    }

    @Override
    public long getReadNumLimit() {
      return Long.MAX_VALUE;
    }

    @Override
    public long getWriteNumLimit() {
      return Long.MAX_VALUE;
    }

    @Override
    public String toString() {
      return bypass ? "LimiterView(bypass)" : "LimiterView(throttled)";
    }
  }
}
