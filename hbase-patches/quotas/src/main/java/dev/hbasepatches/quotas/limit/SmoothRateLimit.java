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

import java.util.concurrent.atomic.AtomicLong;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * A lock-free rate limit that holds its configured rate over any window and tells a refused caller
 * exactly how long to back off. It keeps one number, the <em>theoretical arrival time</em> (TAT):
 * the instant at which everything admitted so far would have been served at exactly the configured
 * rate. Admitting {@code cost} units moves the TAT forward by {@code cost * period / units}
 * nanoseconds (rounded up); a request is admitted when the TAT it would leave behind is at most the
 * burst allowance ahead of now. This is the virtual-scheduling form of the generic cell rate
 * algorithm (GCRA): a token bucket of depth {@code burstUnits}, refilled continuously, held in a
 * single {@link AtomicLong} and updated with one compare-and-set.
 * <p>
 * Guarantees, with {@code rate = units / periodNanos}:
 * <ul>
 * <li>In any window of length {@code W} the units admitted are at most
 * {@code max(burstUnits, c) + W * rate} (plus rounding below one unit), where {@code c} is the
 * largest single cost admitted in it. Over a long run the admitted units converge to the rate.</li>
 * <li>A refusal returns the exact wait: when nothing else is consumed meanwhile, the same request
 * is admitted at {@code now + wait} and would still be refused one nanosecond earlier. Requests
 * refused while earlier refused ones are still due are told to come back one request's time
 * after the last of them, so clients refused together return one by one instead of all at once
 * (only one of them could be admitted then); nothing is reserved by this.</li>
 * <li>The backlog is never negative, so refunds cannot build credit beyond the burst, and the
 * backlog is capped (about 73 years' worth), so no charge or refund overflows.</li>
 * <li>A cost above the burst is never refused forever: it is checked as though it cost exactly the
 * burst (so it is admitted once nothing is outstanding) and then charged in full, leaving the limit
 * in debt that later requests wait off. The long-run rate still holds.</li>
 * </ul>
 * The default burst is one period's units: what upstream's limiters let a client take at once, so
 * a {@code 100req/sec} user can still send 100 requests together after a quiet second. A smaller
 * burst (see the four-argument constructor) smooths traffic further.
 * <p>
 * {@code units == Long.MAX_VALUE} means unlimited, as in HBase: every request is admitted without
 * touching shared state. {@code units == 0} refuses every request, as HBase's limiters do at a
 * zero limit; the refusal's wait is one period, when a refreshed setting may have reopened it. Charges round up to whole nanoseconds, so a limit never admits more than
 * configured; the rounding only shows above about a billion admissions a second.
 */
@InterfaceAudience.Private
public final class SmoothRateLimit implements RateLimit {

  /** The furthest the TAT may run ahead of now, about 73 years; keeps every sum below overflow. */
  static final long MAX_AHEAD_NANOS = Long.MAX_VALUE / 4;

  /** Burst meaning "one period's units", which follows the rate when it changes. */
  private static final long BURST_ONE_PERIOD = -1;

  /**
   * One configuration, published whole so a handler never sees units from one rate and a period
   * from another. The cost of one unit is precomputed since request-count quotas only charge 1.
   */
  private static final class Rate {
    final long units;
    final long periodNanos;
    final long burstUnits;
    /** {@code periodNanos = wholeNanos * units + remainder}, the exact per-unit time. */
    final long wholeNanos;
    final long remainder;
    final long oneUnitNanos;
    /** How far ahead of now the TAT may be after an admission. */
    final long toleranceNanos;
    final boolean unlimited;
    /** A limit of zero: nothing is admitted, as in HBase, where a zero quota refuses all. */
    final boolean closed;

    Rate(long units, long periodNanos, long burstUnits) {
      this.units = units;
      this.periodNanos = periodNanos;
      this.burstUnits = burstUnits;
      this.closed = units == 0;
      this.wholeNanos = closed ? 0 : periodNanos / units;
      this.remainder = closed ? 0 : periodNanos % units;
      this.unlimited = units == Long.MAX_VALUE;
      this.oneUnitNanos = closed ? 0 : nanosFor(1);
      this.toleranceNanos = closed ? 0 : toleranceFor(burstUnits);
    }

    /**
     * The burst's time. Charges round up one request at a time, so {@code burst} one-unit requests
     * can add up to a little more than the burst's exact time; the allowance covers them, but stays
     * below one more unit's charge so the rounding never admits an extra request.
     */
    private long toleranceFor(long burstUnits) {
      long exact = nanosFor(burstUnits);
      long perUnit = burstUnits * oneUnitNanos;
      if (Math.multiplyHigh(burstUnits, oneUnitNanos) != 0 || perUnit < 0) {
        perUnit = MAX_AHEAD_NANOS;
      }
      return Math.max(exact, Math.min(perUnit, exact + oneUnitNanos - 1));
    }

    /** {@code ceil(cost * periodNanos / units)}, saturating at {@link #MAX_AHEAD_NANOS}. */
    long nanosFor(long cost) {
      if (cost == 1 && oneUnitNanos > 0) {
        return oneUnitNanos;
      }
      if (cost == 0) {
        return 0;
      }
      long whole = cost * wholeNanos;
      if (Math.multiplyHigh(cost, wholeNanos) != 0 || whole < 0 || whole > MAX_AHEAD_NANOS) {
        return MAX_AHEAD_NANOS;
      }
      long part;
      long product = cost * remainder;
      if (Math.multiplyHigh(cost, remainder) == 0 && product >= 0) {
        part = product / units + (product % units == 0 ? 0 : 1);
      } else {
        // Only for enormous rates and costs; the term is below cost, a double is close enough.
        part = (long) Math.ceil((double) cost * ((double) remainder / (double) units));
      }
      return Math.min(MAX_AHEAD_NANOS, whole + part);
    }
  }

  private final Ticker ticker;
  private final long burstSetting;
  private volatile Rate rate;
  /** The theoretical arrival time, in {@link Ticker#nanoTime()} terms. */
  private final AtomicLong tat;
  /**
   * The latest retry time handed to a refused request. Requests refused together get successive
   * retry times one request's worth apart instead of the same instant, so their clients come back
   * one after another rather than all at once (when all but one would be refused again). A hint
   * only: nothing is reserved, and a request that returns early or late is judged like any other.
   */
  private final AtomicLong lastRetry;

  /** A limit of {@code units} per {@code periodNanos} whose burst is one period's units. */
  public SmoothRateLimit(long units, long periodNanos, Ticker ticker) {
    this(units, periodNanos, BURST_ONE_PERIOD, ticker);
  }

  /**
   * A limit of {@code units} per {@code periodNanos} that admits at most {@code burstUnits} at
   * once after a quiet spell. The burst stays fixed in units when the rate changes.
   */
  public SmoothRateLimit(long units, long periodNanos, long burstUnits, Ticker ticker) {
    if (ticker == null) {
      throw new NullPointerException("ticker");
    }
    if (burstUnits != BURST_ONE_PERIOD && burstUnits <= 0) {
      throw new IllegalArgumentException("burstUnits must be > 0, got " + burstUnits);
    }
    this.ticker = ticker;
    this.burstSetting = burstUnits;
    this.rate = newRate(units, periodNanos);
    long now = ticker.nanoTime();
    this.tat = new AtomicLong(now);
    this.lastRetry = new AtomicLong(now - periodNanos);
  }

  private Rate newRate(long units, long periodNanos) {
    if (units < 0) {
      throw new IllegalArgumentException("units must be >= 0, got " + units);
    }
    if (periodNanos <= 0) {
      throw new IllegalArgumentException("periodNanos must be > 0, got " + periodNanos);
    }
    return new Rate(units, periodNanos,
      burstSetting == BURST_ONE_PERIOD || units == 0 ? units : burstSetting);
  }

  @Override
  public long tryAcquire(long cost) {
    checkCost(cost);
    Rate r = rate;
    if (r.unlimited) {
      return 0;
    }
    if (r.closed) {
      return r.periodNanos;
    }
    long costNanos = r.nanosFor(cost);
    // An oversized cost is checked as if it were exactly the burst, then charged in full.
    long checkNanos = Math.min(costNanos, r.toleranceNanos);
    long now = ticker.nanoTime();
    long current = tat.get();
    while (true) {
      long ahead = Math.max(0, current - now);
      if (ahead + checkNanos > r.toleranceNanos) {
        return retryAfter(now, ahead + checkNanos - r.toleranceNanos, costNanos, r);
      }
      long next = now + Math.min(MAX_AHEAD_NANOS, ahead + costNanos);
      long witness = tat.compareAndExchange(current, next);
      if (witness == current) {
        return 0;
      }
      current = witness;
    }
  }

  /**
   * The wait for a refused request: its exact wait if no other refused request is due around then,
   * else one request's time after the last retry handed out. A queue of hints longer than one
   * period means earlier refused requests did not come back as told; start over from the exact
   * wait rather than push every later request further out.
   */
  private long retryAfter(long now, long exactWait, long costNanos, Rate r) {
    long earliest = now + exactWait;
    if (costNanos >= r.periodNanos) {
      return exactWait;
    }
    while (true) {
      long last = lastRetry.get();
      long queued = last + costNanos;
      long behind = queued - earliest;
      long slot = behind > 0 && behind <= r.periodNanos ? queued : earliest;
      if (lastRetry.compareAndSet(last, slot)) {
        return slot - now;
      }
    }
  }

  @Override
  public void refund(long cost) {
    move(cost, false);
  }

  @Override
  public void charge(long cost) {
    move(cost, true);
  }

  /**
   * Moves the theoretical arrival time by {@code cost}'s worth: forward for a charge (into debt,
   * capped at {@link #MAX_AHEAD_NANOS}), back for a refund (never before now: a refund cannot
   * build credit, and with nothing outstanding the units have refilled already).
   */
  private void move(long cost, boolean forward) {
    checkCost(cost);
    Rate r = rate;
    if (r.unlimited || r.closed || cost == 0) {
      return;
    }
    long costNanos = r.nanosFor(cost);
    long now = ticker.nanoTime();
    long current = tat.get();
    while (true) {
      long ahead = Math.max(0, current - now);
      if (!forward && ahead == 0) {
        return;
      }
      long next = now + (forward
        ? Math.min(MAX_AHEAD_NANOS, ahead + costNanos)
        : Math.max(0, ahead - costNanos));
      long witness = tat.compareAndExchange(current, next);
      if (witness == current) {
        return;
      }
      current = witness;
    }
  }

  /**
   * Changes the rate in place. The units already consumed and not yet refilled stay owed: the
   * backlog is converted from the old rate's time to the new one's, so lowering the limit makes
   * the same debt take longer to pay off and raising it makes it shorter. A request racing this
   * call may be charged at either rate.
   */
  @Override
  public void setRate(long units, long periodNanos) {
    Rate old = rate;
    Rate next = newRate(units, periodNanos);
    if (old.units == next.units && old.periodNanos == next.periodNanos) {
      return;
    }
    rate = next;
    long now = ticker.nanoTime();
    long current = tat.get();
    while (true) {
      long ahead = current - now;
      if (ahead <= 0) {
        return;
      }
      long converted;
      if (old.unlimited || next.unlimited || old.closed || next.closed) {
        converted = 0; // an unlimited or closed rate keeps no backlog worth carrying over
      } else {
        double owedUnits = (double) ahead * old.units / old.periodNanos;
        double nanos = Math.ceil(owedUnits * next.periodNanos / next.units);
        converted = nanos >= MAX_AHEAD_NANOS ? MAX_AHEAD_NANOS : (long) nanos;
      }
      long witness = tat.compareAndExchange(current, now + converted);
      if (witness == current) {
        return;
      }
      current = witness;
    }
  }

  @Override
  public boolean idle() {
    Rate r = rate;
    return r.unlimited || r.closed || tat.get() - ticker.nanoTime() <= 0;
  }

  @Override
  public long units() {
    return rate.units;
  }

  @Override
  public long periodNanos() {
    return rate.periodNanos;
  }

  /** The most units admitted at once after a quiet spell. */
  public long burstUnits() {
    return rate.burstUnits;
  }

  /** How far the backlog may run ahead of now after an admission: the burst's time. */
  long toleranceNanos() {
    return rate.toleranceNanos;
  }

  /**
   * Nanoseconds of admitted work not yet covered by the rate at the ticker's current time: 0 when
   * the limit is idle, up to the burst's time when it is full, more when in debt.
   */
  public long backlogNanos() {
    return Math.max(0, tat.get() - ticker.nanoTime());
  }

  private static void checkCost(long cost) {
    if (cost < 0) {
      throw new IllegalArgumentException("cost must be >= 0, got " + cost);
    }
  }

  @Override
  public String toString() {
    Rate r = rate;
    if (r.unlimited) {
      return "SmoothRateLimit(unlimited)";
    }
    if (r.closed) {
      return "SmoothRateLimit(closed: 0 per " + r.periodNanos + "ns)";
    }
    return "SmoothRateLimit(" + r.units + " per " + r.periodNanos + "ns, burst " + r.burstUnits
      + ", backlog " + backlogNanos() + "ns)";
  }
}
