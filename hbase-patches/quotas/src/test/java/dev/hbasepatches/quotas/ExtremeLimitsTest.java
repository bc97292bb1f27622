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
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import dev.hbasepatches.quotas.limit.RateLimit;
import dev.hbasepatches.quotas.limit.SmoothRateLimit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.quotas.OperationQuota;
import org.apache.hadoop.hbase.quotas.QuotaUtil;
import org.apache.hadoop.hbase.quotas.RpcThrottlingException;
import org.apache.hadoop.hbase.quotas.ThrottleType;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.Assume;
import org.junit.Test;

/**
 * Limits of 0, 1 and {@code Long.MAX_VALUE} in every throttle type the running HBase has (13 on
 * 2.6.4), set both as an {@code hbase:quota} row and, where HBase has one, as the per-user
 * default key, on the module's own limiters and a manual clock. Each case goes through the real
 * path (snapshot, router, operation quota) and ends with the limiter's state checked: 0 refuses
 * at once with the type's own exception and a wait of one period and takes nothing; 1 admits one
 * request, owes the rest, refuses the next and recovers once the debt has run off; no limit
 * admits everything and keeps no account. Also: settings the limiters cannot hold are refused
 * with a message naming the throttle or key, the value and the limit, and a server does not
 * start with such a default.
 */
public class ExtremeLimitsTest {

  private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
  private static final CostModel COSTS = new CostModel(1024, 1024, false);
  private static final int BLOCK = 65536;
  private static final TableName TABLE = TableName.valueOf("extreme");

  private final AtomicLong now = new AtomicLong(7 * SECOND);
  private final List<SmoothRateLimit> made = new ArrayList<>();
  private final QuotaBook.LimitFactory factory = (units, period) -> {
    SmoothRateLimit l = new SmoothRateLimit(units, period, now::get);
    made.add(l);
    return l;
  };

  /** A check-and-mutate: one read, one write, atomic; it charges every throttle type. */
  private PacedOperationQuota request(OperationQuota q) throws RpcThrottlingException {
    PacedOperationQuota p = (PacedOperationQuota) q;
    p.checkBatchQuota(1, 1, true);
    return p;
  }

  private void finish(PacedOperationQuota q) {
    q.addGetResult(Result.create(Collections.singletonList(new KeyValue(Bytes.toBytes("r"),
      Bytes.toBytes("f"), Bytes.toBytes("q"), new byte[100]))));
    q.addMutation(new Put(Bytes.toBytes("r")).addColumn(Bytes.toBytes("f"), Bytes.toBytes("q"),
      new byte[100]));
    now.addAndGet(TimeUnit.MILLISECONDS.toNanos(1)); // the handler time it takes
    q.close();
  }

  private static RpcThrottlingException.Type typeOf(ThrottleType type) {
    try {
      ThrottleTypes.refuse(ThrottleTypes.kind(type), 1);
    } catch (RpcThrottlingException e) {
      return e.getType();
    }
    throw new AssertionError(type.name());
  }

  /** Where the limit under test comes from: a quota row or the defaults. */
  @FunctionalInterface
  private interface Setting {
    ThrottleRouter routerWith(ThrottleType type, long limit);
  }

  private Setting row() {
    return (type, limit) -> {
      QuotaBook book = new QuotaBook(factory);
      QuotaSnapshot s = book.rebuild(Collections.singletonList(
        QuotaEntry.user("u", QuotaBookTest.limit(type, limit, TimeUnit.SECONDS))), false,
        ScopeFactors.WHOLE);
      assertNotNull(type + "=" + limit + " applies", s.user("u"));
      snapshot = s;
      return new ThrottleRouter(COSTS, null, now::get);
    };
  }

  private Setting defaults() {
    return (type, limit) -> {
      Configuration conf = new Configuration(false);
      conf.setLong(ThrottleTypes.kind(type).defaultKey, limit);
      snapshot = QuotaSnapshot.EMPTY;
      DefaultUserLimits d = DefaultUserLimits.from(conf, factory);
      d.forUser("u"); // made on the user's first request; here before it
      return new ThrottleRouter(COSTS, d, now::get);
    };
  }

