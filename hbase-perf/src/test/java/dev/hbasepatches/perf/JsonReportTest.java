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

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hbase.thirdparty.com.google.gson.JsonElement;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;
import org.apache.hbase.thirdparty.com.google.gson.JsonParser;
import org.junit.ClassRule;
import org.junit.Test;

/**
 * The JSON report's shape is a contract with whatever reads it: these are its field names, in
 * order. Adding a field means adding it here; renaming or removing one means a new schema
 * version.
 */
public class JsonReportTest {

  @ClassRule
  public static final ClusterRule CLUSTER = TestCluster.CLUSTER;

  private static final List<String> TOP = List.of("schema", "tool", "version", "startedAt",
    "finishedAt", "exitCode", "environment", "cluster", "commands", "options", "results",
    "seedComparison");
  private static final List<String> ENVIRONMENT = List.of("java", "os", "cpus", "maxHeapBytes",
    "hbaseVersion");
  private static final List<String> EMBEDDED_CLUSTER = List.of("mode", "regionServers",
    "changeModules", "settings", "blockCaches");
  private static final List<String> OPTIONS = List.of("clients", "rows", "valueSize",
    "valueSizes", "families", "columns", "keys", "zipfExponent", "seed", "table", "presplit",
    "compression", "blockEncoding", "bloomFilter", "inMemory", "replicas", "multiGet",
    "oneCon", "autoFlush", "writeBuffer", "writeToWAL", "caching", "cacheBlocks", "addColumns",
    "sampleRate", "ops",
    "durationSeconds", "rate", "warmupSeconds", "measureAfter", "requestDistribution", "verify",
    "flush");
  private static final List<String> RESULT = List.of("command", "name", "purpose", "clients",
    "operations", "rows", "errors", "seconds", "opsPerSecond", "rowsPerSecond", "latencyMicros",
    "serviceTimeMicros", "perOperation", "verify", "jvm", "errorSamples", "notes");
  private static final List<String> JVM = List.of("gcCollections", "gcMillis", "allocatedBytes",
    "allocatedBytesPerOp");
  private static final List<String> LATENCY = List.of("mean", "p50", "p95", "p99", "p999",
    "max");
  private static final List<String> VERIFY = List.of("enabled", "rowsChecked", "missing",
    "wrong", "checkFailed", "staleReads", "staleMissing", "problems");
  private static final List<String> SEED_ROW = List.of("experiment", "command", "rowsPerSecond",
    "hbase019RowsPerSecond", "bigtableRowsPerSecond");

  private static List<String> keys(JsonObject o) {
    return new ArrayList<>(o.keySet());
  }

  @Test
  public void fieldNamesAndOrderAreStable() throws Exception {
    ToolRun r = ToolRun.withJson(TestCluster.embedded("--rows=40", "--table=json_schema",
      "--rate=2000", "--verify", "randomRead"));
    assertEquals(r.toString(), 0, r.exitCode);
    JsonObject j = r.json;
    assertEquals(TOP, keys(j));
    assertEquals(JsonReport.SCHEMA, j.get("schema").getAsString());
    assertEquals("hbase-perf/results/v1", j.get("schema").getAsString());
    assertEquals(ENVIRONMENT, keys(j.getAsJsonObject("environment")));
    assertEquals(EMBEDDED_CLUSTER, keys(j.getAsJsonObject("cluster")));
    assertEquals(OPTIONS, keys(j.getAsJsonObject("options")));
    assertEquals("randomRead", j.getAsJsonArray("commands").get(0).getAsString());
    assertTrue(j.get("seedComparison").isJsonNull());
    assertEquals(2, j.getAsJsonArray("results").size());
    for (JsonElement e : j.getAsJsonArray("results")) {
      JsonObject result = e.getAsJsonObject();
      assertEquals(RESULT, keys(result));
      assertEquals(LATENCY, keys(result.getAsJsonObject("latencyMicros")));
      assertEquals(VERIFY, keys(result.getAsJsonObject("verify")));
      assertEquals(JVM, keys(result.getAsJsonObject("jvm")));
    }
    JsonObject measured = r.only();
    assertEquals("paced runs report service time apart", LATENCY,
      keys(measured.getAsJsonObject("serviceTimeMicros")));
    JsonObject latency = measured.getAsJsonObject("latencyMicros");
    assertTrue(latency.get("p50").getAsDouble() <= latency.get("p99").getAsDouble());
    assertTrue(latency.get("p99").getAsDouble() <= latency.get("max").getAsDouble());
    assertTrue(measured.get("seconds").getAsDouble() > 0);
  }

  @Test
  public void jsonDashPutsOnlyJsonOnStdout() {
    ToolRun r = ToolRun.plain(TestCluster.embedded("--rows=20", "--table=json_stdout",
      "--json=-", "sequentialWrite"));
    assertEquals(r.toString(), 0, r.exitCode);
    JsonObject j = JsonParser.parseString(r.out).getAsJsonObject();
    assertEquals(20, j.getAsJsonArray("results").get(0).getAsJsonObject().get("operations")
      .getAsLong());
    assertTrue("the table goes to stderr instead", r.err.contains("Results ("));
  }

  @Test
  public void seedComparisonRowsHaveTheirOwnStableShape() {
    PerfOptions o = PerfArgsParser.parse("seedTable");
    SeedTable seed = new SeedTable(null, o, System.err);
    List<Map<String, Object>> rows = seed.asList();
    assertEquals(6, rows.size());
    for (Map<String, Object> row : rows) {
      assertEquals(SEED_ROW, new ArrayList<>(row.keySet()));
    }
  }
}
