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
import java.util.Collections;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.quotas.QuotaUtil;
import org.apache.hadoop.hbase.quotas.ThrottleType;

/**
 * HBase's per-machine defaults for users without any quota row
 * ({@code hbase.quota.default.user.machine.*}, per second): each such user gets its own limiters,
 * made on the user's first request and kept for the server's life (the keys are read once).
 */
final class DefaultUserLimits {

  private final long[] perSecond = new long[ThrottleType.values().length];
  private final QuotaBook.LimitFactory factory;
  private final ConcurrentMap<String, UserLimits> users = new ConcurrentHashMap<>();

  private DefaultUserLimits(QuotaBook.LimitFactory factory) {
    this.factory = factory;
  }

  /** The configured defaults, or null when none of the keys is set. */
  static DefaultUserLimits from(Configuration conf, QuotaBook.LimitFactory factory) {
    DefaultUserLimits d = new DefaultUserLimits(factory);
    boolean any = d.read(conf, QuotaUtil.QUOTA_DEFAULT_USER_MACHINE_REQUEST_NUM,
      ThrottleType.REQUEST_NUMBER);
    any |= d.read(conf, QuotaUtil.QUOTA_DEFAULT_USER_MACHINE_REQUEST_SIZE,
      ThrottleType.REQUEST_SIZE);
    any |= d.read(conf, QuotaUtil.QUOTA_DEFAULT_USER_MACHINE_READ_NUM, ThrottleType.READ_NUMBER);
    any |= d.read(conf, QuotaUtil.QUOTA_DEFAULT_USER_MACHINE_READ_SIZE, ThrottleType.READ_SIZE);
    any |=
      d.read(conf, QuotaUtil.QUOTA_DEFAULT_USER_MACHINE_WRITE_NUM, ThrottleType.WRITE_NUMBER);
    any |= d.read(conf, QuotaUtil.QUOTA_DEFAULT_USER_MACHINE_WRITE_SIZE, ThrottleType.WRITE_SIZE);
    return any ? d : null;
  }

  private boolean read(Configuration conf, String key, ThrottleType type) {
    long v = conf.getLong(key, -1);
    if (v < 0) {
      return false;
    }
    perSecond[type.ordinal()] = Math.max(1, v);
    return true;
  }

  UserLimits forUser(String user) {
    UserLimits u = users.get(user);
    return u != null ? u : users.computeIfAbsent(user, this::create);
  }

  private UserLimits create(String user) {
    RateLimit[] byType = new RateLimit[perSecond.length];
    for (int i = 0; i < perSecond.length; i++) {
      if (perSecond[i] > 0) {
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
