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
import static org.junit.Assert.assertTrue;

import dev.hbasepatches.quotas.limit.RateLimit;
import dev.hbasepatches.quotas.limit.Ticker;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.quotas.OperationQuota;
import org.apache.hadoop.hbase.quotas.QuotaScope;
import org.apache.hadoop.hbase.quotas.QuotaTableUtil;
import org.apache.hadoop.hbase.quotas.QuotaUtil;
import org.apache.hadoop.hbase.quotas.RpcThrottlingException;
import org.apache.hadoop.hbase.quotas.ThrottleType;
import org.apache.hadoop.hbase.shaded.protobuf.ProtobufUtil;
import org.apache.hadoop.hbase.shaded.protobuf.generated.QuotaProtos.Quotas;
import org.apache.hadoop.hbase.shaded.protobuf.generated.QuotaProtos.Throttle;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The module's accounting invariant, checked from outside: every limiter has been charged, net
 * of refunds, exactly the real cost of the requests it admitted, whatever refreshes re-rated,
 * replaced or dropped in between, and nothing for requests that were refused. Limiters are
 * {@link CountingLimit}s (exact, no refill); each thread measures handler time on a clock of its
 * own, so the real cost of every request is known to the test. Unlimited limits are left out (a
 * request under one takes nothing; {@link ExtremeLimitsTest} covers them).
 */
final class QuotaLedger {

  static final CostModel COSTS = new CostModel(1024, 1024, false);
  static final int BLOCK = 65536;
  static final TableName T0 = TableName.valueOf("ns1", "t0");
  static final TableName T1 = TableName.valueOf("t1");
  static final String[] USERS = { "u0", "u1", "u2", "u3" };
  private static final ThrottleType[] TYPES = ThrottleType.values();

  /** Per-thread time, moved only by the thread's own requests. */
  private static final ThreadLocal<long[]> TIME = ThreadLocal.withInitial(() -> new long[1]);
  static final Ticker THREAD_CLOCK = () -> TIME.get()[0];

  private final List<CountingLimit> made = Collections.synchronizedList(new ArrayList<>());
  private final Map<RateLimit, Long> expected = new IdentityHashMap<>();
  final QuotaBook book = new QuotaBook((units, period) -> {
    CountingLimit l = new CountingLimit(units, period);
    made.add(l);
    return l;
  });
  final ThrottleRouter router = new ThrottleRouter(COSTS, null, THREAD_CLOCK);

  long admitted;
  long refused;

  /** One request in flight: what it will really cost, and its quota once admitted. */
  final class Request {
    final int writes;
    final int reads;
    final boolean atomic;
    final List<Result> results = new ArrayList<>();
    final List<Mutation> mutations = new ArrayList<>();
    final long micros;
    /** Where the thread's clock stands when this request is admitted. */
    final long start;
    PacedOperationQuota quota;

    Request(Random rnd) {
      int w = rnd.nextInt(3);
      int r = rnd.nextInt(4);
      if (w + r == 0) {
        r = 1;
      }
      writes = w;
      reads = r;
      atomic = w > 0 && r > 0 && rnd.nextInt(3) == 0;
      for (int i = 0; i < reads; i++) {
        results.add(Result.create(Collections.singletonList(new KeyValue(Bytes.toBytes("r" + i),
          Bytes.toBytes("f"), Bytes.toBytes("q"), new byte[rnd.nextInt(3000)]))));
      }
      for (int i = 0; i < writes; i++) {
        mutations.add(new Put(Bytes.toBytes("w" + i)).addColumn(Bytes.toBytes("f"),
          Bytes.toBytes("q"), new byte[rnd.nextInt(3000)]));
      }
      micros = rnd.nextInt(5000);
      start = rnd.nextLong() / 4;
    }

    /** Admits under the book's current settings; false when refused (or nothing applies). */
    boolean admit(String user, TableName table) {
      OperationQuota q = router.route(book.current(), user, table, BLOCK);
      if (!(q instanceof PacedOperationQuota)) {
        return false;
      }
      quota = (PacedOperationQuota) q;
      TIME.get()[0] = start; // the thread's clock is this request's while it is checked
      try {
        quota.checkBatchQuota(writes, reads, atomic);
      } catch (RpcThrottlingException e) {
        synchronized (QuotaLedger.this) {
          refused++;
        }
        quota = null;
        return false;
      }
      return true;
    }

    /** Runs the request (its handler time passes) and closes its quota. */
    void close() {
      for (Result r : results) {
        quota.addGetResult(r);
      }
      for (Mutation m : mutations) {
        quota.addMutation(m);
      }
      TIME.get()[0] = start + TimeUnit.MICROSECONDS.toNanos(micros);
      quota.close();
      record();
    }

    private void record() {
      long readBytes = 0;
      for (Result r : results) {
        readBytes += QuotaUtil.calculateResultSize(r);
      }
      long writeBytes = 0;
      for (Mutation m : mutations) {
        writeBytes += QuotaUtil.calculateMutationSize(m);
      }
      synchronized (QuotaLedger.this) {
        admitted++;
        for (LimitSet set : quota.sets()) {
          for (int ordinal : set.present()) {
            long real = COSTS.cost(ThrottleTypes.kind(ordinal), writes, reads,
              writes > 0 ? writeBytes : 0, reads > 0 ? readBytes : 0, atomic, micros);
            expected.merge(set.limit(ordinal), real, Long::sum);
          }
        }
      }
    }
  }

