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
package dev.hbasepatches.timeline;

import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * The reader's knobs, each a {@code hbasepatches.timeline.*} key. Values are checked once, when
 * the reader is built: a bad value is refused with a message naming the key and the value.
 */
@InterfaceAudience.Public
public final class TimelineSettings {

  /**
   * Quantile of the first target's recent latency that becomes the hedge delay. Its tail (1 - q)
   * is the share of healthy reads that hedge: keep it well under the budget ratio, or ordinary
   * jitter spends the budget and a real fault finds it empty (0.95 against a 5% budget did).
   */
  public static final String HEDGE_QUANTILE = "hbasepatches.timeline.hedge.quantile";
  /** Lower clamp of the hedge delay, milliseconds (fractions allowed). */
  public static final String DELAY_MIN_MS = "hbasepatches.timeline.hedge.delay.min.ms";
  /** Upper clamp of the hedge delay, milliseconds; also the delay while nothing is known. */
  public static final String DELAY_MAX_MS = "hbasepatches.timeline.hedge.delay.max.ms";
  /** After this long without an answer a read hedges even with the budget spent. */
  public static final String HEDGE_CAP_MS = "hbasepatches.timeline.hedge.cap.ms";
  /** Hedge tokens earned per read: the long-run fraction of reads that may hedge. */
  public static final String BUDGET_RATIO = "hbasepatches.timeline.budget.ratio";
  /** Most tokens the budget holds: how many hedges may come in one burst. */
  public static final String BUDGET_BURST = "hbasepatches.timeline.budget.burst";
  /** Latency samples kept per server and role. */
  public static final String WINDOW = "hbasepatches.timeline.window";
  /** Fraction of a primary's last reads that were late (lost to a hedge, or answered after the
   * hedge delay) at which it is demoted. */
  public static final String DEMOTE_LOSS_RATIO = "hbasepatches.timeline.demote.loss.ratio";
  /** How many of a primary's last reads the demotion looks at. */
  public static final String DEMOTE_MIN_READS = "hbasepatches.timeline.demote.min.reads";
  /** How many reads in a row a primary may lose to a hedge before it is demoted at once. */
  public static final String DEMOTE_STREAK = "hbasepatches.timeline.demote.streak";
  /** How long a demotion lasts before the primary is tried first again, milliseconds. */
  public static final String DEMOTE_PERIOD_MS = "hbasepatches.timeline.demote.period.ms";
  /** Least time between two background location refreshes of one region, milliseconds. */
  public static final String RELOCATE_MS = "hbasepatches.timeline.relocate.ms";
  /**
   * Retry pause of the requests to secondaries, milliseconds (fractions allowed): a secondary
   * whose cached location went stale (it moved, or its server died) is found again in meta after
   * this pause instead of the connection's {@code hbase.client.pause} (100 ms by default). The
   * connection's backoff multipliers still apply to later retries.
   */
  public static final String SECONDARY_PAUSE_MS = "hbasepatches.timeline.secondary.pause.ms";
  /** Rows per hedged batch of a streaming TIMELINE scanner (a scan's own caching wins). */
  public static final String SCAN_ROWS = "hbasepatches.timeline.scan.rows";

  /** Most tokens the budget may hold: the bucket counts millionths of a token in a long. */
  static final double MAX_BURST = 1_000_000;

  final double quantile;
  final long delayMinNanos;
  final long delayMaxNanos;
  final long capNanos;
  final double budgetRatio;
  final double budgetBurst;
  final int window;
  final double demoteLossRatio;
  final int demoteMinReads;
  final int demoteStreak;
  final long demotePeriodNanos;
  final long relocateNanos;
  final long secondaryPauseNanos;
  final int scanRows;

