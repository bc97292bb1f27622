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

import dev.hbasepatches.testkit.Intervals;
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
import org.apache.hbase.thirdparty.com.google.gson.JsonElement;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;
import org.apache.hbase.thirdparty.com.google.gson.JsonParser;

/**
 * Summarises dev-support/pe-side-by-side.sh's runs: for each command and client count, the
 * throughput of this tool over upstream PerformanceEvaluation's in each alternating pair of runs,
 * summarised as the project's ForkStats does for paired forks (geometric mean of the pair ratios,
 * 95% Student-t interval on the log scale, testkit's {@link Intervals}), with a verdict against
 * the ±10% target; the same for mean, median and 99th-percentile latency (each a ratio of the two
 * tools' figures per pair, so on the log scale too), where both tools report them (PE reports each
 * client's percentiles, from its metrics histogram's sample; with more than one client the mean of
 * the clients' figures stands for the run's, and a pair whose PE figure is 0 gives no ratio);
 * and, where the script timed each run's JVM ({@code .time} beside its output), the client JVM's
 * user + system CPU per row.
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
    final double p50Micros;
    final double p99Micros;
    /** The client JVM's user + system CPU per row in microseconds, NaN when not timed. */
    double cpuMicrosPerRow = Double.NaN;

    Run(String command, int clients, int round, String tool, double[] figures) {
      this.command = command;
      this.clients = clients;
      this.round = round;
      this.tool = tool;
      this.rowsPerSecond = figures[0];
      this.meanLatencyMicros = figures[1];
      this.p50Micros = figures[2];
      this.p99Micros = figures[3];
    }

    /** Figure {@code k}: 0 mean, 1 median, 2 99th-percentile latency, 3 client CPU per row. */
    double latency(int k) {
      return k == 0 ? meanLatencyMicros : k == 1 ? p50Micros : k == 2 ? p99Micros
        : cpuMicrosPerRow;
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

  /**
   * Pair ratios on the log scale: geometric mean, Student t interval of the logarithms (testkit's
   * {@link Intervals#geometricMean}, the same arithmetic as jmh-benchmarks' ForkStats); NaN when a
   * ratio is not positive.
   */
  static Interval pairedRatio(double[] ratios) {
    Intervals.Estimate e = Intervals.geometricMean(ratios);
    return new Interval(e.n(), e.estimate(), e.low(), e.high());
  }

  private static final Pattern TIMINGS =
    Pattern.compile("Summary of timings \\(ms\\): \\[([^]]*)\\]");
  private static final Pattern LATENCY = Pattern.compile(
    "Latency \\(us\\) : mean=([0-9.]+),.* 50th=([0-9.]+),.* 99th=([0-9.]+)");

  /**
   * PE's run: rows per second over all clients (rows / slowest client), then mean, median and
   * 99th-percentile latency in microseconds, each the mean of the clients' figures.
   */
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
    double[] sum = new double[3];
    int n = 0;
    while (l.find()) {
      for (int k = 0; k < 3; k++) {
        sum[k] += Double.parseDouble(l.group(k + 1));
      }
      n++;
    }
    double[] v = new double[] { rowsPerClient * clients * 1000.0 / slowest, Double.NaN,
      Double.NaN, Double.NaN };
    for (int k = 0; n > 0 && k < 3; k++) {
      v[k + 1] = sum[k] / n;
    }
    return v;
  }

  /** This tool's run: the measured command's rows per second, mean, median and p99 latency. */
  static double[] parsePerf(String json, String command) {
    JsonObject o = JsonParser.parseString(json).getAsJsonObject();
    for (JsonElement e : o.getAsJsonArray("results")) {
      JsonObject r = e.getAsJsonObject();
      if (r.get("purpose").getAsString().equals("measure")
        && r.get("command").getAsString().equals(command)) {
        JsonObject l = r.getAsJsonObject("latencyMicros");
        return new double[] { r.get("rowsPerSecond").getAsDouble(), l.get("mean").getAsDouble(),
          figure(l, "p50"), figure(l, "p99") };
      }
    }
    throw new IllegalArgumentException("no measured " + command + " in the JSON report");
  }

  private static double figure(JsonObject o, String name) {
    JsonElement e = o.get(name);
    return e == null || e.isJsonNull() ? Double.NaN : e.getAsDouble();
  }

  /**
   * User + system CPU seconds from a /usr/bin/time file written with {@code -f %e,%U,%S}: its
   * last line (a line before it, if any, is the command's exit status note).
   */
  static double cpuSeconds(String timeFile) {
    String[] lines = timeFile.trim().split("\n");
    String[] f = lines[lines.length - 1].trim().split(",");
    if (f.length != 3) {
      throw new IllegalArgumentException("not an 'elapsed,user,system' line: "
        + lines[lines.length - 1]);
    }
    return Double.parseDouble(f[1]) + Double.parseDouble(f[2]);
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
      Run run = new Run(command, clients, round, tool, v);
      Path time = dir.resolve(f[5].replaceFirst("\\.[a-z]+$", ".time"));
      if (Files.exists(time)) {
        run.cpuMicrosPerRow = cpuSeconds(Files.readString(time, StandardCharsets.UTF_8)) * 1e6
          / ((double) rows * clients);
      }
      runs.add(run);
    }
    return runs;
  }

  /** The per-pair figures compared besides throughput, in their columns' order. */
  private static final String[] FIGURES = { "mean latency", "median latency", "p99 latency",
    "client CPU per row" };

  static String summarise(List<Run> runs, Path dir) throws IOException {
    Map<String, List<Run[]>> byCase = new LinkedHashMap<>();
    List<String> pairLines = new ArrayList<>();
    pairLines.add("command,clients,round,pe rows/s,hbase-perf rows/s,ratio,pe mean us,"
      + "hbase-perf mean us,latency ratio,pe median us,hbase-perf median us,pe p99 us,"
      + "hbase-perf p99 us,pe client cpu us/row,hbase-perf client cpu us/row");
    for (Run pe : runs) {
      if (!pe.tool.equals("pe")) {
        continue;
      }
      for (Run ours : runs) {
        if (ours.tool.equals("hbase-perf") && ours.command.equals(pe.command)
          && ours.clients == pe.clients && ours.round == pe.round) {
          byCase.computeIfAbsent(pe.command + "\t" + pe.clients, k -> new ArrayList<>())
            .add(new Run[] { pe, ours });
          pairLines.add(String.format(Locale.ROOT,
            "%s,%d,%d,%.1f,%.1f,%.4f,%.1f,%.1f,%.4f,%.1f,%.1f,%.1f,%.1f,%s,%s", pe.command,
            pe.clients,
            pe.round, pe.rowsPerSecond, ours.rowsPerSecond, ours.rowsPerSecond / pe.rowsPerSecond,
            pe.meanLatencyMicros, ours.meanLatencyMicros,
            ours.meanLatencyMicros / pe.meanLatencyMicros, pe.p50Micros, ours.p50Micros,
            pe.p99Micros, ours.p99Micros, csvFigure(pe.cpuMicrosPerRow),
            csvFigure(ours.cpuMicrosPerRow)));
        }
      }
    }
    StringBuilder md = new StringBuilder();
    StringBuilder csv = new StringBuilder("command,clients,pairs,pe rows/s (geo mean),"
      + "hbase-perf rows/s (geo mean),throughput ratio,low,high,verdict,latency ratio,low,high,"
      + "median latency ratio,low,high,p99 latency ratio,low,high,client cpu per row ratio,low,"
      + "high\n");
    md.append("| command | clients | pairs | PE rows/s | hbase-perf rows/s | hbase-perf / PE "
      + "throughput [95% CI] | within ±10% | mean latency hbase-perf / PE [95% CI] | median "
      + "latency [95% CI] | p99 latency [95% CI] | client CPU per row [95% CI] |\n");
    md.append("|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (Map.Entry<String, List<Run[]>> e : byCase.entrySet()) {
      String[] k = e.getKey().split("\t");
      List<Run[]> pairs = e.getValue();
      int n = pairs.size();
      double[] ratios = new double[n];
      double[] peRates = new double[n];
      double[] ourRates = new double[n];
      for (int i = 0; i < n; i++) {
        Run pe = pairs.get(i)[0];
        Run ours = pairs.get(i)[1];
        ratios[i] = ours.rowsPerSecond / pe.rowsPerSecond;
        peRates[i] = pe.rowsPerSecond;
        ourRates[i] = ours.rowsPerSecond;
      }
      Interval t = pairedRatio(ratios);
      md.append(String.format(Locale.ROOT, "| %s | %s | %d | %,.0f | %,.0f | %s | %s |", k[0],
        k[1], t.n, pairedRatio(peRates).estimate, pairedRatio(ourRates).estimate, shown(t),
        t.verdict()));
      csv.append(String.format(Locale.ROOT, "%s,%s,%d,%.1f,%.1f,%.4f,%s,%s,%s", k[0], k[1], t.n,
        pairedRatio(peRates).estimate, pairedRatio(ourRates).estimate, t.estimate,
        csvBound(t.low), csvBound(t.high), t.verdict()));
      for (int f = 0; f < FIGURES.length; f++) {
        Interval l = latencyRatio(pairs, f);
        md.append(' ').append(l == null ? "n/a" : shown(l)).append(" |");
        csv.append(',').append(l == null ? "" : String.format(Locale.ROOT, "%.4f", l.estimate))
          .append(',').append(l == null ? "" : csvBound(l.low)).append(',')
          .append(l == null ? "" : csvBound(l.high));
      }
      md.append('\n');
      csv.append('\n');
    }
    Files.writeString(dir.resolve("table.md"), md.toString(), StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("table.csv"), csv.toString(), StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("pairs.csv"), String.join("\n", pairLines) + "\n",
      StandardCharsets.UTF_8);
    return md.toString();
  }

  /**
   * hbase-perf / PE for figure {@code f} ({@link Run#latency}) over the pairs where both tools
   * gave it above 0 (PE's median of a scan is 0 us: most rows come from the client's cache);
   * null ("n/a" in the table) when no pair did.
   */
  static Interval latencyRatio(List<Run[]> pairs, int f) {
    List<Double> ratios = new ArrayList<>();
    for (Run[] p : pairs) {
      double pe = p[0].latency(f);
      double ours = p[1].latency(f);
      if (pe > 0 && ours > 0) {
        ratios.add(ours / pe);
      }
    }
    return ratios.isEmpty() ? null
      : pairedRatio(ratios.stream().mapToDouble(Double::doubleValue).toArray());
  }

  /** The estimate with its interval, or with "no interval" when one pair cannot give one. */
  static String shown(Interval i) {
    if (Double.isNaN(i.low)) {
      return String.format(Locale.ROOT, "%.3f (%d pair%s, no interval)", i.estimate, i.n,
        i.n == 1 ? "" : "s");
    }
    return String.format(Locale.ROOT, "%.3f [%.3f, %.3f]", i.estimate, i.low, i.high);
  }

  private static String csvFigure(double v) {
    return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.2f", v);
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
