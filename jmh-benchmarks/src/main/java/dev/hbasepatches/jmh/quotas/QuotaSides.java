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

import dev.hbasepatches.jmh.series.SideWorkload;
import dev.hbasepatches.quotas.limit.SmoothRateLimit;
import dev.hbasepatches.quotas.limit.Ticker;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.quotas.DefaultOperationQuota;
import org.apache.hadoop.hbase.quotas.OperationQuota;
import org.apache.hadoop.hbase.quotas.QuotaLimiter;
import org.apache.hadoop.hbase.quotas.QuotaScope;
import org.apache.hadoop.hbase.quotas.QuotaState;
import org.apache.hadoop.hbase.quotas.QuotaTableUtil;
import org.apache.hadoop.hbase.quotas.RateLimiter;
import org.apache.hadoop.hbase.quotas.RpcThrottlingException;
import org.apache.hadoop.hbase.quotas.UserQuotaState;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.EnvironmentEdgeManager;
import org.apache.hbase.thirdparty.com.google.common.base.Supplier;
import org.apache.hbase.thirdparty.com.google.common.base.Suppliers;

import org.apache.hadoop.hbase.shaded.protobuf.ProtobufUtil;
import org.apache.hadoop.hbase.shaded.protobuf.generated.QuotaProtos;

/**
 * The quotas change's sides for the series comparison ({@code dev.hbasepatches.jmh.series}): what
 * a RegionServer does per Get of a user who has a request throttle, from the user's name to the
 * closed quota, with HBase's own quota objects and no cluster.
 * <p>
 * UPSTREAM and SERIES run the steps of {@code RegionServerRpcQuotaManager.getQuota} over the state
 * {@code QuotaCache} keeps: the user's {@code UserQuotaState} (filled from the stored
 * {@code Quotas} as the cache fills it, so its limiter is a {@code TimeBasedLimiter} built by
 * {@code QuotaLimiterFactory}), the table's, namespace's and region servers' {@code QuotaState}s
 * (none set: no-op limiters), then a {@code DefaultOperationQuota} over the four, checked for one
 * read, given the Get's result and closed. SERIES is the release with the quotas series in front
 * and {@code hbase.quota.rate.limiter=org.apache.hadoop.hbase.quotas.PreciseRateLimiter}; set-up
 * checks that the user's request limiter is a {@code PreciseRateLimiter} (UPSTREAM's an
 * {@code AverageIntervalRateLimiter}, HBase's default). PATCHED runs the module's steps
 * ({@code PacedRpcQuotaManager.getQuota}): its {@code QuotaBook} refreshed from the same stored
 * {@code Quotas}, its router handing out a {@code PacedOperationQuota} over
 * {@code SmoothRateLimit}s. BASELINE is the module's BASELINE mode: every request gets the shared
 * do-nothing quota. The module's classes are package-private; they are reached through method
 * handles held in static final fields, which the JIT treats as constants (each side loads this
 * class in its own loader, so each side's handles point at its own classes).
 * <p>
 * Cases:
 * <ul>
 * <li>{@code notBiting[/requests]}: a request-number throttle of 10^12 per second, which never
 * bites: one operation is {@code requests} Gets (default 1,000), each admitted; it returns the
 * admissions, the same on every side (a refusal fails the operation). This is the quotas
 * headline's case, the cost of quotas that are on but not limiting.</li>
 * <li>{@code accuracy/limit[/seconds]}: the limiters' accuracy on a simulated clock, a check and
 * not a throughput case: a throttle of {@code limit} requests per second, one caller taking every
 * request the quota admits, then the clock moved one millisecond, for {@code seconds} (default
 * 10) simulated seconds. One operation returns the admissions, the initial burst included, which
 * differ between sides by design (SeriesToggleBenchmark refuses sides whose first operations
 * differ). UPSTREAM, SERIES and PATCHED only.</li>
 * </ul>
 */
public final class QuotaSides {

