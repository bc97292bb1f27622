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
package dev.hbasepatches.quotas.limit;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;
import org.junit.Test;

/** Behaviour of {@link SmoothRateLimit} on a clock the test drives, one caller at a time. */
public class SmoothRateLimitTest {

  private static final long SEC = TimeUnit.SECONDS.toNanos(1);
  private static final long HOUR = TimeUnit.HOURS.toNanos(1);
  private static final long DAY = TimeUnit.DAYS.toNanos(1);

  private final FakeTicker clock = new FakeTicker();

  /** Admits {@code cost} until refused at the current instant; returns how many were admitted. */
  /** The wait the last {@link #drain} call's refusal returned. */
  private static long lastWait;

  /**
   * Admits {@code cost} until refused; returns how many were admitted and keeps the refusal's
   * wait in {@link #lastWait} (asking again would be a second refusal, told to queue behind it).
   */
  private static long drain(RateLimit limit, long cost) {
    long admitted = 0;
    long wait;
    while ((wait = limit.tryAcquire(cost)) == 0) {
      admitted++;
      if (admitted > 100_000_000L) {
        fail("limit never refused: " + limit);
      }
    }
    lastWait = wait;
    return admitted;
  }

  /** {@code ceil(cost * period / units)}, the charge the limit is documented to make. */
  private static long nanosFor(long cost, long units, long period) {
    return (long) Math.ceil((double) cost * period / units);
  }

  @Test
  public void fromIdleAdmitsExactlyOnePeriodsBurst() {
    long[] rates = { 1, 3, 7, 100, 1000, 2500, 10_000 };
    for (long units : rates) {
      SmoothRateLimit limit = new SmoothRateLimit(units, SEC, clock);
      assertEquals("units=" + units, units, drain(limit, 1));
      assertEquals(units, limit.burstUnits());
    }
  }

  @Test
  public void admissionsPerWindowFollowTheRate() {
    long[][] cases = { // units, period, cost, step
      { 3, SEC, 1, 7_777_777 }, { 100, SEC, 1, 1_000_003 }, { 1000, SEC, 1, 333_333 },
      { 10_000, SEC, 1, 99_991 }, { 10L << 20, SEC, 64 << 10, 1_234_567 },
      { 5 << 10, TimeUnit.MINUTES.toNanos(1), 100, 50_000_000 } };
    for (long[] c : cases) {
      long units = c[0];
      long period = c[1];
      long cost = c[2];
      long step = c[3];
      FakeTicker t = new FakeTicker(987_654_321L);
      SmoothRateLimit limit = new SmoothRateLimit(units, period, t);
      long perCost = nanosFor(cost, units, period);
      long burst = units / cost;
      String what = units + " per " + period + "ns, cost " + cost;
      assertEquals(what, burst, drain(limit, cost));
      long elapsed = 0;
      long admitted = 0;
      List<Long> times = new ArrayList<>();
      for (long i = 0; i < burst; i++) {
        times.add(0L);
      }
      while (elapsed < 10 * period) {
        t.advance(step);
        elapsed += step;
        long n = drain(limit, cost);
        for (long i = 0; i < n; i++) {
          times.add(elapsed);
        }
        admitted += n;
      }
      // After the burst the limit runs exactly at the rate: the backlog never empties, so the
      // admissions are exactly the whole charges that fit in the elapsed time plus what the burst
      // left unused.
      long slack = limit.toleranceNanos() - burst * perCost;
      assertTrue(what, slack >= 0 && slack < perCost);
      assertEquals(what, (elapsed + slack) / perCost, admitted);
      double achieved = (double) admitted * cost / elapsed * period;
      assertEquals(what, units, achieved, units * 0.01);
      // No window holds more than the burst plus what the rate refills in it: for every pair of
      // admissions i <= j, (j - i + 1) * perCost <= (t[j] - t[i]) + tolerance. Rearranged, the
      // worst i for each j is the one with the smallest i * perCost - t[i].
      long smallest = Long.MAX_VALUE;
      for (int j = 0; j < times.size(); j++) {
        smallest = Math.min(smallest, j * perCost - times.get(j));
        long worst = (j + 1) * perCost - times.get(j) - smallest;
        assertTrue(what + " admission " + j, worst <= limit.toleranceNanos());
      }
    }
  }

