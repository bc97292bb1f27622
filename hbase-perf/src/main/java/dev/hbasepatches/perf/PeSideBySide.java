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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.commons.math3.distribution.TDistribution;
import org.apache.hbase.thirdparty.com.google.gson.JsonElement;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;
import org.apache.hbase.thirdparty.com.google.gson.JsonParser;

/**
 * Summarises dev-support/pe-side-by-side.sh's runs: for each command and client count, the
 * throughput of this tool over upstream PerformanceEvaluation's in each alternating pair of runs,
 * summarised as the project's ForkStats does for paired forks (geometric mean of the pair ratios,
 * 95% Student-t interval on the log scale), with a verdict against the ±10% target; the same for
 * mean latency.
 *
 * <p>Reads {@code DIR/runs.tsv} (command, clients, round, tool, rows per client, file) and each
 * run's file: this tool's --json report, PE's log. Writes {@code DIR/table.md},
 * {@code DIR/table.csv} and {@code DIR/pairs.csv}.
 */
public final class PeSideBySide {

  static final double TARGET = 0.10;

  /** One measured run of one tool. */
  static final class Run {
    final String command;
    final int clients;
    final int round;
    final String tool;
    final double rowsPerSecond;
    final double meanLatencyMicros;

    Run(String command, int clients, int round, String tool, double rowsPerSecond,
      double meanLatencyMicros) {
      this.command = command;
      this.clients = clients;
      this.round = round;
      this.tool = tool;
      this.rowsPerSecond = rowsPerSecond;
      this.meanLatencyMicros = meanLatencyMicros;
    }
  }

  /** A geometric mean with its 95% interval. */
  static final class Interval {
    final int n;
    final double estimate;
    final double low;
    final double high;

    Interval(int n, double estimate, double low, double high) {
      this.n = n;
      this.estimate = estimate;
      this.low = low;
      this.high = high;
    }

    /** Against "within ±10%": met when the whole interval is inside, not met when outside. */
    String verdict() {
      if (n < 5 || Double.isNaN(low)) {
        return "too few pairs (" + n + ")";
      }
      if (low >= 1 - TARGET && high <= 1 + TARGET) {
        return "met";
      }
      if (high < 1 - TARGET || low > 1 + TARGET) {
        return "not met";
      }
      return "inconclusive";
    }
  }

  private PeSideBySide() {
  }

  static Interval pairedRatio(double[] ratios) {
    int n = ratios.length;
    double[] logs = new double[n];
    for (int i = 0; i < n; i++) {
      if (!(ratios[i] > 0)) {
        return new Interval(n, Double.NaN, Double.NaN, Double.NaN);
      }
      logs[i] = Math.log(ratios[i]);
    }
    double mean = 0;
    for (double l : logs) {
      mean += l / n;
    }
    if (n < 2) {
      return new Interval(n, Math.exp(mean), Double.NaN, Double.NaN);
    }
    double var = 0;
    for (double l : logs) {
      var += (l - mean) * (l - mean) / (n - 1);
    }
    double half = new TDistribution(n - 1).inverseCumulativeProbability(0.975)
      * Math.sqrt(var / n);
    return new Interval(n, Math.exp(mean), Math.exp(mean - half), Math.exp(mean + half));
  }

  private static final Pattern TIMINGS =
    Pattern.compile("Summary of timings \\(ms\\): \\[([^]]*)\\]");
  private static final Pattern LATENCY = Pattern.compile("Latency \\(us\\) : mean=([0-9.]+)");

  /** PE's run: rows per second over all clients (rows / slowest client) and mean latency. */
  static double[] parsePe(String log, int clients, long rowsPerClient) {
    Matcher t = TIMINGS.matcher(log);
    long slowest = -1;
    int found = 0;
    while (t.find()) {
      slowest = -1;
      found = 0;
      for (String d : t.group(1).split(",")) {
        slowest = Math.max(slowest, Long.parseLong(d.trim()));
        found++;
      }
    }
    if (slowest <= 0 || found != clients) {
      throw new IllegalArgumentException("no 'Summary of timings' for " + clients
        + " client(s) in PE's log");
    }
    Matcher l = LATENCY.matcher(log);
    double sum = 0;
    int n = 0;
    while (l.find()) {
      sum += Double.parseDouble(l.group(1));
      n++;
    }
    return new double[] { rowsPerClient * clients * 1000.0 / slowest, n == 0 ? Double.NaN
      : sum / n };
  }

  /** This tool's run: the measured command's rows per second and mean latency. */
  static double[] parsePerf(String json, String command) {
    JsonObject o = JsonParser.parseString(json).getAsJsonObject();
    for (JsonElement e : o.getAsJsonArray("results")) {
      JsonObject r = e.getAsJsonObject();
      if (r.get("purpose").getAsString().equals("measure")
        && r.get("command").getAsString().equals(command)) {
        return new double[] { r.get("rowsPerSecond").getAsDouble(),
          r.getAsJsonObject("latencyMicros").get("mean").getAsDouble() };
      }
    }
    throw new IllegalArgumentException("no measured " + command + " in the JSON report");
  }

