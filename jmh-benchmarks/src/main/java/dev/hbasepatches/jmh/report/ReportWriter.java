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

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Turns JMH's JSON result file into one Markdown report per change, plus an index.
 *
 * <pre>
 * java -cp benchmarks.jar dev.hbasepatches.jmh.report.ReportWriter &lt;result.json&gt;... &lt;dir&gt;
 * </pre>
 *
 * <p>Exit status: 0 on success, 2 for bad input or usage (one line on stderr, no stack trace,
 * since the cause is almost always the wrong path), 1 if the reports cannot be written.
 */
public final class ReportWriter {

  static final int EXIT_OK = 0;
  static final int EXIT_WRITE_FAILED = 1;
  static final int EXIT_BAD_INPUT = 2;

  private static final String USAGE =
    "usage: ReportWriter <jmh-result.json>... <reports dir>";

  private final Clock clock;
  private final MachineInfo machine;

  ReportWriter(Clock clock, MachineInfo machine) {
    this.clock = clock;
    this.machine = machine;
  }

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** {@link #main} without the exit, so tests can check status and messages. */
  static int run(String[] args, PrintStream out, PrintStream err) {
    if (args.length == 1 && (args[0].equals("-h") || args[0].equals("--help"))) {
      out.println(USAGE);
      return EXIT_OK;
    }
    if (args.length < 2) {
      err.println(USAGE);
      return EXIT_BAD_INPUT;
    }
    List<Path> json = new ArrayList<>();
    Path dir;
    try {
      for (int i = 0; i < args.length - 1; i++) {
        json.add(Path.of(args[i]));
      }
      dir = Path.of(args[args.length - 1]);
    } catch (InvalidPathException e) {
      err.println("ReportWriter: " + e.getMessage());
      return EXIT_BAD_INPUT;
    }
    // Machine facts are read now, at report time; the report says so.
    ReportWriter writer = new ReportWriter(Clock.systemUTC(), MachineInfo.fromProc());
    try {
      List<Path> written = writer.write(json, dir);
      out.println("ReportWriter: wrote " + written.size() + " files to " + dir + ": "
        + String.join(", ", written.stream().map(p -> p.getFileName().toString()).toList()));
      return EXIT_OK;
    } catch (BadInputException e) {
      err.println("ReportWriter: " + e.getMessage());
      return EXIT_BAD_INPUT;
    } catch (IOException e) {
      err.println("ReportWriter: cannot write reports to " + dir + ": " + e);
      return EXIT_WRITE_FAILED;
    }
  }

  /**
   * Writes {@code <change>.md} for every change in the result file, then {@code index.md}.
   * Reports of changes absent from this file are left alone, but the index lists only this
   * file's changes.
   *
   * @return the files written, index last
   */
  List<Path> write(Path json, Path dir) throws BadInputException, IOException {
    return write(List.of(json), dir);
  }

  /**
   * As {@link #write(Path, Path)} for several result files read as one, e.g. one JMH run per
   * case so that the three modes of a case run back to back on a noisy machine.
   */
  List<Path> write(List<Path> jsons, Path dir) throws BadInputException, IOException {
    List<JmhResult> results = new ArrayList<>();
    for (Path json : jsons) {
      results.addAll(JmhJsonParser.parse(json));
    }
    String sources = String.join(", ", jsons.stream().map(Path::toString).toList());
    // The machine as captured when the benchmarks ran (-Pjmh), from the first file that has it.
    RunMachine captured = null;
    for (Path json : jsons) {
      captured = captured != null ? captured : RunMachine.besides(json);
    }
    Map<String, List<JmhResult>> byChange = byChange(results);
    ZonedDateTime now = ZonedDateTime.now(clock).withZoneSameInstant(ZoneOffset.UTC);
    Files.createDirectories(dir);
    List<Path> written = new ArrayList<>();
    for (Map.Entry<String, List<JmhResult>> c : byChange.entrySet()) {
      Path file = dir.resolve(c.getKey() + ".md");
      Files.writeString(file,
        ChangeReport.render(c.getKey(), c.getValue(), machine, captured, now, sources),
        StandardCharsets.UTF_8);
      written.add(file);
    }
    Path index = dir.resolve(ChangeNames.INDEX + ".md");
    Files.writeString(index, renderIndex(byChange, now, sources), StandardCharsets.UTF_8);
    written.add(index);
    return written;
  }

  /** Results by change name, changes sorted by name, results in file order. */
  static Map<String, List<JmhResult>> byChange(List<JmhResult> results) {
    Map<String, List<JmhResult>> byChange = new TreeMap<>();
    for (JmhResult r : results) {
      byChange.computeIfAbsent(ChangeNames.changeOf(r), k -> new ArrayList<>()).add(r);
    }
    return byChange;
  }

  static String renderIndex(Map<String, List<JmhResult>> byChange, ZonedDateTime now,
    String source) {
    StringBuilder out = new StringBuilder();
    out.append("# JMH reports\n\n");
    out.append("Generated ").append(ChangeReport.DATE.format(now)).append(" from ")
      .append(Format.code(source)).append(".\n\n");
    ResultTables.tableHeader(out, List.of("change", "benchmarks", "results"), 2);
    for (Map.Entry<String, List<JmhResult>> c : byChange.entrySet()) {
      Set<String> names = new LinkedHashSet<>();
      for (ChangeReport.GroupKey k : ChangeReport.groups(c.getValue()).keySet()) {
        names.add(k.shortName());
      }
      ResultTables.tableRow(out, List.of("[" + c.getKey() + "](" + c.getKey() + ".md)",
        String.join(", ", names), Integer.toString(c.getValue().size())));
    }
    return out.toString();
  }
}
