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
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import dev.hbasepatches.quotas.limit.RateLimit;
import dev.hbasepatches.quotas.limit.SmoothRateLimit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.quotas.QuotaScope;
import org.apache.hadoop.hbase.quotas.ThrottleType;
import org.apache.hadoop.hbase.shaded.protobuf.ProtobufUtil;
import org.apache.hadoop.hbase.shaded.protobuf.generated.QuotaProtos.Quotas;
import org.apache.hadoop.hbase.shaded.protobuf.generated.QuotaProtos.Throttle;
import org.junit.Assume;
import org.junit.Test;

public class QuotaBookTest {

  private static final TableName T1 = TableName.valueOf("ns1", "t1");
  private static final TableName T2 = TableName.valueOf("ns1", "t2");
  private static final TableName T3 = TableName.valueOf("t3");

  private final List<CountingLimit> made = new ArrayList<>();
  private final QuotaBook book = new QuotaBook((units, period) -> {
    CountingLimit l = new CountingLimit(units, period);
    made.add(l);
    return l;
  });

  static Quotas reqNum(long n, TimeUnit unit) {
    return Quotas.newBuilder().setThrottle(Throttle.newBuilder()
      .setReqNum(ProtobufUtil.toTimedQuota(n, unit, QuotaScope.MACHINE))).build();
  }

  private static List<QuotaEntry> entries(QuotaEntry... e) {
    return Arrays.asList(e);
  }

  @Test
  public void noSettingsMeansTheFreePath() {
    QuotaSnapshot s = book.rebuild(entries(), true, ScopeFactors.WHOLE);
    assertTrue(s.isEmpty());
    assertFalse("exceed-throttle needs a region-server throttle", s.exceedThrottle());
  }

  @Test
  public void unchangedLimitKeepsItsLimiterAndWhatItConsumed() {
    QuotaSnapshot s1 =
      book.rebuild(entries(QuotaEntry.user("alice", reqNum(20, TimeUnit.SECONDS))), false,
        ScopeFactors.WHOLE);
    RateLimit first = s1.user("alice").global().limit(ThrottleType.REQUEST_NUMBER);
    assertEquals(0, first.tryAcquire(15));
    QuotaSnapshot s2 =
      book.rebuild(entries(QuotaEntry.user("alice", reqNum(20, TimeUnit.SECONDS))), false,
        ScopeFactors.WHOLE);
    assertSame(first, s2.user("alice").global().limit(ThrottleType.REQUEST_NUMBER));
    assertEquals(15, ((CountingLimit) first).used);
    assertEquals(1, book.lastChanges().kept);
    assertEquals(1, made.size());
  }

  @Test
  public void changedLimitIsReratedInPlace() {
    book.rebuild(entries(QuotaEntry.user("alice", reqNum(20, TimeUnit.SECONDS))), false,
      ScopeFactors.WHOLE);
    QuotaSnapshot s = book.rebuild(entries(QuotaEntry.user("alice", reqNum(5, TimeUnit.MINUTES))),
      false, ScopeFactors.WHOLE);
    RateLimit l = s.user("alice").global().limit(ThrottleType.REQUEST_NUMBER);
    assertSame(made.get(0), l);
    assertEquals(5, l.units());
    assertEquals(TimeUnit.MINUTES.toNanos(1), l.periodNanos());
    assertEquals(1, book.lastChanges().rerated);
  }

  @Test
  public void removedLimitIsDropped() {
    book.rebuild(entries(QuotaEntry.user("alice", reqNum(20, TimeUnit.SECONDS)),
      QuotaEntry.table(T1, reqNum(100, TimeUnit.SECONDS))), false, ScopeFactors.WHOLE);
    assertEquals(2, book.size());
    QuotaSnapshot s = book.rebuild(entries(QuotaEntry.table(T1, reqNum(100, TimeUnit.SECONDS))),
      false, ScopeFactors.WHOLE);
    assertNull(s.user("alice"));
    assertFalse(s.hasUsers());
    assertNotNull(s.table(T1));
    assertEquals(1, book.size());
    assertEquals(1, book.lastChanges().dropped);
    // Set again later: a fresh limiter, not the dropped one's state.
    QuotaSnapshot again = book.rebuild(entries(QuotaEntry.user("alice",
      reqNum(20, TimeUnit.SECONDS))), false, ScopeFactors.WHOLE);
    assertEquals(3, made.size());
    assertSame(made.get(2), again.user("alice").global().limit(ThrottleType.REQUEST_NUMBER));
  }