  static List<Run> read(Path dir) throws IOException {
    List<Run> runs = new ArrayList<>();
    for (String line : Files.readAllLines(dir.resolve("runs.tsv"), StandardCharsets.UTF_8)) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] f = line.split("\t");
      String command = f[0];
      int clients = Integer.parseInt(f[1]);
      int round = Integer.parseInt(f[2]);
      String tool = f[3];
      long rows = Long.parseLong(f[4]);
      String text = Files.readString(dir.resolve(f[5]), StandardCharsets.UTF_8);
      double[] v = tool.equals("pe") ? parsePe(text, clients, rows) : parsePerf(text, command);
      runs.add(new Run(command, clients, round, tool, v[0], v[1]));
    }
    return runs;
  }

  static String summarise(List<Run> runs, Path dir) throws IOException {
    Map<String, List<double[]>> byCase = new LinkedHashMap<>();
    List<String> pairLines = new ArrayList<>();
    pairLines.add("command,clients,round,pe rows/s,hbase-perf rows/s,ratio,pe mean us,"
      + "hbase-perf mean us,latency ratio");
    for (Run pe : runs) {
      if (!pe.tool.equals("pe")) {
        continue;
      }
      for (Run ours : runs) {
        if (ours.tool.equals("hbase-perf") && ours.command.equals(pe.command)
          && ours.clients == pe.clients && ours.round == pe.round) {
          double ratio = ours.rowsPerSecond / pe.rowsPerSecond;
          double lat = ours.meanLatencyMicros / pe.meanLatencyMicros;
          byCase.computeIfAbsent(pe.command + "\t" + pe.clients, k -> new ArrayList<>())
            .add(new double[] { ratio, lat, pe.rowsPerSecond, ours.rowsPerSecond });
          pairLines.add(String.format(Locale.ROOT, "%s,%d,%d,%.1f,%.1f,%.4f,%.1f,%.1f,%.4f",
            pe.command, pe.clients, pe.round, pe.rowsPerSecond, ours.rowsPerSecond, ratio,
            pe.meanLatencyMicros, ours.meanLatencyMicros, lat));
        }
      }
    }
    StringBuilder md = new StringBuilder();
    StringBuilder csv = new StringBuilder("command,clients,pairs,pe rows/s (geo mean),"
      + "hbase-perf rows/s (geo mean),throughput ratio,low,high,verdict,latency ratio,low,high\n");
    md.append("| command | clients | pairs | PE rows/s | hbase-perf rows/s | hbase-perf / PE "
      + "throughput [95% CI] | within ±10% | mean latency hbase-perf / PE [95% CI] |\n");
    md.append("|---|---|---|---|---|---|---|---|\n");
    for (Map.Entry<String, List<double[]>> e : byCase.entrySet()) {
      String[] k = e.getKey().split("\t");
      List<double[]> pairs = e.getValue();
      double[] ratios = new double[pairs.size()];
      double[] lats = new double[pairs.size()];
      double[] peRates = new double[pairs.size()];
      double[] ourRates = new double[pairs.size()];
      for (int i = 0; i < ratios.length; i++) {
        ratios[i] = pairs.get(i)[0];
        lats[i] = pairs.get(i)[1];
        peRates[i] = pairs.get(i)[2];
        ourRates[i] = pairs.get(i)[3];
      }
      Interval t = pairedRatio(ratios);
      Interval l = pairedRatio(lats);
      double pe = pairedRatio(peRates).estimate;
      double ours = pairedRatio(ourRates).estimate;
      md.append(String.format(Locale.ROOT, "| %s | %s | %d | %,.0f | %,.0f | %s | %s | %s |\n",
        k[0], k[1], t.n, pe, ours, shown(t), t.verdict(), shown(l)));
      csv.append(String.format(Locale.ROOT, "%s,%s,%d,%.1f,%.1f,%.4f,%s,%s,%s,%.4f,%s,%s\n",
        k[0], k[1], t.n, pe, ours, t.estimate, csvBound(t.low), csvBound(t.high), t.verdict(),
        l.estimate, csvBound(l.low), csvBound(l.high)));
    }
    Files.writeString(dir.resolve("table.md"), md.toString(), StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("table.csv"), csv.toString(), StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("pairs.csv"), String.join("\n", pairLines) + "\n",
      StandardCharsets.UTF_8);
    return md.toString();
  }

  /** The estimate with its interval, or with "no interval" when one pair cannot give one. */
  static String shown(Interval i) {
    if (Double.isNaN(i.low)) {
      return String.format(Locale.ROOT, "%.3f (%d pair%s, no interval)", i.estimate, i.n,
        i.n == 1 ? "" : "s");
    }
    return String.format(Locale.ROOT, "%.3f [%.3f, %.3f]", i.estimate, i.low, i.high);
  }

  private static String csvBound(double b) {
    return Double.isNaN(b) ? "" : String.format(Locale.ROOT, "%.4f", b);
  }

  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      System.err.println("usage: PeSideBySide DIR (with DIR/runs.tsv)");
      System.exit(ToolFailure.EXIT_USAGE);
    }
    Path dir = Paths.get(args[0]);
    System.out.print(summarise(read(dir), dir));
  }
}
