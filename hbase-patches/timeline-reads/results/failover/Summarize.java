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

import dev.hbasepatches.jmh.report.ForkStats;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Summarises this folder's rounds: reads every raw/r&lt;N&gt;-&lt;fault&gt;/replicaFailover.csv and
 * -timeseries.csv that hbase-perf wrote, and writes rounds.csv (one line per round, fault and
 * mode), failover.md (per fault and mode: the mean over rounds with its 95% interval from
 * {@code ForkStats.mean}, the project's one statistics method, and the verdict against the
 * issue's 50 ms) and the Mermaid charts (the slowest read per 250 ms of intended start, worst
 * over the rounds).
 *
 * <pre>
 * java -cp benchmarks.jar Summarize.java DIR     # DIR holds raw/ and runs.tsv
 * </pre>
 */
public class Summarize {

  static final String[] MODES = { "BASELINE", "UPSTREAM", "PATCHED" };
  static final String[] FAULTS = { "abort", "stop" };
  static final double SLA = 50;

  public static void main(String[] args) throws IOException {
    Path dir = Path.of(args.length > 0 ? args[0] : ".");
    Map<String, String[]> runs = new TreeMap<>();
    for (String line : Files.readAllLines(dir.resolve("runs.tsv"))) {
      String[] c = line.split("\t");
      if (!c[0].equals("round")) {
        runs.put(c[0] + "-" + c[1], c);
      }
    }
    // fault -> mode -> per-round values of each metric
    Map<String, Map<String, Map<String, List<Double>>>> m = new LinkedHashMap<>();
    // fault -> mode -> bucket -> worst slowest read over the rounds
    Map<String, Map<String, double[]>> worst = new LinkedHashMap<>();
    StringBuilder csv = new StringBuilder("fault,round,mode,reads,failed,empty or wrong,stale,"
      + "p50 ms,p99 ms,max ms,max after fault ms,within 50 ms,within 50 ms after fault,"
      + "p99 after fault ms,"
      + "lock held s,load before,load after,exit\n");
    StringBuilder notes = new StringBuilder();
    int buckets = 0;
    for (String key : runs.keySet()) {
      String[] run = runs.get(key);
      String fault = run[1];
      Path raw = dir.resolve("raw").resolve("r" + run[0] + "-" + fault);
      Path table = raw.resolve("replicaFailover.csv");
      if (!Files.exists(table)) {
        notes.append("- round ").append(run[0]).append(' ').append(fault).append(": no table "
          + "(exit ").append(run[5]).append("), counted as not run\n");
        continue;
      }
      for (String line : Files.readAllLines(table)) {
        String[] c = line.split(",");
        if (c[0].equals("mode")) {
          continue;
        }
        String mode = c[0].split(" ")[0];
        Map<String, List<Double>> v = m.computeIfAbsent(fault, k -> new LinkedHashMap<>())
          .computeIfAbsent(mode, k -> new LinkedHashMap<>());
        add(v, "slowest", c[8]);
        add(v, "over50", String.valueOf(1 - Double.parseDouble(c[10])));
        add(v, "p99", c[11]);
        add(v, "failedEmpty", String.valueOf(Double.parseDouble(c[2])
          + Double.parseDouble(c[3])));
        add(v, "failed", c[2]);
        add(v, "empty", c[3]);
        add(v, "stale", c[4]);
        add(v, "reads", c[1]);
        csv.append(fault).append(',').append(run[0]).append(',').append(mode);
        for (int i = 1; i < c.length; i++) {
          csv.append(',').append(c[i]);
        }
        csv.append(',').append(run[4]).append(',').append(run[6].replace(' ', '/'))
          .append(',').append(run[7].replace(' ', '/')).append(',').append(run[5]).append('\n');
      }
      List<String> series = Files.readAllLines(raw.resolve("replicaFailover-timeseries.csv"));
      Map<String, Integer> index = new LinkedHashMap<>();
      for (String line : series.subList(1, series.size())) {
        String[] c = line.split(",");
        int b = index.merge(c[0], 1, Integer::sum) - 1;
        double[] w = worst.computeIfAbsent(fault, k -> new LinkedHashMap<>())
          .computeIfAbsent(c[0], k -> new double[64]);
        w[b] = Math.max(w[b], Double.parseDouble(c[5]));
        buckets = Math.max(buckets, b + 1);
      }
    }
    Files.writeString(dir.resolve("rounds.csv"), csv);

    StringBuilder md = new StringBuilder();
    md.append("| fault | mode | rounds | slowest read after the fault, ms | verdict (<= 50 ms) "
      + "| share over 50 ms after the fault | verdict (0) | p99 after the fault, ms "
      + "| failed + empty reads per round | stale reads per round |\n");
    md.append("|---|---|---:|---|---|---|---|---|---|---|\n");
    StringBuilder ratios = new StringBuilder();
    for (String fault : FAULTS) {
      Map<String, Map<String, List<Double>>> f = m.getOrDefault(fault, Map.of());
      for (String mode : MODES) {
        Map<String, List<Double>> v = f.get(mode);
        if (v == null) {
          continue;
        }
        ForkStats.Interval slow = ForkStats.mean(arr(v.get("slowest")));
        ForkStats.Interval over = ForkStats.mean(arr(v.get("over50")));
        md.append(String.format(Locale.ROOT, "| %s | %s | %d | %s | %s | %s | %s | %s | %s | %s |%n",
          fault.equals("stop") ? "graceful stop" : "abort",
          mode + (mode.equals("BASELINE") ? " (STRONG)" : ""), slow.n(), ci(slow, 0),
          verdict(slow, SLA), ci(over, 3), verdict(over, 0), ci(ForkStats.mean(arr(v.get("p99"))),
            0), ci(ForkStats.mean(arr(v.get("failedEmpty"))), 1),
          ci(ForkStats.mean(arr(v.get("stale"))), 0)));
      }
      if (f.containsKey("PATCHED") && f.containsKey("UPSTREAM")) {
        List<Double> p = f.get("PATCHED").get("slowest");
        List<Double> u = f.get("UPSTREAM").get("slowest");
        double[] r = new double[Math.min(p.size(), u.size())];
        for (int i = 0; i < r.length; i++) {
          r[i] = p.get(i) / u.get(i);
        }
        ForkStats.Interval in = ForkStats.pairedRatio(r);
        ratios.append(String.format(Locale.ROOT, "- %s: PATCHED / UPSTREAM slowest read after "
            + "the fault, paired by round: %.3g [%.3g, %.3g] (%d rounds)%n",
          fault.equals("stop") ? "graceful stop" : "abort", in.estimate(), in.low(), in.high(),
          in.n()));
      }
    }
    md.append('\n').append(ratios).append(notes);
    md.append("\nPer round (slowest read after the fault, ms; failed / empty or wrong):\n\n");
    md.append("| fault | mode | each round |\n|---|---|---|\n");
    for (String fault : FAULTS) {
      for (String mode : MODES) {
        Map<String, List<Double>> v = m.getOrDefault(fault, Map.of()).get(mode);
        if (v == null) {
          continue;
        }
        List<String> each = new ArrayList<>();
        for (int i = 0; i < v.get("slowest").size(); i++) {
          each.add(String.format(Locale.ROOT, "%.0f (%.0f / %.0f)", v.get("slowest").get(i),
            v.get("failed").get(i), v.get("empty").get(i)));
        }
        md.append("| ").append(fault).append(" | ").append(mode).append(" | ")
          .append(String.join(", ", each)).append(" |\n");
      }
    }
    for (String fault : FAULTS) {
      Map<String, double[]> w = worst.get(fault);
      if (w == null) {
        continue;
      }
      md.append(chart(fault, w, buckets, MODES));
      md.append(chart(fault, w, buckets, new String[] { "UPSTREAM", "PATCHED" }));
    }
    Files.writeString(dir.resolve("failover.md"), md);
    System.out.print(md);
  }

