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

import dev.hbasepatches.jmh.HBaseBenchmark;
import dev.hbasepatches.quotas.limit.RateLimit;
import dev.hbasepatches.quotas.limit.SmoothRateLimit;
import dev.hbasepatches.quotas.limit.Ticker;
import java.util.Locale;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.quotas.AverageIntervalRateLimiter;
import org.apache.hadoop.hbase.quotas.FixedIntervalRateLimiter;
import org.apache.hadoop.hbase.quotas.RateLimiter;
import org.apache.hadoop.hbase.util.EnvironmentEdgeManager;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cost of one admission decision, per limiter: BASELINE (no throttle at all), PATCHED
 * ({@link SmoothRateLimit}) and the two limiters HBase 2.6 ships, UPSTREAM_AVERAGE
 * ({@code AverageIntervalRateLimiter}) and UPSTREAM_FIXED ({@code FixedIntervalRateLimiter}),
 * driven the way {@code TimeBasedLimiter} drives them (ask for the wait, then consume). Two loads:
 * {@code notBiting}, a limit far above what the benchmark can consume (the hot path every request
 * of an unthrottled user pays), and {@code biting}, 1000 req/sec, so nearly every call is a
 * refusal with its wait computed. One and two threads share one limiter.
 * <p>
 * {@link #main} is the accuracy half: clients on a simulated clock that retry after the wait each
 * limiter returns, reporting achieved/limit, refusals per admission and the busiest one-second
 * window, for limits of 500 to 2500 and 10000 req/sec. Run it with {@code java -cp
 * jmh-benchmarks/target/benchmarks.jar dev.hbasepatches.jmh.quotas.QuotaLimiterBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
public class QuotaLimiterBenchmark extends HBaseBenchmark {

  /** The limiters compared; BASELINE is the unthrottled path before the change. */
  public enum Limiter {
    BASELINE, PATCHED, UPSTREAM_AVERAGE, UPSTREAM_FIXED
  }

  /** A far-away limit (a trillion requests a second) or one that refuses nearly everything. */
  public enum Load {
    notBiting(1_000_000_000_000L), biting(1000);

    final long perSecond;

    Load(long perSecond) {
      this.perSecond = perSecond;
    }
  }

  @Param({ "BASELINE", "PATCHED", "UPSTREAM_AVERAGE", "UPSTREAM_FIXED" })
  public Limiter mode;

  @Param({ "notBiting", "biting" })
  public Load load;

  private Admission admission;

  @Setup
  public void setUp() {
    EnvironmentEdgeManager.reset();
    admission = Admission.create(mode, load.perSecond, Ticker.SYSTEM);
  }

  @Benchmark
  @Threads(1)
  public long admit() {
    return admission.tryAcquire(1);
  }

  @Benchmark
  @Threads(2)
  public long admitTwoThreads() {
    return admission.tryAcquire(1);
  }

  /**
   * One admission decision in nanoseconds of wait: 0 admits. Upstream's limiters answer in
   * milliseconds, scaled here; their wait is read from the injected {@code EnvironmentEdge}.
   */
  abstract static class Admission {

    abstract long tryAcquire(long cost);

    static Admission create(Limiter limiter, long perSecond, Ticker ticker) {
      switch (limiter) {
        case BASELINE:
          return new Admission() {
            @Override
            long tryAcquire(long cost) {
              return 0;
            }
          };
        case PATCHED:
          RateLimit limit = new SmoothRateLimit(perSecond, TimeUnit.SECONDS.toNanos(1), ticker);
          return new Admission() {
            @Override
            long tryAcquire(long cost) {
              return limit.tryAcquire(cost);
            }
          };
        case UPSTREAM_AVERAGE:
          return upstream(new AverageIntervalRateLimiter(), perSecond);
        case UPSTREAM_FIXED:
          return upstream(new FixedIntervalRateLimiter(), perSecond);
        default:
          throw new IllegalArgumentException(String.valueOf(limiter));
      }
    }

    private static Admission upstream(RateLimiter limiter, long perSecond) {
      limiter.set(perSecond, TimeUnit.SECONDS);
      return new Admission() {
        @Override
        long tryAcquire(long cost) {
          // TimeBasedLimiter's order: checkQuota asks for the wait, grabQuota consumes.
          long waitMs = limiter.getWaitIntervalMs(cost);
          if (waitMs == 0) {
            limiter.consume(cost);
            return 0;
          }
          return TimeUnit.MILLISECONDS.toNanos(waitMs);
        }
      };
    }
  }

  /** One simulated run's outcome. */
  static final class Outcome {
    final double achievedOverLimit;
    final double refusalsPerAdmission;
    final double busiestSecondOverLimit;
    /** Time from a request's first attempt to its admission, mean and worst, in milliseconds. */
    final double meanDelayMs;
    final double maxDelayMs;

    Outcome(double achieved, double refusals, double busiest, double meanDelayMs,
      double maxDelayMs) {
      this.achievedOverLimit = achieved;
      this.refusalsPerAdmission = refusals;
      this.busiestSecondOverLimit = busiest;
      this.meanDelayMs = meanDelayMs;
      this.maxDelayMs = maxDelayMs;
    }
  }

  /**
   * Clients on a simulated clock: each sends a request, and after an admission thinks for a while
   * (together they offer {@code demand} times the limit); after a refusal it retries when the
   * limiter said, but no sooner than {@code minRetryNanos} (a round trip; upstream can refuse with
   * a wait of 0 ms), plus a random {@code jitter} fraction of that delay, as network and
   * scheduling add in a real cluster. The first second (the initial burst) is left out.
   */
  static Outcome simulate(Limiter limiter, long perSecond, int clients, double demand,
    long seconds, long minRetryNanos, double jitter, long seed) {
    long sec = TimeUnit.SECONDS.toNanos(1);
    long[] now = { 1_000L * sec };
    EnvironmentEdgeManager.injectEdge(() -> now[0] / 1_000_000L);
    try {
      Admission admission = Admission.create(limiter, perSecond, () -> now[0]);
      long start = now[0];
      long end = start + seconds * sec;
      long think = (long) (clients * (double) sec / (demand * perSecond));
      Random rnd = new Random(seed);
      PriorityQueue<long[]> due = new PriorityQueue<>((a, b) -> Long.compare(a[0], b[0]));
      for (int c = 0; c < clients; c++) {
        long first = start + (long) (rnd.nextDouble() * think);
        due.add(new long[] { first, first }); // { next attempt, first attempt of this request }
      }
      long bucket = sec / 100;
      long[] perBucket = new long[(int) (seconds * 100)];
      long admitted = 0;
      long refused = 0;
      long totalDelay = 0;
      long maxDelay = 0;
      while (!due.isEmpty()) {
        long[] next = due.poll();
        if (next[0] >= end) {
          continue;
        }
        now[0] = next[0];
        long wait = admission.tryAcquire(1);
        boolean counted = next[0] >= start + sec;
        if (wait == 0) {
          if (counted) {
            admitted++;
            perBucket[(int) ((next[0] - start) / bucket)]++;
            totalDelay += next[0] - next[1];
            maxDelay = Math.max(maxDelay, next[0] - next[1]);
          }
          next[0] += think;
          next[1] = next[0];
        } else {
          if (counted) {
            refused++;
          }
          long delay = Math.max(wait, minRetryNanos);
          next[0] += delay + (long) (rnd.nextDouble() * jitter * delay);
        }
        due.add(next);
      }
      long busiest = 0;
      long window = 0;
      for (int b = 100; b < perBucket.length; b++) {
        window += perBucket[b];
        if (b >= 200) {
          window -= perBucket[b - 100];
        }
        busiest = Math.max(busiest, window);
      }
      double counted = (double) (seconds - 1) * perSecond;
      return new Outcome(admitted / counted, refused / (double) Math.max(1, admitted),
        busiest / (double) perSecond, totalDelay / 1e6 / Math.max(1, admitted), maxDelay / 1e6);
    } finally {
      EnvironmentEdgeManager.reset();
    }
  }

  /** Prints the accuracy table ({@link #table}); the one argument, if any, is the jitter. */
  public static void main(String[] args) {
    System.out.print(table(args.length > 0 ? Double.parseDouble(args[0]) : 0.1));
  }

  /**
   * The accuracy table: achieved/limit per limiter and limit, each on a simulated clock with a
   * fixed seed, so the same code prints the same table
   * ({@code hbase-patches/quotas/results/limiter-accuracy/limiter-accuracy.txt}).
   */
  static String table(double jitter) {
    long[] limits = { 500, 1000, 1500, 2000, 2500, 10_000 };
    int clients = 20;
    double demand = 2.0;
    long seconds = 31;
    long minRetry = TimeUnit.MILLISECONDS.toNanos(1);
    StringBuilder out = new StringBuilder();
    out.append(String.format(Locale.ROOT, "%d clients offering %.1fx the limit, %d s simulated"
      + " (first second left out), retry after the returned wait (at least %d us) plus up to"
      + " %.0f%% jitter%n", clients, demand, seconds, minRetry / 1000, jitter * 100));
    out.append(String.format(Locale.ROOT, "%-17s %8s %15s %19s %17s %14s %13s%n", "limiter",
      "limit/s", "achieved/limit", "refusals/admission", "busiest 1s/limit", "mean delay ms",
      "max delay ms"));
    for (Limiter limiter : new Limiter[] { Limiter.PATCHED, Limiter.UPSTREAM_AVERAGE,
      Limiter.UPSTREAM_FIXED }) {
      for (long limit : limits) {
        Outcome o = simulate(limiter, limit, clients, demand, seconds, minRetry, jitter, 11);
        out.append(String.format(Locale.ROOT, "%-17s %8d %15.3f %19.2f %17.3f %14.2f %13.1f%n",
          limiter, limit, o.achievedOverLimit, o.refusalsPerAdmission, o.busiestSecondOverLimit,
          o.meanDelayMs, o.maxDelayMs));
      }
    }
    return out.toString();
  }
}
