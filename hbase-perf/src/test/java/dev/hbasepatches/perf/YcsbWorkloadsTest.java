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

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hbase.thirdparty.com.google.gson.JsonElement;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;
import org.junit.ClassRule;
import org.junit.Test;

/**
 * workloada ... workloadf on the embedded cluster, verified: each runs the operations it mixes
 * (and only those), reports a histogram per kind of operation whose counts add up, and leaves
 * warm-up operations out of the figures.
 */
public class YcsbWorkloadsTest {

  @ClassRule
  public static final ClusterRule CLUSTER = TestCluster.CLUSTER;

  private static final Map<String, Set<String>> KINDS = Map.of(
    "workloada", Set.of("read", "update"),
    "workloadb", Set.of("read", "update"),
    "workloadc", Set.of("read"),
    "workloadd", Set.of("read", "insert"),
    "workloade", Set.of("scan", "insert"),
    "workloadf", Set.of("read", "readModifyWrite"));

  @Test
  public void everyWorkloadRunsItsMixVerifiedWithWarmUpLeftOut() throws Exception {
    // 60 operations per client, the first 20 of each warm-up: 2 x 40 counted.
    ToolRun r = ToolRun.withJson(TestCluster.embedded("--rows=200", "--table=ycsb", "--verify",
      "--ops=40", "--measureAfter=20", "--rate=400",
      "workloada,workloadb,workloadc,workloadd,workloade,workloadf", "2"));
    assertEquals(r.toString(), 0, r.exitCode);
    assertEquals(r.toString(), 6, r.measured().size());
    for (JsonObject m : r.measured()) {
      String name = m.get("command").getAsString();
      assertEquals(r.toString(), 80, m.get("operations").getAsLong());
      JsonObject verify = m.getAsJsonObject("verify");
      assertEquals(r.toString(), 0, verify.get("missing").getAsLong());
      assertEquals(r.toString(), 0, verify.get("wrong").getAsLong());
      assertTrue(name + " checked rows", verify.get("rowsChecked").getAsLong() > 0);
      JsonObject kinds = m.getAsJsonObject("perOperation");
      long sum = 0;
      Set<String> seen = new TreeSet<>();
      for (Map.Entry<String, JsonElement> k : kinds.entrySet()) {
        seen.add(k.getKey());
        sum += k.getValue().getAsJsonObject().get("operations").getAsLong();
      }
      assertEquals(name + " per-operation counts add up", 80, sum);
      assertTrue(name + " ran " + seen, KINDS.get(name).containsAll(seen));
      // The dominant kind of every mix must be there (95% of 80 operations).
      assertTrue(name + " ran " + seen, seen.contains(name.equals("workloade") ? "scan"
        : "read"));
    }
  }
}