  private QuotaSnapshot snapshot;

  private void checkEveryType(Setting setting, boolean defaultsOnly) throws Exception {
    int checked = 0;
    for (ThrottleType type : ThrottleType.values()) {
      if (defaultsOnly && ThrottleTypes.kind(type).defaultKey == null) {
        continue;
      }
      zero(type, setting);
      one(type, setting);
      unlimited(type, setting);
      checked++;
    }
    assertTrue("types checked: " + checked, checked >= (defaultsOnly ? 6 : 9));
  }

  private SmoothRateLimit only() {
    assertEquals("one limiter for the one throttle", 1, made.size());
    return made.get(0);
  }

  private void zero(ThrottleType type, Setting setting) throws Exception {
    made.clear();
    ThrottleRouter router = setting.routerWith(type, 0);
    SmoothRateLimit l = only();
    for (int i = 0; i < 3; i++) {
      try {
        request(router.route(snapshot, "u", TABLE, BLOCK));
        fail(type + " = 0 admitted a request");
      } catch (RpcThrottlingException e) {
        assertEquals(type.name(), typeOf(type), e.getType());
        assertEquals(type + " = 0: retry after one period", 1000, e.getWaitInterval());
      }
    }
    assertEquals(0, l.units());
    assertTrue(type + " = 0 took nothing", l.idle() && l.backlogNanos() == 0);
  }

  private void one(ThrottleType type, Setting setting) throws Exception {
    made.clear();
    ThrottleRouter router = setting.routerWith(type, 1);
    SmoothRateLimit l = only();
    long units = ThrottleTypes.kind(type).scale();
    assertEquals(units, l.units());
    PacedOperationQuota first = request(router.route(snapshot, "u", TABLE, BLOCK));
    finish(first);
    long debt = l.backlogNanos();
    assertTrue(type + " = 1: the request owes about the period it took, or more: " + debt,
      debt >= SECOND - TimeUnit.MILLISECONDS.toNanos(1));
    try {
      request(router.route(snapshot, "u", TABLE, BLOCK));
      fail(type + " = 1 admitted a second request at once");
    } catch (RpcThrottlingException e) {
      assertEquals(type.name(), typeOf(type), e.getType());
      assertTrue(type + ": " + e, e.getWaitInterval() > 0);
    }
    assertEquals("the refusal took nothing", debt, l.backlogNanos());
    now.addAndGet(debt); // the debt runs off: the limit is full again
    assertTrue(type + " = 1 idle once paid", l.idle());
    finish(request(router.route(snapshot, "u", TABLE, BLOCK)));
    now.addAndGet(l.backlogNanos());
    assertTrue(l.idle());
  }

  private void unlimited(ThrottleType type, Setting setting) throws Exception {
    made.clear();
    ThrottleRouter router = setting.routerWith(type, Long.MAX_VALUE);
    SmoothRateLimit l = only();
    assertEquals(type.name(), Long.MAX_VALUE, l.units());
    for (int i = 0; i < 1000; i++) {
      finish(request(router.route(snapshot, "u", TABLE, BLOCK)));
    }
    assertTrue(type + " = Long.MAX_VALUE keeps no account", l.idle() && l.backlogNanos() == 0);
  }

  @Test
  public void zeroOneAndNoLimitInEveryTypeAsAQuotaRow() throws Exception {
    checkEveryType(row(), false);
  }

  @Test
  public void zeroOneAndNoLimitInEveryTypeAsAUserDefault() throws Exception {
    checkEveryType(defaults(), true);
  }

