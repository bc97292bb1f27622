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
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The compatibility tables: which module was tested on which HBase (and Phoenix) release, from
 * the records {@code dev-support/compat.sh} writes to {@code docs/compatibility/*.tsv} (one per
 * release: per module the tests its build ran, their failures, errors and skips, upstream's test
 * classes counted apart, and a hash of the module's {@code src/}). The README shows one cell per
 * change module and release; BUILDING.md every module with its counts, commit, JDK and date. A
 * cell whose module's {@code src/} changed since its record says <b>stale</b>.
 * <p>
 * Usage: {@code Compatibility [--root DIR] [--docs]}: prints both tables, or with {@code --docs}
 * writes them between the {@code <!-- compat:begin -->} / {@code <!-- compat:end -->} markers of
 * README.md and BUILDING.md. {@code CompatibilityTest} fails the build when the committed
 * documents differ from what the records give.
 */
public final class Compatibility {

  static final String DIR = "docs/compatibility";
  static final String BEGIN = "<!-- compat:begin -->";
  static final String END = "<!-- compat:end -->";
  static final String HEADER = "module\thbase\tphoenix\ttests\tfailures\terrors\tskipped"
    + "\tupstream_tests\tupstream_failures\tupstream_errors\tupstream_skipped\tresult\tsrc_sha"
    + "\tcommit\tjdk\tdate";
  static final Set<String> RESULTS = Set.of("passed", "failed", "build failed", "no tests",
    "not run");

  /**
   * One module's line of a record. Counts are -1 where the module wrote no reports of that kind
   * ("-" in the file).
   */
  record Entry(String file, String module, String hbase, String phoenix, int tests, int failures,
    int errors, int skipped, int upstreamTests, int upstreamFailures, int upstreamErrors,
    int upstreamSkipped, String result, String srcSha, String commit, String jdk, String date) {

    int allTests() {
      return Math.max(tests, 0) + Math.max(upstreamTests, 0);
    }

    int allSkipped() {
      return Math.max(skipped, 0) + Math.max(upstreamSkipped, 0);
    }

    int allFailed() {
      return Math.max(failures, 0) + Math.max(errors, 0) + Math.max(upstreamFailures, 0)
        + Math.max(upstreamErrors, 0);
    }

    /** What ran: the tests that were not skipped. */
    int executed() {
      return allTests() - allSkipped();
    }
  }

  private Compatibility() {
  }

  // ---------------------------------------------------------------------------------------------
  // the records

  /** Every record under {@code root/docs/compatibility}, files in name order. */
  static List<Entry> read(Path root) throws IOException, BadInputException {
    Path dir = root.resolve(DIR);
    List<Entry> out = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return out;
    }
    List<Path> files;
    try (Stream<Path> s = Files.list(dir)) {
      files = s.filter(p -> p.getFileName().toString().endsWith(".tsv")).sorted().toList();
    }
    for (Path f : files) {
      out.addAll(parse(f.getFileName().toString(), Files.readString(f, StandardCharsets.UTF_8)));
    }
    return out;
  }

  /** One record's lines; refuses a line whose result does not follow from its counts. */
  static List<Entry> parse(String file, String text) throws BadInputException {
    List<Entry> out = new ArrayList<>();
    boolean header = false;
    int lineNo = 0;
    for (String line : text.split("\n", -1)) {
      lineNo++;
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String where = file + " line " + lineNo + ": ";
      if (!header) {
        if (!line.equals(HEADER)) {
          throw new BadInputException(where + "expected the header '" + HEADER + "'");
        }
        header = true;
        continue;
      }
      String[] f = line.split("\t", -1);
      if (f.length != 16) {
        throw new BadInputException(where + "expected 16 tab-separated columns, got " + f.length);
      }
      int[] n = new int[8];
      for (int i = 0; i < 8; i++) {
        n[i] = count(f[3 + i], where + HEADER.split("\t")[3 + i]);
      }
      String result = f[11];
      if (!RESULTS.contains(result)) {
        throw new BadInputException(where + "result '" + result + "' is none of " + RESULTS);
      }
      Entry e = new Entry(file, f[0], f[1], f[2], n[0], n[1], n[2], n[3], n[4], n[5], n[6], n[7],
        result, f[12], f[13], f[14], f[15]);
      boolean ran = e.tests() >= 0 || e.upstreamTests() >= 0;
      boolean consistent = switch (result) {
        case "passed" -> ran && e.allFailed() == 0 && e.executed() > 0;
        case "failed" -> ran && e.allFailed() > 0;
        case "not run", "no tests" -> !ran;
        default -> true;
      };
      if (!consistent) {
        throw new BadInputException(where + f[0] + ": result '" + result + "' does not follow"
          + " from its counts (written by hand?); rerun dev-support/compat.sh");
      }
      if (!f[12].matches("[0-9a-f]{16}|none")) {
        throw new BadInputException(where + "src_sha '" + f[12] + "' is not 16 hex digits");
      }
      out.add(e);
    }
    if (!header) {
      throw new BadInputException(file + ": no header line");
    }
    return out;
  }

  private static int count(String s, String what) throws BadInputException {
    if (s.equals("-")) {
      return -1;
    }
    try {
      int v = Integer.parseInt(s);
      if (v >= 0) {
        return v;
      }
    } catch (NumberFormatException e) {
      // below
    }
    throw new BadInputException(what + " '" + s + "' is not a count or -");
  }

  /** The HBase releases the records name, newest first. */
  static List<String> releases(List<Entry> all) {
    Set<String> s = new LinkedHashSet<>();
    for (Entry e : all) {
      s.add(e.hbase());
    }
    List<String> out = new ArrayList<>(s);
    out.sort(Compatibility::compareReleases);
    return out;
  }

  /** Newer first: the numbers of "2.6.4-hadoop3" compared one by one, then the text. */
  static int compareReleases(String x, String y) {
    String[] a = x.split("[^0-9]+");
    String[] b = y.split("[^0-9]+");
    for (int i = 0; i < Math.min(a.length, b.length); i++) {
      if (!a[i].isEmpty() && !b[i].isEmpty() && !a[i].equals(b[i])) {
        return Long.compare(Long.parseLong(b[i]), Long.parseLong(a[i]));
      }
    }
    return a.length != b.length ? b.length - a.length : x.compareTo(y);
  }

  /** The modules in the order the records first list them. */
  static List<String> modules(List<Entry> all) {
    Set<String> s = new LinkedHashSet<>();
    for (Entry e : all) {
      s.add(e.module());
    }
    return new ArrayList<>(s);
  }

  /**
   * Per module and HBase release, the entry that decides the cell: the latest by date of those
   * that ran, else the latest (a module that pins its own release, like Phoenix's, can be in
   * every record with the same release).
   */
  static Map<String, Entry> latest(List<Entry> all) {
    Map<String, Entry> out = new LinkedHashMap<>();
    for (Entry e : all) {
      out.merge(e.module() + "@" + e.hbase(), e, (a, b) -> {
        boolean aRan = !a.result().equals("not run");
        boolean bRan = !b.result().equals("not run");
        return aRan != bRan ? (bRan ? b : a) : b.date().compareTo(a.date()) >= 0 ? b : a;
      });
    }
    return out;
  }

  /** Whether the module's src/ is no longer what the entry was made from. */
  static boolean stale(Path root, Entry e) throws IOException {
    return !e.srcSha().equals(Evidence.treeSha(root.resolve(e.module()).resolve("src")));
  }

  /** "passed 132/132", "passed 84/84 (3 skipped)", "failed 3 of 132", "not run", ", **stale**". */
  static String cell(Entry e, boolean stale) {
    String s = switch (e.result()) {
      case "passed" -> "passed " + e.executed() + "/" + e.executed()
        + (e.allSkipped() > 0 ? " (" + e.allSkipped() + " skipped)" : "");
      case "failed" -> "failed " + e.allFailed() + " of " + e.executed();
      default -> e.result();
    };
    return stale && !e.result().equals("not run") ? s + ", **stale**" : s;
  }

  // ---------------------------------------------------------------------------------------------
  // the tables

  /**
   * The README's table: one row per change module (a module with a PATCH.md), one column per HBase
   * release.
   */
  static String readmeBlock(Path root) throws IOException, BadInputException {
    List<Entry> all = read(root);
    if (all.isEmpty()) {
      return "No compatibility records yet: `dev-support/compat.sh`.\n";
    }
    List<String> releases = releases(all);
    Map<String, Entry> latest = latest(all);
    StringBuilder s = new StringBuilder("| module |");
    for (String r : releases) {
      s.append(" HBase ").append(r).append(" |");
    }
    s.append("\n|---|");
    s.append("---|".repeat(releases.size()));
    s.append('\n');
    for (String m : modules(all)) {
      if (!Files.isRegularFile(root.resolve(m).resolve("PATCH.md"))) {
        continue;
      }
      String phoenix = "-";
      s.append("| ").append(name(m));
      StringBuilder cells = new StringBuilder();
      for (String r : releases) {
        Entry e = latest.get(m + "@" + r);
        if (e != null && !e.phoenix().equals("-")) {
          phoenix = e.phoenix();
        }
        cells.append(" | ").append(e == null ? "not run" : cell(e, stale(root, e)));
      }
      s.append(phoenix.equals("-") ? "" : " (Phoenix " + phoenix + ")").append(cells)
        .append(" |\n");
    }
    return s.toString();
  }

  /** BUILDING.md's table: every module on every release, counts, commit, JDK, date. */
  static String buildingBlock(Path root) throws IOException, BadInputException {
    List<Entry> all = read(root);
    if (all.isEmpty()) {
      return "No compatibility records yet: `dev-support/compat.sh`.\n";
    }
    List<String> releases = releases(all);
    Map<String, Entry> latest = latest(all);
    StringBuilder s = new StringBuilder();
    s.append("| module | HBase | Phoenix | result | module tests (failed, skipped) | upstream"
      + " test classes' cases (failed, skipped) | commit | JDK | date | record |\n");
    s.append("|---|---|---|---|---:|---:|---|---|---|---|\n");
    for (String m : modules(all)) {
      for (String r : releases) {
        Entry e = latest.get(m + "@" + r);
        if (e == null) {
          continue;
        }
        s.append("| ").append(m).append(" | ").append(r).append(" | ").append(e.phoenix())
          .append(" | ").append(cell(e, stale(root, e))).append(" | ")
          .append(counts(e.tests(), e.failures() + e.errors(), e.skipped())).append(" | ")
          .append(counts(e.upstreamTests(), e.upstreamFailures() + e.upstreamErrors(),
            e.upstreamSkipped())).append(" | ").append(e.commit()).append(" | ")
          .append(e.jdk()).append(" | ").append(e.date()).append(" | [")
          .append(e.file()).append("](").append(DIR).append('/').append(e.file())
          .append(") |\n");
      }
    }
    return s.toString();
  }

  private static String counts(int tests, int failed, int skipped) {
    if (tests < 0) {
      return "-";
    }
    return tests + " (" + Math.max(failed, 0) + ", " + Math.max(skipped, 0) + ")";
  }

  private static String name(String module) {
    return module.substring(module.lastIndexOf('/') + 1);
  }

  // ---------------------------------------------------------------------------------------------
  // the command

  public static void main(String[] args) {
    try {
      System.exit(run(args, System.out));
    } catch (BadInputException e) {
      System.err.println("Compatibility: " + e.getMessage());
      System.exit(2);
    } catch (IOException e) {
      System.err.println("Compatibility: " + e);
      System.exit(1);
    }
  }

  static int run(String[] args, PrintStream out) throws IOException, BadInputException {
    Path root = Path.of("").toAbsolutePath();
    boolean docs = false;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--root" -> {
          if (i + 1 >= args.length) {
            throw new BadInputException("--root needs a directory");
          }
          root = Path.of(args[++i]).toAbsolutePath();
        }
        case "--docs" -> docs = true;
        default -> throw new BadInputException("unknown option " + args[i]
          + "; usage: Compatibility [--root DIR] [--docs]");
      }
    }
    if (!docs) {
      out.print(readmeBlock(root));
      out.println();
      out.print(buildingBlock(root));
      return 0;
    }
    replace(root.resolve("README.md"), readmeBlock(root), out);
    replace(root.resolve("BUILDING.md"), buildingBlock(root), out);
    return 0;
  }

  static void replace(Path file, String block, PrintStream out) throws IOException,
    BadInputException {
    String text = Files.readString(file, StandardCharsets.UTF_8);
    String updated = MarkedBlock.replace(text, BEGIN, END, block);
    if (updated == null) {
      throw new BadInputException(file + " has no " + BEGIN + " ... " + END + " block");
    }
    if (!updated.equals(text)) {
      Files.writeString(file, updated, StandardCharsets.UTF_8);
      out.println("Compatibility: updated " + file);
    }
  }

  /** The block between the compat markers of {@code text}, or null. */
  static String block(String text) {
    return MarkedBlock.between(text, BEGIN, END);
  }
}
