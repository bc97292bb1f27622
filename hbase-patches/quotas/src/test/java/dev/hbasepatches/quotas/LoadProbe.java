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

import java.security.PrivilegedExceptionAction;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.quotas.RpcThrottlingException;
import org.apache.hadoop.hbase.security.User;

/**
 * Clients for the minicluster tests: a user's own connection (no retries, so every throttle
 * refusal reaches the caller), and the throttling refusal inside what a call threw.
 */
final class LoadProbe {

  private LoadProbe() {
  }

  static User user(Configuration conf, String name) {
    return User.createUserForTesting(conf, name, new String[] { name + "_group" });
  }

  /** A connection whose requests carry {@code user}, with client retries off. */
  static Connection connect(Configuration clusterConf, User user) throws Exception {
    Configuration conf = new Configuration(clusterConf);
    conf.setInt(HConstants.HBASE_CLIENT_RETRIES_NUMBER, 0);
    conf.setInt(HConstants.HBASE_CLIENT_OPERATION_TIMEOUT, 30_000);
    return user.runAs((PrivilegedExceptionAction<Connection>) () -> ConnectionFactory
      .createConnection(conf));
  }

  static RpcThrottlingException throttling(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof RpcThrottlingException) {
        return (RpcThrottlingException) c;
      }
    }
    return null;
  }
}
