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
package dev.hbasepatches.perf;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** Turns option text into numbers, sizes, durations and choices, or says what was wrong. */
final class ValueParsers {

  private ValueParsers() {
  }

  /** A whole number with an optional k/m/g (thousand, million, billion) suffix: 100k. */
  static long count(String option, String text, long min, long max) {
    String t = text.trim().replace("_", "").replace(",", "").toLowerCase(Locale.ROOT);
    long multiplier = 1;
    if (t.endsWith("k") || t.endsWith("m") || t.endsWith("g")) {
      multiplier = t.endsWith("k") ? 1_000L : t.endsWith("m") ? 1_000_000L : 1_000_000_000L;
      t = t.substring(0, t.length() - 1);
    }
    long value;
    try {
      value = Math.multiplyExact(Long.parseLong(t), multiplier);
    } catch (NumberFormatException | ArithmeticException e) {
      throw ToolFailure.usage(option + ": '" + text + "' is not a whole number");
    }
    return inRange(option, text, value, min, max);
  }

  /** A byte size with an optional k/m/g (KiB, MiB, GiB) suffix, b optional: 2m, 64KB. */
  static long bytes(String option, String text, long min, long max) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    if (t.endsWith("b")) {
      t = t.substring(0, t.length() - 1);
    }
    long multiplier = 1;
    if (t.endsWith("k") || t.endsWith("m") || t.endsWith("g")) {
      multiplier = t.endsWith("k") ? 1L << 10 : t.endsWith("m") ? 1L << 20 : 1L << 30;
      t = t.substring(0, t.length() - 1);
    }
    long value;
    try {
      value = Math.multiplyExact(Long.parseLong(t.trim()), multiplier);
    } catch (NumberFormatException | ArithmeticException e) {
      throw ToolFailure.usage(option + ": '" + text + "' is not a size (e.g. 1000, 64k, 2m)");
    }
    return inRange(option, text, value, min, max);
  }

  private static long inRange(String option, String text, long value, long min, long max) {
    if (value < min || value > max) {
      throw ToolFailure.usage(option + ": " + text + " is out of range; allowed " + min + ".."
        + max);
    }
    return value;
  }

  static double decimal(String option, String text, double minExclusive, double maxInclusive) {
    double value;
    try {
      value = Double.parseDouble(text.trim());
    } catch (NumberFormatException e) {
      throw ToolFailure.usage(option + ": '" + text + "' is not a number");
    }
    if (!(value > minExclusive && value <= maxInclusive)) {
      throw ToolFailure.usage(option + ": " + text + " is out of range; it must be above "
        + minExclusive + " and at most " + maxInclusive);
    }
    return value;
  }

  /** true/false, yes/no, on/off. */
  static boolean bool(String option, String text) {
    switch (text.trim().toLowerCase(Locale.ROOT)) {
      case "true":
      case "yes":
      case "on":
        return true;
      case "false":
      case "no":
      case "off":
        return false;
      default:
        throw ToolFailure.usage(option + ": '" + text + "' is not true or false");
    }
  }

  /** 500ms, 30s, 5m, 1h, or a bare number of seconds. */
  static Duration duration(String option, String text, boolean zeroAllowed) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    Duration d;
    try {
      if (t.endsWith("ms")) {
        d = Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
      } else if (t.endsWith("s")) {
        d = Duration.ofMillis(Math.round(Double.parseDouble(t.substring(0, t.length() - 1)) * 1e3));
      } else if (t.endsWith("m")) {
        d = Duration.ofSeconds(Math.round(Double.parseDouble(t.substring(0, t.length() - 1)) * 60));
      } else if (t.endsWith("h")) {
        d = Duration.ofMinutes(Math.round(Double.parseDouble(t.substring(0, t.length() - 1)) * 60));
      } else {
        d = Duration.ofMillis(Math.round(Double.parseDouble(t) * 1e3));
      }
    } catch (NumberFormatException e) {
      throw ToolFailure.usage(option + ": '" + text + "' is not a duration (e.g. 500ms, 30s, 5m)");
    }
    if (d.isNegative() || (d.isZero() && !zeroAllowed)) {
      throw ToolFailure.usage(option + ": " + text + " must be more than zero");
    }
    return d;
  }

  /** One constant of {@code type}, matched ignoring case. */
  static <E extends Enum<E>> E choice(String option, String text, Class<E> type) {
    for (E e : type.getEnumConstants()) {
      if (e.name().equalsIgnoreCase(text.trim())) {
        return e;
      }
    }
    throw ToolFailure.usage(option + ": '" + text + "' is not one of " + names(type));
  }

  static <E extends Enum<E>> String names(Class<E> type) {
    return Arrays.stream(type.getEnumConstants()).map(e -> e.name().toLowerCase(Locale.ROOT))
      .collect(Collectors.joining(", "));
  }
}
