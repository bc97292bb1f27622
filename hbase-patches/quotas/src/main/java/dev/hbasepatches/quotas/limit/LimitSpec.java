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

import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.quotas.QuotaSettings;
import org.apache.hadoop.hbase.quotas.QuotaSettingsFactory;
import org.apache.hadoop.hbase.quotas.ThrottleType;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * A throttle limit written the way the HBase shell takes it in
 * {@code set_quota TYPE => THROTTLE, LIMIT => '...'}: {@code <digits><unit>/<period>}, where the
 * unit is {@code req} (requests), {@code cu} (capacity units) or a size suffix {@code b k m g t p}
 * (bytes, binary multiples: {@code 1k} is 1024 bytes), and the period is {@code sec}, {@code min},
 * {@code hour} or {@code day}. As in the shell, case does not matter, nothing else may appear (no
 * spaces, no signs, no plural or abbreviated periods), a bare number is not a limit, and the amount
 * must be above zero. Beyond the shell, amounts that do not fit in a {@code long} are refused here
 * rather than failing later, and {@code NONE} stands for "no throttle".
 * <p>
 * {@link #toString()} gives the canonical form, which {@link #parse} reads back to an equal value:
 * lower-case units, sizes in the largest suffix that divides them exactly ({@code 10240b/sec}
 * prints as {@code 10k/sec}).
 */
@InterfaceAudience.Public
public final class LimitSpec {

  /** What a limit counts. */
  public enum Kind {
    REQUESTS("req", "_NUMBER"),
    BYTES("b", "_SIZE"),
    CAPACITY_UNITS("cu", "_CAPACITY_UNIT");

    private final String suffix;
    private final String throttleSuffix;

    Kind(String suffix, String throttleSuffix) {
      this.suffix = suffix;
      this.throttleSuffix = throttleSuffix;
    }
  }

  /** Which requests a throttle applies to: the shell's {@code THROTTLE_TYPE}. */
  public enum Traffic {
    READ("READ"),
    WRITE("WRITE"),
    /** Reads and writes together; the shell's default, {@code REQUEST}. */
    ANY("REQUEST");

    private final String throttlePrefix;

    Traffic(String throttlePrefix) {
      this.throttlePrefix = throttlePrefix;
    }
  }

  /** The accepted form, quoted in every parse error. */
  static final String SYNTAX =
    "<positive integer><req|cu|b|k|m|g|t|p>/<sec|min|hour|day> (e.g. 100req/sec, 10M/sec,"
      + " 5K/min, 20CU/sec) or NONE";

  /** No throttle. */
  public static final LimitSpec NONE = new LimitSpec(null, 0, null);

  private static final String[] SIZE_SUFFIXES = { "b", "k", "m", "g", "t", "p" };
  private static final String[] PERIODS = { "sec", "min", "hour", "day" };
  private static final TimeUnit[] PERIOD_UNITS =
    { TimeUnit.SECONDS, TimeUnit.MINUTES, TimeUnit.HOURS, TimeUnit.DAYS };

  private final Kind kind;
  private final long amount;
  private final TimeUnit timeUnit;

  private LimitSpec(Kind kind, long amount, TimeUnit timeUnit) {
    this.kind = kind;
    this.amount = amount;
    this.timeUnit = timeUnit;
  }

  /**
   * A limit of {@code amount} (requests, bytes or capacity units) per one {@code timeUnit}, which
   * must be one of SECONDS, MINUTES, HOURS or DAYS, the periods HBase quotas support.
   */
  public static LimitSpec of(long amount, Kind kind, TimeUnit timeUnit) {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(timeUnit, "timeUnit");
    if (amount <= 0) {
      throw new IllegalArgumentException("Throttle limit must be greater than 0, got " + amount);
    }
    if (periodName(timeUnit) == null) {
      throw new IllegalArgumentException(
        "Throttle period must be SECONDS, MINUTES, HOURS or DAYS, got " + timeUnit);
    }
    return new LimitSpec(kind, amount, timeUnit);
  }

  /**
   * Reads a limit in the shell's syntax (see the class comment).
   * @throws IllegalArgumentException naming the input, what is wrong with it and the accepted form
   */
  public static LimitSpec parse(String text) {
    if (text == null) {
      throw new IllegalArgumentException("Throttle limit is missing (null); expected " + SYNTAX);
    }
    String s = text.toLowerCase(Locale.ROOT);
    if (s.equals("none")) {
      return NONE;
    }
    if (s.isEmpty()) {
      throw bad(text, "it is empty");
    }
    for (int i = 0; i < s.length(); i++) {
      if (Character.isWhitespace(s.charAt(i))) {
        throw bad(text, "it contains whitespace, which the HBase shell does not accept");
      }
    }
    int digits = 0;
    while (digits < s.length() && s.charAt(digits) >= '0' && s.charAt(digits) <= '9') {
      digits++;
    }
    if (digits == 0) {
      String why = s.charAt(0) == '-' || s.charAt(0) == '+'
        ? "the amount must be a plain positive integer, without a sign"
        : "it does not start with an amount";
      throw bad(text, why);
    }
    int slash = s.indexOf('/', digits);
    if (slash < 0) {
      throw bad(text, digits == s.length() ? "a bare number is not a limit: a unit and a period"
        + " are required" : "the period is missing");
    }
    String unit = s.substring(digits, slash);
    String period = s.substring(slash + 1);
    Kind kind;
    int shift = 0;
    if (unit.equals("req")) {
      kind = Kind.REQUESTS;
    } else if (unit.equals("cu")) {
      kind = Kind.CAPACITY_UNITS;
    } else {
      kind = Kind.BYTES;
      shift = -1;
      for (int i = 0; i < SIZE_SUFFIXES.length; i++) {
        if (SIZE_SUFFIXES[i].equals(unit)) {
          shift = 10 * i;
        }
      }
      if (shift < 0) {
        throw bad(text, unit.isEmpty() ? "the unit is missing"
          : "unknown unit '" + unit + "' (use req, cu, or one of b k m g t p)");
      }
    }
    TimeUnit timeUnit = null;
    for (int i = 0; i < PERIODS.length; i++) {
      if (PERIODS[i].equals(period)) {
        timeUnit = PERIOD_UNITS[i];
      }
    }
    if (timeUnit == null) {
      throw bad(text, period.isEmpty() ? "the period is missing"
        : "unknown period '" + period + "' (use sec, min, hour or day)");
    }
    long amount = 0;
    for (int i = 0; i < digits; i++) {
      int d = s.charAt(i) - '0';
      if (amount > (Long.MAX_VALUE - d) / 10) {
        throw bad(text, "the amount does not fit in a 64-bit integer");
      }
      amount = amount * 10 + d;
    }
    if (amount == 0) {
      throw bad(text, "the amount must be greater than 0");
    }
    if (shift > 0 && amount > (Long.MAX_VALUE >> shift)) {
      throw bad(text, "the amount in bytes does not fit in a 64-bit integer");
    }
    return new LimitSpec(kind, amount << shift, timeUnit);
  }

  private static IllegalArgumentException bad(String text, String why) {
    return new IllegalArgumentException(
      "Invalid throttle limit '" + text + "': " + why + "; expected " + SYNTAX);
  }

  private static String periodName(TimeUnit unit) {
    for (int i = 0; i < PERIOD_UNITS.length; i++) {
      if (PERIOD_UNITS[i] == unit) {
        return PERIODS[i];
      }
    }
    return null;
  }

  public boolean isNone() {
    return kind == null;
  }

  /** What the limit counts; null for {@link #NONE}. */
  public Kind kind() {
    return kind;
  }

  /** Requests, bytes or capacity units per {@link #timeUnit()}; 0 for {@link #NONE}. */
  public long amount() {
    return amount;
  }

  /** The period, one of SECONDS, MINUTES, HOURS, DAYS; null for {@link #NONE}. */
  public TimeUnit timeUnit() {
    return timeUnit;
  }

  /** The period in nanoseconds, as {@link RateLimit#periodNanos()} takes it. */
  public long periodNanos() {
    requireLimit();
    return timeUnit.toNanos(1);
  }

  /** A {@link SmoothRateLimit} enforcing this limit, with the default burst of one period. */
  public SmoothRateLimit newRateLimit(Ticker ticker) {
    requireLimit();
    return new SmoothRateLimit(amount, periodNanos(), ticker);
  }

  /** The upstream throttle type for this limit applied to {@code traffic}. */
  public ThrottleType throttleType(Traffic traffic) {
    requireLimit();
    return ThrottleType.valueOf(traffic.throttlePrefix + kind.throttleSuffix);
  }

  /**
   * Settings that throttle {@code user} (on {@code table} or {@code namespace} when either is non
   * null, not both) to this limit, or for {@link #NONE} remove all of that target's throttles as
   * the shell's {@code unthrottle} does.
   */
  public QuotaSettings forUser(String user, TableName table, String namespace, Traffic traffic) {
    Objects.requireNonNull(user, "user");
    if (table != null && namespace != null) {
      throw new IllegalArgumentException("Throttle a user on a table or a namespace, not both");
    }
    if (isNone()) {
      return table != null ? QuotaSettingsFactory.unthrottleUser(user, table)
        : namespace != null ? QuotaSettingsFactory.unthrottleUser(user, namespace)
        : QuotaSettingsFactory.unthrottleUser(user);
    }
    ThrottleType type = throttleType(traffic);
    return table != null ? QuotaSettingsFactory.throttleUser(user, table, type, amount, timeUnit)
      : namespace != null
        ? QuotaSettingsFactory.throttleUser(user, namespace, type, amount, timeUnit)
      : QuotaSettingsFactory.throttleUser(user, type, amount, timeUnit);
  }

  /** Settings that throttle {@code table} to this limit, or unthrottle it for {@link #NONE}. */
  public QuotaSettings forTable(TableName table, Traffic traffic) {
    Objects.requireNonNull(table, "table");
    return isNone() ? QuotaSettingsFactory.unthrottleTable(table)
      : QuotaSettingsFactory.throttleTable(table, throttleType(traffic), amount, timeUnit);
  }

  /** Settings that throttle {@code namespace} to this limit, or unthrottle it for NONE. */
  public QuotaSettings forNamespace(String namespace, Traffic traffic) {
    Objects.requireNonNull(namespace, "namespace");
    return isNone() ? QuotaSettingsFactory.unthrottleNamespace(namespace)
      : QuotaSettingsFactory.throttleNamespace(namespace, throttleType(traffic), amount, timeUnit);
  }

  private void requireLimit() {
    if (isNone()) {
      throw new IllegalStateException("NONE is not a limit");
    }
  }

  @Override
  public String toString() {
    if (isNone()) {
      return "NONE";
    }
    String unit = kind.suffix;
    long shown = amount;
    if (kind == Kind.BYTES) {
      int i = 0;
      while (i + 1 < SIZE_SUFFIXES.length && shown % 1024 == 0) {
        shown /= 1024;
        i++;
      }
      unit = SIZE_SUFFIXES[i];
    }
    return shown + unit + "/" + periodName(timeUnit);
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof LimitSpec)) {
      return false;
    }
    LimitSpec other = (LimitSpec) o;
    return kind == other.kind && amount == other.amount && timeUnit == other.timeUnit;
  }

  @Override
  public int hashCode() {
    return Objects.hash(kind, amount, timeUnit);
  }
}
