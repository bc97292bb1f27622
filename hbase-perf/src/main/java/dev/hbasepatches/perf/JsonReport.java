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
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hbase.thirdparty.com.google.gson.Gson;
import org.apache.hbase.thirdparty.com.google.gson.GsonBuilder;
import org.apache.hbase.thirdparty.com.google.gson.JsonArray;
import org.apache.hbase.thirdparty.com.google.gson.JsonElement;
import org.apache.hbase.thirdparty.com.google.gson.JsonNull;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;
import org.apache.hbase.thirdparty.com.google.gson.JsonPrimitive;

/**
 * The machine-readable report, written with Gson (hbase-thirdparty's shaded copy, already on
 * HBase's classpath). Its field names are a contract (tests pin them): add fields freely, but
 * rename or remove one only with a new {@link #SCHEMA} version.
 */
final class JsonReport {

  static final String SCHEMA = "hbase-perf/results/v1";

  private static final Gson GSON =
    new GsonBuilder().setPrettyPrinting().serializeNulls().disableHtmlEscaping().create();

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
    String json = toJson(report);
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

  /** Maps, collections, strings, numbers, booleans and nulls as indented JSON, one line each. */
  static String toJson(Object value) {
    return GSON.toJson(tree(value)) + "\n";
  }

  /**
   * The report as Gson's tree. Built by hand rather than by reflection: the maps hold JDK and
   * HBase objects whose fields are nobody's contract; anything that is not a map, collection,
   * number or boolean is written as its string, and a NaN or infinite number as null.
   */
  private static JsonElement tree(Object v) {
    if (v == null) {
      return JsonNull.INSTANCE;
    } else if (v instanceof Map) {
      JsonObject o = new JsonObject();
      ((Map<?, ?>) v).forEach((k, x) -> o.add(String.valueOf(k), tree(x)));
      return o;
    } else if (v instanceof Collection) {
      JsonArray a = new JsonArray();
      ((Collection<?>) v).forEach(x -> a.add(tree(x)));
      return a;
    } else if (v instanceof Double || v instanceof Float) {
      double d = ((Number) v).doubleValue();
      return Double.isFinite(d) ? new JsonPrimitive(d) : JsonNull.INSTANCE;
    } else if (v instanceof Number) {
      return new JsonPrimitive((Number) v);
    } else if (v instanceof Boolean) {
      return new JsonPrimitive((Boolean) v);
    }
    return new JsonPrimitive(v.toString());
  }
}