  @Test
  public void refillsInProportionToElapsedTime() {
    SmoothRateLimit limit = new SmoothRateLimit(1000, SEC, clock);
    assertEquals(1000, drain(limit, 1));
    clock.advance(SEC / 2);
    assertEquals(500, drain(limit, 1));
    clock.advance(SEC / 1000 - 1);
    assertEquals(0, drain(limit, 1));
    clock.advance(1);
    assertEquals(1, drain(limit, 1));
    // A long quiet spell refills only up to the burst, never beyond.
    clock.advance(3600 * SEC);
    assertEquals(1000, drain(limit, 1));
  }

  @Test
  public void explicitBurstBoundsWhatIsAdmittedAtOnce() {
    SmoothRateLimit limit = new SmoothRateLimit(100, SEC, 5, clock);
    assertEquals(5, drain(limit, 1));
    clock.advance(HOUR);
    assertEquals(5, drain(limit, 1));
    clock.advance(SEC / 100);
    assertEquals(1, drain(limit, 1));
    assertEquals(5, limit.burstUnits());
  }

  @Test
  public void waitIsExact() {
    long[][] cases = { // units, period, burst, cost
      { 100, SEC, 100, 1 }, { 3, SEC, 3, 1 }, { 7, SEC, 2, 2 }, { 10L << 20, SEC, 10L << 20,
        64 << 10 }, { 1, HOUR, 1, 1 }, { 1000, DAY, 10, 3 } };
    for (long[] c : cases) {
      String what = c[0] + " per " + c[1] + "ns, burst " + c[2] + ", cost " + c[3];
      SmoothRateLimit limit = new SmoothRateLimit(c[0], c[1], c[2], clock);
      for (int round = 0; round < 5; round++) {
        // A period later no retry hint is outstanding: the first refusal gets the exact wait.
        clock.advance(c[1]);
        drain(limit, c[3]);
        long wait = lastWait;
        assertTrue(what, wait > 0);
        clock.advance(wait - 1);
        // A refusal consumes nothing: one nanosecond early is still too early, on time is not.
        assertTrue(what + ": one nanosecond early", limit.tryAcquire(c[3]) > 0);
        clock.advance(1);
        assertEquals(what + ": on time", 0, limit.tryAcquire(c[3]));
      }
    }
  }

  @Test
  public void requestsRefusedTogetherAreToldToComeBackOneByOne() {
    // 100 per second: one request every 10 ms.
    SmoothRateLimit limit = new SmoothRateLimit(100, SEC, clock);
    long step = SEC / 100;
    drain(limit, 1); // its last call was refused and told to come back in one step
    long second = limit.tryAcquire(1);
    long third = limit.tryAcquire(1);
    assertEquals(2 * step, second);
    assertEquals(3 * step, third);
    // Each comes back when told and is admitted; nobody is refused a second time.
    clock.advance(second);
    assertEquals(0, limit.tryAcquire(1));
    clock.advance(third - second);
    assertEquals(0, limit.tryAcquire(1));
    // The hints reserve nothing: the first client never came back, so its unit is still there.
    assertEquals(0, limit.tryAcquire(1));
    // With no hint outstanding, a lone refusal gets its exact wait.
    assertEquals(step, limit.tryAcquire(1));
  }

  @Test
  public void abandonedRetryHintsDoNotPushLaterRequestsBeyondAPeriod() {
    SmoothRateLimit limit = new SmoothRateLimit(100, SEC, clock);
    drain(limit, 1);
    long last = 0;
    for (int i = 0; i < 500; i++) {
      // Clients that never come back: the hints start over instead of growing without bound.
      last = limit.tryAcquire(1);
      assertTrue("wait " + last, last > 0 && last <= SEC + SEC / 100);
    }
  }

  @Test
  public void waitAfterBurstIsOneUnitsTime() {
    SmoothRateLimit limit = new SmoothRateLimit(1000, SEC, clock);
    drain(limit, 1);
    assertEquals(SEC / 1000, lastWait);
    // A cost of 10 must wait for ten units to refill, counted from the refused request ahead of
    // it, which was told to come back in one unit's time.
    assertEquals(11 * SEC / 1000, limit.tryAcquire(10));
  }