  @Test
  public void userTableThenNamespaceThenGlobal() {
    QuotaSnapshot s = book.rebuild(entries(QuotaEntry.user("bob", reqNum(10, TimeUnit.SECONDS)),
      QuotaEntry.userTable("bob", T1, reqNum(11, TimeUnit.SECONDS)),
      QuotaEntry.userNamespace("bob", "ns1", reqNum(12, TimeUnit.SECONDS))), false,
      ScopeFactors.WHOLE);
    UserLimits bob = s.user("bob");
    assertEquals(11, bob.forTable(T1).limit(ThrottleType.REQUEST_NUMBER).units());
    assertEquals(12, bob.forTable(T2).limit(ThrottleType.REQUEST_NUMBER).units());
    assertEquals(10, bob.forTable(T3).limit(ThrottleType.REQUEST_NUMBER).units());
  }

  /**
   * Every throttle type the running HBase has is read and enforced: nine on 2.6.1, thirteen on
   * 2.6.4 (atomic request number, atomic read and write size, handler time). Handler time is kept
   * in microseconds.
   */
  @Test
  public void everyThrottleTypeIsRead() {
    Throttle.Builder t = Throttle.newBuilder();
    for (ThrottleType type : ThrottleType.values()) {
      ThrottleTypes.with(t, type,
        ProtobufUtil.toTimedQuota(type.ordinal() + 1, TimeUnit.SECONDS, QuotaScope.MACHINE));
    }
    QuotaSnapshot s = book.rebuild(
      entries(QuotaEntry.namespace("ns1", Quotas.newBuilder().setThrottle(t).build())), false,
      ScopeFactors.WHOLE);
    LimitSet set = s.namespace("ns1");
    assertEquals(ThrottleType.values().length, set.present().length);
    for (ThrottleType type : ThrottleType.values()) {
      long scale = ThrottleTypes.kind(type).scale();
      assertEquals(type.name(), (type.ordinal() + 1) * scale, set.limit(type).units());
    }
    assertEquals(1, set.limit(ThrottleType.REQUEST_NUMBER).units());
    assertEquals(9, set.limit(ThrottleType.READ_CAPACITY_UNIT).units());
    assertTrue(set.sized());
    assertTrue("every type this HBase has is known", ThrottleTypes.unsupported(
      Arrays.stream(ThrottleType.values()).map(Enum::name).toArray(String[]::new)).isEmpty());
    ThrottleTypes.checkSupported();
  }

  /** A type newer than the module stops a PATCHED server with a message naming the release. */
  @Test
  public void anUnknownThrottleTypeIsRefusedNamingTheHBaseVersion() {
    List<String> bad = ThrottleTypes.unsupported("REQUEST_NUMBER", "SOME_FUTURE_TYPE");
    assertEquals(Arrays.asList("SOME_FUTURE_TYPE"), bad);
    String msg = ThrottleTypes.unsupportedMessage(bad);
    assertTrue(msg, msg.contains("HBase " + org.apache.hadoop.hbase.util.VersionInfo.getVersion()));
    assertTrue(msg, msg.contains("SOME_FUTURE_TYPE") && msg.contains("UPSTREAM"));
  }

  @Test
  public void bypassGlobalsWithoutThrottleIsKept() {
    QuotaSnapshot s = book.rebuild(
      entries(QuotaEntry.user("svc", Quotas.newBuilder().setBypassGlobals(true).build())), false,
      ScopeFactors.WHOLE);
    assertTrue(s.user("svc").bypassGlobals());
    assertNull(s.user("svc").global());
  }

  @Test
  public void clusterScopeIsSharedOut() {
    Quotas cluster = Quotas.newBuilder().setThrottle(Throttle.newBuilder()
      .setReqNum(ProtobufUtil.toTimedQuota(100, TimeUnit.SECONDS, QuotaScope.CLUSTER))).build();
    List<QuotaEntry> e = entries(QuotaEntry.user("alice", cluster), QuotaEntry.table(T1, cluster));
    assertTrue(QuotaBook.anyClusterScope(e));
    QuotaSnapshot s = book.rebuild(e, false, new ScopeFactors() {
      @Override
      public double perServer() {
        return 0.25;
      }

      @Override
      public double forTable(TableName table) {
        return 0.5;
      }
    });
    assertEquals(25, s.user("alice").global().limit(ThrottleType.REQUEST_NUMBER).units());
    assertEquals(50, s.table(T1).limit(ThrottleType.REQUEST_NUMBER).units());
    assertFalse(QuotaBook.anyClusterScope(
      entries(QuotaEntry.user("alice", reqNum(1, TimeUnit.SECONDS)))));
  }