  /** The series' key and the value that selects its limiter. */
  static final String SERIES_KEY = RateLimiter.QUOTA_RATE_LIMITER_CONF_KEY;
  static final String SERIES_LIMITER = "org.apache.hadoop.hbase.quotas.PreciseRateLimiter";
  static final String STOCK_LIMITER = "org.apache.hadoop.hbase.quotas.AverageIntervalRateLimiter";

  /** A request-number limit no benchmark can reach. */
  static final long NEVER_BITES = 1_000_000_000_000L;
  static final String USER = "quota-reader";
  static final TableName TABLE = TableName.valueOf("quota_sides");
  /** A table's smallest block size, which both paths take as the first estimate of a read. */
  static final int BLOCK_SIZE = 65536;

  private static final String MODULE = "dev.hbasepatches.quotas.";

  /** {@code OperationQuota.checkBatchQuota}, as (quota, writes, reads, atomic) on any 2.6. */
  private static final MethodHandle CHECK_BATCH;
  /** {@code new DefaultOperationQuota}, as (conf, blockSize, requestsPerSecond, limiters). */
  private static final MethodHandle NEW_DEFAULT_QUOTA;
  /** The module's {@code QuotaBook.current()}, as (book) -> snapshot. */
  private static final MethodHandle CURRENT;
  /** The module's {@code ThrottleRouter.anyThrottle}, {@code needsUser} and {@code route}. */
  private static final MethodHandle ANY_THROTTLE;
  private static final MethodHandle NEEDS_USER;
  private static final MethodHandle ROUTE;
  /** The module's {@code FreeOperationQuota.INSTANCE}. */
  private static final OperationQuota FREE;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      MethodHandle check;
      try {
        // HBase 2.6.4 and later
        check = lookup.findVirtual(OperationQuota.class, "checkBatchQuota",
          MethodType.methodType(void.class, int.class, int.class, boolean.class));
      } catch (NoSuchMethodException e) {
        // HBase 2.6.1: no atomic flag
        check = MethodHandles.dropArguments(lookup.findVirtual(OperationQuota.class,
          "checkBatchQuota", MethodType.methodType(void.class, int.class, int.class)), 3,
          boolean.class);
      }
      CHECK_BATCH = check;
      Class<?> dq = DefaultOperationQuota.class;
      MethodHandle newQuota;
      try {
        // 2.6.4: the region server's request rate feeds the handler-time estimate
        newQuota = lookup.findConstructor(dq, MethodType.methodType(void.class,
          Configuration.class, int.class, double.class, QuotaLimiter[].class));
      } catch (NoSuchMethodException e) {
        newQuota = MethodHandles.dropArguments(lookup.findConstructor(dq, MethodType
          .methodType(void.class, Configuration.class, int.class, QuotaLimiter[].class)), 2,
          double.class);
      }
      NEW_DEFAULT_QUOTA = newQuota.asFixedArity().asType(MethodType.methodType(OperationQuota.class,
        Configuration.class, int.class, double.class, QuotaLimiter[].class));
      Class<?> book = Class.forName(MODULE + "QuotaBook");
      Class<?> snapshot = Class.forName(MODULE + "QuotaSnapshot");
      Class<?> router = Class.forName(MODULE + "ThrottleRouter");
      CURRENT = unreflect(book, "current").asType(
        MethodType.methodType(Object.class, Object.class));
      ANY_THROTTLE = unreflect(router, "anyThrottle", snapshot).asType(
        MethodType.methodType(boolean.class, Object.class, Object.class));
      NEEDS_USER = unreflect(router, "needsUser", snapshot).asType(
        MethodType.methodType(boolean.class, Object.class, Object.class));
      ROUTE = unreflect(router, "route", snapshot, String.class, TableName.class, int.class)
        .asType(MethodType.methodType(OperationQuota.class, Object.class, Object.class,
          String.class, TableName.class, int.class));
      Field free = Class.forName(MODULE + "FreeOperationQuota").getDeclaredField("INSTANCE");
      free.setAccessible(true);
      FREE = (OperationQuota) free.get(null);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private QuotaSides() {
  }

