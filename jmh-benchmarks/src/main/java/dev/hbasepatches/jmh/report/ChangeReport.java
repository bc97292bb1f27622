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

import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Renders the Markdown report for one change: what ran, then one section per benchmark. */
final class ChangeReport {

  static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'");

  /** JMH's modes in the order its own output lists them; unknown ones sort last. */
  private static final List<String> JMH_MODE_ORDER = List.of("thrpt", "avgt", "sample", "ss");

  /** A benchmark method in one JMH mode and unit: what one set of tables can compare. */
  record GroupKey(String benchmark, String shortName, String jmhMode, String unit) {
    static GroupKey of(JmhResult r) {
      return new GroupKey(r.benchmark(), r.shortName(), r.jmhMode(), r.primary().unit());
    }
  }

  private static final Comparator<GroupKey> ORDER = Comparator.comparing(GroupKey::shortName)
    .thenComparing(GroupKey::benchmark)
    .thenComparing(k -> modeRank(k.jmhMode()))
    .thenComparing(GroupKey::unit);

  private ChangeReport() {
  }

  /**
   * @param generated when the report is written, in UTC
   * @param source    the result file, as named to the writer
   */
  static String render(String change, List<JmhResult> results, MachineInfo machine,
    ZonedDateTime generated, String source) {
    return render(change, results, machine, null, generated, source);
  }

  /**
   * @param captured the machine as captured when the benchmarks ran, or null: then
   *                 {@code machine}, read at report time, is described as such
   */
  static String render(String change, List<JmhResult> results, MachineInfo machine,
    RunMachine captured, ZonedDateTime generated, String source) {
    Map<GroupKey, List<JmhResult>> groups = groups(results);
    StringBuilder out = new StringBuilder();
    out.append("# ").append(change).append(": JMH results\n\n");
    out.append("Generated ").append(DATE.format(generated)).append(" from ")
      .append(Format.code(source)).append(" (").append(results.size()).append(" results, ")
      .append(groups.size()).append(groups.size() == 1 ? " benchmark).\n\n" : " benchmarks).\n\n");
    Headline.render(out, groups);
    whatRan(out, results, groups, machine, captured);
    out.append("## Results\n\n");
    out.append("Each cell is JMH's score: the mean of every measured iteration of every fork")
      .append(" (JMH's own 99.9% error is not shown: iterations of one fork are not independent,")
      .append(" the fork is the unit). Ratios compare PATCHED with each other mode and are")
      .append(" oriented so that > 1 always means PATCHED is better: for time per operation (lower")
      .append(" is better) the ratio is inverted. A ratio is the ratio of the modes' geometric")
      .append(" means over forks, as in the headline, with its 95% interval over forks in brackets")
      .append(" where each mode ran ").append(ForkStats.MIN_FORKS).append(" forks or more. ")
      .append(Format.NOT_AVAILABLE).append(": no value; ")
      .append(Format.MISSING).append(": that mode was not run.\n");
    for (Map.Entry<GroupKey, List<JmhResult>> g : groups.entrySet()) {
      GroupKey k = g.getKey();
      out.append("\n### ").append(k.shortName()).append(" (").append(k.jmhMode()).append(", ")
        .append(k.unit()).append(")\n\n");
      new ResultTables(g.getValue()).render(out);
    }
    return out.toString();
  }

  static Map<GroupKey, List<JmhResult>> groups(List<JmhResult> results) {
    Map<GroupKey, List<JmhResult>> groups = new LinkedHashMap<>();
    for (JmhResult r : results) {
      groups.computeIfAbsent(GroupKey.of(r), k -> new ArrayList<>()).add(r);
    }
    Map<GroupKey, List<JmhResult>> sorted = new LinkedHashMap<>();
    groups.keySet().stream().sorted(ORDER).forEach(k -> sorted.put(k, groups.get(k)));
    return sorted;
  }

