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

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The one minicluster of the test JVM. It is the very cluster the tool's embedded mode builds
 * for {@code --regionServers=2}, so tool runs in embedded mode and direct checks in the tests
 * meet on the same tables without a second start-up. Two region servers, so region replicas
 * have somewhere to go.
 */
final class TestCluster {

  static final String REGION_SERVERS = "--regionServers=2";

  static final ClusterRule CLUSTER = new ClusterRule(
    EmbeddedCluster.miniCluster(PerfArgsParser.parse(REGION_SERVERS, "scan"), null));

  private TestCluster() {
  }

  /** Arguments for an embedded run on the shared cluster, progress off. */
  static String[] embedded(String... args) {
    List<String> all = new ArrayList<>();
    all.add(REGION_SERVERS);
    all.add("--progress=0");
    all.addAll(Arrays.asList(args));
    return all.toArray(new String[0]);
  }
}
