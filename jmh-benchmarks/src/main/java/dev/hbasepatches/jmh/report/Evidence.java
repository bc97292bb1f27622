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

import dev.hbasepatches.jmh.SideLines;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.hbase.thirdparty.com.google.gson.JsonArray;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;
import org.apache.hbase.thirdparty.com.google.gson.JsonParseException;
import org.apache.hbase.thirdparty.com.google.gson.JsonParser;

/**
 * The evidence command: runs every target of {@code targets.tsv} (beside this class) to a verdict
 * and writes each change's report into its module's {@code results/} folder. {@code mvn -Pjmh
 * verify} runs it; {@code -Djmh.changes=seek-skip,row-index} picks changes.
 * <p>
 * Each target names one benchmark case whose two modes alternate inside every fork in A B B A
 * blocks (counters {@code aReads} / {@code bReads}, read as {@link AbbaPairs} reads them): the
 * fork's ratio B / A is the geometric mean of its blocks' ratios, the forks' ratios give a 95%
 * Student t interval on the log scale ({@link ForkStats#pairedRatio}), and the verdict comes from
 * that interval only:
 * <ul>
 * <li>{@code atLeast T}: met when the lower bound is at least T, not met when the upper bound is
 * below T, inconclusive otherwise;</li>
 * <li>{@code level M} ("at least level with", a non-inferiority margin M, e.g. 0.03): no worse
 * when the lower bound is at least 1 - M, worse when the upper bound is below 1 - M, inconclusive
 * otherwise;</li>
 * <li>{@code atMost T} (an absolute cost, e.g. nanoseconds per operation, one mode per run): met
 * when the upper bound of the geometric mean over forks is at most T;</li>
 * <li>{@code measure}: reported, no target (the upstream series as applied beside the module).</li>
 * </ul>
 * Fewer than {@link ForkStats#MIN_FORKS} forks are refused: this command always decides.
 * <p>
 * Usage: {@code Evidence --jar benchmarks.jar [--root DIR] [--changes a,b] [--forks N]
 * [--report-only] [--list]}. Each change's {@code results/} gets {@code report.md},
 * {@code verdicts.tsv}, {@code run.properties} (commit, hashes of the module's and the
 * benchmarks' {@code src/main}, versions, machine, load, times), {@code jmh/ID.json} per target
 * and {@code jmh/sides.tsv} (what each target's benchmark printed about its two sides). JMH's
 * whole output of a target goes to the module's {@code target/evidence/ID.log}, outside the
 * tree.
 */
public final class Evidence {

  static final String RESOURCE = "targets.tsv";
  static final String REPORT = "report.md";
  static final String VERDICTS = "verdicts.tsv";
  static final String SIDES = "sides.tsv";
  static final String RUN = "run.properties";
  static final String LOCK = "/tmp/hbasepatches-jmh.lock";

  /** How a target is decided. */
  enum Kind {
    AT_LEAST("atLeast"), LEVEL("level"), AT_MOST("atMost"), MEASURE("measure");

    final String word;

    Kind(String word) {
      this.word = word;
    }

    static Kind of(String s, int line) throws BadInputException {
      for (Kind k : values()) {
        if (k.word.equals(s)) {
          return k;
        }
      }
      throw new BadInputException("line " + line + ": kind '" + s + "' is none of atLeast, level,"
        + " atMost, measure");
    }
  }

  /**
   * One target: its change, a short id (the file names), the benchmark class, the JMH parameters
   * of its case ({@code threads}, {@code wi}, {@code i} are JMH options, the rest {@code -p}),
   * what B / A compares in words, the kind, the number the kind needs, and the target in words.
   */
  record Row(String change, String id, String benchmark, Map<String, String> params,
    String compared, Kind kind, double target, String text) {

    /** The JMH command-line options of this row, without forks and output. */
    List<String> jmhOptions() {
      List<String> out = new ArrayList<>();
      // "Class" runs the class's one benchmark method, "Class.method" that method only.
      int dot = benchmark.indexOf('.');
      out.add(dot < 0 ? ".*\\." + benchmark + "\\..*"
        : ".*\\." + benchmark.substring(0, dot) + "\\." + benchmark.substring(dot + 1) + "$");
      for (Map.Entry<String, String> e : params.entrySet()) {
        switch (e.getKey()) {
          case "threads" -> {
            out.add("-t");
            out.add(e.getValue());
          }
          case "wi", "i" -> {
            out.add("-" + e.getKey());
            out.add(e.getValue());
          }
          default -> {
            out.add("-p");
            out.add(e.getKey() + "=" + e.getValue());
          }
        }
      }
      return out;
    }

    String caseText() {
      StringBuilder s = new StringBuilder();
      for (Map.Entry<String, String> e : params.entrySet()) {
        if (!e.getKey().equals("a") && !e.getKey().equals("b") && !e.getKey().equals("wi")
          && !e.getKey().equals("i")) {
          s.append(s.length() == 0 ? "" : " ").append(e.getKey()).append('=').append(e.getValue());
        }
      }
      return s.toString();
    }

    /** The target in the report's words: "≥ 1.3", "≥ 0.97 (level, 3% margin)", "≤ 1000". */
    String targetText() {
      return switch (kind) {
        case AT_LEAST -> "≥ " + Compare.sig3(target);
        case LEVEL -> "≥ " + Compare.sig3(1 - target) + " (no worse, "
          + Compare.sig3(100 * target) + "% margin)";
        case AT_MOST -> "≤ " + Compare.sig3(target);
        case MEASURE -> "-";
      };
    }
  }

  /** What one target's run gave. */
  record Outcome(Row row, int forks, ForkStats.Interval interval, String verdict, long seconds) {
  }

  private Evidence() {
  }

  // ---------------------------------------------------------------------------------------------
  // targets.tsv