  private static MethodHandle unreflect(Class<?> owner, String name, Class<?>... params)
    throws ReflectiveOperationException {
    Method m = owner.getDeclaredMethod(name, params);
    m.setAccessible(true);
    return MethodHandles.lookup().unreflect(m);
  }

  /** Case {@code notBiting[/requests]} or {@code accuracy/limit[/seconds]}. */
  public static SideWorkload open(String side, String caseSpec) {
    String[] p = SideWorkload.parts("quotas", caseSpec, 1, "notBiting|accuracy", "requests|limit",
      "seconds");
    switch (p[0]) {
      case "notBiting":
        if (p.length > 2) {
          throw new IllegalArgumentException(
            "quotas case '" + caseSpec + "' must be notBiting[/requests]");
        }
        return notBiting(side, SideWorkload.intPart("quotas", p, 1, 1000));
      case "accuracy":
        if (p.length < 2) {
          throw new IllegalArgumentException(
            "quotas case '" + caseSpec + "' must be accuracy/limit[/seconds]");
        }
        return accuracy(side, SideWorkload.intPart("quotas", p, 1, 0),
          SideWorkload.intPart("quotas", p, 2, 10));
      default:
        throw new IllegalArgumentException("quotas case '" + caseSpec
          + "' must be notBiting[/requests] or accuracy/limit[/seconds]");
    }
  }

  private static SideWorkload notBiting(String side, int requests) {
    if (requests < 1) {
      throw new IllegalArgumentException("quotas: requests must be at least 1, got " + requests);
    }
    RequestPath path = path(side, NEVER_BITES, Ticker.SYSTEM);
    Result result = getResult();
    String what = "quotas " + side + " notBiting: " + requests + " Gets per operation by user "
      + USER + " on " + TABLE + ", " + NEVER_BITES + " req/s; " + path;
    return new SideWorkload() {
      @Override
      public long getAsLong() {
        long admitted = 0;
        for (int i = 0; i < requests; i++) {
          OperationQuota q = path.quota();
          try {
            CHECK_BATCH.invokeExact(q, 0, 1, false);
          } catch (RpcThrottlingException e) {
            throw new IllegalStateException("a limit of " + NEVER_BITES + " req/s refused a "
              + "request: " + e.getMessage(), e);
          } catch (Throwable t) {
            throw rethrow(t);
          }
          q.addGetResult(result);
          q.close();
          admitted++;
        }
        return admitted;
      }

      @Override
      public void close() {
      }

      @Override
      public String toString() {
        return what;
      }
    };
  }

  private static SideWorkload accuracy(String side, int limit, int seconds) {
    if (side.equals("BASELINE")) {
      throw SideWorkload.noSide("quotas", side, "the accuracy case measures a limiter, and "
        + "BASELINE has none");
    }
    if (limit < 1 || seconds < 1) {
      throw new IllegalArgumentException("quotas accuracy: limit and seconds must be at least 1, "
        + "got " + limit + "/" + seconds);
    }
    Result result = getResult();
    // Checks the side once, on the system clock, so that opening reports a wrong limiter.
    String what = "quotas " + side + " accuracy: " + limit + " req/s for " + seconds
      + " simulated seconds, one caller polling every millisecond; "
      + path(side, limit, Ticker.SYSTEM);
    return new SideWorkload() {
      @Override
      public long getAsLong() {
        return simulate(side, limit, seconds, result);
      }

      @Override
      public void close() {
      }

      @Override
      public String toString() {
        return what;
      }
    };
  }