  private TimelineSettings(Configuration conf) {
    quantile = fraction(conf, HEDGE_QUANTILE, 0.99, false);
    delayMinNanos = millis(conf, DELAY_MIN_MS, 1.0);
    delayMaxNanos = millis(conf, DELAY_MAX_MS, 10.0);
    if (delayMinNanos > delayMaxNanos) {
      throw new IllegalArgumentException(DELAY_MIN_MS + "=" + conf.get(DELAY_MIN_MS, "1")
        + " is above " + DELAY_MAX_MS + "=" + conf.get(DELAY_MAX_MS, "10"));
    }
    capNanos = millis(conf, HEDGE_CAP_MS, 50.0);
    if (capNanos < delayMaxNanos) {
      throw new IllegalArgumentException(HEDGE_CAP_MS + "=" + conf.get(HEDGE_CAP_MS, "50")
        + " is below " + DELAY_MAX_MS + "=" + conf.get(DELAY_MAX_MS, "10"));
    }
    budgetRatio = fraction(conf, BUDGET_RATIO, 0.05, true);
    budgetBurst = positive(conf, BUDGET_BURST, 10.0);
    if (budgetBurst < 1.0) {
      throw new IllegalArgumentException(
        BUDGET_BURST + "=" + conf.get(BUDGET_BURST) + " must be at least 1 (one whole hedge)");
    }
    if (budgetBurst > MAX_BURST) {
      throw new IllegalArgumentException(BUDGET_BURST + "=" + conf.get(BUDGET_BURST)
        + " must be at most " + (long) MAX_BURST);
    }
    window = count(conf, WINDOW, 128, 8, 65536);
    demoteLossRatio = fraction(conf, DEMOTE_LOSS_RATIO, 0.5, false);
    demoteMinReads = count(conf, DEMOTE_MIN_READS, 20, 1, window);
    demoteStreak = count(conf, DEMOTE_STREAK, 3, 1, window);
    demotePeriodNanos = millis(conf, DEMOTE_PERIOD_MS, 5000.0);
    relocateNanos = millis(conf, RELOCATE_MS, 500.0);
    secondaryPauseNanos = millis(conf, SECONDARY_PAUSE_MS, 5.0);
    scanRows = count(conf, SCAN_ROWS, 100, 1, 1_000_000);
  }

  /** Reads and checks every key; throws {@link IllegalArgumentException} on a bad value. */
  public static TimelineSettings from(Configuration conf) {
    return new TimelineSettings(conf);
  }

  /** The defaults, as if no key were set. */
  public static TimelineSettings defaults() {
    return new TimelineSettings(new Configuration(false));
  }

  private static double number(Configuration conf, String key, double dflt) {
    String raw = conf.get(key);
    if (raw == null || raw.trim().isEmpty()) {
      return dflt;
    }
    try {
      double v = Double.parseDouble(raw.trim());
      if (Double.isNaN(v) || Double.isInfinite(v)) {
        throw new NumberFormatException(raw);
      }
      return v;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + "=" + raw + " is not a number", e);
    }
  }

  private static double positive(Configuration conf, String key, double dflt) {
    double v = number(conf, key, dflt);
    if (v <= 0) {
      throw new IllegalArgumentException(key + "=" + conf.get(key) + " must be above 0");
    }
    return v;
  }

  /** A fraction in (0, 1), or [0, 1) when zero is allowed. */
  private static double fraction(Configuration conf, String key, double dflt, boolean zeroOk) {
    double v = number(conf, key, dflt);
    if (v >= 1.0 || v < 0 || (v == 0 && !zeroOk)) {
      throw new IllegalArgumentException(key + "=" + conf.get(key) + " must be a fraction "
        + (zeroOk ? "in [0, 1)" : "in (0, 1)"));
    }
    return v;
  }

  private static long millis(Configuration conf, String key, double dflt) {
    double v = positive(conf, key, dflt);
    if (v > TimeUnit.HOURS.toMillis(1)) {
      throw new IllegalArgumentException(key + "=" + conf.get(key) + " is over an hour");
    }
    return Math.max(1L, Math.round(v * 1_000_000.0));
  }

  private static int count(Configuration conf, String key, int dflt, int min, int max) {
    String raw = conf.get(key);
    if (raw == null || raw.trim().isEmpty()) {
      return dflt;
    }
    int v;
    try {
      v = Integer.parseInt(raw.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + "=" + raw + " is not a whole number", e);
    }
    if (v < min || v > max) {
      throw new IllegalArgumentException(
        key + "=" + raw + " must be in [" + min + ", " + max + "]");
    }
    return v;
  }

  @Override
  public String toString() {
    return "quantile=" + quantile + " delay=[" + delayMinNanos / 1e6 + ", " + delayMaxNanos / 1e6
      + "] ms cap=" + capNanos / 1e6 + " ms budget=" + budgetRatio + "+" + budgetBurst
      + " window=" + window + " demote=" + demoteLossRatio + "/" + demoteMinReads + "/"
      + demoteStreak + "/"
      + demotePeriodNanos / 1e6 + " ms secondary.pause=" + secondaryPauseNanos / 1e6
      + " ms scan.rows=" + scanRows;
  }
}
