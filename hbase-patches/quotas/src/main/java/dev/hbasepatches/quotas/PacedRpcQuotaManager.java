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
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ScheduledChore;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.ipc.RpcCall;
import org.apache.hadoop.hbase.ipc.RpcScheduler;
import org.apache.hadoop.hbase.ipc.RpcServer;
import org.apache.hadoop.hbase.quotas.OperationQuota;
import org.apache.hadoop.hbase.quotas.QuotaCache;
import org.apache.hadoop.hbase.quotas.QuotaUtil;
import org.apache.hadoop.hbase.quotas.RegionServerRpcQuotaManager;
import org.apache.hadoop.hbase.quotas.RpcThrottleStorage;
import org.apache.hadoop.hbase.quotas.RpcThrottlingException;
import org.apache.hadoop.hbase.regionserver.Region;
import org.apache.hadoop.hbase.regionserver.RegionServerServices;
import org.apache.hadoop.hbase.security.User;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.yetus.audience.InterfaceAudience;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Request throttling with this module's limiters, behind HBase's own quota manager type, so
 * {@code RSRpcServices} and coprocessors call it unchanged. It reads the same {@code hbase:quota}
 * settings on the same period ({@code hbase.quota.refresh.period}), keeps each throttle's
 * limiter across refreshes, and answers a request no throttle applies to with one shared
 * do-nothing quota, after a few map lookups and no allocation.
 */
@InterfaceAudience.Private
public class PacedRpcQuotaManager extends RegionServerRpcQuotaManager {

  private static final Logger LOG = LoggerFactory.getLogger(PacedRpcQuotaManager.class);

  /** HBase's default refresh period for quota settings: 5 minutes. */
  static final int DEFAULT_REFRESH_MS = 5 * 60_000;

  private final RegionServerServices services;
  private final boolean quotaEnabled;
  private final RpcThrottleStorage throttleStorage;
  private final QuotaBook book;
  private final String userOverrideKey;
  private final int refreshMs;
  private final ThrottleRouter router;
  private volatile boolean throttleEnabled = true;
  private ScheduledChore refresher;
  /** HBase's QuotaCache seam on this manager (null until started, or if it cannot be set). */
  private volatile PacedQuotaCache cache;
  /** Users seen since start; a new one asks for a refresh, as HBase's cache does. */
  private final Set<String> seenUsers = ConcurrentHashMap.newKeySet();
  private static final int MAX_SEEN_USERS = 100_000;
  /** Managers started in this JVM: lets a check see the change is installed. */
  private static final LongAdder STARTED = new LongAdder();

  public PacedRpcQuotaManager(RegionServerServices services) {
    this(services, (units, period) -> new SmoothRateLimit(units, period, Ticker.SYSTEM));
  }

  PacedRpcQuotaManager(RegionServerServices services, QuotaBook.LimitFactory limits) {
    super(services);
    this.services = services;
    Configuration conf = services.getConfiguration();
    this.quotaEnabled = QuotaUtil.isQuotaEnabled(conf);
    this.throttleStorage = new RpcThrottleStorage(services.getZooKeeper(), conf);
    this.book = new QuotaBook(limits);
    this.router = new ThrottleRouter(CostModel.from(conf),
      quotaEnabled ? DefaultUserLimits.from(conf, limits) : null);
    this.userOverrideKey = conf.get(QuotaCache.QUOTA_USER_REQUEST_ATTRIBUTE_OVERRIDE_KEY);
    this.refreshMs = conf.getInt(QuotaCache.REFRESH_CONF_KEY, DEFAULT_REFRESH_MS);
  }

  @Override
  public synchronized void start(RpcScheduler scheduler) throws IOException {
    if (!quotaEnabled) {
      LOG.info("Quota support disabled ({} is false): no request throttling",
        QuotaUtil.QUOTA_CONF_KEY);
      return;
    }
    if (refresher != null) {
      return;
    }
    throttleEnabled = throttleStorage.isRpcThrottleEnabled();
    PacedQuotaCache c = new PacedQuotaCache(services, this);
    if (c.installInto(this)) {
      // HBase's own refresher chore drives ours (see PacedQuotaCache).
      c.start();
      cache = c;
      STARTED.increment();
      LOG.info("Paced request throttling started through the quota cache: refresh every {} ms, "
        + "rpc throttle {}", refreshMs, throttleEnabled ? "on" : "off");
      return;
    }
    refresher = new ScheduledChore("PacedQuotaRefresher", services, refreshMs) {
      @Override
      protected void chore() {
        refresh();
      }
    };
    services.getChoreService().scheduleChore(refresher);
    LOG.info("Paced request throttling started: refresh every {} ms, rpc throttle {}", refreshMs,
      throttleEnabled ? "on" : "off");
  }

