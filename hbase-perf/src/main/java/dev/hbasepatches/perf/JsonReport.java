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

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The machine-readable report. Its field names are a contract (tests pin them): add fields
 * freely, but rename or remove one only with a new {@link #SCHEMA} version.
 */
final class JsonReport {

  static final String SCHEMA = "hbase-perf/results/v1";

  private JsonReport() {
  }

  static Map<String, Object> build(PerfOptions o, ClusterSession cluster,
    List<CommandResult> results, SeedTable seed, Instant started, Instant finished,
    int exitCode) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("schema", SCHEMA);
    m.put("tool", "hbase-perf");
    m.put("version", version());
    m.put("startedAt", started.toString());
    m.put("finishedAt", finished.toString());
    m.put("exitCode", exitCode);
    m.put("environment", environment());
    m.put("cluster", cluster == null ? null : cluster.describe());
    List<String> commands = new ArrayList<>();
    o.commands.forEach(c -> commands.add(c.cliName()));
    m.put("commands", commands);
    m.put("options", o.asMap());
    List<Map<String, Object>> rs = new ArrayList<>();
    results.forEach(r -> rs.add(r.asMap()));
    m.put("results", rs);
    m.put("seedComparison", seed == null ? null : seed.asList());
    return m;
  }

  private static Map<String, Object> environment() {
    Map<String, Object> e = new LinkedHashMap<>();
    e.put("java", System.getProperty("java.version"));
    e.put("os", System.getProperty("os.name") + " " + System.getProperty("os.arch"));
    e.put("cpus", Runtime.getRuntime().availableProcessors());
    e.put("maxHeapBytes", Runtime.getRuntime().maxMemory());
    e.put("hbaseVersion", org.apache.hadoop.hbase.util.VersionInfo.getVersion());
    return e;
  }

  static String version() {
    String v = JsonReport.class.getPackage().getImplementationVersion();
    return v == null ? "dev" : v;
  }

  /** Refuses, before anything runs, a --json path the report could not be written to. */
  static void checkWritable(String path) {
    if (path == null || path.equals("-")) {
      return;
    }
    File f = new File(path).getAbsoluteFile();
    File dir = f.getParentFile();
    if (f.isDirectory()) {
      throw ToolFailure.usage("--json: " + f + " is a directory");
    }
    if (dir == null || !dir.isDirectory() || !dir.canWrite()) {
      throw ToolFailure.usage("--json: cannot write into " + dir);
    }
  }

  static void write(String path, Map<String, Object> report, PrintStream stdout) {
    String json = JsonWriter.write(report);
    if (path.equals("-")) {
      stdout.print(json);
      stdout.flush();
      return;
    }
    try {
      Files.writeString(new File(path).toPath(), json, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw ToolFailure.usage("--json: could not write " + path + ": " + ToolFailure.describe(e));
    }
  }
}