  @Test
  public void refundGivesUnitsBackButBuildsNoCredit() {
    SmoothRateLimit limit = new SmoothRateLimit(10, SEC, clock);
    assertEquals(10, drain(limit, 1));
    limit.refund(3);
    assertEquals(3, drain(limit, 1));
    limit.refund(1000);
    assertEquals(0, limit.backlogNanos());
    assertEquals(10, drain(limit, 1));
    clock.advance(10 * SEC);
    limit.refund(5); // nothing outstanding: the units have refilled already
    assertEquals(10, drain(limit, 1));
  }

  @Test
  public void chargeGoesIntoDebtThatLaterRequestsWaitOff() {
    SmoothRateLimit limit = new SmoothRateLimit(10, SEC, clock);
    assertEquals(10, drain(limit, 1));
    limit.charge(20);
    assertEquals(3 * SEC, limit.backlogNanos());
    // Backlog 3s, a unit costs 0.1s, the burst allows 1s: 2.1s to wait.
    assertEquals(2_100_000_000L, limit.tryAcquire(1));
    clock.advance(2_100_000_000L);
    assertEquals(1, drain(limit, 1));
    // Backlog back at 1s; refunding 5 units frees half a second.
    limit.refund(5);
    assertEquals(5, drain(limit, 1));
  }

  @Test
  public void costAboveTheBurstIsAdmittedOnceNothingIsOutstanding() {
    SmoothRateLimit limit = new SmoothRateLimit(10, SEC, clock);
    assertEquals(0, limit.tryAcquire(25));
    assertEquals(2_500_000_000L, limit.backlogNanos());
    assertEquals(1_600_000_000L, limit.tryAcquire(1));
    assertEquals(2_500_000_000L, limit.tryAcquire(25));
    clock.advance(2_500_000_000L - 1);
    assertEquals(1, limit.tryAcquire(25));
    clock.advance(1);
    assertEquals(0, limit.tryAcquire(25));
    // A client that only sends oversized requests and honours the waits still gets the rate.
    long elapsed = 0;
    long admitted = 0;
    while (admitted < 100) {
      long wait = limit.tryAcquire(25);
      if (wait == 0) {
        admitted++;
      } else {
        clock.advance(wait);
        elapsed += wait;
      }
    }
    assertEquals(100 * 2_500_000_000L, elapsed);
  }

  @Test
  public void costAboveTheBurstWithSmallRequestsMixedIn() {
    SmoothRateLimit limit = new SmoothRateLimit(100, SEC, 10, clock);
    limit.tryAcquire(3);
    long wait = limit.tryAcquire(50);
    assertEquals(30_000_000L, wait);
    clock.advance(wait);
    assertEquals(0, limit.tryAcquire(50));
    assertEquals(500_000_000L, limit.backlogNanos());
  }

  @Test
  public void raisingTheRateKeepsWhatWasConsumed() {
    SmoothRateLimit limit = new SmoothRateLimit(100, SEC, clock);
    assertEquals(100, drain(limit, 1));
    limit.setRate(1000, SEC);
    assertEquals(1000, limit.units());
    // 100 units are still owed; the new burst is 1000.
    assertEquals(900, drain(limit, 1));
    clock.advance(SEC / 10);
    assertEquals(100, drain(limit, 1));
  }

  @Test
  public void loweringTheRateMakesTheSameDebtLastLonger() {
    SmoothRateLimit limit = new SmoothRateLimit(1000, SEC, clock);
    assertEquals(1000, drain(limit, 1));
    limit.setRate(10, SEC);
    assertEquals(10, limit.units());
    assertEquals(SEC, limit.periodNanos());
    // 1000 units owed at 10/s is 100s of backlog; the burst is 1s and a unit 0.1s.
    long wait = limit.tryAcquire(1);
    assertEquals(99_100_000_000L, wait);
    clock.advance(wait);
    assertEquals(1, drain(limit, 1));
    clock.advance(SEC);
    assertEquals(10, drain(limit, 1));
  }