  @Override
  public synchronized void stop() {
    PacedQuotaCache c = cache;
    if (c != null) {
      c.stop("shutdown");
      cache = null;
    }
    if (refresher != null) {
      refresher.shutdown(true);
      refresher = null;
    }
  }

  /** How many managers with the quota cache seam this JVM has started. */
  public static long started() {
    return STARTED.sum();
  }

  /** Re-reads {@code hbase:quota} now; false when the table could not be read. */
  public boolean refresh() {
    if (!quotaEnabled) {
      return false;
    }
    try {
      book.refresh(() -> QuotaTableReader.readAll(services));
      return true;
    } catch (IOException | RuntimeException e) {
      LOG.warn("Could not read request throttles from hbase:quota; keeping the last ones", e);
      return false;
    }
  }

  QuotaSnapshot snapshot() {
    return book.current();
  }

  /** Whether {@code Admin.exceedThrottleQuotaSwitch} is on, as last read. */
  boolean exceedThrottleSwitch() {
    return book.current().exceedThrottleSwitch();
  }

  /** Whether a user throttle (its own or the defaults) applies to {@code user} on the table. */
  boolean userThrottled(String user, TableName table) {
    UserLimits u = router.userLimits(book.current(), user);
    return u != null && u.forTable(table) != null;
  }

  /**
   * The name user quotas are kept under for a caller named {@code shortName}: the request
   * attribute override if the current call carries one, as HBase's cache decides.
   */
  String quotaUserName(String shortName) {
    if (userOverrideKey != null) {
      Optional<RpcCall> call = RpcServer.getCurrentCall();
      if (call.isPresent()) {
        byte[] override = call.get().getRequestAttribute(userOverrideKey);
        if (override != null) {
          return Bytes.toString(override);
        }
      }
    }
    return shortName;
  }

  /** A user not seen before asks for a refresh now rather than at the next period. */
  private String noteUser(String user) {
    PacedQuotaCache c = cache;
    if (c != null && !seenUsers.contains(user)) {
      if (seenUsers.size() >= MAX_SEEN_USERS) {
        seenUsers.clear();
      }
      if (seenUsers.add(user)) {
        c.refreshSoon();
      }
    }
    return user;
  }

  QuotaBook book() {
    return book;
  }

  @Override
  public void switchRpcThrottle(boolean enable) throws IOException {
    if (!quotaEnabled) {
      LOG.warn("Not switching rpc throttle to {}: quota support is disabled", enable);
      return;
    }
    boolean now = throttleStorage.isRpcThrottleEnabled();
    LOG.info("Rpc throttle switched from {} to {}", throttleEnabled, now);
    throttleEnabled = now;
  }

  @Override
  protected boolean isRpcThrottleEnabled() {
    return throttleEnabled;
  }

  @Override
  public OperationQuota getQuota(UserGroupInformation ugi, TableName table, int blockSizeBytes) {
    QuotaSnapshot s = book.current();
    if (!router.anyThrottle(s) || !throttleEnabled || table.isSystemTable()) {
      return FreeOperationQuota.INSTANCE;
    }
    // Inside a request, the override attribute names the user as on the request path.
    String user = router.needsUser(s) ? noteUser(quotaUserName(ugi.getShortUserName())) : null;
    return router.route(s, user, table, blockSizeBytes);
  }

  /**
   * The quota for a request on {@code region} by the calling user, or the shared free quota
   * when no throttle applies (the common case, which must cost next to nothing).
   */
  private OperationQuota quotaFor(Region region) {
    QuotaSnapshot s = book.current();
    if (!router.anyThrottle(s) || !throttleEnabled) {
      if (cache != null && !region.getRegionInfo().getTable().isSystemTable()) {
        // HBase's cache refreshes when it meets a user it has not seen (e.g. an override name
        // whose throttle was just set); the user lookup is the one cost this path keeps.
        requestUser();
      }
      return FreeOperationQuota.INSTANCE;
    }
    TableName table = region.getTableDescriptor().getTableName();
    if (table.isSystemTable()) {
      return FreeOperationQuota.INSTANCE;
    }
    return router.route(s, router.needsUser(s) ? requestUser() : null, table,
      region.getMinBlockSizeBytes());
  }

