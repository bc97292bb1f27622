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
package dev.hbasepatches.jmh.timelinereads;

import dev.hbasepatches.jmh.report.BadInputException;
import dev.hbasepatches.jmh.report.ForkStats;
import dev.hbasepatches.jmh.report.JmhJsonParser;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.hbase.thirdparty.com.google.gson.JsonElement;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;
import org.apache.hbase.thirdparty.com.google.gson.JsonParser;

/**
 * Summarizes a {@link TimelineDecisionBenchmark} JSON run per fork: each fork's mean ns/op and
 * B/op, per mode the geometric mean over forks with its 95% interval on the log scale (both are
 * positive quantities: {@link ForkStats#positiveMean}), and PATCHED minus UPSTREAM with Welch's
 * interval (a difference, on the natural scale; the forks of two modes are not paired), all from
 * {@link ForkStats}.
 * Usage: {@code java -cp benchmarks.jar dev.hbasepatches.jmh.timelinereads.DecisionCostSummary
 * run.json}.
 */
public final class DecisionCostSummary {

  private DecisionCostSummary() {
  }

  private static double[] perFork(JsonObject metric, String where) throws BadInputException {
    return ForkStats.forkMeans(JmhJsonParser.forkIterations(metric, where));
  }

  /** Geometric mean over forks [95% interval], or why there is none. */
  static String positiveMean(double[] forks) {
    ForkStats.Interval i = ForkStats.positiveMean(forks);
    if (!Double.isFinite(i.estimate())) {
      return "n/a (a fork measured 0)";
    }
    if (!Double.isFinite(i.low())) {
      return String.format(Locale.ROOT, "%.1f (no interval)", i.estimate());
    }
    return String.format(Locale.ROOT, "%.1f [%.1f, %.1f]", i.estimate(), i.low(), i.high());
  }

  public static void main(String[] args) throws IOException, BadInputException {
    if (args.length != 1) {
      System.err.println("usage: DecisionCostSummary RUN.json");
      System.exit(2);
    }
    Path file = Paths.get(args[0]);
    Map<String, double[]> ns = new LinkedHashMap<>();
    Map<String, double[]> bytes = new LinkedHashMap<>();
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      for (JsonElement e : JsonParser.parseReader(r).getAsJsonArray()) {
        JsonObject o = e.getAsJsonObject();
        String mode = o.getAsJsonObject("params").get("mode").getAsString();
        ns.put(mode, perFork(o.getAsJsonObject("primaryMetric"), file + " " + mode));
        JsonObject sec = o.getAsJsonObject("secondaryMetrics");
        if (sec != null && sec.has("gc.alloc.rate.norm")) {
          bytes.put(mode, perFork(sec.getAsJsonObject("gc.alloc.rate.norm"), file + " " + mode));
        }
      }
    }
    StringBuilder sb = new StringBuilder();
    sb.append("| mode | forks | ns/read per fork | ns/read, geometric mean [95% interval] |"
      + " B/read, geometric mean [95% interval] |\n");
    sb.append("|---|---|---|---|---|\n");
    for (Map.Entry<String, double[]> m : ns.entrySet()) {
      StringBuilder forks = new StringBuilder();
      for (double x : m.getValue()) {
        forks.append(forks.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.1f", x));
      }
      double[] b = bytes.get(m.getKey());
      sb.append(String.format(Locale.ROOT, "| %s | %d | %s | %s | %s |%n", m.getKey(),
        m.getValue().length, forks, positiveMean(m.getValue()),
        b == null ? "-" : positiveMean(b)));
    }
    if (ns.containsKey("PATCHED") && ns.containsKey("UPSTREAM")) {
      ForkStats.Interval d = ForkStats.difference(ns.get("PATCHED"), ns.get("UPSTREAM"));
      sb.append(String.format(Locale.ROOT,
        "%nPATCHED - UPSTREAM: %.1f ns/read, 95%% interval [%.1f, %.1f] (Welch)%n",
        d.estimate(), d.low(), d.high()));
    }
    System.out.print(sb);
  }
}