  static String chart(String fault, Map<String, double[]> w, int buckets, String[] modes) {
    StringBuilder s = new StringBuilder("\n```mermaid\nxychart-beta\n");
    s.append("  title \"").append(fault.equals("stop") ? "Graceful stop" : "Abort")
      .append(": slowest read per 250 ms, worst of the rounds (")
      .append(String.join(", ", modes)).append(")\"\n  x-axis \"s of intended start\" [");
    for (int b = 0; b < buckets; b++) {
      s.append(b == 0 ? "" : ", ").append('"')
        .append(String.format(Locale.ROOT, "%.2f", b * 0.25)).append('"');
    }
    s.append("]\n  y-axis \"ms\"\n");
    for (String mode : modes) {
      double[] v = w.get(mode);
      if (v == null) {
        continue;
      }
      s.append("  line [");
      for (int b = 0; b < buckets; b++) {
        s.append(b == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.1f", v[b]));
      }
      s.append("]\n");
    }
    return s.append("```\n").toString();
  }

  static void add(Map<String, List<Double>> v, String k, String value) {
    v.computeIfAbsent(k, x -> new ArrayList<>()).add(Double.parseDouble(value));
  }

  static double[] arr(List<Double> l) {
    return l.stream().mapToDouble(Double::doubleValue).toArray();
  }

  static String ci(ForkStats.Interval in, int digits) {
    String f = "%." + digits + "f";
    return String.format(Locale.ROOT, f + " [" + f + ", " + f + "]", in.estimate(), in.low(),
      in.high());
  }

  /** The project's rule for "at most": met when the upper bound is at or under the limit. */
  static String verdict(ForkStats.Interval in, double limit) {
    if (in.n() < ForkStats.MIN_FORKS || Double.isNaN(in.high())) {
      return "inconclusive (" + in.n() + " rounds)";
    }
    if (in.high() <= limit) {
      return "**met**";
    }
    return in.low() > limit ? "**not met**" : "**inconclusive**";
  }
}
