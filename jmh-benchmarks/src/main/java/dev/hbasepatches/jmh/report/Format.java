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

import java.math.BigDecimal;
import java.math.RoundingMode;

/** Number and Markdown formatting shared by the report pieces. */
final class Format {

  /** Shown for an error JMH could not estimate, e.g. after a single measurement iteration. */
  static final String NOT_AVAILABLE = "n/a";

  /** Shown where a mode (or parameter) was not run for a case. */
  static final String MISSING = "\u2014";

  private Format() {
  }

  /**
   * Decimals that keep about four significant digits for small values and three decimals (as
   * JMH prints) otherwise, so 0.0421 B/op does not print as 0.000.
   */
  static int decimals(double v) {
    double abs = Math.abs(v);
    if (!Double.isFinite(abs) || abs == 0) {
      return 3;
    }
    if (abs >= 1000) {
      return 1;
    }
    if (abs >= 1) {
      return 3;
    }
    return Math.min(9, 3 - (int) Math.floor(Math.log10(abs)));
  }

  static String number(double v, int decimals) {
    if (!Double.isFinite(v)) {
      return NOT_AVAILABLE;
    }
    // valueOf rounds the shortest decimal form (2.675 -> 2.68, as people expect), and BigDecimal
    // avoids String.format's locale and exponent surprises.
    return BigDecimal.valueOf(v).setScale(decimals, RoundingMode.HALF_UP).toPlainString();
  }

  /**
   * A metric cell: {@code score unit}, or {@link #MISSING} if there is no metric. JMH's own error
   * (a 99.9% interval over iterations) is not shown: iterations of one fork are not independent,
   * and the report's intervals are over forks.
   */
  static String metric(Metric m) {
    if (m == null) {
      return MISSING;
    }
    String unit = m.unit() == null || m.unit().equals("?") ? "" : " " + m.unit();
    return Double.isFinite(m.score()) ? number(m.score(), decimals(m.score())) + unit
      : NOT_AVAILABLE;
  }

  /**
   * A ratio cell: {@code 1.234 [1.100, 1.380]} with its 95% interval over forks, {@code 1.234}
   * without one (fewer than five forks a side), {@link #NOT_AVAILABLE}, or {@link #MISSING}.
   */
  static String ratio(Ratio r) {
    if (r == null) {
      return MISSING;
    }
    if (!Double.isFinite(r.value())) {
      return NOT_AVAILABLE;
    }
    int d = decimals(r.value());
    String v = number(r.value(), d);
    return Double.isFinite(r.low()) && Double.isFinite(r.high())
      ? v + " [" + number(r.low(), d) + ", " + number(r.high(), d) + "]" : v;
  }

  /** Text safe inside a Markdown table cell. */
  static String cell(String s) {
    return s.replace("\\", "\\\\").replace("|", "\\|").replace('\n', ' ').replace('\r', ' ');
  }

  /** Inline code that survives backticks in the text. */
  static String code(String s) {
    String fence = s.contains("`") ? "`` " : "`";
    String close = s.contains("`") ? " ``" : "`";
    return fence + s + close;
  }
}