  @Test
  public void exceedThrottleNeedsTheRegionServerRow() {
    QuotaSnapshot s = book.rebuild(entries(QuotaEntry.regionServer("all",
      reqNum(1000, TimeUnit.SECONDS))), true, ScopeFactors.WHOLE);
    assertTrue(s.exceedThrottle());
    assertNotNull(s.regionServers());
  }

  /**
   * Two refreshes at once, the first reading older settings and finishing last: the newer
   * settings stay in place, in the snapshot and in the limiter's rate.
   */
  @Test(timeout = 60_000)
  public void concurrentRefreshesLeaveTheNewestSettings() throws Exception {
    CountDownLatch olderReading = new CountDownLatch(1);
    CountDownLatch releaseOlder = new CountDownLatch(1);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread older = new Thread(() -> refreshOrRecord(failure, () -> {
      olderReading.countDown();
      awaitUninterruptibly(releaseOlder);
      return contents(QuotaEntry.user("alice", reqNum(20, TimeUnit.SECONDS)));
    }));
    older.start();
    olderReading.await();
    Thread newer = new Thread(() -> refreshOrRecord(failure,
      () -> contents(QuotaEntry.user("alice", reqNum(5, TimeUnit.SECONDS)))));
    newer.start();
    // The newer refresh either finishes now or waits for the older one; then let the older go.
    while (newer.isAlive() && newer.getState() != Thread.State.BLOCKED
      && newer.getState() != Thread.State.WAITING) {
      Thread.sleep(1);
    }
    releaseOlder.countDown();
    older.join();
    newer.join();
    assertNull(failure.get());
    RateLimit l = book.current().user("alice").global().limit(ThrottleType.REQUEST_NUMBER);
    assertEquals("the snapshot left in place has the newer settings", 5, l.units());
    assertEquals(1, made.size());
  }

  static ThrottleType handlerTime() {
    ThrottleType t = ThrottleTypes.type(ThrottleTypes.Kind.REQUEST_HANDLER_USAGE_MS);
    Assume.assumeTrue("HBase " + org.apache.hadoop.hbase.util.VersionInfo.getVersion()
      + " has no handler-time throttle", t != null);
    return t;
  }

  static Quotas limit(ThrottleType type, long n, TimeUnit unit) {
    return Quotas.newBuilder().setThrottle(ThrottleTypes.with(Throttle.newBuilder(), type,
      ProtobufUtil.toTimedQuota(n, unit, QuotaScope.MACHINE))).build();
  }

  /** The module's own limiters, on a clock that stands still. */
  private final QuotaBook real = new QuotaBook((units, period) -> {
    return new SmoothRateLimit(units, period, () -> 42L);
  });

  /** A handler time of Long.MAX_VALUE ms set with set_quota is no limit, not a negative rate. */
  @Test
  public void handlerTimeOfLongMaxValueIsNoLimit() {
    ThrottleType handler = handlerTime();
    QuotaSnapshot s = real.rebuild(entries(QuotaEntry.user("alice",
      limit(handler, Long.MAX_VALUE, TimeUnit.SECONDS))), false, ScopeFactors.WHOLE);
    RateLimit l = s.user("alice").global().limit(handler);
    assertEquals(Long.MAX_VALUE, l.units());
    assertEquals(0, l.tryAcquire(Long.MAX_VALUE / 2));
    // CLUSTER-scoped, shared out: still no limit.
    Quotas cluster = Quotas.newBuilder().setThrottle(ThrottleTypes.with(Throttle.newBuilder(),
      handler, ProtobufUtil.toTimedQuota(Long.MAX_VALUE, TimeUnit.SECONDS, QuotaScope.CLUSTER)))
      .build();
    s = real.rebuild(entries(QuotaEntry.user("alice", cluster)), false, new ScopeFactors() {
      @Override
      public double perServer() {
        return 0.5;
      }

      @Override
      public double forTable(TableName table) {
        return 0.5;
      }
    });
    assertEquals(Long.MAX_VALUE, s.user("alice").global().limit(handler).units());
  }

