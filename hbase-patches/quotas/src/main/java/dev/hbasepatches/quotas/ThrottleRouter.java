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

import dev.hbasepatches.quotas.limit.Ticker;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.quotas.OperationQuota;

/**
 * Decides which throttles a request is checked against: the user's (on this table, else on its
 * namespace, else the user's own, else HBase's per-user defaults when the user has no quota row),
 * the table's, the namespace's and the region servers'. When none applies it answers with the one
 * shared {@link FreeOperationQuota}, after a few hash lookups and without allocating; that is the
 * path almost every request takes.
 */
final class ThrottleRouter {

  private final CostModel costs;
  private final DefaultUserLimits defaults;
  private final Ticker clock;

  ThrottleRouter(CostModel costs, DefaultUserLimits defaults) {
    this(costs, defaults, Ticker.SYSTEM);
  }

  /** @param clock measures each request's handler time (tests drive a fake one) */
  ThrottleRouter(CostModel costs, DefaultUserLimits defaults, Ticker clock) {
    this.costs = costs;
    this.defaults = defaults;
    this.clock = clock;
  }

  /** False when no request can be throttled under {@code s}: skip everything. */
  boolean anyThrottle(QuotaSnapshot s) {
    return defaults != null || !s.isEmpty();
  }

  /** Whether the user's name is needed (finding it costs a little, so ask only then). */
  boolean needsUser(QuotaSnapshot s) {
    return defaults != null || s.hasUsers();
  }

  /**
   * @param user the user's short name, or null when {@link #needsUser} said it is not needed
   */
  /** The user's limits under {@code s}: its own, else the defaults, else null. */
  UserLimits userLimits(QuotaSnapshot s, String user) {
    UserLimits u = user == null ? null : s.user(user);
    if (u == null && user != null && defaults != null) {
      u = defaults.forUser(user);
    }
    return u;
  }

  OperationQuota route(QuotaSnapshot s, String user, TableName table, int blockSize) {
    UserLimits u = userLimits(s, user);
    LimitSet userSet = u == null ? null : u.forTable(table);
    if (u != null && u.bypassGlobals()) {
      return userSet == null
        ? FreeOperationQuota.INSTANCE
        : new PacedOperationQuota(new LimitSet[] { userSet }, false, costs, blockSize, clock);
    }
    LimitSet tableSet = s.table(table);
    LimitSet nsSet = s.namespace(table.getNamespaceAsString());
    LimitSet rsSet = s.regionServers();
    int n = (userSet != null ? 1 : 0) + (tableSet != null ? 1 : 0) + (nsSet != null ? 1 : 0)
      + (rsSet != null ? 1 : 0);
    if (n == 0) {
      return FreeOperationQuota.INSTANCE;
    }
    LimitSet[] sets = new LimitSet[n];
    int i = 0;
    boolean mayExceed = s.exceedThrottle();
    if (mayExceed) {
      sets[i++] = rsSet;
    }
    if (userSet != null) {
      sets[i++] = userSet;
    }
    if (tableSet != null) {
      sets[i++] = tableSet;
    }
    if (nsSet != null) {
      sets[i++] = nsSet;
    }
    if (!mayExceed && rsSet != null) {
      sets[i++] = rsSet;
    }
    return new PacedOperationQuota(sets, mayExceed, costs, blockSize, clock);
  }
}
