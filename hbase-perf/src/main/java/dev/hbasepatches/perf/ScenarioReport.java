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
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a named scenario writes: one table as markdown (with Mermaid charts, which GitHub and most
 * markdown viewers draw) and as CSV, in {@code --reportDir}, and the markdown on the report
 * stream as well.
 */
final class ScenarioReport {

  /** One bar or line chart over the table's rows (Mermaid {@code xychart-beta}). */
  static final class Chart {
    final String title;
    final String yLabel;
    final List<String> xLabels;
    final List<String> seriesNames = new ArrayList<>();
    final List<double[]> series = new ArrayList<>();
    final boolean bars;

    Chart(String title, String yLabel, List<String> xLabels, boolean bars) {
      this.title = title;
      this.yLabel = yLabel;
      this.xLabels = xLabels;
      this.bars = bars;
    }

    Chart series(String name, double[] values) {
      if (values.length != xLabels.size()) {
        throw new IllegalArgumentException(name + ": " + values.length + " values for "
          + xLabels.size() + " x labels");
      }
      seriesNames.add(name);
      series.add(values);
      return this;
    }
  }

  private final String name;
  private final String title;
  private final List<String> columns;
  private final List<List<String>> rows = new ArrayList<>();
  private final List<String> notes = new ArrayList<>();
  private final List<Chart> charts = new ArrayList<>();
  /** Extra CSV files (name, header, rows), e.g. a latency time series. */
  private final List<Object[]> extraCsv = new ArrayList<>();

  ScenarioReport(String name, String title, List<String> columns) {
    this.name = name;
    this.title = title;
    this.columns = columns;
  }

  void row(Object... cells) {
    if (cells.length != columns.size()) {
      throw new IllegalArgumentException(cells.length + " cells for " + columns);
    }
    List<String> r = new ArrayList<>();
    for (Object c : cells) {
      r.add(format(c));
    }
    rows.add(r);
  }

  void note(String text) {
    notes.add(text);
  }

  void chart(Chart c) {
    charts.add(c);
  }

  /** Another CSV beside the table's, {@code <scenario>-<suffix>.csv}. */
  void csv(String suffix, List<String> header, List<List<String>> data) {
    extraCsv.add(new Object[] { suffix, header, data });
  }

  List<List<String>> rows() {
    return rows;
  }

  static String format(Object c) {
    if (c == null) {
      return "-";
    }
    if (c instanceof Double || c instanceof Float) {
      double d = ((Number) c).doubleValue();
      if (Double.isNaN(d)) {
        return "-";
      }
      double a = Math.abs(d);
      return a >= 100 ? String.format(Locale.ROOT, "%.0f", d)
        : a >= 10 ? String.format(Locale.ROOT, "%.1f", d)
        : String.format(Locale.ROOT, "%.3f", d);
    }
    return String.valueOf(c);
  }

  String markdown() {
    StringBuilder b = new StringBuilder();
    b.append("# ").append(title).append("\n\n");
    b.append("| ").append(String.join(" | ", columns)).append(" |\n");
    b.append("|").append("---|".repeat(columns.size())).append("\n");
    for (List<String> r : rows) {
      b.append("| ").append(String.join(" | ", r)).append(" |\n");
    }
    if (!notes.isEmpty()) {
      b.append("\n");
      for (String n : notes) {
        b.append("- ").append(n).append("\n");
      }
    }
    for (Chart c : charts) {
      b.append("\n").append(mermaid(c));
    }
    return b.toString();
  }

  static String mermaid(Chart c) {
    StringBuilder b = new StringBuilder();
    b.append("```mermaid\nxychart-beta\n");
    String legend = c.seriesNames.size() > 1 ? " (" + String.join(", ", c.seriesNames) + ")"
      : "";
    b.append("  title \"").append(quote(c.title + legend)).append("\"\n");
    b.append("  x-axis [");
    for (int i = 0; i < c.xLabels.size(); i++) {
      b.append(i == 0 ? "" : ", ").append('"').append(quote(c.xLabels.get(i))).append('"');
    }
    b.append("]\n");
    b.append("  y-axis \"").append(quote(c.yLabel)).append("\"\n");
    for (double[] s : c.series) {
      b.append("  ").append(c.bars ? "bar" : "line").append(" [");
      for (int i = 0; i < s.length; i++) {
        b.append(i == 0 ? "" : ", ").append(Double.isNaN(s[i]) ? "0" : format(s[i]));
      }
      b.append("]\n");
    }
    b.append("```\n");
    return b.toString();
  }

  private static String quote(String s) {
    return s.replace('"', '\'');
  }

  static String csvLine(List<String> cells) {
    List<String> q = new ArrayList<>();
    for (String c : cells) {
      q.add(c.contains(",") || c.contains("\"") ? '"' + c.replace("\"", "\"\"") + '"' : c);
    }
    return String.join(",", q);
  }

  String csv() {
    StringBuilder b = new StringBuilder(csvLine(columns)).append('\n');
    for (List<String> r : rows) {
      b.append(csvLine(r)).append('\n');
    }
    return b.toString();
  }

  /** Writes {@code <name>.md} and {@code <name>.csv} (and any extra CSVs) under {@code dir}. */
  List<Path> write(Path dir, PrintStream out) {
    List<Path> written = new ArrayList<>();
    try {
      Files.createDirectories(dir);
      Path md = dir.resolve(name + ".md");
      Files.writeString(md, markdown(), StandardCharsets.UTF_8);
      written.add(md);
      Path csv = dir.resolve(name + ".csv");
      Files.writeString(csv, csv(), StandardCharsets.UTF_8);
      written.add(csv);
      for (Object[] e : extraCsv) {
        @SuppressWarnings("unchecked")
        List<String> header = (List<String>) e[1];
        @SuppressWarnings("unchecked")
        List<List<String>> data = (List<List<String>>) e[2];
        StringBuilder b = new StringBuilder(csvLine(header)).append('\n');
        data.forEach(r -> b.append(csvLine(r)).append('\n'));
        Path p = dir.resolve(name + "-" + e[0] + ".csv");
        Files.writeString(p, b.toString(), StandardCharsets.UTF_8);
        written.add(p);
      }
    } catch (IOException e) {
      throw ToolFailure.usage("cannot write the " + name + " report under " + dir + ": "
        + ToolFailure.describe(e));
    }
    out.println(name + ": wrote " + written);
    return written;
  }
}
