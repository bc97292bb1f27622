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

import dev.hbasepatches.jmh.HBaseBenchmark;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The result tables for one benchmark method in one JMH mode and unit: a comparison table with
 * one row per case (every parameter but {@code mode}) and one column per mode, then the
 * allocation table and any other secondary metrics.
 *
 * <p>Rows keep the order JMH ran them in, which is the order the {@code @Param} values were
 * declared in, so a benchmark author controls how the table reads.
 */
final class ResultTables {

  /** The secondary metric {@code -prof gc} reports as allocation per operation. */
  static final String ALLOC_METRIC = "gc.alloc.rate.norm";

  private static final String PATCHED = HBaseBenchmark.Mode.PATCHED.name();
  private static final String BASELINE = HBaseBenchmark.Mode.BASELINE.name();
  private static final String UPSTREAM = HBaseBenchmark.Mode.UPSTREAM.name();

  /** Column for results whose benchmark has no {@code mode} parameter at all. */
  private static final String NO_MODE = "(no mode param)";

  private final String unit;
  private final boolean lowerIsBetter;
  /** Parameters that vary between cases: the table's leading columns. */
  private final List<String> paramNames;
  /** Parameters with one value in every case, stated once above the tables. */
  private final Map<String, String> fixedParams = new LinkedHashMap<>();
  private final List<String> modeColumns;
  private final List<String> secondaryNames;
  /** Case parameters to the results by mode value; both maps keep first-seen order. */
  private final Map<Map<String, String>, Map<String, JmhResult>> cases = new LinkedHashMap<>();
  private final List<String> duplicates = new ArrayList<>();

  /** @param group results sharing benchmark, JMH mode and primary unit; not empty */
  ResultTables(List<JmhResult> group) {
    this.unit = group.get(0).primary().unit();
    this.lowerIsBetter = Ratio.lowerIsBetter(unit);
    Set<String> params = new LinkedHashSet<>();
    // The three known modes always get a column, so a mode that did not run shows as missing.
    Set<String> modes = new LinkedHashSet<>();
    for (HBaseBenchmark.Mode m : HBaseBenchmark.Mode.values()) {
      modes.add(m.name());
    }
    Set<String> secondary = new LinkedHashSet<>();
    for (JmhResult r : group) {
      Map<String, String> key = r.caseParams();
      params.addAll(key.keySet());
      String mode = r.modeParam() == null ? NO_MODE : r.modeParam();
      modes.add(mode);
      secondary.addAll(r.secondary().keySet());
      JmhResult previous = cases.computeIfAbsent(key, k -> new LinkedHashMap<>()).put(mode, r);
      if (previous != null) {
        duplicates.add(describeCase(key) + ", mode=" + mode);
      }
    }
    // With several rows, a parameter that never changes (a seed, a data size) only widens the
    // table; one row keeps every parameter so the case is still fully described.
    if (cases.size() > 1) {
      for (String name : params) {
        String value = null;
        boolean same = true;
        for (Map<String, String> c : cases.keySet()) {
          String v = c.get(name);
          same &= v != null && (value == null || value.equals(v));
          value = v;
        }
        if (same) {
          fixedParams.put(name, value);
        }
      }
      params.removeAll(fixedParams.keySet());
    }
    this.paramNames = List.copyOf(params);
    // ...except where a benchmark ran variants of it instead (UPSTREAM_AVERAGE, UPSTREAM_FIXED).
    Set<String> ran = new LinkedHashSet<>();
    for (Map<String, JmhResult> byMode : cases.values()) {
      ran.addAll(byMode.keySet());
    }
    for (String family : List.of(BASELINE, UPSTREAM)) {
      if (!ran.contains(family) && ran.stream().anyMatch(m -> m.startsWith(family + "_"))) {
        modes.remove(family);
      }
    }
    this.modeColumns = List.copyOf(modes);
    secondary.remove(ALLOC_METRIC);
    this.secondaryNames = List.copyOf(secondary);
  }

  boolean lowerIsBetter() {
    return lowerIsBetter;
  }