  /**
   * A re-rate from no limit to a limit of 1 while a request admitted without limit is in flight:
   * that request took nothing, so its close settles nothing against the new limit.
   */
  @Test
  public void requestAdmittedWithoutLimitSettlesNothingAfterALimitIsSet() throws Exception {
    made.clear();
    ThrottleRouter router = row().routerWith(ThrottleType.READ_SIZE, Long.MAX_VALUE);
    SmoothRateLimit l = only();
    PacedOperationQuota q = request(router.route(snapshot, "u", TABLE, BLOCK));
    l.setRate(1, SECOND);
    finish(q);
    assertTrue("nothing charged to the new limit: " + l, l.idle());
  }

  private static ThrottleType handlerTime() {
    ThrottleType t = ThrottleTypes.type(ThrottleTypes.Kind.REQUEST_HANDLER_USAGE_MS);
    Assume.assumeTrue("HBase " + org.apache.hadoop.hbase.util.VersionInfo.getVersion()
      + " has no handler-time throttle", t != null);
    return t;
  }

  /** The warning a refused quota row gets names the throttle, the value and the largest limit. */
  @Test
  public void aRefusedQuotaRowIsNamedWithItsValueAndTheLimit() {
    ThrottleType handler = handlerTime();
    QuotaBook book = new QuotaBook(factory);
    book.rebuild(Collections.singletonList(
      QuotaEntry.user("bob", QuotaBookTest.limit(handler, 5, TimeUnit.SECONDS))), false,
      ScopeFactors.WHOLE);
    assertTrue(book.lastChanges().refused.isEmpty());
    long bad = Long.MAX_VALUE - 1;
    QuotaSnapshot s = book.rebuild(Collections.singletonList(
      QuotaEntry.user("bob", QuotaBookTest.limit(handler, bad, TimeUnit.SECONDS))), false,
      ScopeFactors.WHOLE);
    List<String> refused = book.lastChanges().refused;
    assertEquals(refused.toString(), 1, refused.size());
    String m = refused.get(0);
    assertTrue(m, m.contains("REQUEST_HANDLER_USAGE_MS") && m.contains("user bob")
      && m.contains(Long.toString(bad)) && m.contains(Long.toString(Long.MAX_VALUE / 1000))
      && m.contains("keeps its last accepted limit, 5 ms per 1000000000 ns"));
    assertEquals(5000, s.user("bob").global().limit(handler).units());
    assertEquals(1, book.lastChanges().kept);
    assertEquals(0, book.lastChanges().rerated);
  }

  /**
   * A default the limiters cannot hold stops the server before it binds anything, naming the key,
   * the value and the limit; with quotas off the key is not read.
   */
  @Test(timeout = 60_000)
  public void aServerDoesNotStartWithADefaultItCannotHold() throws Exception {
    ThrottleType handler = handlerTime();
    String key = ThrottleTypes.kind(handler).defaultKey;
    Configuration conf = HBaseConfiguration.create();
    conf.setBoolean(QuotaUtil.QUOTA_CONF_KEY, true);
    conf.set(QuotaMode.MODE_KEY, "PATCHED");
    conf.setLong(key, Long.MAX_VALUE / 1000 + 1);
    try {
      new ThrottlingRegionServer(conf);
      fail("started with " + key + "=" + conf.get(key));
    } catch (IllegalArgumentException e) {
      String m = e.getMessage();
      assertTrue(m, m.contains(key) && m.contains(Long.toString(Long.MAX_VALUE / 1000 + 1))
        && m.contains(Long.toString(Long.MAX_VALUE / 1000)));
    }
    conf.setBoolean(QuotaUtil.QUOTA_CONF_KEY, false);
    ThrottlingRegionServer.checkedBeforeStart(conf);
  }

  /** What a zero limit promises to the rest of the module: a closed limiter holds no state. */
  @Test
  public void closedAndUnlimitedLimitersIgnoreChargesAndRefunds() {
    for (long units : new long[] { 0, Long.MAX_VALUE }) {
      RateLimit l = new SmoothRateLimit(units, SECOND, now::get);
      l.charge(Long.MAX_VALUE);
      l.refund(Long.MAX_VALUE);
      assertTrue(l.idle());
    }
    assertNull(DefaultUserLimits.from(new Configuration(false), factory));
  }
}
