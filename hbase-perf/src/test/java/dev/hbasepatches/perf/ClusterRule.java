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
package dev.hbasepatches.perf;

import java.io.IOException;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.junit.rules.ExternalResource;

/**
 * The tool's own embedded cluster as a JUnit class rule: started before the first test of a
 * class, kept for the JVM (the tool shares it by name). JUnit stays in the tests; the tool
 * starts the same cluster without it.
 */
final class ClusterRule extends ExternalResource {

  private final LocalMiniCluster cluster;

  ClusterRule(LocalMiniCluster cluster) {
    this.cluster = cluster;
  }

  @Override
  protected void before() throws Throwable {
    cluster.start();
  }

  LocalMiniCluster cluster() {
    return cluster;
  }

  Connection connection() {
    return cluster.connection();
  }

  Admin admin() throws IOException {
    return cluster.admin();
  }

  int zkPort() {
    return cluster.zkPort();
  }
}
