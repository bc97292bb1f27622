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

import java.util.HashMap;
import java.util.Map;
import org.apache.hbase.thirdparty.com.google.gson.JsonElement;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;
import org.junit.ClassRule;
import org.junit.Test;

/** seedTable runs the seed's six experiments and prints them beside the published columns. */
public class SeedTableTest {

  @ClassRule
  public static final ClusterRule CLUSTER = TestCluster.CLUSTER;

  @Test
  public void runsTheSixExperimentsAndShowsThePublishedNumbers() throws Exception {
    ToolRun r = ToolRun.withJson(TestCluster.embedded("--rows=200", "--table=seed",
      "--verify", "seedTable"));
    assertEquals(r.toString(), 0, r.exitCode);
    Map<String, JsonObject> byCommand = new HashMap<>();
    for (JsonObject m : r.measured()) {
      byCommand.put(m.get("name").getAsString(), m);
      assertEquals(0, m.getAsJsonObject("verify").get("wrong").getAsLong());
      assertEquals(0, m.getAsJsonObject("verify").get("missing").getAsLong());
    }
    assertEquals(6, byCommand.size());
    int i = 0;
    for (JsonElement e : r.json.getAsJsonArray("seedComparison")) {
      JsonObject row = e.getAsJsonObject();
      SeedTable.SeedRow published = SeedTable.PUBLISHED.get(i++);
      assertEquals(published.experiment, row.get("experiment").getAsString());
      assertEquals(published.bigtable, row.get("bigtableRowsPerSecond").getAsInt());
      JsonObject measured = byCommand.get(row.get("command").getAsString());
      assertEquals(measured.get("rowsPerSecond").getAsDouble(),
        row.get("rowsPerSecond").getAsDouble(), 0.001);
    }
    assertTrue(r.out, r.out.contains("Seed comparison: rows per second, 1000-byte values"));
    // The seed's numbers, as the seed prints them.
    for (String n : new String[] { "9,986", "10,811", "20,971", "15,385", "540", "1,212" }) {
      assertTrue(n + " in\n" + r.out, r.out.contains(n));
    }
  }

  @Test
  public void refusesToStartOnATableThatAlreadyHoldsData() throws Exception {
    ToolRun first = ToolRun.plain(TestCluster.embedded("--rows=10", "--table=seed_taken",
      "sequentialWrite"));
    assertEquals(first.toString(), 0, first.exitCode);
    ToolRun r = ToolRun.plain(TestCluster.embedded("--rows=10", "--table=seed_taken",
      "seedTable"));
    assertEquals(r.toString(), ToolFailure.EXIT_USAGE, r.exitCode);
    assertTrue(r.err, r.err.contains("seed_taken exists; pass --recreate"));
  }

  @Test
  public void thePublishedNumbersAreTheSeeds() {
    assertEquals(6, SeedTable.PUBLISHED.size());
    int[][] expected = { { 540, 1212 }, { -1, 10811 }, { 9986, 8850 }, { 464, 4425 },
      { 9892, 8547 }, { 20971, 15385 } };
    for (int i = 0; i < expected.length; i++) {
      SeedTable.SeedRow row = SeedTable.PUBLISHED.get(i);
      assertEquals(expected[i][0], row.hbase019 == null ? -1 : (int) row.hbase019);
      assertEquals(expected[i][1], row.bigtable);
    }
  }
}