  static List<Row> builtIn() {
    try (InputStream in = Evidence.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is missing from the benchmarks jar");
      }
      return parse(new InputStreamReader(in, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (BadInputException e) {
      throw new IllegalStateException(RESOURCE + ": " + e.getMessage(), e);
    }
  }

  static List<Row> parse(Reader reader) throws IOException, BadInputException {
    List<Row> out = new ArrayList<>();
    Set<String> ids = new LinkedHashSet<>();
    BufferedReader in = new BufferedReader(reader);
    int lineNo = 0;
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      lineNo++;
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] f = line.split("\t", -1);
      if (f.length != 8) {
        throw new BadInputException("line " + lineNo + ": expected 8 tab-separated columns (change,"
          + " id, benchmark, case, compared, kind, number, text), got " + f.length);
      }
      String change = f[0].trim();
      String id = f[1].trim();
      if (!id.matches("[A-Za-z0-9._-]+")) {
        throw new BadInputException("line " + lineNo + ": id '" + id
          + "' must be letters, digits, '.', '_' or '-' (it names files)");
      }
      if (!ids.add(change + "/" + id)) {
        throw new BadInputException("line " + lineNo + ": id '" + id + "' twice for " + change);
      }
      Map<String, String> params = new LinkedHashMap<>();
      for (String kv : f[3].trim().split("\\s+")) {
        if (kv.isEmpty() || kv.equals("-")) {
          continue;
        }
        int eq = kv.indexOf('=');
        if (eq <= 0 || eq == kv.length() - 1) {
          throw new BadInputException("line " + lineNo + ": case '" + kv + "' is not key=value");
        }
        params.put(kv.substring(0, eq), kv.substring(eq + 1));
      }
      Kind kind = Kind.of(f[5].trim(), lineNo);
      double number = Double.NaN;
      if (kind != Kind.MEASURE) {
        try {
          number = Double.parseDouble(f[6].trim());
        } catch (NumberFormatException e) {
          throw new BadInputException("line " + lineNo + ": number '" + f[6] + "' is not a number");
        }
        boolean ok = kind == Kind.LEVEL ? number > 0 && number < 1
          : number > 0 && !Double.isInfinite(number);
        if (!ok) {
          throw new BadInputException("line " + lineNo + ": " + kind.word + " needs "
            + (kind == Kind.LEVEL ? "a margin between 0 and 1" : "a positive number") + ", got "
            + f[6].trim());
        }
      }
      out.add(new Row(change, id, f[2].trim(), Collections.unmodifiableMap(params), f[4].trim(),
        kind, number, f[7].trim()));
    }
    return Collections.unmodifiableList(out);
  }

  /** The changes in file order. */
  static List<String> changes(List<Row> rows) {
    Set<String> out = new LinkedHashSet<>();
    for (Row r : rows) {
      out.add(r.change());
    }
    return new ArrayList<>(out);
  }

  /**
   * Modules whose code a change's benchmarks also run: the checksum overlay's PATCHED side
   * verifies through the checksum module's {@code BlockChecksummer}. Their {@code src/main}
   * hashes are recorded with the run ({@code uses.MODULE.src.sha}) and checked for staleness
   * like the change's own.
   */
  static final Map<String, List<String>> USES = Map.of("checksum-overlay", List.of("checksum"));

  /** Where a change's module lives under the project root. */
  static Path moduleDir(Path root, String change) {
    Path phoenix = root.resolve("phoenix-patches").resolve(change);
    return Files.isDirectory(phoenix) ? phoenix : root.resolve("hbase-patches").resolve(change);
  }

  // ---------------------------------------------------------------------------------------------
  // verdicts

  /** The verdict of a target from its interval alone. */
  /** Whether a row runs the change's upstream series on one of its sides. */
  static boolean runsSeries(Row r) {
    return "SERIES".equals(r.params().get("a")) || "SERIES".equals(r.params().get("b"));
  }

  /**
   * The series a SERIES side runs: Phoenix's {@code upstream/5.2.1} variant where there is one
   * (built over Phoenix 5.2.1's classes), else {@code upstream/branch-2.6}.
   */
  static Path seriesDir(Path root, String change) {
    Path upstream = moduleDir(root, change).resolve("upstream");
    Path phoenix = upstream.resolve("5.2.1");
    return Files.isDirectory(phoenix) ? phoenix : upstream.resolve("branch-2.6");
  }

  static String verdict(Row row, ForkStats.Interval i) {
    if (i.n() < ForkStats.MIN_FORKS || !Double.isFinite(i.low()) || !Double.isFinite(i.high())) {
      return "no verdict (" + i.n() + " forks)";
    }
    return switch (row.kind()) {
      case AT_LEAST -> i.against(row.target()).toString();
      case LEVEL -> {
        double floor = 1 - row.target();
        if (i.low() >= floor) {
          yield i.low() > 1 ? "better" : "no worse";
        }
        yield i.high() < floor ? "worse" : "inconclusive";
      }
      case AT_MOST -> i.high() <= row.target() ? "met"
        : i.low() > row.target() ? "not met" : "inconclusive";
      case MEASURE -> i.low() > 1 ? "B better" : i.high() < 1 ? "A better" : "no difference shown";
    };
  }

  /** A target's JMH JSON: its one result (the row pins every multi-valued @Param). */
  static JsonObject entry(Row row, Path json) throws IOException, BadInputException {
    JsonArray entries;
    try {
      entries = JsonParser.parseString(Files.readString(json, StandardCharsets.UTF_8))
        .getAsJsonArray();
    } catch (JsonParseException | IllegalStateException e) {
      throw new BadInputException(json + ": not a JMH JSON result array: " + e.getMessage());
    }
    if (entries.size() != 1) {
      throw new BadInputException(json + ": " + entries.size() + " parameter combinations; the"
        + " target " + row.id() + " must pin every @Param of " + row.benchmark() + " in "
        + RESOURCE);
    }
    return entries.get(0).getAsJsonObject();
  }

