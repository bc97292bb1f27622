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
package dev.hbasepatches.jmh.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The top of a change's report, what a reviewer reads first: for every case, PATCHED against
 * UPSTREAM and BASELINE with the project's statistics ({@link ForkStats#ratio}: the fork is the
 * unit, 95% interval over forks), a verdict, and a chart. A comparison with fewer than
 * {@link ForkStats#MIN_FORKS} forks on either side gets no interval and no verdict, and the
 * report says so loudly at the top, since the quick {@code -Pjmh} settings run one fork.
 */
final class Headline {

  /** One case's comparisons, oriented so that above 1 means PATCHED is better. */
  record Row(String benchmark, String caseLabel, String unit, Map<String, ForkStats.Interval> vs,
    Map<String, String> params, int threads) {
  }

  private Headline() {
  }

  static List<Row> rows(Map<ChangeReport.GroupKey, List<JmhResult>> groups) {
    List<Row> rows = new ArrayList<>();
    for (Map.Entry<ChangeReport.GroupKey, List<JmhResult>> g : groups.entrySet()) {
      Map<String, Map<String, JmhResult>> cases = new LinkedHashMap<>();
      for (JmhResult r : g.getValue()) {
        if (r.modeParam() != null) {
          cases.computeIfAbsent(caseLabel(r), k -> new LinkedHashMap<>()).put(r.modeParam(), r);
        }
      }
      boolean lowerBetter = Compare.lowerIsBetter(g.getKey().unit());
      for (Map.Entry<String, Map<String, JmhResult>> c : cases.entrySet()) {
        JmhResult patched = c.getValue().get("PATCHED");
        if (patched == null) {
          continue;
        }
        Map<String, ForkStats.Interval> vs = new LinkedHashMap<>();
        for (String other : others(c.getValue().keySet())) {
          JmhResult o = c.getValue().get(other);
          if (o != null) {
            double[] p = patched.primary().forkMeans();
            double[] q = o.primary().forkMeans();
            vs.put(other, lowerBetter ? ForkStats.ratio(q, p) : ForkStats.ratio(p, q));
          }
        }
        if (!vs.isEmpty()) {
          rows.add(new Row(g.getKey().shortName(), c.getKey(), g.getKey().unit(), vs,
            patched.caseParams(), patched.settings().threads()));
        }
      }
    }
    return rows;
  }

  /** The modes PATCHED is compared with: UPSTREAM and its variants, BASELINE, then the rest. */
  static List<String> others(java.util.Collection<String> modes) {
    List<String> out = new ArrayList<>();
    modes.stream().filter(m -> m.startsWith("UPSTREAM")).sorted().forEach(out::add);
    modes.stream().filter("BASELINE"::equals).forEach(out::add);
    modes.stream().filter(m -> !out.contains(m) && !"PATCHED".equals(m)).sorted()
      .forEach(out::add);
    return out;
  }

  private static String caseLabel(JmhResult r) {
    StringBuilder sb = new StringBuilder();
    r.caseParams().forEach((k, v) -> sb.append(sb.length() == 0 ? "" : " ").append(k).append('=')
      .append(v));
    return sb.length() == 0 ? "(no params)" : sb.toString();
  }

  /** Whether both sides of the comparison had enough forks to quote it. */
  static boolean decidable(ForkStats.Interval r) {
    return r.quotable() && Double.isFinite(r.low());
  }

  static String verdict(ForkStats.Interval r) {
    if (!decidable(r)) {
      return "first look (" + r.n() + " < " + ForkStats.MIN_FORKS + " forks): no verdict";
    }
    if (r.low() > 1) {
      return "PATCHED better";
    }
    return r.high() < 1 ? "PATCHED worse" : "no difference shown";
  }

  static void render(StringBuilder out, Map<ChangeReport.GroupKey, List<JmhResult>> groups) {
    List<Row> rows = rows(groups);
    out.append("## Headline\n\n");
    if (rows.isEmpty()) {
      out.append("No case ran PATCHED beside UPSTREAM or BASELINE.\n\n");
      return;
    }
    int undecided = 0;
    int total = 0;
    for (Row r : rows) {
      for (ForkStats.Interval i : r.vs().values()) {
        total++;
        if (!decidable(i)) {
          undecided++;
        }
      }
    }
    if (undecided > 0) {
      out.append("> **FIRST LOOK, NO VERDICTS: ").append(undecided).append(" of ").append(total)
        .append(" comparisons rest on fewer than ").append(ForkStats.MIN_FORKS)
        .append(" forks per mode.** The fork is the unit of these measurements, so no interval")
        .append(" or verdict is given for them. The verdicts are in each change's")
        .append(" `results/report.md`, made by `mvn -Pjmh verify` (both modes in every fork,")
        .append(" five forks per target).\n\n");
    }
    out.append("PATCHED against each other mode, per case; above 1 means PATCHED is better (for")
      .append(" time per operation the ratio is inverted). Ratio of the modes' geometric means")
      .append(" over forks, 95% interval over forks (Welch, log scale; `ForkStats`).\n\n");
    java.util.Set<String> modes = new java.util.LinkedHashSet<>();
    rows.forEach(r -> modes.addAll(r.vs().keySet()));
    List<String> others = others(modes);
    out.append("| benchmark | case | unit");
    for (String o : others) {
      out.append(" | PATCHED vs ").append(o).append(" | 95% interval | verdict");
    }
    out.append(" |\n|---|---|---");
    for (int i = 0; i < others.size(); i++) {
      out.append("|---:|---|---");
    }
    out.append("|\n");
    for (Row r : rows) {
      out.append("| ").append(r.benchmark()).append(" | ").append(r.caseLabel()).append(" | ")
        .append(r.unit());
      for (String o : others) {
        ForkStats.Interval i = r.vs().get(o);
        if (i == null) {
          out.append(" | - | - | not run");
        } else {
          out.append(" | ").append(Compare.sig3(i.estimate())).append(" | ")
            .append(decidable(i) ? ForkStatsCli.interval(i) : "-").append(" | ")
            .append(verdict(i));
        }
      }
      out.append(" |\n");
    }
    out.append('\n');
    chart(out, rows, others);
  }

  /** Per compared mode, a Mermaid bar chart of PATCHED against it per case, a line at 1. */
  static void chart(StringBuilder out, List<Row> rows, List<String> others) {
    for (String other : others) {
      List<String> labels = new ArrayList<>();
      List<Double> values = new ArrayList<>();
      for (Row r : rows) {
        ForkStats.Interval i = r.vs().get(other);
        if (i != null && Double.isFinite(i.estimate())) {
          labels.add(chartLabel(r.benchmark() + " " + r.caseLabel()));
          values.add(i.estimate());
        }
      }
      if (labels.isEmpty()) {
        continue;
      }
      double max = 1;
      for (double v : values) {
        max = Math.max(max, v);
      }
      out.append("```mermaid\nxychart-beta\n  title \"PATCHED vs ").append(other)
        .append(" (above 1: PATCHED better)\"\n  x-axis [");
      for (int i = 0; i < labels.size(); i++) {
        out.append(i == 0 ? "" : ", ").append('"').append(labels.get(i)).append('"');
      }
      double top = Math.ceil(max * 1.1 * 10) / 10;
      out.append("]\n  y-axis \"ratio\" 0 --> ").append(String.format(Locale.ROOT, "%.1f", top))
        .append("\n  bar [");
      StringBuilder ones = new StringBuilder();
      for (int i = 0; i < values.size(); i++) {
        out.append(i == 0 ? "" : ", ").append(Compare.sig3(values.get(i)));
        ones.append(i == 0 ? "" : ", ").append('1');
      }
      out.append("]\n  line [").append(ones).append("]\n```\n\n");
    }
  }

  /** Mermaid labels: no quotes or brackets, and short enough to read under a bar. */
  static String chartLabel(String s) {
    String clean = s.replaceAll("[\"\\[\\]]", "").replace("Benchmark.", ".");
    return clean.length() > 40 ? clean.substring(0, 39) + "\u2026" : clean;
  }
}