  /**
   * The accuracy run: a fresh throttle on a simulated clock (HBase's limiters read the side's own
   * {@code EnvironmentEdgeManager}, the module's its {@code Ticker}), every request the quota
   * admits taken, then the clock moved one millisecond, for {@code seconds}.
   */
  static long simulate(String side, long limit, int seconds, Result result) {
    long[] nowMs = { 1_000_000L };
    EnvironmentEdgeManager.injectEdge(() -> nowMs[0]);
    try {
      RequestPath path = path(side, limit, () -> TimeUnit.MILLISECONDS.toNanos(nowMs[0]));
      long admitted = drain(path, limit, result);
      for (int ms = 0; ms < seconds * 1000; ms++) {
        nowMs[0]++;
        admitted += drain(path, limit, result);
      }
      return admitted;
    } finally {
      EnvironmentEdgeManager.reset();
    }
  }

  /**
   * Takes requests until the quota refuses one. HBase's default limiter answers with a wait of 0
   * ms (admitted) when one request is worth less than a millisecond, so it can go a little into
   * debt; twice the limit in one millisecond is a broken run, not a limiter.
   */
  private static long drain(RequestPath path, long limit, Result result) {
    long taken = 0;
    while (true) {
      OperationQuota q = path.quota();
      try {
        CHECK_BATCH.invokeExact(q, 0, 1, false);
      } catch (RpcThrottlingException e) {
        return taken;
      } catch (Throwable t) {
        throw rethrow(t);
      }
      q.addGetResult(result);
      q.close();
      if (++taken > 2 * limit + 10) {
        throw new IllegalStateException("more than twice the limit of " + limit
          + " req/s admitted within one simulated millisecond: " + path);
      }
    }
  }

  /** What a Get returns: one row of one 100-byte value, the same on every side. */
  private static Result getResult() {
    return Result.create(Collections.singletonList(new KeyValue(Bytes.toBytes("row-0000001"),
      Bytes.toBytes("f"), Bytes.toBytes("q"), 1L, new byte[100])));
  }

  private static RuntimeException rethrow(Throwable t) {
    if (t instanceof RuntimeException) {
      return (RuntimeException) t;
    }
    if (t instanceof Error) {
      throw (Error) t;
    }
    return new IllegalStateException(t);
  }

  /** The stored setting: a request-number throttle of {@code perSecond} on the user. */
  static QuotaProtos.Quotas userQuotas(long perSecond) {
    return QuotaProtos.Quotas.newBuilder().setThrottle(QuotaProtos.Throttle.newBuilder()
      .setReqNum(ProtobufUtil.toTimedQuota(perSecond, TimeUnit.SECONDS, QuotaScope.MACHINE)))
      .build();
  }

  /** One side's way from the user's name to the request's quota. */
  abstract static class RequestPath {
    abstract OperationQuota quota();
  }

  private static RequestPath path(String side, long perSecond, Ticker ticker) {
    switch (side) {
      case "UPSTREAM":
      case "SERIES":
        return new StockPath(side, perSecond);
      case "PATCHED":
        return new ModulePath(perSecond, ticker);
      case "BASELINE":
        return new RequestPath() {
          @Override
          OperationQuota quota() {
            return FREE;
          }

          @Override
          public String toString() {
            return "the module's BASELINE: every request gets its shared do-nothing quota";
          }
        };
      default:
        throw SideWorkload.noSide("quotas", side, "not a side");
    }
  }

  /**
   * HBase's steps ({@code RegionServerRpcQuotaManager.getQuota} over {@code QuotaCache}'s maps),
   * on the release's classes, or the series' with its key on.
   */
  static final class StockPath extends RequestPath {
    private final Configuration conf;
    private final String limiterClass;
    private final Map<String, UserQuotaState> users = new ConcurrentHashMap<>();
    private final Map<TableName, QuotaState> tables = new ConcurrentHashMap<>();
    private final Map<String, QuotaState> namespaces = new ConcurrentHashMap<>();
    private final Map<String, QuotaState> regionServers = new ConcurrentHashMap<>();
    /** As the manager memoizes the server's request rate for a minute (a quiet server here). */
    private final Supplier<Double> requestsPerSecond =
      Suppliers.memoizeWithExpiration(() -> 0.0, 1, TimeUnit.MINUTES);
    private final String user = USER;