  /** Reads one target's JMH JSON: its interval over forks. */
  static ForkStats.Interval analyse(Row row, Path json) throws IOException, BadInputException {
    JsonObject o = entry(row, json);
    String where = json + " (" + o.get("benchmark").getAsString() + ")";
    double[][] score = JmhJsonParser.forkIterations(o.getAsJsonObject("primaryMetric"), where);
    if (row.kind() == Kind.AT_MOST) {
      return ForkStats.pairedRatio(ForkStats.forkMeans(score));
    }
    JsonObject secondary = o.getAsJsonObject("secondaryMetrics");
    if (secondary == null || !secondary.has(AbbaPairs.A_COUNTER)
      || !secondary.has(AbbaPairs.B_COUNTER)) {
      throw new BadInputException(where + ": no " + AbbaPairs.A_COUNTER + " / "
        + AbbaPairs.B_COUNTER + " counters; " + row.benchmark() + " does not alternate two modes"
        + " in A B B A blocks");
    }
    double[][] a = JmhJsonParser.forkIterations(secondary.getAsJsonObject(AbbaPairs.A_COUNTER),
      where);
    double[][] b = JmhJsonParser.forkIterations(secondary.getAsJsonObject(AbbaPairs.B_COUNTER),
      where);
    List<AbbaPairs.Block> blocks = new ArrayList<>();
    for (int f = 0; f < score.length; f++) {
      blocks.addAll(AbbaPairs.blocks(f + 1, a[f], b[f], score[f], new int[1]));
    }
    return AbbaPairs.summary(blocks);
  }

  // ---------------------------------------------------------------------------------------------
  // the command

  public static void main(String[] args) {
    try {
      System.exit(run(args, System.out));
    } catch (BadInputException e) {
      System.err.println("Evidence: " + e.getMessage());
      System.exit(2);
    } catch (IOException | InterruptedException e) {
      System.err.println("Evidence: " + e);
      System.exit(1);
    }
  }

