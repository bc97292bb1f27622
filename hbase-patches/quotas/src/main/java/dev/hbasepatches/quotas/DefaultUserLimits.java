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
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.quotas.ThrottleType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HBase's per-machine defaults for users without any quota row
 * ({@code hbase.quota.default.user.machine.*}, per second): each such user gets its own limiters,
 * made on the user's first request (the keys are read once).
 * <p>
 * The users are bounded: with {@code hbase.quota.user.override.key} a client names the user it is
 * charged as, so it could otherwise fill the map with names. Past {@link #MAX_USERS_KEY} users,
 * the users whose limiters owe nothing are dropped (a new limiter for them would answer exactly
 * the same), then, if that is not enough, any users, down to three quarters of the bound. A user
 * dropped while it still owed gets a fresh limiter, i.e. at most one extra burst.
 */
final class DefaultUserLimits {

  private static final Logger LOG = LoggerFactory.getLogger(DefaultUserLimits.class);

  /** The most users with default limiters a server keeps. */
  static final String MAX_USERS_KEY = "hbasepatches.quotas.default.users.max";
  static final int DEFAULT_MAX_USERS = 10_000;

  /** Limiter units per second by type (already scaled, see {@code ThrottleTypes.Kind}). */
  private final long[] perSecond = new long[ThrottleType.values().length];
  private final QuotaBook.LimitFactory factory;
  private final int maxUsers;
  private final ConcurrentMap<String, UserLimits> users = new ConcurrentHashMap<>();

  private DefaultUserLimits(QuotaBook.LimitFactory factory, int maxUsers) {
    this.factory = factory;
    this.maxUsers = maxUsers;
    Arrays.fill(perSecond, -1); // -1: no default of this type
  }

  /**
   * Checks the keys {@link #from} reads, at server start: a bad value fails here, naming the key,
   * the value and the limit.
   */
  static void check(Configuration conf) {
    from(conf, (units, periodNanos) -> {
      throw new AssertionError("no limiter is made by a check");
    });
  }

  /**
   * The configured defaults, or null when none of the keys is set.
   *
   * @throws IllegalArgumentException naming the key, the value and the limit, for a value the
   *           limiters cannot hold
   */
  static DefaultUserLimits from(Configuration conf, QuotaBook.LimitFactory factory) {
    String raw = conf.getTrimmed(MAX_USERS_KEY);
    int max;
    try {
      max = raw == null || raw.isEmpty() ? DEFAULT_MAX_USERS : Integer.parseInt(raw);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(MAX_USERS_KEY + " must be a whole number of users"
        + " (at least 1, at most " + Integer.MAX_VALUE + "), got '" + raw + "'");
    }
    if (max < 1) {
      throw new IllegalArgumentException(MAX_USERS_KEY + " must be at least 1, got " + max);
    }
    DefaultUserLimits d = new DefaultUserLimits(factory, max);
    boolean any = false;
    for (ThrottleType type : ThrottleType.values()) {
      String key = ThrottleTypes.kind(type).defaultKey;
      if (key != null) {
        any |= d.read(conf, key, type);
      }
    }
    return any ? d : null;
  }

  /**
   * Reads one default; -1 or unset is none, as in HBase. A value the limiters cannot hold (below
   * -1, or a handler time whose microseconds overflow) stops the start here, naming the key, the
   * value and the limit, instead of failing every request of every user without a quota row.
   */
  private boolean read(Configuration conf, String key, ThrottleType type) {
    String raw = conf.getTrimmed(key);
    if (raw == null || raw.isEmpty()) {
      return false;
    }
    long v;
    try {
      v = Long.parseLong(raw);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " must be a whole number (-1 for none), got '" + raw
        + "'", e);
    }
    if (v == -1) {
      return false;
    }
    // 0 refuses everything, as in HBase; Long.MAX_VALUE is no limit.
    perSecond[type.ordinal()] = ThrottleTypes.kind(type).units(v, key);
    return true;
  }

  UserLimits forUser(String user) {
    UserLimits u = users.get(user);
    if (u != null) {
      return u;
    }
    u = users.computeIfAbsent(user, this::create);
    if (users.size() > maxUsers) {
      trim();
    }
    return u;
  }

  /** Drops idle users, then any, until three quarters of the bound are left. */
  private synchronized void trim() {
    if (users.size() <= maxUsers) {
      return;
    }
    int before = users.size();
    users.values().removeIf(DefaultUserLimits::idle);
    int target = maxUsers - maxUsers / 4;
    Iterator<String> it = users.keySet().iterator();
    while (users.size() > target && it.hasNext()) {
      it.next();
      it.remove();
    }
    LOG.info("Default user limits: kept {} of {} users (bound {}, {})", users.size(), before,
      maxUsers, MAX_USERS_KEY);
  }

  private static boolean idle(UserLimits u) {
    LimitSet set = u.global();
    for (int ordinal : set.present()) {
      if (!set.limit(ordinal).idle()) {
        return false;
      }
    }
    return true;
  }

  private UserLimits create(String user) {
    RateLimit[] byType = new RateLimit[perSecond.length];
    for (int i = 0; i < perSecond.length; i++) {
      if (perSecond[i] >= 0) {
        byType[i] = factory.create(perSecond[i], TimeUnit.SECONDS.toNanos(1));
      }
    }
    LimitSet set = new LimitSet("default limits of user " + user, byType, new SizeHistory());
    return new UserLimits(set, Collections.emptyMap(), Collections.emptyMap(), false);
  }

  int users() {
    return users.size();
  }
}