  void render(StringBuilder out) {
    out.append(orientation()).append("\n\n");
    if (!fixedParams.isEmpty()) {
      List<String> fixed = new ArrayList<>();
      fixedParams.forEach((k, v) -> fixed.add(Format.code(k + "=" + shown(v))));
      out.append("Same in every case: ").append(String.join(", ", fixed)).append(".\n\n");
    }
    renderComparison(out);
    if (hasSecondary(ALLOC_METRIC)) {
      out.append("\nAllocation per op (B/op), ").append(Format.code(ALLOC_METRIC))
        .append(" from ").append(Format.code("-prof gc")).append(":\n\n");
      renderSecondary(out, List.of(ALLOC_METRIC), false, false);
    }
    if (!secondaryNames.isEmpty()) {
      boolean ratios = secondaryNames.stream().anyMatch(this::hasDirection);
      out.append("\nOther secondary metrics").append(ratios
        ? " (ratios, oriented as above, only for ops/time and time/op units):\n\n" : ":\n\n");
      renderSecondary(out, secondaryNames, true, ratios);
    }
    if (!duplicates.isEmpty()) {
      out.append("\nThe result file holds more than one result for ")
        .append(Format.cell(String.join("; ", duplicates)))
        .append("; the tables show the last of each.\n");
    }
  }

  /** The legend line: which way the ratios point for this unit. */
  String orientation() {
    String u = Format.code(unit);
    if (lowerIsBetter) {
      return "Lower is better for " + u + ", so the ratios are inverted (" + BASELINE + "/"
        + PATCHED + ", " + UPSTREAM + "/" + PATCHED + "): > 1 means " + PATCHED + " is faster.";
    }
    return "Higher is better for " + u + ", so the ratios are " + PATCHED + "/" + BASELINE + " and "
      + PATCHED + "/" + UPSTREAM + ": > 1 means " + PATCHED + " is better.";
  }

  private void renderComparison(StringBuilder out) {
    List<String> header = new ArrayList<>(paramHeader());
    header.addAll(modeColumns);
    for (String other : comparedModes()) {
      header.add(PATCHED + " vs " + other);
    }
    tableHeader(out, header, paramHeader().size());
    for (Map.Entry<Map<String, String>, Map<String, JmhResult>> c : cases.entrySet()) {
      List<String> row = new ArrayList<>(paramCells(c.getKey()));
      Map<String, JmhResult> byMode = c.getValue();
      for (String mode : modeColumns) {
        row.add(Format.metric(primary(byMode, mode)));
      }
      Metric patched = primary(byMode, PATCHED);
      for (String other : comparedModes()) {
        row.add(Format.ratio(Ratio.of(patched, primary(byMode, other), lowerIsBetter)));
      }
      tableRow(out, row);
    }
  }

  /**
   * One row per case and metric, one column per mode. Ratios only where the unit says which way
   * is better: allocation can be zero, and a higher MB/sec or GC count is not "better".
   */
  private void renderSecondary(StringBuilder out, List<String> metrics, boolean nameColumn,
    boolean ratios) {
    List<String> header = new ArrayList<>(paramHeader());
    if (nameColumn) {
      header.add("metric");
    }
    int textColumns = header.size();
    header.addAll(modeColumns);
    if (ratios) {
      for (String other : comparedModes()) {
        header.add(PATCHED + " vs " + other);
      }
    }
    tableHeader(out, header, textColumns);
    for (Map.Entry<Map<String, String>, Map<String, JmhResult>> c : cases.entrySet()) {
      for (String metric : metrics) {
        List<String> row = new ArrayList<>(paramCells(c.getKey()));
        if (nameColumn) {
          row.add(metric);
        }
        Map<String, Metric> byMode = new LinkedHashMap<>();
        for (String mode : modeColumns) {
          JmhResult r = c.getValue().get(mode);
          Metric m = r == null ? null : r.secondary().get(metric);
          if (m != null) {
            byMode.put(mode, m);
          }
          row.add(Format.metric(m));
        }
        if (byMode.isEmpty()) {
          continue;
        }
        if (ratios) {
          Metric patched = byMode.get(PATCHED);
          Ratio.Better better = better(byMode);
          boolean lower = better == Ratio.Better.LOWER;
          for (String other : comparedModes()) {
            row.add(better == Ratio.Better.UNKNOWN ? ""
              : Format.ratio(Ratio.of(patched, byMode.get(other), lower)));
          }
        }
        tableRow(out, row);
      }
    }
  }

