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
package dev.hbasepatches.testkit;

import java.util.Arrays;
import java.util.function.ToDoubleFunction;
import org.apache.commons.math3.distribution.NormalDistribution;
import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.random.RandomGenerator;
import org.apache.commons.math3.random.Well19937c;

/**
 * The project's 95% intervals, one implementation for every tool that reports a measurement
 * (jmh-benchmarks' {@code ForkStats}, hbase-perf, the scenario tests). The unit of every sample is
 * a fork, a round or a pair of them, never an iteration. Each kind of quantity has its scale, so
 * that no interval leaves the range the quantity can take:
 * <ul>
 * <li>ratios and positive values (times, rates, latencies): geometric mean, Student t interval
 * on the logarithms, transformed back ({@link #geometricMean}, {@link #ratio});</li>
 * <li>shares (a fraction of CPU, of reads): Student t interval on the logit scale over units,
 * from per-unit counts with half a count added to each side ({@link #share(long[], long[])}) or
 * from per-unit fractions ({@link #share(double[])}); one pooled binomial count: Wilson's
 * interval ({@link #wilson});</li>
 * <li>rates from counts that can exceed 1 (extra RPCs per read): Student t interval on the log
 * scale over units, half an event added to each ({@link #rate});</li>
 * <li>percentiles measured once per round (p50, p99, a round's slowest read): the median over
 * rounds with a percentile bootstrap interval ({@link #percentileOverRounds});</li>
 * <li>differences, which can be negative: arithmetic mean or Welch's difference of means on the
 * natural scale ({@link #mean}, {@link #difference}).</li>
 * </ul>
 */
public final class Intervals {

  public static final double CONFIDENCE = 0.95;

  /** Resamples of every bootstrap interval. */
  public static final int BOOTSTRAP_RESAMPLES = 10_000;

  /** The bootstrap's random generator starts here, so every report is reproducible. */
  public static final long BOOTSTRAP_SEED = 1_000_003L;

  private Intervals() {
  }

  /** A point estimate and its 95% interval from {@code n} units; NaN bounds: no interval. */
  public record Estimate(int n, double estimate, double low, double high) {

    static Estimate none(int n, double estimate) {
      return new Estimate(n, estimate, Double.NaN, Double.NaN);
    }
  }

  /** Student's t quantile for a two-sided 95% interval at {@code df} degrees of freedom. */
  public static double tQuantile(double df) {
    return new TDistribution(df).inverseCumulativeProbability(0.5 + CONFIDENCE / 2);
  }

  /** The standard normal quantile of a two-sided 95% interval (1.95996...). */
  public static double zQuantile() {
    return new NormalDistribution().inverseCumulativeProbability(0.5 + CONFIDENCE / 2);
  }

  /**
   * Arithmetic mean with its Student t interval: for quantities that can be zero or negative
   * (differences). A positive quantity takes {@link #geometricMean} instead.
   */
  public static Estimate mean(double[] values) {
    int n = values.length;
    if (n == 0) {
      return Estimate.none(0, Double.NaN);
    }
    double mean = average(values);
    if (n == 1) {
      return Estimate.none(1, mean);
    }
    double half = tQuantile(n - 1) * Math.sqrt(variance(values, mean) / n);
    return new Estimate(n, mean, mean - half, mean + half);
  }

  /**
   * Geometric mean of positive values with the Student t interval of their logarithms,
   * transformed back: both bounds are positive, and 2.0 and 0.5 weigh the same. NaN throughout
   * when a value is not positive and finite; NaN bounds below two values.
   */
  public static Estimate geometricMean(double[] values) {
    if (!allPositive(values)) {
      return Estimate.none(values.length, Double.NaN);
    }
    return exp(mean(logs(values)));
  }

  /**
   * Difference of two unpaired samples, {@code mean(b) - mean(a)}, with Welch's interval (unequal
   * variances, Welch-Satterthwaite degrees of freedom); {@code n} is the smaller sample. Needs two
   * values on each side for bounds.
   */
  public static Estimate difference(double[] b, double[] a) {
    int n = Math.min(a.length, b.length);
    if (a.length == 0 || b.length == 0) {
      return Estimate.none(n, Double.NaN);
    }
    return welch(n, average(b) - average(a), a, b);
  }

  /**
   * Ratio of two unpaired samples of positive values, {@code b / a}: the difference of their mean
   * logarithms with Welch's interval, transformed back; the estimate is the ratio of geometric
   * means.
   */
  public static Estimate ratio(double[] b, double[] a) {
    int n = Math.min(a.length, b.length);
    if (a.length == 0 || b.length == 0 || !allPositive(a) || !allPositive(b)) {
      return Estimate.none(n, Double.NaN);
    }
    double[] la = logs(a);
    double[] lb = logs(b);
    return exp(welch(n, average(lb) - average(la), la, lb));
  }

