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

import java.util.concurrent.atomic.AtomicLong;

/**
 * A token bucket counted in reads, not in time: every read earns {@code ratio} of a token, every
 * hedge spends one, and the bucket never holds more than {@code burst}. Over any run of reads the
 * hedges it grants are at most {@code ratio * reads + burst}, whatever the cluster does, so a sick
 * cluster is never asked for much more than its normal load.
 */
final class HedgeBudget {

  private static final long ONE = 1_000_000L;

  private final long earnPerRead;
  private final long cap;
  private final AtomicLong tokens;

  HedgeBudget(double ratio, double burst) {
    if (!(ratio >= 0 && ratio < 1) || !(burst >= 1)) {
      throw new IllegalArgumentException("budget needs ratio in [0, 1) and burst >= 1, got "
        + ratio + " and " + burst);
    }
    this.earnPerRead = Math.round(ratio * ONE);
    this.cap = Math.round(burst * ONE);
    this.tokens = new AtomicLong(cap);
  }

  /** Called once per read that could hedge. */
  void earn() {
    long t;
    do {
      t = tokens.get();
      if (t >= cap) {
        return;
      }
    } while (!tokens.compareAndSet(t, cap - t <= earnPerRead ? cap : t + earnPerRead));
  }

  /** Takes one token if there is one. */
  boolean tryAcquire() {
    long t;
    do {
      t = tokens.get();
      if (t < ONE) {
        return false;
      }
    } while (!tokens.compareAndSet(t, t - ONE));
    return true;
  }

  /** Tokens left, for stats and tests. */
  double available() {
    return tokens.get() / (double) ONE;
  }
}