  /**
   * A handler time whose microseconds overflow is refused on its own: the refresh that reads it
   * still applies everything else (a raise for one user, a new limit for another), the refused
   * throttle keeps its last accepted limiter and rate, and later refreshes go on.
   */
  @Test
  public void overflowingHandlerTimeIsRefusedAloneAndRefreshesGoOn() {
    ThrottleType handler = handlerTime();
    QuotaSnapshot before = real.rebuild(entries(QuotaEntry.user("alice",
      reqNum(10, TimeUnit.SECONDS)), QuotaEntry.user("bob", limit(handler, 5, TimeUnit.SECONDS))),
      false, ScopeFactors.WHOLE);
    RateLimit bobs = before.user("bob").global().limit(handler);
    RateLimit alices = before.user("alice").global().limit(ThrottleType.REQUEST_NUMBER);
    assertEquals(5000, bobs.units());

    QuotaSnapshot s = real.rebuild(entries(
      QuotaEntry.user("alice", reqNum(20, TimeUnit.SECONDS)),
      QuotaEntry.user("bob", limit(handler, Long.MAX_VALUE - 1, TimeUnit.SECONDS)),
      QuotaEntry.user("carol", reqNum(7, TimeUnit.SECONDS))), false, ScopeFactors.WHOLE);
    assertSame(alices, s.user("alice").global().limit(ThrottleType.REQUEST_NUMBER));
    assertEquals("the raise next to the bad row is applied", 20, alices.units());
    assertSame("bob keeps his limiter", bobs, s.user("bob").global().limit(handler));
    assertEquals("and its rate: 5 ms a second", 5000, bobs.units());
    assertEquals(7, s.user("carol").global().limit(ThrottleType.REQUEST_NUMBER).units());

    // A new subject whose only limit is refused gets no limiter at all.
    s = real.rebuild(entries(QuotaEntry.user("dave",
      limit(handler, Long.MAX_VALUE / 1000 + 1, TimeUnit.MINUTES))), false, ScopeFactors.WHOLE);
    assertNull(s.user("dave"));
    // Corrected, it applies on the next refresh.
    s = real.rebuild(entries(QuotaEntry.user("dave", limit(handler, 3, TimeUnit.MINUTES))), false,
      ScopeFactors.WHOLE);
    assertEquals(3000, s.user("dave").global().limit(handler).units());
  }

  /**
   * A rebuild that fails (here the factory cannot make a new limiter) changes no rate: the
   * limiter a re-rate earlier in the same rebuild would have changed keeps the rate the snapshot
   * still in place says, and the next rebuild applies both.
   */
  @Test
  public void aFailedRebuildLeavesEveryRateAsItWas() throws Exception {
    boolean[] fail = { false };
    QuotaBook book = new QuotaBook((units, period) -> {
      if (fail[0]) {
        throw new IllegalStateException("no limiter now");
      }
      return new CountingLimit(units, period);
    });
    QuotaSnapshot first =
      book.refresh(() -> contents(QuotaEntry.user("alice", reqNum(10, TimeUnit.SECONDS))));
    RateLimit alices = first.user("alice").global().limit(ThrottleType.REQUEST_NUMBER);
    fail[0] = true;
    try {
      book.refresh(() -> contents(QuotaEntry.user("alice", reqNum(20, TimeUnit.SECONDS)),
        QuotaEntry.user("bob", reqNum(5, TimeUnit.SECONDS))));
      fail("the factory failed");
    } catch (IllegalStateException expected) {
      // the refresh fails as a whole
    }
    assertSame(first, book.current());
    assertEquals("not re-rated by a rebuild that was not published", 10, alices.units());
    fail[0] = false;
    QuotaSnapshot s = book.rebuild(entries(QuotaEntry.user("alice", reqNum(20, TimeUnit.SECONDS)),
      QuotaEntry.user("bob", reqNum(5, TimeUnit.SECONDS))), false, ScopeFactors.WHOLE);
    assertSame(alices, s.user("alice").global().limit(ThrottleType.REQUEST_NUMBER));
    assertEquals(20, alices.units());
    assertEquals(5, s.user("bob").global().limit(ThrottleType.REQUEST_NUMBER).units());
  }

  private static QuotaTableReader.Contents contents(QuotaEntry... e) {
    return new QuotaTableReader.Contents(Arrays.asList(e), false);
  }

  private void refreshOrRecord(AtomicReference<Throwable> failure, QuotaBook.Source source) {
    try {
      book.refresh(source);
    } catch (Throwable t) {
      failure.compareAndSet(null, t);
    }
  }

  private static void awaitUninterruptibly(CountDownLatch latch) {
    while (true) {
      try {
        latch.await();
        return;
      } catch (InterruptedException e) {
        // keep waiting: the test releases it
      }
    }
  }
}
