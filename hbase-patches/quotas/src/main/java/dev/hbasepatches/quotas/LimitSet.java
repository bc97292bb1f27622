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
import org.apache.hadoop.hbase.quotas.ThrottleType;

/**
 * Every throttle of one subject (a user, a user on one table or namespace, a table, a namespace,
 * or all region servers), indexed by {@link ThrottleType} ordinal. Immutable apart from the
 * limiters it points at and the size history, both of which outlive a refresh of
 * {@code hbase:quota}.
 */
final class LimitSet {

  private static final ThrottleType[] TYPES = ThrottleType.values();

  private final String subject;
  private final RateLimit[] byType;
  private final int[] present;
  private final boolean sized;
  private final SizeHistory history;

  LimitSet(String subject, RateLimit[] byType, SizeHistory history) {
    if (byType.length != TYPES.length) {
      throw new IllegalArgumentException("need one slot per ThrottleType, got " + byType.length);
    }
    this.subject = subject;
    this.byType = byType.clone();
    int n = 0;
    boolean anySize = false;
    for (int i = 0; i < byType.length; i++) {
      if (byType[i] != null) {
        n++;
        anySize |= isSized(TYPES[i]);
      }
    }
    this.present = new int[n];
    for (int i = 0, j = 0; i < byType.length; i++) {
      if (byType[i] != null) {
        present[j++] = i;
      }
    }
    this.sized = anySize;
    this.history = history;
  }

  /**
   * Size, capacity-unit and handler-time throttles need estimates (of bytes or time); request
   * counts do not.
   */
  static boolean isSized(ThrottleType type) {
    return !ThrottleTypes.kind(type).counted();
  }

  static ThrottleType type(int ordinal) {
    return TYPES[ordinal];
  }

  String subject() {
    return subject;
  }

  boolean isEmpty() {
    return present.length == 0;
  }

  /** Ordinals of the throttle types this subject has, in ThrottleType order. */
  int[] present() {
    return present;
  }

  RateLimit limit(int ordinal) {
    return byType[ordinal];
  }

  RateLimit limit(ThrottleType type) {
    return byType[type.ordinal()];
  }

  /** Whether any throttle here counts bytes (size or capacity units). */
  boolean sized() {
    return sized;
  }

  SizeHistory history() {
    return history;
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder(subject).append('{');
    for (int i = 0; i < present.length; i++) {
      RateLimit l = byType[present[i]];
      b.append(i == 0 ? "" : ", ").append(TYPES[present[i]]).append('=').append(l.units())
        .append('/').append(l.periodNanos()).append("ns");
    }
    return b.append('}').toString();
  }
}
