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

import java.util.Objects;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.shaded.protobuf.generated.QuotaProtos.Quotas;

/** One quota setting as stored in {@code hbase:quota}: who it binds and what it says. */
final class QuotaEntry {

  /** Whom a setting binds. */
  enum Scope {
    USER, USER_TABLE, USER_NAMESPACE, TABLE, NAMESPACE, REGION_SERVER
  }

  private final Scope scope;
  private final String user;
  private final TableName table;
  private final String namespace;
  private final Quotas quotas;

  private QuotaEntry(Scope scope, String user, TableName table, String namespace,
    Quotas quotas) {
    this.scope = scope;
    this.user = user;
    this.table = table;
    this.namespace = namespace;
    this.quotas = Objects.requireNonNull(quotas, "quotas");
  }

  static QuotaEntry user(String user, Quotas q) {
    return new QuotaEntry(Scope.USER, user, null, null, q);
  }

  static QuotaEntry userTable(String user, TableName table, Quotas q) {
    return new QuotaEntry(Scope.USER_TABLE, user, table, null, q);
  }

  static QuotaEntry userNamespace(String user, String namespace, Quotas q) {
    return new QuotaEntry(Scope.USER_NAMESPACE, user, null, namespace, q);
  }

  static QuotaEntry table(TableName table, Quotas q) {
    return new QuotaEntry(Scope.TABLE, null, table, null, q);
  }

  static QuotaEntry namespace(String namespace, Quotas q) {
    return new QuotaEntry(Scope.NAMESPACE, null, null, namespace, q);
  }

  static QuotaEntry regionServer(String name, Quotas q) {
    return new QuotaEntry(Scope.REGION_SERVER, name, null, null, q);
  }

  Scope scope() {
    return scope;
  }

  /** The user, or for {@link Scope#REGION_SERVER} the region server row's name. */
  String user() {
    return user;
  }

  TableName table() {
    return table;
  }

  String namespace() {
    return namespace;
  }

  Quotas quotas() {
    return quotas;
  }

  /** A stable name for the subject, used to find its limiters again on the next refresh. */
  String key() {
    switch (scope) {
      case USER:
        return "user " + user;
      case USER_TABLE:
        return "user " + user + " on table " + table.getNameAsString();
      case USER_NAMESPACE:
        return "user " + user + " on namespace " + namespace;
      case TABLE:
        return "table " + table.getNameAsString();
      case NAMESPACE:
        return "namespace " + namespace;
      case REGION_SERVER:
        return "region servers " + user;
      default:
        throw new AssertionError(scope);
    }
  }

  @Override
  public String toString() {
    return key() + ": " + quotas.toString().replace('\n', ' ');
  }
}