  /**
   * Shares from per-unit counts ({@code hits[i]} of {@code totals[i]} in unit i, e.g. profiler
   * samples in checksum code of all samples of one JVM, reads within 50 ms of one round's reads):
   * each unit's empirical logit {@code log((hits + 0.5) / (totals - hits + 0.5))}, their mean with
   * a Student t interval over units, transformed back. Zero hits in a unit are allowed, and the
   * bounds stay inside [0, 1]; when no unit had a hit (or every unit only hits) there is no spread
   * between units to go on, and the pooled count's Wilson interval is given instead.
   */
  public static Estimate share(long[] hits, long[] totals) {
    checkCounts(hits, totals);
    int n = hits.length;
    double[] logits = new double[n];
    long allHits = 0;
    long all = 0;
    for (int i = 0; i < n; i++) {
      if (hits[i] > totals[i]) {
        throw new IllegalArgumentException("unit " + (i + 1) + ": " + hits[i] + " of "
          + totals[i] + " is not a share");
      }
      logits[i] = Math.log((hits[i] + 0.5) / (totals[i] - hits[i] + 0.5));
      allHits += hits[i];
      all += totals[i];
    }
    if (n < 2) {
      return Estimate.none(n, n == 0 ? Double.NaN : (double) allHits / all);
    }
    if (allHits == 0 || allHits == all) {
      // No unit differs from another: no spread to estimate, so the pooled count decides
      // (Wilson), and the estimate is what was seen (0 or 1), not the half count added above.
      Estimate w = wilson(allHits, all);
      return new Estimate(n, w.estimate(), w.low(), w.high());
    }
    return logistic(mean(logits));
  }

  /**
   * A rate from per-unit counts ({@code events[i]} in {@code exposures[i]}, e.g. extra RPCs in
   * one round's reads), for a rate that can exceed 1: each unit's {@code log((events + 0.5) /
   * exposure)}, their mean with a Student t interval over units, transformed back; both bounds are
   * positive. When no unit saw an event the estimate is 0 and the interval is Poisson's exact one
   * for the pooled exposure, [0, -ln(0.025) / exposure].
   */
  public static Estimate rate(long[] events, long[] exposures) {
    checkCounts(events, exposures);
    int n = events.length;
    double[] logs = new double[n];
    long allEvents = 0;
    long all = 0;
    for (int i = 0; i < n; i++) {
      logs[i] = Math.log((events[i] + 0.5) / exposures[i]);
      allEvents += events[i];
      all += exposures[i];
    }
    if (n < 2) {
      return Estimate.none(n, n == 0 ? Double.NaN : (double) allEvents / all);
    }
    if (allEvents == 0) {
      return new Estimate(n, 0, 0, -Math.log((1 - CONFIDENCE) / 2) / all);
    }
    return exp(mean(logs));
  }

  private static void checkCounts(long[] counts, long[] totals) {
    if (counts.length != totals.length) {
      throw new IllegalArgumentException(counts.length + " counts for " + totals.length
        + " totals");
    }
    for (int i = 0; i < counts.length; i++) {
      if (totals[i] <= 0 || counts[i] < 0) {
        throw new IllegalArgumentException("unit " + (i + 1) + ": " + counts[i] + " in "
          + totals[i] + " is not a count in a positive total");
      }
    }
  }

  /**
   * Shares given as fractions, one per unit, strictly between 0 and 1 (a CPU share per fork):
   * mean logit with a Student t interval, transformed back. A unit at exactly 0 or 1 has no logit:
   * then the estimate is the arithmetic mean and there are no bounds (give counts instead).
   */
  public static Estimate share(double[] fractions) {
    int n = fractions.length;
    double[] logits = new double[n];
    for (int i = 0; i < n; i++) {
      double p = fractions[i];
      if (!(p > 0 && p < 1)) {
        boolean inRange = true;
        for (double q : fractions) {
          inRange &= q >= 0 && q <= 1;
        }
        return Estimate.none(n, inRange ? average(fractions) : Double.NaN);
      }
      logits[i] = Math.log(p / (1 - p));
    }
    return n == 0 ? Estimate.none(0, Double.NaN) : logistic(mean(logits));
  }

  /**
   * Wilson's score interval of one binomial proportion, {@code hits} of {@code n}: sound with few
   * or no hits, bounds inside [0, 1].
   */
  public static Estimate wilson(long hits, long n) {
    if (n <= 0 || hits < 0 || hits > n) {
      return Estimate.none(0, Double.NaN);
    }
    double z = zQuantile();
    double p = (double) hits / n;
    double denom = 1 + z * z / n;
    double centre = (p + z * z / (2.0 * n)) / denom;
    double half = z * Math.sqrt(p * (1 - p) / n + z * z / (4.0 * n * n)) / denom;
    // With no hit (or only hits) the bound is exactly 0 (or 1); the formula leaves rounding dust.
    return new Estimate(1, p, hits == 0 ? 0 : Math.max(0, centre - half),
      hits == n ? 1 : Math.min(1, centre + half));
  }

