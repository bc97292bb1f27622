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

/**
 * Whether a server still deserves to be asked first for the regions whose primary it holds.
 * A delay learned from a slow primary's own latency follows it up (the seed measured 20.8 ms),
 * so a quantile alone cannot save a uniformly slow primary; counting how it fares can. It is
 * demoted for {@code periodNanos} when, of its last {@code reads} reads, at least
 * {@code lossRatio} were lost (another replica answered first: it is not answering), or at least
 * that many were late (answered only after the hedge delay) while it is also slower than the
 * delay's upper clamp (its own quantile, which follows it up, no longer tells). Late answers
 * alone are not enough: when the whole machine is slow everything is late. A primary that loses
 * {@code streak} reads in a row is demoted at once: a server that stops answering (a graceful stop
 * closing its regions, whose Gets the client retries out of sight) would otherwise cost half the
 * window's reads, each waiting for a hedge the budget may no longer grant. Afterwards it starts
 * again with a clean record.
 */
final class PrimaryHealth {

  private final boolean[] lost;
  private final boolean[] late;
  private final double lossRatio;
  private final int minReads;
  private final long periodNanos;
  private final int streakLimit;
  private int streak;
  private int next;
  private int size;
  private int losses;
  private int lates;
  private long demotedUntil;
  private volatile boolean demoted;

  PrimaryHealth(int reads, double lossRatio, int streak, long periodNanos) {
    this.streakLimit = streak;
    this.lost = new boolean[reads];
    this.late = new boolean[reads];
    this.lossRatio = lossRatio;
    this.minReads = reads;
    this.periodNanos = periodNanos;
  }

  /**
   * One read the primary took part in: {@code wasLost} when another replica answered first,
   * {@code wasLate} when it answered after the hedge delay (or was lost), {@code slow} when its
   * latency quantile is above the delay's upper clamp.
   */
  synchronized void record(boolean wasLost, boolean wasLate, boolean slow, long nowNanos) {
    if (demoted) {
      return;
    }
    if (size == lost.length) {
      losses -= lost[next] ? 1 : 0;
      lates -= late[next] ? 1 : 0;
    } else {
      size++;
    }
    lost[next] = wasLost;
    late[next] = wasLate || wasLost;
    losses += wasLost ? 1 : 0;
    lates += late[next] ? 1 : 0;
    next = next + 1 == lost.length ? 0 : next + 1;
    streak = wasLost ? streak + 1 : 0;
    if (streak >= streakLimit || (size >= minReads
      && (losses >= lossRatio * size || (slow && lates >= lossRatio * size)))) {
      demoted = true;
      demotedUntil = nowNanos + periodNanos;
    }
  }

  boolean isDemoted(long nowNanos) {
    return demoted && stillDemoted(nowNanos);
  }

  private synchronized boolean stillDemoted(long nowNanos) {
    if (demoted && nowNanos - demotedUntil >= 0) {
      demoted = false;
      java.util.Arrays.fill(lost, false);
      java.util.Arrays.fill(late, false);
      lates = 0;
      size = 0;
      next = 0;
      streak = 0;
      losses = 0;
    }
    return demoted;
  }
}
