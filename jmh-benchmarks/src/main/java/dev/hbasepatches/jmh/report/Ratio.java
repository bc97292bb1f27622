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

import java.util.regex.Pattern;

/**
 * How much better PATCHED is than another mode, oriented so that a value above 1 always means
 * PATCHED is better: PATCHED/other for throughput-like units, other/PATCHED for time per
 * operation (JMH's avgt, sample and ss modes), where a lower score is better.
 *
 * <p>Where both modes carry per-fork values, the ratio is {@link ForkStats#ratio}: the ratio of
 * the modes' geometric means over forks, with its 95% interval over forks (Welch, log scale) when
 * each side has {@link ForkStats#MIN_FORKS} forks or more, the same figure the report's headline
 * gives. Without per-fork values it is the ratio of JMH's scores, with no interval. JMH's own error
 * (99.9% over iterations, which are not independent) never enters a ratio.
 *
 * @param value the ratio, NaN if it cannot be formed (a zero or non-finite score)
 * @param low   the interval's lower bound over forks, NaN when there is none to quote
 * @param high  the interval's upper bound over forks, NaN when there is none to quote
 */
record Ratio(double value, double low, double high) {

  /** JMH's time-per-operation units; for these a lower score is better. */
  private static final Pattern TIME_PER_OP =
    Pattern.compile("(ns|us|\u00b5s|ms|s|min|hr|day)/op");

  /**
   * JMH's throughput units, also used by {@code @AuxCounters(OPERATIONS)}, and the derived work
   * per CPU second ({@code cells/cpu-s}); higher is better.
   */
  private static final Pattern OPS_PER_TIME =
    Pattern.compile("(ops|cells)/(cpu-)?(ns|us|\u00b5s|ms|s|min|hr|day)");

  /** Which way a unit improves, where the unit alone says so. */
  enum Better {
    LOWER, HIGHER,
    /** Rates such as MB/sec or counts: "better" depends on what is measured. */
    UNKNOWN
  }

  static Better better(String unit) {
    String u = unit == null ? "" : unit.trim();
    if (TIME_PER_OP.matcher(u).matches()) {
      return Better.LOWER;
    }
    return OPS_PER_TIME.matcher(u).matches() ? Better.HIGHER : Better.UNKNOWN;
  }

  static boolean lowerIsBetter(String unit) {
    return better(unit) == Better.LOWER;
  }

  /** The ratio of {@code patched} to {@code other}; null when either mode was not run. */
  static Ratio of(Metric patched, Metric other, boolean lowerIsBetter) {
    if (patched == null || other == null) {
      return null;
    }
    double[] p = patched.forkMeans();
    double[] o = other.forkMeans();
    if (p.length > 0 && o.length > 0) {
      ForkStats.Interval i = lowerIsBetter ? ForkStats.ratio(o, p) : ForkStats.ratio(p, o);
      if (Double.isFinite(i.estimate())) {
        boolean quoted = i.quotable() && Double.isFinite(i.low());
        return new Ratio(i.estimate(), quoted ? i.low() : Double.NaN,
          quoted ? i.high() : Double.NaN);
      }
    }
    if (!usable(patched.score()) || !usable(other.score())) {
      return new Ratio(Double.NaN, Double.NaN, Double.NaN);
    }
    double r = lowerIsBetter ? other.score() / patched.score() : patched.score() / other.score();
    return new Ratio(r, Double.NaN, Double.NaN);
  }

  /** A zero score would give an infinite ratio, which says nothing useful. */
  private static boolean usable(double score) {
    return Double.isFinite(score) && score != 0;
  }
}