    StockPath(String side, long perSecond) {
      conf = HBaseConfiguration.create();
      if (side.equals("SERIES")) {
        conf.set(SERIES_KEY, SERIES_LIMITER);
      }
      UserQuotaState state = new UserQuotaState();
      setQuotas(state, conf, userQuotas(perSecond));
      users.put(USER, state);
      tables.put(TABLE, new QuotaState());
      namespaces.put(TABLE.getNamespaceAsString(), new QuotaState());
      regionServers.put(QuotaTableUtil.QUOTA_REGION_SERVER_ROW_KEY, new QuotaState());
      QuotaLimiter limiter = state.getTableLimiter(TABLE);
      if (limiter.isBypass()) {
        throw new IllegalStateException(side + ": the user's throttle did not apply: " + state);
      }
      limiterClass = requestLimiterClass(limiter);
      String expected = side.equals("SERIES") ? SERIES_LIMITER : STOCK_LIMITER;
      if (!limiterClass.equals(expected)) {
        throw new IllegalStateException(side + ": the user's request limiter is " + limiterClass
          + ", not " + expected + (side.equals("SERIES") ? " (" + SERIES_KEY + "=" + SERIES_LIMITER
            + " did not take effect: is the series applied to this release?)" : ""));
      }
      OperationQuota first = quota();
      if (!first.getClass().getSimpleName().equals("DefaultOperationQuota")) {
        throw new IllegalStateException(side + ": expected a DefaultOperationQuota, got "
          + first.getClass().getName());
      }
    }

    @Override
    OperationQuota quota() {
      if (TABLE.isSystemTable()) {
        throw new IllegalStateException("a system table is never throttled");
      }
      UserQuotaState state = users.get(user);
      QuotaLimiter userLimiter = state.getTableLimiter(TABLE);
      boolean noop = userLimiter.isBypass();
      if (state.hasBypassGlobals()) {
        throw new IllegalStateException("bypassGlobals is not set in this case");
      }
      QuotaLimiter nsLimiter = namespaces.get(TABLE.getNamespaceAsString()).getGlobalLimiter();
      QuotaLimiter tableLimiter = tables.get(TABLE).getGlobalLimiter();
      QuotaLimiter rsLimiter =
        regionServers.get(QuotaTableUtil.QUOTA_REGION_SERVER_ROW_KEY).getGlobalLimiter();
      noop &= tableLimiter.isBypass() && nsLimiter.isBypass() && rsLimiter.isBypass();
      if (noop) {
        throw new IllegalStateException("no throttle applies");
      }
      try {
        return (OperationQuota) NEW_DEFAULT_QUOTA.invokeExact(conf, BLOCK_SIZE,
          requestsPerSecond.get().doubleValue(),
          new QuotaLimiter[] { userLimiter, tableLimiter, nsLimiter, rsLimiter });
      } catch (Throwable t) {
        throw rethrow(t);
      }
    }

    @Override
    public String toString() {
      return "HBase's quota path: DefaultOperationQuota over the user's TimeBasedLimiter, request "
        + "limiter " + limiterClass + (conf.get(SERIES_KEY) == null ? ""
          : " (" + SERIES_KEY + "=" + conf.get(SERIES_KEY) + ")");
    }
  }

  /** The class of a {@code TimeBasedLimiter}'s request-number limiter. */
  private static String requestLimiterClass(QuotaLimiter limiter) {
    try {
      Field f = limiter.getClass().getDeclaredField("reqsLimiter");
      f.setAccessible(true);
      return f.get(limiter).getClass().getName();
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("not a TimeBasedLimiter: " + limiter, e);
    }
  }

