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

import org.apache.hadoop.hbase.TableName;

/**
 * How a CLUSTER-scoped limit is shared out to this region server, as HBase does it: a user or
 * namespace limit is split evenly over the live region servers, a table limit in proportion to
 * the table's regions open here. MACHINE-scoped limits (the default) are used as they are.
 */
interface ScopeFactors {

  /** Every factor 1: for clusters with no CLUSTER-scoped quota, and for tests. */
  ScopeFactors WHOLE = new ScopeFactors() {
    @Override
    public double perServer() {
      return 1;
    }

    @Override
    public double forTable(TableName table) {
      return 1;
    }
  };

  /** This server's share of a user or namespace limit: 1 / live region servers. */
  double perServer();

  /** This server's share of a table limit: its open regions of the table / all open regions. */
  double forTable(TableName table);
}