  /**
   * Settings for every kind of subject, with random limits of random types; {@code refusable}
   * adds, now and then, a handler time the limiters cannot hold (refused, the last limit kept).
   */
  static List<QuotaEntry> randomSettings(Random rnd, boolean refusable) {
    List<QuotaEntry> e = new ArrayList<>();
    for (String user : USERS) {
      if (rnd.nextInt(4) > 0) {
        e.add(QuotaEntry.user(user, randomQuotas(rnd, refusable)));
      }
      if (rnd.nextInt(3) == 0) {
        e.add(QuotaEntry.userTable(user, T0, randomQuotas(rnd, refusable)));
      }
      if (rnd.nextInt(3) == 0) {
        e.add(QuotaEntry.userNamespace(user, "ns1", randomQuotas(rnd, refusable)));
      }
    }
    if (rnd.nextBoolean()) {
      e.add(QuotaEntry.table(T0, randomQuotas(rnd, refusable)));
    }
    if (rnd.nextBoolean()) {
      e.add(QuotaEntry.table(T1, randomQuotas(rnd, refusable)));
    }
    if (rnd.nextBoolean()) {
      e.add(QuotaEntry.namespace("ns1", randomQuotas(rnd, refusable)));
    }
    if (rnd.nextInt(3) == 0) {
      e.add(QuotaEntry.regionServer(QuotaTableUtil.QUOTA_REGION_SERVER_ROW_KEY,
        randomQuotas(rnd, refusable)));
    }
    return e;
  }

  private static Quotas randomQuotas(Random rnd, boolean refusable) {
    Throttle.Builder t = Throttle.newBuilder();
    int n = 1 + rnd.nextInt(3);
    for (int i = 0; i < n; i++) {
      ThrottleType type = TYPES[rnd.nextInt(TYPES.length)];
      long limit;
      switch (rnd.nextInt(6)) {
        case 0:
          limit = 0;
          break;
        case 1:
          limit = 1;
          break;
        case 2:
          limit = 1 + rnd.nextInt(50);
          break;
        default:
          limit = 1_000_000L + rnd.nextInt(1_000_000_000);
      }
      if (refusable && ThrottleTypes.kind(type).scale() > 1 && rnd.nextInt(4) == 0) {
        limit = Long.MAX_VALUE - 1 - rnd.nextInt(1000);
      }
      ThrottleTypes.with(t, type, ProtobufUtil.toTimedQuota(limit,
        rnd.nextBoolean() ? TimeUnit.SECONDS : TimeUnit.MINUTES, QuotaScope.MACHINE));
    }
    return Quotas.newBuilder().setThrottle(t).build();
  }

  /** The accounting invariant over every limiter ever made. */
  synchronized void checkAccounts() {
    int checked = 0;
    synchronized (made) {
      for (CountingLimit l : made) {
        long want = expected.getOrDefault(l, 0L);
        synchronized (l) {
          assertEquals("limiter " + l.units() + "/" + l.periodNanos() + "ns: charged net "
            + l.used + " for requests that really cost " + want, want, l.used);
          assertTrue(l.used >= 0);
        }
        checked++;
      }
    }
    assertTrue("limiters made: " + checked, checked > 0);
  }

  /** The book's invariant: the snapshot in place holds exactly the rates of the last settings. */
  void checkBook(List<QuotaEntry> last) {
    QuotaSnapshot s = book.current();
    int throttles = 0;
    for (QuotaEntry e : last) {
      if (!e.quotas().hasThrottle()) {
        continue;
      }
      for (ThrottleType type : TYPES) {
        if (ThrottleTypes.timed(e.quotas().getThrottle(), type) == null) {
          continue;
        }
        long soft = ThrottleTypes.timed(e.quotas().getThrottle(), type).getSoftLimit();
        LimitSet set = setOf(s, e);
        if (soft > ThrottleTypes.kind(type).largestLimit() && soft != Long.MAX_VALUE) {
          continue; // refused; it keeps whatever it had
        }
        throttles++;
        assertTrue(e.key() + " " + type + " in " + s, set != null && set.limit(type) != null);
        assertEquals(e.key() + " " + type, soft * ThrottleTypes.kind(type).scale(),
          set.limit(type).units());
        assertEquals(e.key() + " " + type,
          ProtobufUtil.toTimeUnit(ThrottleTypes.timed(e.quotas().getThrottle(), type)
            .getTimeUnit()).toNanos(1), set.limit(type).periodNanos());
      }
    }
    assertTrue("the book keeps no more than the throttles in place: " + book.size() + " > "
      + throttles + " plus the refused ones kept", book.size() >= throttles);
  }

  private static LimitSet setOf(QuotaSnapshot s, QuotaEntry e) {
    switch (e.scope()) {
      case USER:
        return s.user(e.user()) == null ? null : s.user(e.user()).global();
      case USER_TABLE:
        return s.user(e.user()) == null ? null : s.user(e.user()).forTable(e.table());
      case USER_NAMESPACE:
        return s.user(e.user()) == null
          ? null
          : s.user(e.user()).forTable(TableName.valueOf(e.namespace(), "any"));
      case TABLE:
        return s.table(e.table());
      case NAMESPACE:
        return s.namespace(e.namespace());
      case REGION_SERVER:
        return s.regionServers();
      default:
        throw new AssertionError(e.scope());
    }
  }
}
