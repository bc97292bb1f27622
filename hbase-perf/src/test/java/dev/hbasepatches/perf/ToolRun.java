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

import static org.junit.Assert.assertFalse;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hbase.thirdparty.com.google.gson.JsonArray;
import org.apache.hbase.thirdparty.com.google.gson.JsonElement;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;
import org.apache.hbase.thirdparty.com.google.gson.JsonParser;

/** One in-process run of the tool: its exit code, what it printed, and its JSON report. */
final class ToolRun {

  final String[] args;
  final int exitCode;
  final String out;
  final String err;
  final JsonObject json;

  private ToolRun(String[] args, int exitCode, String out, String err, JsonObject json) {
    this.args = args;
    this.exitCode = exitCode;
    this.out = out;
    this.err = err;
    this.json = json;
  }

  /** Runs the tool with {@code args} as given. */
  static ToolRun plain(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code;
    try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
      PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      code = PerfTool.run(args, o, e);
    }
    return new ToolRun(args, code, out.toString(StandardCharsets.UTF_8),
      err.toString(StandardCharsets.UTF_8), null);
  }

  /** Runs the tool with a JSON report in a temporary file, and reads it back. */
  static ToolRun withJson(String... args) throws IOException {
    File json = File.createTempFile("hbase-perf-test-", ".json");
    try {
      List<String> all = new ArrayList<>(Arrays.asList(args));
      all.add(0, "--json=" + json.getPath());
      ToolRun r = plain(all.toArray(new String[0]));
      String text = Files.readString(json.toPath());
      JsonObject parsed = text.isBlank() ? null : JsonParser.parseString(text).getAsJsonObject();
      return new ToolRun(r.args, r.exitCode, r.out, r.err, parsed);
    } finally {
      json.delete();
    }
  }

  /** The measured (not load) results of the report, in run order. */
  List<JsonObject> measured() {
    List<JsonObject> list = new ArrayList<>();
    for (JsonElement e : json.getAsJsonArray("results")) {
      JsonObject o = e.getAsJsonObject();
      if (o.get("purpose").getAsString().equals("measure")) {
        list.add(o);
      }
    }
    return list;
  }

  JsonObject only() {
    List<JsonObject> m = measured();
    if (m.size() != 1) {
      throw new AssertionError("expected one measured result, got " + m.size() + "\n" + this);
    }
    return m.get(0);
  }

  JsonArray results() {
    return json.getAsJsonArray("results");
  }

  /** Whatever went wrong, the user must never see a bare stack trace. */
  void assertNoStackTrace() {
    assertFalse("stack trace in output:\n" + this, (out + err).contains("\tat ")
      || (out + err).contains("Exception in thread"));
  }

  @Override
  public String toString() {
    return "args " + Arrays.toString(args) + " -> exit " + exitCode + "\n--- stdout\n" + out
      + "--- stderr\n" + err;
  }
}