  /**
   * A percentile measured once per round (each round's p50, p99 or slowest read): the median over
   * rounds, with the percentile bootstrap interval of the median ({@link #bootstrap},
   * {@link #BOOTSTRAP_RESAMPLES} resamples from {@link #BOOTSTRAP_SEED}). The bounds are medians
   * of resampled rounds, so they never leave the range the rounds measured.
   */
  public static Estimate percentileOverRounds(double[] perRound) {
    return bootstrap(perRound, Intervals::median, BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED);
  }

  /**
   * The percentile bootstrap of {@code statistic} over units: {@code resamples} times, draw
   * {@code values.length} units with replacement (indices from {@link Well19937c} started at
   * {@code seed}, one {@code nextInt(n)} per draw, in order), compute the statistic; the bounds are
   * the 2.5th and 97.5th percentiles of those statistics ({@link #quantile}), the estimate the
   * statistic of the sample itself. No bounds below two units.
   */
  public static Estimate bootstrap(double[] values, ToDoubleFunction<double[]> statistic,
    int resamples, long seed) {
    int n = values.length;
    if (n == 0) {
      return Estimate.none(0, Double.NaN);
    }
    for (double v : values) {
      if (!Double.isFinite(v)) {
        return Estimate.none(n, Double.NaN);
      }
    }
    double estimate = statistic.applyAsDouble(values.clone());
    if (n < 2 || resamples < 2) {
      return Estimate.none(n, estimate);
    }
    RandomGenerator rng = new Well19937c(seed);
    double[] stats = new double[resamples];
    double[] draw = new double[n];
    for (int r = 0; r < resamples; r++) {
      for (int i = 0; i < n; i++) {
        draw[i] = values[rng.nextInt(n)];
      }
      stats[r] = statistic.applyAsDouble(draw);
    }
    Arrays.sort(stats);
    double tail = (1 - CONFIDENCE) / 2;
    return new Estimate(n, estimate, quantileOfSorted(stats, tail),
      quantileOfSorted(stats, 1 - tail));
  }

  /** The median (of the two middle values when the count is even); NaN when empty. */
  public static double median(double[] values) {
    return quantile(values, 0.5);
  }

  /**
   * The {@code p}-quantile with linear interpolation between order statistics (Hyndman and Fan's
   * type 7, the default of R and NumPy): position {@code (n - 1) p} in the sorted values.
   */
  public static double quantile(double[] values, double p) {
    if (values.length == 0) {
      return Double.NaN;
    }
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return quantileOfSorted(sorted, p);
  }

  private static double quantileOfSorted(double[] sorted, double p) {
    double h = (sorted.length - 1) * p;
    int lo = (int) Math.floor(h);
    int hi = Math.min(lo + 1, sorted.length - 1);
    return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
  }

  /** {@code d} (mean of b - mean of a) with Welch's 95% interval; NaN bounds below two each. */
  private static Estimate welch(int n, double d, double[] a, double[] b) {
    if (a.length < 2 || b.length < 2) {
      return Estimate.none(n, d);
    }
    double va = variance(a, average(a)) / a.length;
    double vb = variance(b, average(b)) / b.length;
    double se = Math.sqrt(va + vb);
    if (se == 0) {
      return new Estimate(n, d, d, d);
    }
    double df = (va + vb) * (va + vb) / (va * va / (a.length - 1) + vb * vb / (b.length - 1));
    double half = tQuantile(df) * se;
    return new Estimate(n, d, d - half, d + half);
  }

  private static Estimate exp(Estimate log) {
    return new Estimate(log.n(), Math.exp(log.estimate()), Math.exp(log.low()),
      Math.exp(log.high()));
  }

  private static Estimate logistic(Estimate logit) {
    return new Estimate(logit.n(), logistic(logit.estimate()), logistic(logit.low()),
      logistic(logit.high()));
  }

  private static double logistic(double x) {
    return 1 / (1 + Math.exp(-x));
  }

  private static double average(double[] v) {
    double s = 0;
    for (double x : v) {
      s += x;
    }
    return s / v.length;
  }

  private static double variance(double[] v, double mean) {
    double s = 0;
    for (double x : v) {
      s += (x - mean) * (x - mean);
    }
    return s / (v.length - 1);
  }

  private static boolean allPositive(double[] v) {
    for (double x : v) {
      if (!(x > 0) || !Double.isFinite(x)) {
        return false;
      }
    }
    return true;
  }

  private static double[] logs(double[] v) {
    double[] out = new double[v.length];
    for (int i = 0; i < v.length; i++) {
      out[i] = Math.log(v[i]);
    }
    return out;
  }
}