  @Test
  public void changingThePeriodConvertsTheBacklog() {
    SmoothRateLimit limit = new SmoothRateLimit(60, TimeUnit.MINUTES.toNanos(1), clock);
    assertEquals(60, drain(limit, 1));
    limit.setRate(60, HOUR);
    assertEquals(HOUR, limit.backlogNanos());
    limit.setRate(3600, HOUR);
    assertEquals(TimeUnit.MINUTES.toNanos(1), limit.backlogNanos());
  }

  @Test
  public void unlimitedNeverRefusesAndLimitingAgainStartsClean() {
    SmoothRateLimit limit = new SmoothRateLimit(Long.MAX_VALUE, SEC, clock);
    for (int i = 0; i < 1000; i++) {
      assertEquals(0, limit.tryAcquire(Long.MAX_VALUE));
    }
    limit.charge(Long.MAX_VALUE);
    limit.setRate(5, SEC);
    assertEquals(5, drain(limit, 1));
    limit.setRate(Long.MAX_VALUE, SEC);
    assertEquals(0, limit.tryAcquire(1_000_000));
  }

  @Test
  public void terabytesPerSecond() {
    long units = 1L << 40;
    long cost = 64L << 20;
    SmoothRateLimit limit = new SmoothRateLimit(units, SEC, clock);
    long perCost = nanosFor(cost, units, SEC);
    assertEquals(61_036, perCost);
    // A byte is under a nanosecond: the burst is exactly one second, and the charges, rounded up
    // to whole nanoseconds, fit 16383 of the 16384 requests a terabyte holds.
    assertEquals(SEC, limit.toleranceNanos());
    assertEquals(SEC / perCost, drain(limit, cost));
    assertEquals(units / cost - 1, SEC / perCost);
    long unused = SEC - (SEC / perCost) * perCost;
    long ms = TimeUnit.MILLISECONDS.toNanos(1);
    clock.advance(ms);
    assertEquals((ms + unused) / perCost, drain(limit, cost));
    assertEquals(perCost - (ms + unused) % perCost, lastWait);
  }

  @Test
  public void nearlyUnlimitedRatesDoNotOverflow() {
    long units = Long.MAX_VALUE - 1;
    SmoothRateLimit limit = new SmoothRateLimit(units, SEC, clock);
    assertEquals(0, limit.tryAcquire(units / 2));
    assertEquals(0, limit.tryAcquire(units / 2));
    long wait = limit.tryAcquire(units / 2);
    assertTrue("wait " + wait, wait > SEC / 2 - 1000 && wait < SEC / 2 + 1000);
    clock.advance(SEC);
    assertEquals(0, limit.tryAcquire(units / 2));
    assertEquals(0, limit.tryAcquire(units / 2));
    assertTrue(limit.tryAcquire(units / 2) > 0);
  }

  @Test
  public void oneRequestPerHour() {
    SmoothRateLimit limit = new SmoothRateLimit(1, HOUR, clock);
    assertEquals(0, limit.tryAcquire(1));
    assertEquals(HOUR, limit.tryAcquire(1));
    clock.advance(HOUR - 1);
    assertEquals(1, limit.tryAcquire(1));
    clock.advance(1);
    assertEquals(0, limit.tryAcquire(1));
    // Two requests' worth is above the burst of one: it waits until nothing is outstanding.
    assertEquals(HOUR, limit.tryAcquire(2));
    clock.advance(HOUR);
    assertEquals(0, limit.tryAcquire(2));
    assertEquals(2 * HOUR, limit.backlogNanos());
  }

  @Test
  public void enormousDebtSaturatesInsteadOfOverflowing() {
    SmoothRateLimit limit = new SmoothRateLimit(1, DAY, clock);
    limit.charge(Long.MAX_VALUE);
    limit.charge(Long.MAX_VALUE);
    assertEquals(SmoothRateLimit.MAX_AHEAD_NANOS, limit.backlogNanos());
    long wait = limit.tryAcquire(1);
    assertTrue("wait " + wait, wait > 0 && wait <= SmoothRateLimit.MAX_AHEAD_NANOS);
    assertTrue(limit.tryAcquire(Long.MAX_VALUE) > 0);
    limit.refund(Long.MAX_VALUE);
    assertEquals(0, limit.backlogNanos());
    assertEquals(0, limit.tryAcquire(1));
  }