  private static void whatRan(StringBuilder out, List<JmhResult> results,
    Map<GroupKey, List<JmhResult>> groups, MachineInfo machine, RunMachine captured) {
    out.append("## What ran\n\n");
    if (captured != null) {
      machine = captured.machine();
      out.append("Machine, captured when the benchmarks ran (`RunMachine`, beside the result")
        .append(" file): started ").append(captured.startUtc()).append(", load average ")
        .append(captured.startLoad());
      if (captured.endUtc() != null) {
        out.append("; ended ").append(captured.endUtc()).append(", load average ")
          .append(captured.endLoad());
      }
      out.append("; build JDK ").append(captured.java()).append(".\n\n");
    } else {
      out.append("Machine, read from /proc when this report was written (JMH does not record ")
        .append("hardware, so this is the benchmark machine only if the report was rendered ")
        .append("there):\n\n");
    }
    out.append("- CPU: ").append(machine.describeCpu()).append('\n');
    out.append("- Logical cores: ").append(machine.describeCores()).append('\n');
    out.append("- Memory: ").append(machine.describeMemory()).append("\n\n");

    out.append("From the result file:\n\n");
    Set<JmhResult.Toolchain> toolchains = new LinkedHashSet<>();
    results.forEach(r -> toolchains.add(r.toolchain()));
    Set<String> jmhVersions = new LinkedHashSet<>();
    for (JmhResult.Toolchain t : toolchains) {
      out.append("- JDK: ").append(t.jdkVersion()).append(", ").append(t.vmName()).append(' ')
        .append(t.vmVersion()).append(" (").append(Format.code(t.jvm())).append(")\n");
      jmhVersions.add(t.jmhVersion());
    }
    out.append("- JMH: ").append(String.join(", ", jmhVersions)).append("\n\n");

    out.append("JMH settings:\n\n");
    ResultTables.tableHeader(out, List.of("benchmark", "JMH mode", "threads", "forks", "warmup",
      "measurement", "JVM args"), "llrrlll");
    // JVM argument lists are long and usually shared, so the table points at a numbered list.
    List<List<String>> argLists = new ArrayList<>();
    for (Map.Entry<GroupKey, List<JmhResult>> g : groups.entrySet()) {
      Set<JmhResult.Settings> distinct = new LinkedHashSet<>();
      g.getValue().forEach(r -> distinct.add(r.settings()));
      for (JmhResult.Settings s : distinct) {
        ResultTables.tableRow(out, List.of(g.getKey().shortName(), g.getKey().jmhMode(),
          count(s.threads()), count(s.forks()),
          phase(s.warmupIterations(), s.warmupTime(), s.warmupBatchSize()),
          phase(s.measurementIterations(), s.measurementTime(), s.measurementBatchSize()),
          argsCell(s.jvmArgs(), argLists)));
      }
    }
    for (int i = 0; i < argLists.size(); i++) {
      out.append("\nJVM args ").append(argsLabel(i)).append(":\n\n```text\n")
        .append(String.join(" ", argLists.get(i))).append("\n```\n");
    }
    out.append('\n');
  }

  private static String argsCell(List<String> args, List<List<String>> argLists) {
    if (args.isEmpty()) {
      return "none";
    }
    int index = argLists.indexOf(args);
    if (index < 0) {
      argLists.add(args);
      index = argLists.size() - 1;
    }
    return args.size() + " (" + argsLabel(index) + ")";
  }

  private static String argsLabel(int index) {
    return "list " + (index + 1);
  }

  /** {@code 5 × 2 s}, with the batch size when it is not JMH's default of 1. */
  private static String phase(int iterations, String time, int batchSize) {
    if (iterations == 0) {
      return "none";
    }
    String s = count(iterations) + " \u00d7 " + time;
    return batchSize > 1 ? s + ", batch " + batchSize : s;
  }

  private static String count(int n) {
    return n < 0 ? "?" : Integer.toString(n);
  }

  private static int modeRank(String jmhMode) {
    int i = JMH_MODE_ORDER.indexOf(jmhMode);
    return i < 0 ? JMH_MODE_ORDER.size() : i;
  }
}