  /**
   * The modes PATCHED is compared with: BASELINE and UPSTREAM (a dash where one did not run), each
   * followed by the variants a benchmark ran, such as {@code UPSTREAM_FIXED} for a second upstream
   * implementation; variants without their plain mode take its place.
   */
  private List<String> comparedModes() {
    List<String> out = new ArrayList<>();
    for (String family : List.of(BASELINE, UPSTREAM)) {
      List<String> variants = new ArrayList<>();
      for (String m : modeColumns) {
        if (m.startsWith(family + "_")) {
          variants.add(m);
        }
      }
      // The plain mode keeps its column (a dash if it did not run) unless variants replace it.
      if (modeColumns.contains(family) || variants.isEmpty()) {
        out.add(family);
      }
      out.addAll(variants);
    }
    return out;
  }

  /** The direction of a metric's unit, or UNKNOWN if the modes disagree on the unit. */
  private static Ratio.Better better(Map<String, Metric> byMode) {
    Set<String> units = new LinkedHashSet<>();
    byMode.values().forEach(m -> units.add(m.unit()));
    return units.size() == 1 ? Ratio.better(units.iterator().next()) : Ratio.Better.UNKNOWN;
  }

  private boolean hasDirection(String metric) {
    for (Map<String, JmhResult> byMode : cases.values()) {
      for (JmhResult r : byMode.values()) {
        Metric m = r.secondary().get(metric);
        if (m != null && Ratio.better(m.unit()) != Ratio.Better.UNKNOWN) {
          return true;
        }
      }
    }
    return false;
  }

  private boolean hasSecondary(String metric) {
    for (Map<String, JmhResult> byMode : cases.values()) {
      for (JmhResult r : byMode.values()) {
        if (r.secondary().containsKey(metric)) {
          return true;
        }
      }
    }
    return false;
  }

  private static Metric primary(Map<String, JmhResult> byMode, String mode) {
    JmhResult r = byMode.get(mode);
    return r == null ? null : r.primary();
  }

  /** Parameter columns; a benchmark with no parameter but mode still needs a row label. */
  private List<String> paramHeader() {
    return paramNames.isEmpty() ? List.of("params") : paramNames;
  }

  private List<String> paramCells(Map<String, String> caseParams) {
    if (paramNames.isEmpty()) {
      return List.of("(none)");
    }
    List<String> cells = new ArrayList<>();
    for (String name : paramNames) {
      cells.add(shown(caseParams.getOrDefault(name, Format.MISSING)));
    }
    return cells;
  }

  /** An empty @Param value (often "use the default") would otherwise be invisible. */
  private static String shown(String paramValue) {
    return paramValue.isEmpty() ? "\"\"" : paramValue;
  }

  private static String describeCase(Map<String, String> caseParams) {
    if (caseParams.isEmpty()) {
      return "(no params)";
    }
    List<String> parts = new ArrayList<>();
    caseParams.forEach((k, v) -> parts.add(k + "=" + v));
    return String.join(", ", parts);
  }

  /** A header row; the first {@code textColumns} are left-aligned, the rest are numbers. */
  static void tableHeader(StringBuilder out, List<String> header, int textColumns) {
    StringBuilder align = new StringBuilder();
    for (int i = 0; i < header.size(); i++) {
      align.append(i < textColumns ? 'l' : 'r');
    }
    tableHeader(out, header, align.toString());
  }

  /** A header row; {@code align} holds one {@code l} or {@code r} per column. */
  static void tableHeader(StringBuilder out, List<String> header, String align) {
    tableRow(out, header);
    out.append('|');
    for (int i = 0; i < header.size(); i++) {
      out.append(align.charAt(i) == 'r' ? " ---: |" : " --- |");
    }
    out.append('\n');
  }

  static void tableRow(StringBuilder out, List<String> cells) {
    out.append('|');
    for (String c : cells) {
      out.append(' ').append(Format.cell(c)).append(" |");
    }
    out.append('\n');
  }
}