  /** {@code UserQuotaState.setQuotas}: (conf, quotas) on 2.6.4, (quotas) on 2.6.1. */
  private static void setQuotas(UserQuotaState state, Configuration conf,
    QuotaProtos.Quotas quotas) {
    try {
      try {
        UserQuotaState.class.getMethod("setQuotas", Configuration.class, QuotaProtos.Quotas.class)
          .invoke(state, conf, quotas);
      } catch (NoSuchMethodException e) {
        UserQuotaState.class.getMethod("setQuotas", QuotaProtos.Quotas.class).invoke(state,
          quotas);
      }
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("could not set the user's quotas", e);
    }
  }

  /**
   * The module's steps ({@code PacedRpcQuotaManager.getQuota}): its book refreshed from the stored
   * setting, its router over the published snapshot.
   */
  static final class ModulePath extends RequestPath {
    private final Object book;
    private final Object router;
    private final String user = USER;
    private final String described;

    ModulePath(long perSecond, Ticker ticker) {
      try {
        Class<?> factoryType = Class.forName(MODULE + "QuotaBook$LimitFactory");
        Object factory = Proxy.newProxyInstance(factoryType.getClassLoader(),
          new Class<?>[] { factoryType }, (proxy, method, args) -> {
            if (method.getName().equals("create")) {
              return new SmoothRateLimit((Long) args[0], (Long) args[1], ticker);
            }
            return method.invoke(this, args);
          });
        Constructor<?> newBook =
          Class.forName(MODULE + "QuotaBook").getDeclaredConstructor(factoryType);
        newBook.setAccessible(true);
        book = newBook.newInstance(factory);

        Class<?> entryType = Class.forName(MODULE + "QuotaEntry");
        Method userEntry =
          entryType.getDeclaredMethod("user", String.class, QuotaProtos.Quotas.class);
        userEntry.setAccessible(true);
        Object entry = userEntry.invoke(null, USER, userQuotas(perSecond));
        Class<?> contentsType = Class.forName(MODULE + "QuotaTableReader$Contents");
        Constructor<?> newContents = contentsType.getDeclaredConstructor(List.class,
          boolean.class);
        newContents.setAccessible(true);
        Object contents = newContents.newInstance(List.of(entry), false);
        Class<?> sourceType = Class.forName(MODULE + "QuotaBook$Source");
        Object source = Proxy.newProxyInstance(sourceType.getClassLoader(),
          new Class<?>[] { sourceType }, (proxy, method, args) -> contents);
        Method refresh = book.getClass().getDeclaredMethod("refresh", sourceType);
        refresh.setAccessible(true);
        Object snapshot = refresh.invoke(book, source);

        Class<?> costType = Class.forName(MODULE + "CostModel");
        Method from = costType.getDeclaredMethod("from", Configuration.class);
        from.setAccessible(true);
        Object costs = from.invoke(null, HBaseConfiguration.create());
        Class<?> defaultsType = Class.forName(MODULE + "DefaultUserLimits");
        Constructor<?> newRouter = Class.forName(MODULE + "ThrottleRouter")
          .getDeclaredConstructor(costType, defaultsType, Ticker.class);
        newRouter.setAccessible(true);
        // No per-user defaults (hbase.quota.default.user.machine.* unset), as on a stock server.
        router = newRouter.newInstance(costs, null, ticker);
        described = "the module's quota path: " + snapshot;
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException("could not build the module's quota path", e);
      }
      OperationQuota first = quota();
      if (!first.getClass().getSimpleName().equals("PacedOperationQuota")) {
        throw new IllegalStateException("PATCHED: expected a PacedOperationQuota, got "
          + first.getClass().getName());
      }
    }

    @Override
    OperationQuota quota() {
      try {
        Object s = CURRENT.invokeExact(book);
        if (!(boolean) ANY_THROTTLE.invokeExact(router, s) || TABLE.isSystemTable()) {
          return FREE;
        }
        String u = (boolean) NEEDS_USER.invokeExact(router, s) ? user : null;
        return (OperationQuota) ROUTE.invokeExact(router, s, u, TABLE, BLOCK_SIZE);
      } catch (Throwable t) {
        throw rethrow(t);
      }
    }

    @Override
    public String toString() {
      return described;
    }
  }
}
