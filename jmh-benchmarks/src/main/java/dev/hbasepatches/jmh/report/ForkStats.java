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
package dev.hbasepatches.jmh.report;

import dev.hbasepatches.testkit.Intervals;

/**
 * The project's statistics for benchmark evidence. The fork is the unit: iterations inside one
 * JVM share its JIT decisions, heap layout and CPU placement, so they are not independent samples.
 * Every interval here is a 95% interval over per-fork values (or per-pair values for paired
 * fork-blocks, per-round values for scenarios), on the scale of the quantity, so that no bound
 * leaves the range the quantity can take: ratios and positive values on the log scale (geometric
 * mean, Student t), shares on the logit scale, percentiles measured per round by a percentile
 * bootstrap of their median, and only differences on the natural scale. The arithmetic lives in
 * testkit's {@link Intervals}, shared with hbase-perf and the scenario tests. A value is judged
 * against a target only by where its whole interval lies ({@link Interval#against},
 * {@link Interval#atMost}).
 */
public final class ForkStats {

  /** Fewer forks than this and a quoted interval cannot be trusted; reports say so loudly. */
  public static final int MIN_FORKS = 5;

  private ForkStats() {
  }

  /** A point estimate with a 95% interval from {@code n} independent units (forks or pairs). */
  public record Interval(int n, double estimate, double low, double high) {

    /** Whether enough units went into it to quote it ({@link #MIN_FORKS}). */
    public boolean quotable() {
      return n >= MIN_FORKS;
    }

    /** Where the interval lies against {@code target}, for a value where higher is better. */
    public Verdict against(double target) {
      if (!Double.isFinite(low) || !Double.isFinite(high)) {
        return Verdict.INCONCLUSIVE;
      }
      if (low >= target) {
        return Verdict.MET;
      }
      return high < target ? Verdict.NOT_MET : Verdict.INCONCLUSIVE;
    }

    /**
     * Where the interval lies against {@code limit}, for a value where lower is better: met when
     * the upper bound is at or under it, not met when the lower bound is above it.
     */
    public Verdict atMost(double limit) {
      if (!Double.isFinite(low) || !Double.isFinite(high)) {
        return Verdict.INCONCLUSIVE;
      }
      if (high <= limit) {
        return Verdict.MET;
      }
      return low > limit ? Verdict.NOT_MET : Verdict.INCONCLUSIVE;
    }

    static Interval of(Intervals.Estimate e) {
      return new Interval(e.n(), e.estimate(), e.low(), e.high());
    }
  }

  /** A target's verdict: met only when the lower bound clears it. */
  public enum Verdict {
    MET("met"), NOT_MET("not met"), INCONCLUSIVE("inconclusive");

    private final String label;

    Verdict(String label) {
      this.label = label;
    }

    @Override
    public String toString() {
      return label;
    }
  }

  /**
   * Arithmetic mean of {@code values} (one per fork or pair) with its 95% t-interval, NaN bounds
   * if n < 2: only for quantities that can be zero or negative (differences). A positive quantity
   * takes {@link #positiveMean}, a share {@link #share(long[], long[])}, a percentile per round
   * {@link #percentile}.
   */
  public static Interval mean(double[] values) {
    return Interval.of(Intervals.mean(values));
  }

  /**
   * A positive quantity (time, rate, latency, bytes) over forks or rounds: geometric mean with
   * the Student t interval of the logarithms, transformed back; both bounds are positive. NaN when
   * a value is not positive.
   */
  public static Interval positiveMean(double[] values) {
    return Interval.of(Intervals.geometricMean(values));
  }

  /**
   * A share from per-unit counts ({@code hits[i]} of {@code totals[i]}): mean empirical logit
   * with a Student t interval over units, transformed back; bounds inside (0, 1), zero hits
   * allowed.
   */
  public static Interval share(long[] hits, long[] totals) {
    return Interval.of(Intervals.share(hits, totals));
  }

  /**
   * A rate from per-unit counts that can exceed 1 ({@code events[i]} in {@code exposures[i]},
   * e.g. extra RPCs in a round's reads): log scale with half an event added per unit, Student t
   * over units; 0 with Poisson's exact upper bound when no unit saw an event.
   */
  public static Interval rate(long[] events, long[] exposures) {
    return Interval.of(Intervals.rate(events, exposures));
  }

  /**
   * A share given as one fraction per unit, strictly between 0 and 1: mean logit with a Student t
   * interval, transformed back; no bounds when a unit is at exactly 0 or 1.
   */
  public static Interval share(double[] fractions) {
    return Interval.of(Intervals.share(fractions));
  }

  /** Wilson's 95% interval of one pooled binomial count, {@code hits} of {@code n}. */
  public static Interval wilson(long hits, long n) {
    return Interval.of(Intervals.wilson(hits, n));
  }

  /**
   * A percentile measured once per round or fork (p50, p99, the slowest read): the median over
   * rounds with its percentile bootstrap interval ({@link Intervals#BOOTSTRAP_RESAMPLES}
   * resamples from a fixed start, {@link Intervals#BOOTSTRAP_SEED}, so a report is reproducible).
   */
  public static Interval percentile(double[] perRound) {
    return Interval.of(Intervals.percentileOverRounds(perRound));
  }

  /**
   * Difference of two unpaired samples of fork values, {@code b - a}, with Welch's interval
   * (unequal variances, Welch-Satterthwaite degrees of freedom): for quantities where a
   * difference, not a ratio, is the question (nanoseconds a decision adds). Needs two forks on
   * each side.
   */
  public static Interval difference(double[] b, double[] a) {
    return Interval.of(Intervals.difference(b, a));
  }

  /**
   * Ratio of two unpaired samples of fork scores, {@code b / a}: the difference of mean log
   * scores with Welch's interval (unequal variances, Welch-Satterthwaite degrees of freedom),
   * transformed back. The estimate is the ratio of geometric means. Needs two forks on each side.
   */
  public static Interval ratio(double[] b, double[] a) {
    return Interval.of(Intervals.ratio(b, a));
  }

  /**
   * Paired ratios (one per fork pair or per fork of a toggle benchmark), summarised on the log
   * scale so that 2.0 and 0.5 weigh the same; the estimate is their geometric mean.
   */
  public static Interval pairedRatio(double[] ratios) {
    return Interval.of(Intervals.geometricMean(ratios));
  }

  /** The mean of each fork's iterations: the per-fork values every interval here starts from. */
  public static double[] forkMeans(double[][] iterationsPerFork) {
    double[] out = new double[iterationsPerFork.length];
    for (int f = 0; f < out.length; f++) {
      out[f] = iterationsPerFork[f].length == 0 ? Double.NaN : average(iterationsPerFork[f]);
    }
    return out;
  }

  /** Student's t quantile for a two-sided 95% interval at {@code df} degrees of freedom. */
  public static double tQuantile(double df) {
    return Intervals.tQuantile(df);
  }

  private static double average(double[] v) {
    double s = 0;
    for (double x : v) {
      s += x;
    }
    return s / v.length;
  }
}