  static int run(String[] args, PrintStream out)
    throws IOException, InterruptedException, BadInputException {
    Path root = Path.of("").toAbsolutePath();
    Path jar = null;
    String only = "";
    int forks = ForkStats.MIN_FORKS;
    boolean reportOnly = false;
    boolean list = false;
    boolean docs = false;
    Properties versions = new Properties();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      switch (a) {
        case "--root" -> root = Path.of(value(args, ++i, a)).toAbsolutePath();
        case "--jar" -> jar = Path.of(value(args, ++i, a)).toAbsolutePath();
        case "--changes" -> only = value(args, ++i, a).trim();
        case "--forks" -> {
          String v = value(args, ++i, a);
          try {
            forks = Integer.parseInt(v);
          } catch (NumberFormatException e) {
            throw new BadInputException("--forks " + v + " is not a number");
          }
        }
        case "--version" -> {
          String v = value(args, ++i, a);
          int eq = v.indexOf('=');
          if (eq <= 0) {
            throw new BadInputException("--version " + v + " is not NAME=VERSION");
          }
          versions.setProperty(v.substring(0, eq), v.substring(eq + 1));
        }
        case "--report-only" -> reportOnly = true;
        case "--list" -> list = true;
        case "--docs" -> docs = true;
        default -> throw new BadInputException("unknown option " + a + "; usage: Evidence --jar"
          + " benchmarks.jar [--root DIR] [--changes a,b] [--forks N] [--version NAME=VERSION]"
          + " [--report-only] [--list] [--docs]");
      }
    }
    if (forks < ForkStats.MIN_FORKS) {
      throw new BadInputException("--forks " + forks + ": a verdict needs "
        + ForkStats.MIN_FORKS + " forks or more (the quick look is -Pjmh-quick)");
    }
    List<Row> all = builtIn();
    List<String> changes = changes(all);
    List<String> selected = new ArrayList<>();
    if (only.isEmpty() || only.equals("all")) {
      selected.addAll(changes);
    } else {
      for (String c : only.split(",")) {
        c = c.trim();
        if (!changes.contains(c)) {
          throw new BadInputException("jmh.changes: no targets for change '" + c + "'; one of "
            + changes);
        }
        selected.add(c);
      }
    }
    if (list) {
      for (Row r : all) {
        if (selected.contains(r.change())) {
          out.println(r.change() + "\t" + r.id() + "\t" + String.join(" ", r.jmhOptions()));
        }
      }
      return 0;
    }
    if (docs) {
      for (String change : selected) {
        writeDocs(root, all, change, out);
      }
      return 0;
    }
    if (!reportOnly && (jar == null || !Files.isRegularFile(jar))) {
      throw new BadInputException("--jar " + jar + " is not a file (build jmh-benchmarks first)");
    }
    Instant begin = Instant.now();
    for (String change : selected) {
      List<Row> rows = new ArrayList<>();
      for (Row r : all) {
        if (r.change().equals(change)) {
          rows.add(r);
        }
      }
      Path results = moduleDir(root, change).resolve("results");
      if (reportOnly) {
        writeReport(root, change, rows, results, readSeconds(results), out);
      } else {
        runChange(root, jar, change, rows, results, forks, versions, out);
      }
    }
    for (String change : selected) {
      writeDocs(root, all, change, out);
    }
    out.printf(Locale.ROOT, "Evidence: %s in %s%n", selected,
      minutes(Duration.between(begin, Instant.now()).getSeconds()));
    return 0;
  }

  static String value(String[] args, int i, String option) throws BadInputException {
    if (i >= args.length) {
      throw new BadInputException(option + " needs a value");
    }
    return args[i];
  }

  private static void runChange(Path root, Path jar, String change, List<Row> rows, Path results,
    int forks, Properties versions, PrintStream out)
    throws IOException, InterruptedException, BadInputException {
    // The report names the tree's commit and hashes: the jar must have been built from that tree.
    long jarTime = Files.getLastModifiedTime(jar).toMillis();
    for (Path src : List.of(moduleDir(root, change).resolve("src/main"),
      root.resolve("jmh-benchmarks/src/main"))) {
      Path newer = newerThan(src, jarTime);
      if (newer != null) {
        throw new BadInputException(newer + " is newer than " + jar + "; rebuild the benchmarks"
          + " jar first (mvn -B package -DskipTests -pl jmh-benchmarks -am)");
      }
    }
    Path jmhDir = results.resolve("jmh");
    // The command's output replaces the last run's: one current report per change.
    if (Files.isDirectory(jmhDir)) {
      try (Stream<Path> old = Files.list(jmhDir)) {
        for (Path p : (Iterable<Path>) old::iterator) {
          Files.delete(p);
        }
      }
    }
    Files.createDirectories(jmhDir);
    Path logDir = moduleDir(root, change).resolve("target").resolve("evidence");
    Files.createDirectories(logDir);
    Properties run = new Properties();
    run.putAll(versions);
    run.setProperty("change", change);
    String dirty = git(root, "status", "--porcelain", "--",
      root.relativize(moduleDir(root, change).resolve("src")).toString(), "jmh-benchmarks/src");
    run.setProperty("commit", git(root, "rev-parse", "--short=12", "HEAD")
      + (dirty.isEmpty() ? "" : " (with uncommitted changes)"));
    run.setProperty("module.src.sha", treeSha(moduleDir(root, change).resolve("src/main")));
    for (String used : USES.getOrDefault(change, List.of())) {
      run.setProperty("uses." + used + ".src.sha",
        treeSha(moduleDir(root, used).resolve("src/main")));
    }
    run.setProperty("benchmarks.src.sha", treeSha(root.resolve("jmh-benchmarks/src/main")));
    if (rows.stream().anyMatch(Evidence::runsSeries)) {
      run.setProperty("series.sha", SeriesSha.of(seriesDir(root, change)));
    }
    run.setProperty("forks", Integer.toString(forks));
    run.setProperty("command", "mvn -Pjmh verify -Djmh.changes=" + change
      + (forks != ForkStats.MIN_FORKS ? " -Djmh.forks=" + forks : ""));
    describeStart(run);
    Map<String, Long> seconds = new LinkedHashMap<>();
    Instant begin = Instant.now();
    storeRun(results, run, change);
    for (Row r : rows) {
      Path json = jmhDir.resolve(r.id() + ".json");
      Path log = logDir.resolve(r.id() + ".log");
      List<String> cmd = new ArrayList<>();
      if (Files.isExecutable(Path.of("/usr/bin/flock"))) {
        cmd.add("/usr/bin/flock");
        cmd.add(LOCK);
      }
      cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      cmd.add("-jar");
      cmd.add(jar.toString());
      cmd.addAll(r.jmhOptions());
      cmd.addAll(List.of("-f", Integer.toString(forks), "-foe", "true", "-rf", "json", "-rff",
        json.toString()));
      out.printf(Locale.ROOT, "Evidence: %s %s: %s%n", change, r.id(), String.join(" ", cmd));
      Instant t0 = Instant.now();
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile())
        .start();
      int rc = p.waitFor();
      long s = Duration.between(t0, Instant.now()).getSeconds();
      seconds.put(r.id(), s);
      if (rc != 0 || !Files.isRegularFile(json)) {
        throw new IOException(change + " " + r.id() + ": JMH exited " + rc + "; see " + log);
      }
      out.printf(Locale.ROOT, "Evidence: %s %s done in %s%n", change, r.id(), minutes(s));
      writeSeconds(results, seconds);
      addSides(results, r.id(), sideLines(log));
      writeReport(root, change, rows, results, seconds, out);
    }
    run.setProperty("end.utc", Instant.now().toString());
    run.setProperty("end.loadavg", RunMachine.loadavg(Path.of("/proc/loadavg")));
    run.setProperty("seconds", Long.toString(Duration.between(begin, Instant.now()).getSeconds()));
    storeRun(results, run, change);
    writeReport(root, change, rows, results, seconds, out);
  }

  /** The JDK, the machine, the time and the load average at the start of a run. */
  static void describeStart(Properties run) {
    run.setProperty("java", System.getProperty("java.version") + ", "
      + System.getProperty("java.vm.name"));
    MachineInfo m = MachineInfo.fromProc();
    run.setProperty("machine", m.describeCpu() + ", " + m.describeCores() + " logical cores, "
      + m.describeMemory());
    run.setProperty("start.utc", Instant.now().toString());
    run.setProperty("start.loadavg", RunMachine.loadavg(Path.of("/proc/loadavg")));
  }

  private static void storeRun(Path results, Properties run, String change) throws IOException {
    try (Writer w = Files.newBufferedWriter(results.resolve(RUN), StandardCharsets.UTF_8)) {
      run.store(w, "the evidence run of " + change + " (dev.hbasepatches.jmh.report.Evidence)");
    }
  }

  /** A file under {@code dir} modified after {@code millis}, or null. */
  static Path newerThan(Path dir, long millis) throws IOException {
    if (!Files.isDirectory(dir)) {
      return null;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        if (Files.isRegularFile(p) && Files.getLastModifiedTime(p).toMillis() > millis) {
          return p;
        }
      }
    }
    return null;
  }

  private static void writeSeconds(Path results, Map<String, Long> seconds) throws IOException {
    StringBuilder s = new StringBuilder();
    for (Map.Entry<String, Long> e : seconds.entrySet()) {
      s.append(e.getKey()).append('\t').append(e.getValue()).append('\n');
    }
    Files.writeString(results.resolve("jmh/seconds.tsv"), s, StandardCharsets.UTF_8);
  }

  /**
   * A line a benchmark printed about its sides ({@link SideLines}), possibly behind JMH's
   * iteration label (a side that prints as it closes, mid-iteration).
   */
  private static final Pattern SIDE_LINE = Pattern.compile("(?:Iteration +\\d+: )?"
    + Pattern.quote(SideLines.MARK) + "(.*)");

  /**
   * What a benchmark printed about its two sides in a JMH log ({@link #SIDE_LINE}), each
   * distinct line once, in the order first printed, without the mark.
   */
  static List<String> sideLines(Path log) throws IOException {
    Set<String> lines = new LinkedHashSet<>();
    for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
      Matcher m = SIDE_LINE.matcher(line);
      if (m.matches()) {
        lines.add(m.group(1).strip().replace('\t', ' '));
      }
    }
    return new ArrayList<>(lines);
  }

  /** Adds one target's side lines to {@code jmh/sides.tsv}. */
  private static void addSides(Path results, String id, List<String> lines) throws IOException {
    StringBuilder s = new StringBuilder();
    for (String line : lines) {
      s.append(id).append('\t').append(line).append('\n');
    }
    Files.writeString(results.resolve("jmh").resolve(SIDES), s, StandardCharsets.UTF_8,
      StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }

  /** {@code jmh/sides.tsv}: each target's side lines, by target id. */
  static Map<String, List<String>> readSides(Path results) throws IOException {
    Map<String, List<String>> out = new LinkedHashMap<>();
    Path f = results.resolve("jmh").resolve(SIDES);
    if (Files.isRegularFile(f)) {
      for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
        int tab = line.indexOf('\t');
        if (tab > 0) {
          out.computeIfAbsent(line.substring(0, tab), k -> new ArrayList<>())
            .add(line.substring(tab + 1));
        }
      }
    }
    return out;
  }

  /** The report's section of what each target's two sides ran, from {@code jmh/sides.tsv}. */
  static String sidesSection(List<Row> rows, Path results) throws IOException {
    Map<String, List<String>> sides = readSides(results);
    StringBuilder md = new StringBuilder();
    for (Row r : rows) {
      List<String> lines = sides.get(r.id());
      if (lines == null) {
        continue;
      }
      md.append("- ").append(r.id()).append(":\n");
      for (String line : lines) {
        md.append("  - `").append(line.replace("`", "'")).append("`\n");
      }
    }
    if (md.length() == 0) {
      return "";
    }
    return "## What each side ran\n\nWhat each benchmark printed about its two sides, every"
      + " distinct line once: as each fork began, the case, the code each side runs and the check"
      + " that both return the same; as it ended, where the benchmark counts them, each side's"
      + " counters. `jmh/sides.tsv` holds them; JMH's whole output of a target is in the module's"
      + " `target/evidence/ID.log` when the command runs, not kept in the tree.\n\n"
      + "<details><summary>every line, by target</summary>\n\n" + md + "\n</details>\n\n";
  }

  static Map<String, Long> readSeconds(Path results) throws IOException {
    Map<String, Long> out = new LinkedHashMap<>();
    Path f = results.resolve("jmh/seconds.tsv");
    if (Files.isRegularFile(f)) {
      for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
        String[] kv = line.split("\t");
        if (kv.length == 2) {
          out.put(kv[0], Long.parseLong(kv[1].trim()));
        }
      }
    }
    return out;
  }

  /** The outcomes of the rows whose JSON exists, in row order. */
  static List<Outcome> outcomes(List<Row> rows, Path results, Map<String, Long> seconds)
    throws IOException, BadInputException {
    List<Outcome> out = new ArrayList<>();
    for (Row r : rows) {
      Path json = results.resolve("jmh").resolve(r.id() + ".json");
      // A run in progress: JMH creates its result file at the start and fills it at the end.
      if (!Files.isRegularFile(json) || Files.size(json) == 0) {
        continue;
      }
      ForkStats.Interval i = analyse(r, json);
      out.add(new Outcome(r, i.n(), i, verdict(r, i), seconds.getOrDefault(r.id(), -1L)));
    }
    return out;
  }

  static void writeReport(Path root, String change, List<Row> rows, Path results,
    Map<String, Long> seconds, PrintStream out) throws IOException, BadInputException {
    List<Outcome> outcomes = outcomes(rows, results, seconds);
    Properties run = new Properties();
    Path runFile = results.resolve(RUN);
    if (Files.isRegularFile(runFile)) {
      try (Reader r = Files.newBufferedReader(runFile, StandardCharsets.UTF_8)) {
        run.load(r);
      }
    }
    StringBuilder md = new StringBuilder();
    md.append("# ").append(change).append(": benchmark evidence\n\n");
    md.append("Made by `").append(run.getProperty("command", "mvn -Pjmh verify -Djmh.changes="
      + change)).append("` (`dev.hbasepatches.jmh.report.Evidence`, targets from"
      + " `jmh-benchmarks/src/main/resources/dev/hbasepatches/jmh/report/targets.tsv`); do not"
      + " edit by hand.\n\n");
    md.append(table(outcomes, rows));
    md.append("\nEach row runs one case with two modes alternating inside every fork in A B B A"
      + " blocks; B / A is B's operations per second over A's (above 1: B does more), one ratio"
      + " per block, the fork's ratio the geometric mean of its blocks', and the 95% interval is"
      + " Student t over forks on the log scale. Verdicts come from the interval only: `atLeast`"
      + " met when the lower bound clears the target, not met when the upper bound is below it;"
      + " \"no worse\" when the lower bound clears 1 less the margin, \"better\" when it is above"
      + " 1; a cost (`atMost`, one mode per fork, the geometric mean over forks) met when the"
      + " upper bound is at most the target. Anything else is inconclusive.\n\n");
    md.append(seriesSection(outcomes, results));
    md.append(allocationSection(outcomes, results));
    md.append(sidesSection(rows, results));
    md.append("## Run\n\n");
    List<String> keys = new ArrayList<>(List.of("commit", "module.src.sha"));
    for (String used : USES.getOrDefault(change, List.of())) {
      keys.add("uses." + used + ".src.sha");
    }
    keys.addAll(List.of("benchmarks.src.sha", "hbase",
      "phoenix", "forks", "machine", "java", "start.utc", "start.loadavg", "end.utc",
      "end.loadavg", "seconds"));
    for (String key : keys) {
      if (run.getProperty(key) != null) {
        md.append("- ").append(key).append(": ").append(run.getProperty(key)).append('\n');
      }
    }
    md.append("\nPer target: `jmh/ID.json` (JMH's result); the JMH options of each:\n\n");
    for (Row r : rows) {
      md.append("- ").append(r.id()).append(": `").append(String.join(" ", r.jmhOptions()))
        .append("`\n");
    }
    Files.createDirectories(results);
    Path tmp = results.resolve(REPORT + ".tmp");
    Files.writeString(tmp, md, StandardCharsets.UTF_8);
    Files.move(tmp, results.resolve(REPORT), StandardCopyOption.REPLACE_EXISTING,
      StandardCopyOption.ATOMIC_MOVE);
    StringBuilder tsv = new StringBuilder(
      "# id\tcompared\tkind\ttarget\tforks\testimate\tlow\thigh\tverdict\tseconds\n");
    for (Outcome o : outcomes) {
      tsv.append(String.format(Locale.ROOT, "%s\t%s\t%s\t%s\t%d\t%.6g\t%.6g\t%.6g\t%s\t%d%n",
        o.row().id(), o.row().compared(), o.row().kind().word,
        o.row().kind() == Kind.MEASURE ? "-" : Double.toString(o.row().target()), o.forks(),
        o.interval().estimate(), o.interval().low(), o.interval().high(), o.verdict(),
        o.seconds()));
    }
    Files.writeString(results.resolve(VERDICTS), tsv, StandardCharsets.UTF_8);
    out.printf(Locale.ROOT, "Evidence: %s: %d of %d targets measured, report %s%n", change,
      outcomes.size(), rows.size(), results.resolve(REPORT));
  }

  /**
   * Each SERIES row beside the module's row on the same benchmark and case against the same
   * side: how much of the module's gain the series as applied delivers. The quotient of two
   * estimates from separate runs is a point figure; no interval pairs them.
   */
  static String seriesSection(List<Outcome> outcomes, Path results) {
    List<Outcome> series = new ArrayList<>();
    for (Outcome o : outcomes) {
      if ("SERIES".equals(o.row().params().get("b"))) {
        series.add(o);
      }
    }
    if (series.isEmpty()) {
      return "";
    }
    StringBuilder s = new StringBuilder("## The upstream series beside this module\n\n");
    s.append("SERIES is the change's upstream series applied to the release's sources and compiled"
      + " (`hbase-patches/upstream-patches`, `phoenix-patches/upstream-patches`), its key on;"
      + " PATCHED is this project's module. Where both ran on the same benchmark and case against"
      + " the same side, SERIES / PATCHED is the quotient of the two estimates: below 1 the"
      + " series delivers less than the module (a point figure: the two come from separate"
      + " runs).\n\n");
    s.append("| case | against | SERIES / it | PATCHED / it (same benchmark) |"
      + " SERIES / PATCHED |\n");
    s.append("|---|---|---|---|---:|\n");
    for (Outcome o : series) {
      Row r = o.row();
      Outcome patched = null;
      for (Outcome p : outcomes) {
        Row q = p.row();
        if ("PATCHED".equals(q.params().get("b")) && q.benchmark().equals(r.benchmark())
          && Objects.equals(q.params().get("a"), r.params().get("a"))
          && q.caseText().equals(r.caseText())) {
          patched = p;
          break;
        }
      }
      s.append("| ").append(shortCase(r)).append(" | ").append(r.params().get("a")).append(" | ")
        .append(interval(o.interval())).append(" (").append(r.id()).append(") | ")
        .append(patched == null ? "not measured on this benchmark"
          : interval(patched.interval()) + " (" + patched.row().id() + ")")
        .append(" | ").append(patched == null ? "-"
          : Compare.sig3(o.interval().estimate() / patched.interval().estimate()))
        .append(" |\n");
    }
    return s.append('\n').toString();
  }

  /** Heap bytes per operation of each slot, for the rows whose benchmark counts allocation. */
  static String allocationSection(List<Outcome> outcomes, Path results) throws IOException,
    BadInputException {
    StringBuilder rows = new StringBuilder();
    for (Outcome o : outcomes) {
      double[] perOp = bytesPerOp(o.row(), results.resolve("jmh").resolve(o.row().id() + ".json"));
      if (perOp != null) {
        rows.append(String.format(Locale.ROOT, "| %s | %s | %s | %.0f | %.0f |%n", o.row().id(),
          o.row().params().getOrDefault("a", "A"), o.row().params().getOrDefault("b", "B"),
          perOp[0], perOp[1]));
      }
    }
    if (rows.length() == 0) {
      return "";
    }
    return "## Heap allocated per operation\n\nBytes the benchmark thread allocated per"
      + " operation, over every measured iteration of each slot (JMH counter `"
      + AbbaPairs.ALLOC_COUNTER + "`):\n\n| target | A | B | A: bytes / op | B: bytes / op |\n"
      + "|---|---|---|---:|---:|\n" + rows + "\n";
  }

  /** Slot A's and slot B's heap bytes per operation in a result, or null without the counter. */
  static double[] bytesPerOp(Row row, Path json) throws IOException, BadInputException {
    JsonObject secondary = entry(row, json).getAsJsonObject("secondaryMetrics");
    if (secondary == null || !secondary.has(AbbaPairs.ALLOC_COUNTER)
      || !secondary.has(AbbaPairs.A_COUNTER) || !secondary.has(AbbaPairs.B_COUNTER)) {
      return null;
    }
    String where = json.toString();
    return AbbaPairs.bytesPerOperation(
      JmhJsonParser.forkIterations(secondary.getAsJsonObject(AbbaPairs.A_COUNTER), where),
      JmhJsonParser.forkIterations(secondary.getAsJsonObject(AbbaPairs.B_COUNTER), where),
      JmhJsonParser.forkIterations(secondary.getAsJsonObject(AbbaPairs.ALLOC_COUNTER), where));
  }

  private static String interval(ForkStats.Interval i) {
    return Compare.sig3(i.estimate()) + " [" + Compare.sig3(i.low()) + ", "
      + Compare.sig3(i.high()) + "]";
  }

  /** The report's main table: one line per target, measured or not. */
  static String table(List<Outcome> outcomes, List<Row> rows) {
    StringBuilder s = new StringBuilder();
    s.append("| target | case | measured (B / A: above 1, B better) | forks | estimate [95%"
      + " interval] | needs | verdict | run |\n");
    s.append("|---|---|---|---:|---|---|---|---:|\n");
    Map<String, Outcome> byId = new LinkedHashMap<>();
    for (Outcome o : outcomes) {
      byId.put(o.row().id(), o);
    }
    for (Row r : rows) {
      Outcome o = byId.get(r.id());
      String measured = o == null ? "not run" : Compare.sig3(o.interval().estimate()) + " ["
        + Compare.sig3(o.interval().low()) + ", " + Compare.sig3(o.interval().high()) + "]";
      s.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s |%n",
        r.text(), shortCase(r), r.compared(), o == null ? "-" : Integer.toString(o.forks()),
        measured, r.targetText(), o == null ? "not run" : "**" + o.verdict() + "**",
        o == null || o.seconds() < 0 ? "-" : minutes(o.seconds())));
    }
    return s.toString();
  }

  static String minutes(long seconds) {
    return String.format(Locale.ROOT, "%d:%02d", seconds / 60, seconds % 60);
  }

  // ---------------------------------------------------------------------------------------------
  // the README's and PATCH.md's numbers, generated from the reports

  static final String BEGIN = "<!-- evidence:begin -->";
  static final String END = "<!-- evidence:end -->";

  /** A change's report as the documents see it: its outcomes and whether it is current. */
  record Current(String change, List<Row> rows, List<Outcome> outcomes, Properties run,
    String staleWhy) {

    boolean stale() {
      return staleWhy != null;
    }
  }

  static Current current(Path root, List<Row> all, String change)
    throws IOException, BadInputException {
    List<Row> rows = new ArrayList<>();
    for (Row r : all) {
      if (r.change().equals(change)) {
        rows.add(r);
      }
    }
    Path results = moduleDir(root, change).resolve("results");
    Properties run = new Properties();
    Path runFile = results.resolve(RUN);
    if (Files.isRegularFile(runFile)) {
      try (Reader r = Files.newBufferedReader(runFile, StandardCharsets.UTF_8)) {
        run.load(r);
      }
    }
    List<Outcome> outcomes = outcomes(rows, results, readSeconds(results));
    String recorded = run.getProperty("module.src.sha");
    String staleWhy = null;
    String usedChanged = usedModuleChanged(root, change, run);
    if (recorded == null
      || !recorded.equals(treeSha(moduleDir(root, change).resolve("src/main")))) {
      staleWhy = "the module's code changed since";
    } else if (usedChanged != null) {
      staleWhy = "the " + usedChanged + " module's code changed since";
    } else if (run.getProperty("series.sha") != null
      && !run.getProperty("series.sha").equals(SeriesSha.of(seriesDir(root, change)))) {
      staleWhy = "the upstream series changed since";
    }
    return new Current(change, rows, outcomes, run, staleWhy);
  }

  /** The first module in {@link #USES} whose code differs from the run's record, or null. */
  private static String usedModuleChanged(Path root, String change, Properties run)
    throws IOException {
    for (String used : USES.getOrDefault(change, List.of())) {
      String recorded = run.getProperty("uses." + used + ".src.sha");
      if (recorded == null
        || !recorded.equals(treeSha(moduleDir(root, used).resolve("src/main")))) {
        return used;
      }
    }
    return null;
  }

  /** The lines the README shows between its evidence markers: one row per change. */
  static String readmeBlock(Path root, List<Row> all) throws IOException, BadInputException {
    StringBuilder s = new StringBuilder();
    s.append("| change | targets decided by `mvn -Pjmh verify` | against the release"
      + " (UPSTREAM) | against before the change (BASELINE) | the upstream series as applied"
      + " (SERIES / UPSTREAM) | report |\n");
    s.append("|---|---|---|---|---|---|\n");
    for (String change : changes(all)) {
      Current c = current(root, all, change);
      String link = root.relativize(moduleDir(root, change).resolve("results").resolve(REPORT))
        .toString().replace('\\', '/');
      if (c.outcomes().isEmpty()) {
        s.append("| ").append(change).append(" | not measured yet | - | - | - | - |\n");
        continue;
      }
      Map<String, Integer> counts = new LinkedHashMap<>();
      for (Outcome o : c.outcomes()) {
        if (o.row().kind() != Kind.MEASURE) {
          counts.merge(o.verdict(), 1, Integer::sum);
        }
      }
      StringBuilder decided = new StringBuilder();
      for (Map.Entry<String, Integer> e : counts.entrySet()) {
        decided.append(decided.length() == 0 ? "" : ", ").append(e.getValue()).append(' ')
          .append(e.getKey());
      }
      int notRun = 0;
      for (Row r : c.rows()) {
        if (r.kind() != Kind.MEASURE && c.outcomes().stream().noneMatch(o -> o.row() == r)) {
          notRun++;
        }
      }
      if (notRun > 0) {
        decided.append(", ").append(notRun).append(" not run");
      }
      s.append("| ").append(change).append(" | ").append(decided)
        .append(c.stale() ? " (**stale**: " + c.staleWhy() + ")" : "").append(" | ")
        .append(headline(c, "UPSTREAM")).append(" | ").append(headline(c, "BASELINE"))
        .append(" | ").append(seriesHeadline(c)).append(" | [report](").append(link)
        .append(") |\n");
    }
    return s.toString();
  }

  /**
   * The first decided target against {@code mode}: "1.09x [1.02, 1.16] no worse (case)"; without
   * one, the first PATCHED measurement against it: "1.32x [1.28, 1.35] better (case)" (worse, or
   * no difference shown).
   */
  private static String headline(Current c, String mode) {
    for (boolean targets : new boolean[] { true, false }) {
      for (Outcome o : c.outcomes()) {
        if ((o.row().kind() != Kind.MEASURE) == targets
          && o.row().compared().contains("PATCHED / " + mode)) {
          ForkStats.Interval i = o.interval();
          String verdict = targets ? o.verdict() : o.verdict().equals("B better") ? "better"
            : o.verdict().equals("A better") ? "worse" : o.verdict();
          return Compare.sig3(i.estimate()) + "x [" + Compare.sig3(i.low()) + ", "
            + Compare.sig3(i.high()) + "] " + verdict + " (" + shortCase(o.row()) + ")";
        }
      }
    }
    return "-";
  }

  /**
   * The first SERIES row: "1.16x [1.05, 1.28] faster (case)" (slower, or no difference shown),
   * or "-" without one.
   */
  private static String seriesHeadline(Current c) {
    for (Outcome o : c.outcomes()) {
      if ("SERIES".equals(o.row().params().get("b"))) {
        String verdict = o.verdict().equals("B better") ? "faster"
          : o.verdict().equals("A better") ? "slower" : o.verdict();
        return interval(o.interval()).replaceFirst(" \\[", "x [") + " " + verdict + " ("
          + shortCase(o.row()) + ")";
      }
    }
    return "-";
  }

  private static String shortCase(Row r) {
    String t = r.params().get("target");
    if (t != null) {
      return t.substring(t.indexOf(':') + 1);
    }
    return r.caseText();
  }

  /** The lines a change's PATCH.md shows between its evidence markers. */
  static String patchBlock(Path root, List<Row> all, String change)
    throws IOException, BadInputException {
    Current c = current(root, all, change);
    StringBuilder s = new StringBuilder();
    if (c.outcomes().isEmpty()) {
      return "Not measured yet: `mvn -Pjmh verify -Djmh.changes=" + change + "`.\n";
    }
    s.append(table(c.outcomes(), c.rows()));
    s.append("\nFrom [results/report.md](results/report.md) (`")
      .append(c.run().getProperty("command", "mvn -Pjmh verify -Djmh.changes=" + change))
      .append("`): commit ").append(c.run().getProperty("commit", "unknown")).append(", HBase ")
      .append(c.run().getProperty("hbase", "unknown"));
    if (change.equals("local-index-pruning")) {
      s.append(", Phoenix ").append(c.run().getProperty("phoenix", "unknown"));
    }
    s.append(", ").append(c.run().getProperty("forks", "?")).append(" forks per target, ")
      .append(c.run().getProperty("machine", "unknown machine")).append(". Above 1: B better.");
    if (c.stale()) {
      s.append(" **Stale**: ").append(c.staleWhy()).append(" this run.");
    }
    s.append('\n');
    return s.toString();
  }

  /** The lines BUILDING.md shows between its evidence markers: how long each change's run took. */
  static String timesBlock(Path root, List<Row> all) throws IOException, BadInputException {
    StringBuilder s = new StringBuilder();
    s.append("| change | targets | forks per target | run time (min:s) | load average at start"
      + " / end | commit |\n|---|---:|---:|---:|---|---|\n");
    long total = 0;
    for (String change : changes(all)) {
      Current c = current(root, all, change);
      String seconds = c.run().getProperty("seconds");
      if (c.outcomes().isEmpty() || seconds == null) {
        s.append("| ").append(change).append(" | ").append(c.rows().size())
          .append(" | - | not run | - | - |\n");
        continue;
      }
      total += Long.parseLong(seconds.trim());
      s.append("| ").append(change).append(" | ").append(c.rows().size()).append(" | ")
        .append(c.run().getProperty("forks", "?")).append(" | ")
        .append(minutes(Long.parseLong(seconds.trim()))).append(" | ")
        .append(c.run().getProperty("start.loadavg", "?")).append(" / ")
        .append(c.run().getProperty("end.loadavg", "?")).append(" | ")
        .append(c.run().getProperty("commit", "?")).append(" |\n");
    }
    s.append("| all | | | ").append(minutes(total)).append(" | | |\n");
    return s.toString();
  }

  /** Rewrites the evidence blocks of the README and of the change's PATCH.md, where present. */
  static void writeDocs(Path root, List<Row> all, String change, PrintStream out)
    throws IOException, BadInputException {
    replaceBlock(root.resolve("README.md"), readmeBlock(root, all), out);
    replaceBlock(root.resolve("BUILDING.md"), timesBlock(root, all), out);
    replaceBlock(moduleDir(root, change).resolve("PATCH.md"), patchBlock(root, all, change), out);
    Scenario.writeDocs(root, out);
  }

  static void replaceBlock(Path file, String block, PrintStream out) throws IOException {
    if (!Files.isRegularFile(file)) {
      return;
    }
    String text = Files.readString(file, StandardCharsets.UTF_8);
    String updated = MarkedBlock.replace(text, BEGIN, END, block);
    if (updated == null) {
      out.println("Evidence: " + file + " has no " + BEGIN + " ... " + END + " block; left as is");
      return;
    }
    if (!updated.equals(text)) {
      Files.writeString(file, updated, StandardCharsets.UTF_8);
      out.println("Evidence: updated " + file);
    }
  }

  /** The block between the markers in {@code text}, or null. */
  static String block(String text) {
    return MarkedBlock.between(text, BEGIN, END);
  }


  // ---------------------------------------------------------------------------------------------
  // what the report was made from

  /**
   * The first 16 hex digits of the sha256 of {@code sha256sum} lines ("HASH  ./path") of every
   * file under {@code dir} in byte order of their paths: what {@code (cd DIR && find . -type f |
   * LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-16)} prints.
   */
  static String treeSha(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return "none";
    }
    List<String> paths = new ArrayList<>();
    try (Stream<Path> files = Files.walk(dir)) {
      files.filter(Files::isRegularFile)
        .forEach(p -> paths.add("./" + dir.relativize(p).toString().replace('\\', '/')));
    }
    paths.sort((x, y) -> compareBytes(x, y));
    try {
      MessageDigest total = MessageDigest.getInstance("SHA-256");
      for (String p : paths) {
        MessageDigest one = MessageDigest.getInstance("SHA-256");
        String line = HexFormat.of().formatHex(one.digest(Files.readAllBytes(dir.resolve(p))))
          + "  " + p + "\n";
        total.update(line.getBytes(StandardCharsets.UTF_8));
      }
      return HexFormat.of().formatHex(total.digest()).substring(0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static int compareBytes(String x, String y) {
    byte[] a = x.getBytes(StandardCharsets.UTF_8);
    byte[] b = y.getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < Math.min(a.length, b.length); i++) {
      int d = (a[i] & 0xff) - (b[i] & 0xff);
      if (d != 0) {
        return d;
      }
    }
    return a.length - b.length;
  }

  static String git(Path root, String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add("git");
    cmd.add("-C");
    cmd.add(root.toString());
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    return p.waitFor() == 0 ? text : "unknown";
  }
}
