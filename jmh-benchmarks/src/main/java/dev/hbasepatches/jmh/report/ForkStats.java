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

import org.apache.commons.math3.distribution.TDistribution;

/**
 * The project's one statistics method for benchmark evidence. The fork is the unit: iterations
 * inside one JVM share its JIT decisions, heap layout and CPU placement, so they are not
 * independent samples. Every interval here is a 95% Student-t interval over per-fork values
 * (or per-pair values for paired fork-blocks), and a ratio is judged against a target by where
 * its whole interval lies.
 */
public final class ForkStats {

  /** Fewer forks than this and a quoted interval cannot be trusted; reports say so loudly. */
  public static final int MIN_FORKS = 5;

  private static final double CONFIDENCE = 0.95;

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

  /** Mean of {@code values} (one per fork or pair) with its 95% t-interval; NaN bounds if n < 2. */
  public static Interval mean(double[] values) {
    int n = values.length;
    if (n == 0) {
      return new Interval(0, Double.NaN, Double.NaN, Double.NaN);
    }
    double mean = average(values);
    if (n == 1) {
      return new Interval(1, mean, Double.NaN, Double.NaN);
    }
    double half = tQuantile(n - 1) * Math.sqrt(variance(values, mean) / n);
    return new Interval(n, mean, mean - half, mean + half);
  }

  /**
   * Difference of two unpaired samples of fork values, {@code b - a}, with Welch's interval
   * (unequal variances, Welch-Satterthwaite degrees of freedom): for quantities where a
   * difference, not a ratio, is the question (nanoseconds a decision adds). Needs two forks on
   * each side.
   */
  public static Interval difference(double[] b, double[] a) {
    int n = Math.min(a.length, b.length);
    if (a.length == 0 || b.length == 0) {
      return new Interval(n, Double.NaN, Double.NaN, Double.NaN);
    }
    double d = average(b) - average(a);
    return welch(n, d, a, b);
  }

  /**
   * Ratio of two unpaired samples of fork scores, {@code b / a}: the difference of mean log
   * scores with Welch's interval (unequal variances, Welch-Satterthwaite degrees of freedom),
   * transformed back. The estimate is the ratio of geometric means. Needs two forks on each side.
   */
  public static Interval ratio(double[] b, double[] a) {
    int n = Math.min(a.length, b.length);
    if (a.length < 2 || b.length < 2 || !allPositive(a) || !allPositive(b)) {
      double est = a.length > 0 && b.length > 0 && allPositive(a) && allPositive(b)
        ? Math.exp(average(logs(b)) - average(logs(a)))
        : Double.NaN;
      return new Interval(n, est, Double.NaN, Double.NaN);
    }
    double[] la = logs(a);
    double[] lb = logs(b);
    Interval l = welch(n, average(lb) - average(la), la, lb);
    return new Interval(n, Math.exp(l.estimate()), Math.exp(l.low()), Math.exp(l.high()));
  }

  /** {@code d} (mean of b - mean of a) with Welch's 95% interval; NaN bounds below two each. */
  private static Interval welch(int n, double d, double[] a, double[] b) {
    if (a.length < 2 || b.length < 2) {
      return new Interval(n, d, Double.NaN, Double.NaN);
    }
    double va = variance(a, average(a)) / a.length;
    double vb = variance(b, average(b)) / b.length;
    double se = Math.sqrt(va + vb);
    if (se == 0) {
      return new Interval(n, d, d, d);
    }
    double df = (va + vb) * (va + vb) / (va * va / (a.length - 1) + vb * vb / (b.length - 1));
    double half = tQuantile(df) * se;
    return new Interval(n, d, d - half, d + half);
  }

  /**
   * Paired ratios (one per fork pair or per fork of a toggle benchmark), summarised on the log
   * scale so that 2.0 and 0.5 weigh the same; the estimate is their geometric mean.
   */
  public static Interval pairedRatio(double[] ratios) {
    if (!allPositive(ratios)) {
      return new Interval(ratios.length, Double.NaN, Double.NaN, Double.NaN);
    }
    Interval l = mean(logs(ratios));
    return new Interval(l.n(), Math.exp(l.estimate()), Math.exp(l.low()), Math.exp(l.high()));
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
    return new TDistribution(df).inverseCumulativeProbability(0.5 + CONFIDENCE / 2);
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
