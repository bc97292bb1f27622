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

import java.util.Collections;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;

/**
 * What {@code hbase:quota} said at the last refresh, in the shape the request path reads: plain
 * immutable maps, published through one volatile field, so a request takes no lock.
 */
final class QuotaSnapshot {

  static final QuotaSnapshot EMPTY = new QuotaSnapshot(Collections.emptyMap(),
    Collections.emptyMap(), Collections.emptyMap(), null, false);

  private final Map<String, UserLimits> users;
  private final Map<TableName, LimitSet> tables;
  private final Map<String, LimitSet> namespaces;
  private final LimitSet regionServers;
  private final boolean exceedThrottle;
  private final boolean exceedSwitch;
  private final boolean empty;

  QuotaSnapshot(Map<String, UserLimits> users, Map<TableName, LimitSet> tables,
    Map<String, LimitSet> namespaces, LimitSet regionServers, boolean exceedThrottle) {
    this.users = users;
    this.tables = tables;
    this.namespaces = namespaces;
    this.regionServers = regionServers;
    this.exceedSwitch = exceedThrottle;
    this.exceedThrottle = exceedThrottle && regionServers != null;
    this.empty = users.isEmpty() && tables.isEmpty() && namespaces.isEmpty()
      && regionServers == null;
  }

  /** True when nothing is throttled: every request takes the free path. */
  boolean isEmpty() {
    return empty;
  }

  boolean hasUsers() {
    return !users.isEmpty();
  }

  UserLimits user(String name) {
    return users.get(name);
  }

  LimitSet table(TableName table) {
    return tables.get(table);
  }

  LimitSet namespace(String namespace) {
    return namespaces.get(namespace);
  }

  LimitSet regionServers() {
    return regionServers;
  }

  /**
   * Whether user, table and namespace throttles may be exceeded while the region-server
   * throttle still has room (HBase's "exceed throttle quota" switch; only with a region-server
   * throttle).
   */
  boolean exceedThrottle() {
    return exceedThrottle;
  }

  /** Whether {@code Admin.exceedThrottleQuotaSwitch} was on, with or without its throttle. */
  boolean exceedThrottleSwitch() {
    return exceedSwitch;
  }

  @Override
  public String toString() {
    return "QuotaSnapshot(users=" + users + ", tables=" + tables.values() + ", namespaces="
      + namespaces.values() + ", regionServers=" + regionServers
      + (exceedThrottle ? ", exceed-throttle" : "") + ")";
  }
}
