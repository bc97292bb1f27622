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
 * <p>The error treats the two scores as independent and combines their relative errors in
 * quadrature: {@code r * sqrt((ea/a)^2 + (eb/b)^2)}. Inverting a ratio leaves its relative error
 * unchanged, so the same formula serves both orientations.
 *
 * @param value the ratio, NaN if it cannot be formed (a zero or non-finite score)
 * @param error the propagated error, NaN if either score has no error estimate
 */
record Ratio(double value, double error) {

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
    if (!usable(patched.score()) || !usable(other.score())) {
      return new Ratio(Double.NaN, Double.NaN);
    }
    double num = lowerIsBetter ? other.score() : patched.score();
    double den = lowerIsBetter ? patched.score() : other.score();
    double r = num / den;
    double relP = patched.error() / patched.score();
    double relO = other.error() / other.score();
    // NaN errors propagate to a NaN result, which renders as "n/a".
    double err = Math.abs(r) * Math.sqrt(relP * relP + relO * relO);
    return new Ratio(r, err);
  }

  /** A zero score would give an infinite ratio, which says nothing useful. */
  private static boolean usable(double score) {
    return Double.isFinite(score) && score != 0;
  }
}
