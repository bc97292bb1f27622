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

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

/** Table set-up and a read loop shared by the BASELINE and UPSTREAM minicluster tests. */
final class OtherModesSupport {

  static final byte[] F = Bytes.toBytes("f");
  static final int ROWS = 50;

  private OtherModesSupport() {
  }

  static void createTable(Admin admin, Connection c, TableName name) throws IOException {
    admin.createTable(TableDescriptorBuilder.newBuilder(name)
      .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F)).build());
    try (Table t = c.getTable(name)) {
      List<Put> puts = new ArrayList<>();
      for (int i = 0; i < ROWS; i++) {
        puts.add(new Put(Bytes.toBytes(i)).addColumn(F, F, new byte[100]));
      }
      t.put(puts);
    }
  }

  /**
   * Reads up to {@code reads} times; returns the first throttling refusal, or null if every read
   * was answered.
   */
  static org.apache.hadoop.hbase.quotas.RpcThrottlingException readUntilThrottled(Connection c,
    TableName name, int reads) throws IOException {
    try (Table t = c.getTable(name)) {
      for (int i = 0; i < reads; i++) {
        try {
          t.get(new Get(Bytes.toBytes(i % ROWS)));
        } catch (IOException e) {
          org.apache.hadoop.hbase.quotas.RpcThrottlingException r = LoadProbe.throttling(e);
          if (r == null) {
            throw e;
          }
          return r;
        }
      }
    }
    return null;
  }
}
