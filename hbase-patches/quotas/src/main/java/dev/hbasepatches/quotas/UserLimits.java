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
 * One user's throttles: for all tables, per table, per namespace, and whether the user bypasses
 * the table, namespace and region-server throttles. The most specific one applies: table, then
 * namespace, then the user's global throttle (the order HBase uses).
 */
final class UserLimits {

  private final LimitSet global;
  private final Map<TableName, LimitSet> tables;
  private final Map<String, LimitSet> namespaces;
  private final boolean bypassGlobals;

  UserLimits(LimitSet global, Map<TableName, LimitSet> tables, Map<String, LimitSet> namespaces,
    boolean bypassGlobals) {
    this.global = global;
    this.tables = tables.isEmpty() ? Collections.emptyMap() : tables;
    this.namespaces = namespaces.isEmpty() ? Collections.emptyMap() : namespaces;
    this.bypassGlobals = bypassGlobals;
  }

  /** The user's throttle for this table, or null when the user has none that applies. */
  LimitSet forTable(TableName table) {
    LimitSet l = tables.get(table);
    if (l == null) {
      l = namespaces.get(table.getNamespaceAsString());
    }
    return l != null ? l : global;
  }

  boolean bypassGlobals() {
    return bypassGlobals;
  }

  LimitSet global() {
    return global;
  }

  @Override
  public String toString() {
    return "UserLimits(global=" + global + ", tables=" + tables.values() + ", namespaces="
      + namespaces.values() + (bypassGlobals ? ", bypass-globals" : "") + ")";
  }
}
