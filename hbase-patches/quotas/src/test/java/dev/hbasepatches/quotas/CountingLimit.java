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
package dev.hbasepatches.quotas;

import dev.hbasepatches.quotas.limit.RateLimit;

/**
 * A test limit with no clock: a bucket of {@code units} that never refills, refusing with a
 * fixed wait. It records what was refunded and charged so tests can check the bookkeeping.
 */
class CountingLimit implements RateLimit {

  private long units;
  private long periodNanos;
  long used;
  long refunded;
  long charged;
  long acquired;
  final long waitOnRefusal;

  CountingLimit(long units, long periodNanos) {
    this(units, periodNanos, 123_456_789L);
  }

  CountingLimit(long units, long periodNanos, long waitOnRefusal) {
    this.units = units;
    this.periodNanos = periodNanos;
    this.waitOnRefusal = waitOnRefusal;
  }

  @Override
  public synchronized long tryAcquire(long cost) {
    if (used + cost > units) {
      return waitOnRefusal;
    }
    used += cost;
    acquired += cost;
    return 0;
  }

  @Override
  public synchronized void refund(long cost) {
    used -= cost;
    refunded += cost;
  }

  @Override
  public synchronized void charge(long cost) {
    used += cost;
    charged += cost;
  }

  @Override
  public synchronized void setRate(long units, long periodNanos) {
    this.units = units;
    this.periodNanos = periodNanos;
  }

  @Override
  public synchronized boolean idle() {
    return used <= 0;
  }

  @Override
  public synchronized long units() {
    return units;
  }

  @Override
  public synchronized long periodNanos() {
    return periodNanos;
  }
}