  /** The user quotas are charged to: the request attribute override if set, else the caller. */
  private String requestUser() {
    Optional<RpcCall> call = RpcServer.getCurrentCall();
    if (call.isPresent()) {
      RpcCall c = call.get();
      if (userOverrideKey != null) {
        byte[] override = c.getRequestAttribute(userOverrideKey);
        if (override != null) {
          return noteUser(Bytes.toString(override));
        }
      }
      Optional<User> user = c.getRequestUser();
      if (user.isPresent()) {
        return noteUser(user.get().getShortName());
      }
    }
    try {
      return noteUser(User.getCurrent().getShortName());
    } catch (IOException e) {
      throw new IllegalStateException("no current user", e);
    }
  }

  @Override
  public OperationQuota checkScanQuota(Region region, ClientProtos.ScanRequest scanRequest,
    long maxScannerResultSize, long maxBlockBytesScanned, long prevBlockBytesScannedDifference)
    throws IOException, RpcThrottlingException {
    // A close is a scan call like any other, as in HBase's own manager: it is charged and may be
    // refused (the client then retries it or the scanner's lease ends it).
    OperationQuota quota = quotaFor(region);
    quota.checkScanQuota(scanRequest, maxScannerResultSize, maxBlockBytesScanned,
      prevBlockBytesScannedDifference);
    return quota;
  }

  @Override
  public OperationQuota checkBatchQuota(Region region, OperationQuota.OperationType type)
    throws IOException, RpcThrottlingException {
    switch (type) {
      case GET:
        return checkBatchQuota(region, 0, 1, false);
      case MUTATE:
        return checkBatchQuota(region, 1, 0, false);
      case CHECK_AND_MUTATE:
        return checkBatchQuota(region, 1, 1, true);
      default:
        throw new IllegalArgumentException("not a batch operation: " + type);
    }
  }

  @Override
  public OperationQuota checkBatchQuota(Region region, List<ClientProtos.Action> actions,
    boolean hasCondition) throws IOException, RpcThrottlingException {
    OperationQuota quota = quotaFor(region);
    if (quota == FreeOperationQuota.INSTANCE) {
      return quota;
    }
    int writes = 0;
    int reads = 0;
    boolean atomic = false;
    for (ClientProtos.Action action : actions) {
      if (action.hasMutation()) {
        writes++;
        if (QuotaUtil.getQuotaOperationType(action, hasCondition)
            == OperationQuota.OperationType.CHECK_AND_MUTATE) {
          reads++;
          atomic = true; // one conditional action makes the batch atomic, as in HBase 2.6.4
        }
      } else if (action.hasGet()) {
        reads++;
      }
    }
    PacedOperationQuota.checkBatch(quota, writes, reads, atomic);
    return quota;
  }

  /** HBase 2.6.1's form (no {@code @Override}: 2.6.4 has the one below instead). */
  public OperationQuota checkBatchQuota(Region region, int numWrites, int numReads)
    throws IOException, RpcThrottlingException {
    return checkBatchQuota(region, numWrites, numReads, false);
  }

  /**
   * HBase 2.6.4's form, which its RPC services call (no {@code @Override}: 2.6.1 has no such
   * method). Without it 2.6.4 would run the inherited stock check. An atomic request is also
   * charged to the atomic throttles (HBase 2.6.4's types; 2.6.1 has none).
   */
  public OperationQuota checkBatchQuota(Region region, int numWrites, int numReads,
    boolean isAtomic) throws IOException, RpcThrottlingException {
    OperationQuota quota = quotaFor(region);
    PacedOperationQuota.checkBatch(quota, numWrites, numReads, isAtomic);
    return quota;
  }

  /**
   * HBase 2.6.4's push (no {@code @Override}: 2.6.1 has no such method): its master asks every
   * RegionServer to reload quotas when one is set ({@code ReloadQuotasProcedure}), and a
   * configuration reload does the same. Re-read {@code hbase:quota} now, synchronously, as
   * HBase's own manager does; the inherited version would refresh only HBase's unused cache.
   */
  public void reload() {
    refresh();
  }
}