  @Test
  public void clockNearTheEndOfTheLongRange() {
    FakeTicker t = new FakeTicker(Long.MAX_VALUE - SEC / 2);
    SmoothRateLimit limit = new SmoothRateLimit(10, SEC, t);
    assertEquals(10, drain(limit, 1));
    t.advance(SEC); // nanoTime wraps; differences stay right
    assertEquals(10, drain(limit, 1));
    assertEquals(SEC / 10, lastWait);
  }

  @Test
  public void badArgumentsAreRefused() {
    SmoothRateLimit limit = new SmoothRateLimit(10, SEC, clock);
    expectIllegal(() -> limit.tryAcquire(-1));
    expectIllegal(() -> limit.refund(-1));
    expectIllegal(() -> limit.charge(-1));
    expectIllegal(() -> limit.setRate(-1, SEC));
    expectIllegal(() -> limit.setRate(10, 0));
    expectIllegal(() -> new SmoothRateLimit(-5, SEC, clock));
    expectIllegal(() -> new SmoothRateLimit(5, SEC, 0, clock));
    assertEquals(10, limit.units());
    assertEquals(0, limit.tryAcquire(0));
  }

  /**
   * A limit of zero refuses everything, every time, as HBase's own limiters do (it once admitted
   * one request per period); a refresh that raises it opens it with no debt carried over.
   */
  @Test
  public void zeroLimitRefusesEverythingUntilRaised() {
    SmoothRateLimit limit = new SmoothRateLimit(0, SEC, clock);
    for (int i = 0; i < 5; i++) {
      assertEquals("refused with a one-period wait", SEC, limit.tryAcquire(1));
      assertEquals(SEC, limit.tryAcquire(1_000_000));
      clock.advance(10 * SEC);
    }
    limit.charge(5);
    limit.refund(5);
    assertEquals(SEC, limit.tryAcquire(1));
    limit.setRate(10, SEC);
    assertEquals("opened with a full burst", 10, drain(limit, 1));
    limit.setRate(0, SEC);
    assertEquals(0, limit.units());
    clock.advance(10 * SEC);
    assertEquals(SEC, limit.tryAcquire(1));
    SmoothRateLimit smallBurst = new SmoothRateLimit(0, SEC, 3, clock);
    assertEquals(SEC, smallBurst.tryAcquire(1));
  }

  private static void expectIllegal(Runnable r) {
    try {
      r.run();
      fail("expected IllegalArgumentException");
    } catch (IllegalArgumentException expected) {
      // refused as it should be
    }
  }

  /**
   * Clients that retry exactly after the returned wait: the limit is reached, not undershot (the
   * upstream fixed-interval limiter reached about a fifth of its quota this way) and not exceeded.
   */
  @Test
  public void retryingClientsAchieveTheLimit() {
    for (long units : new long[] { 500, 1000, 1500, 2500, 10_000 }) {
      FakeTicker t = new FakeTicker(42);
      SmoothRateLimit limit = new SmoothRateLimit(units, SEC, t);
      long start = t.nanoTime();
      long end = start + 30 * SEC;
      // Each client wants one request every 2/units seconds, so together they ask for 5x the rate.
      int clients = 10;
      long think = 2 * SEC / units;
      PriorityQueue<long[]> due = new PriorityQueue<>((a, b) -> Long.compare(a[0], b[0]));
      for (int c = 0; c < clients; c++) {
        due.add(new long[] { start + c * 97L });
      }
      long admittedAfterFirstPeriod = 0;
      while (!due.isEmpty()) {
        long[] next = due.poll();
        if (next[0] >= end) {
          continue;
        }
        t.advance(next[0] - t.nanoTime());
        long wait = limit.tryAcquire(1);
        if (wait == 0) {
          if (next[0] >= start + SEC) {
            admittedAfterFirstPeriod++;
          }
          next[0] += think;
        } else {
          next[0] += wait;
        }
        due.add(next);
      }
      double achieved = admittedAfterFirstPeriod / 29.0;
      assertEquals("units " + units, units, achieved, units * 0.01);
    }
  }
}
