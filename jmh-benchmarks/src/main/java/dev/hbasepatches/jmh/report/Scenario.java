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
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * An end-to-end scenario as one command, with the statistics of the benchmark reports: rounds
 * that alternate the order of the modes, one value per round and mode, intervals over rounds on
 * the scale each quantity lives on (positive times on the log scale, shares on the logit scale,
 * percentiles by bootstrap), verdicts only from an interval against a target.
 *
 * <pre>
 * java -cp jmh-benchmarks/target/benchmarks.jar dev.hbasepatches.jmh.report.Scenario \
 *   --root . timeline-failover [--rounds 6]      # runs the rounds, then writes the report
 * java -cp ... Scenario --root . quotas-throttled-users
 * java -cp ... Scenario --root . timeline-latency
 * java -cp ... Scenario --root . --report-only timeline-failover   # the report again
 * </pre>
 *
 * <p>{@code timeline-failover}: hbase-perf's {@code replicaFailover} (an embedded 3-RegionServer
 * minicluster, one region with three replicas, 10,000 flushed rows, open-loop Gets at 100/s for
 * 10 s, the primary's server aborted or stopped at 3 s), one JVM per round and fault with the
 * three modes one after another (STRONG reads, HBase's TIMELINE client, the module's
 * TimelineReader): odd rounds abort first with the modes in the order BASELINE, UPSTREAM, PATCHED,
 * even rounds stop first in the reverse order. Each run holds the benchmark lock
 * ({@code /tmp/hbasepatches-jmh.lock}). The report lands in
 * {@code hbase-patches/timeline-reads/results/failover/}, with {@code rounds.tsv} (every round's
 * values: the report rests on it), {@code runs.tsv} (every run's time, exit code and load) and
 * {@code run.properties} (commit, the hashes of the module's and hbase-perf's sources, the
 * machine, the load). Every run's own output (its report, CSVs and log) lands under the module's
 * {@code target/scenarios/failover/}, outside the tree ({@link #rawOf}); {@code --report-only}
 * writes the report again from the summary alone.
 *
 * <p>{@code quotas-throttled-users}: hbase-perf's {@code throttledUsers} (the HBase blog's
 * two-user quota experiment: a user throttled at 50 requests/second and a free user, two clients
 * each, on one embedded RegionServer), one JVM per round and mode, stock HBase quotas (UPSTREAM)
 * and the quotas module (PATCHED) in alternating order; the report (the throttled user's
 * admitted rate against the limit, within 2%) lands in
 * {@code hbase-patches/quotas/results/throttled-users/}.
 *
 * <p>{@code timeline-latency}: timeline-reads' {@code TimelineLatencyScenario} (a 3-RegionServer
 * minicluster, three replicas, open-loop Gets at 100/s; under a healthy primary, a primary paused
 * 200 ms on 3% of reads and a primary 20 ms slow on every read, the three modes one after another,
 * reversed on even rounds), all rounds in one JVM started by Maven ({@code --mvn "mvn -o"} to run
 * it offline); the report (p50 and p99 against 5 ms, RPCs per read, extra RPCs against UPSTREAM
 * and the hedge budget, the healthy p99 against STRONG reads') lands in
 * {@code hbase-patches/timeline-reads/results/latency/}.
 */
public final class Scenario {

  static final String FAILOVER = "timeline-failover";
  static final String THROTTLED = "quotas-throttled-users";
  static final String LATENCY = "timeline-latency";
  static final String LOCK = "/tmp/hbasepatches-jmh.lock";
  static final double TARGET_MS = 50;
  static final String[] MODES = { "BASELINE", "UPSTREAM", "PATCHED" };
  static final String[] FAULTS = { "abort", "stop" };
  static final int DEFAULT_ROUNDS = 6;
  /** Each scenario's summary beside its report: one line per round and mode. */
  static final String ROUNDS = "rounds.tsv";

  private Scenario() {
  }

  /** A scenario: its change, its folder under the change's {@code results/}, whether it runs
   * hbase-perf (whose code then counts for its freshness too). */
  record Known(String name, String change, String folder, boolean perf) {
  }

  /** Every scenario, in the order the README lists them. */
  static final List<Known> KNOWN = List.of(new Known(FAILOVER, "timeline-reads", "failover", true),
    new Known(LATENCY, "timeline-reads", "latency", false),
    new Known(THROTTLED, "quotas", "throttled-users", true));

  static final String BEGIN = "<!-- scenarios:begin -->";
  static final String END = "<!-- scenarios:end -->";

  /**
   * Why a scenario's committed report no longer describes the code, or null: it was never run,
   * or the module's (or hbase-perf's) {@code src/main} differs from the hash its run recorded.
   */
  static String staleWhy(Path root, Known k) throws IOException {
    Path dir = root.resolve("hbase-patches").resolve(k.change()).resolve("results")
      .resolve(k.folder());
    if (!Files.isRegularFile(dir.resolve("run.properties"))) {
      return "never run";
    }
    Properties run = properties(dir);
    if (!Evidence.treeSha(root.resolve("hbase-patches").resolve(k.change()).resolve("src/main"))
      .equals(run.getProperty("module.src.sha"))) {
      return "the module's code changed since";
    }
    if (k.perf() && !Evidence.treeSha(root.resolve("hbase-perf/src/main"))
      .equals(run.getProperty("hbase-perf.src.sha"))) {
      return "hbase-perf's code changed since";
    }
    return null;
  }

  /** The README's table of scenarios: each one's command, last run and report, stale or not. */
  static String readmeBlock(Path root) throws IOException {
    StringBuilder s = new StringBuilder("| scenario | change | last run | report |\n"
      + "|---|---|---|---|\n");
    for (Known k : KNOWN) {
      Path dir = root.resolve("hbase-patches").resolve(k.change()).resolve("results")
        .resolve(k.folder());
      String why = staleWhy(root, k);
      s.append("| `Scenario ").append(k.name()).append("` | ").append(k.change()).append(" | ");
      if ("never run".equals(why)) {
        s.append("never run | - |\n");
        continue;
      }
      Properties run = properties(dir);
      s.append("commit ").append(run.getProperty("commit", "?")).append(", ")
        .append(run.getProperty("rounds", "?")).append(" rounds, ")
        .append(run.getProperty("end.utc", "?").replaceFirst("T.*", ""))
        .append(why == null ? "" : " (**stale**: " + why + ")").append(" | [report](")
        .append(root.relativize(dir.resolve("report.md")).toString().replace('\\', '/'))
        .append(") |\n");
    }
    return s.toString();
  }

  /** Rewrites the README's scenario table. */
  static void writeDocs(Path root, PrintStream out) throws IOException {
    Path readme = root.resolve("README.md");
    if (!Files.isRegularFile(readme)) {
      return;
    }
    String text = Files.readString(readme, StandardCharsets.UTF_8);
    String updated = MarkedBlock.replace(text, BEGIN, END, readmeBlock(root));
    if (updated == null) {
      out.println("Scenario: " + readme + " has no " + BEGIN + " ... " + END + " block; left as is");
    } else if (!updated.equals(text)) {
      Files.writeString(readme, updated, StandardCharsets.UTF_8);
      out.println("Scenario: updated " + readme);
    }
  }

  /** One value-bearing run of a scenario: its round, fault (or "") and mode. */
  interface RoundRun {
    int round();

    String fault();

    String mode();
  }

  /** One mode's row of one run's {@code replicaFailover.csv}. */
  record ModeRun(int round, String fault, String mode, long reads, long failed, long empty,
    long stale, double maxAfterFaultMs, double p99AfterFaultMs, long readsAfterFault,
    long withinAfterFault) implements RoundRun {
  }

  public static void main(String[] args) {
    try {
      System.exit(run(args, System.out));
    } catch (BadInputException e) {
      System.err.println("Scenario: " + e.getMessage());
      System.exit(2);
    } catch (IOException | InterruptedException e) {
      System.err.println("Scenario: " + e);
      System.exit(1);
    }
  }

  static int run(String[] args, PrintStream out)
    throws IOException, InterruptedException, BadInputException {
    Path root = null;
    int rounds = DEFAULT_ROUNDS;
    boolean reportOnly = false;
    boolean docs = false;
    String mvn = "mvn";
    String scenario = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--root" -> root = Path.of(Evidence.value(args, ++i, "--root"));
        case "--rounds" -> {
          String v = Evidence.value(args, ++i, "--rounds");
          try {
            rounds = Integer.parseInt(v);
          } catch (NumberFormatException e) {
            rounds = -1;
          }
          if (rounds < ForkStats.MIN_FORKS) {
            throw new BadInputException("--rounds " + v + ": at least " + ForkStats.MIN_FORKS
              + " rounds, each mode in both positions, make an interval worth quoting");
          }
        }
        case "--report-only" -> reportOnly = true;
        case "--docs" -> docs = true;
        case "--mvn" -> mvn = Evidence.value(args, ++i, "--mvn");
        default -> {
          if (args[i].startsWith("-") || scenario != null) {
            throw new BadInputException("unknown argument " + args[i] + " (usage: Scenario --root"
              + " DIR [--rounds N] [--mvn CMD] [--report-only] " + FAILOVER + "|" + THROTTLED
              + "|" + LATENCY + ", or Scenario --root DIR --docs)");
          }
          scenario = args[i];
        }
      }
    }
    if (docs && root != null && scenario == null) {
      writeDocs(root, out);
      return 0;
    }
    if (root == null || scenario == null) {
      throw new BadInputException("usage: Scenario --root DIR [--rounds N] [--mvn CMD]"
        + " [--report-only] " + FAILOVER + "|" + THROTTLED + "|" + LATENCY
        + ", or Scenario --root DIR --docs");
    }
    if (FAILOVER.equals(scenario)) {
      Path dir = failoverDir(root);
      if (!reportOnly) {
        checkJars(root, "timeline-reads");
        runRounds(root, "timeline-reads", dir, FAILOVER, rounds, Scenario::failoverRuns,
          System.err);
        writeFailoverRounds(dir.resolve(ROUNDS), readFailover(rawOf(dir)));
      }
      Files.writeString(dir.resolve("report.md"),
        failoverReport(readFailoverRounds(dir.resolve(ROUNDS)), properties(dir)),
        StandardCharsets.UTF_8);
      out.println("Scenario: wrote " + dir.resolve("report.md"));
    } else if (THROTTLED.equals(scenario)) {
      Path dir = throttledDir(root);
      if (!reportOnly) {
        checkJars(root, "quotas");
        runRounds(root, "quotas", dir, THROTTLED, rounds, Scenario::throttledRuns, System.err);
        writeThrottledRounds(dir.resolve(ROUNDS), readThrottled(rawOf(dir)));
      }
      Files.writeString(dir.resolve("report.md"),
        throttledReport(readThrottledRounds(dir.resolve(ROUNDS)), properties(dir)),
        StandardCharsets.UTF_8);
      out.println("Scenario: wrote " + dir.resolve("report.md"));
    } else if (LATENCY.equals(scenario)) {
      Path dir = latencyDir(root);
      if (!reportOnly) {
        String maven = mvn;
        int n = rounds;
        runRounds(root, "timeline-reads", dir, LATENCY, rounds,
          (r, raw, round) -> round == 1 ? latencyRuns(r, raw, maven, n) : List.of(), System.err);
        Files.copy(rawOf(dir).resolve("scenario").resolve(ROUNDS), dir.resolve(ROUNDS),
          StandardCopyOption.REPLACE_EXISTING);
      }
      Files.writeString(dir.resolve("report.md"),
        latencyReport(readLatency(dir.resolve(ROUNDS)), properties(dir)), StandardCharsets.UTF_8);
      out.println("Scenario: wrote " + dir.resolve("report.md"));
    } else {
      throw new BadInputException("unknown scenario " + scenario + " (known: " + FAILOVER + ", "
        + THROTTLED + ", " + LATENCY + ")");
    }
    writeDocs(root, out);
    return 0;
  }

  /**
   * Where the runs of the scenario whose report is in {@code dir} (a change's
   * {@code results/FOLDER}) write their own output: the module's {@code target/scenarios/FOLDER},
   * outside the tree. The report rests on the summary the command keeps beside it,
   * {@link #ROUNDS}: one line per round and mode.
   */
  static Path rawOf(Path dir) {
    return dir.getParent().getParent().resolve("target").resolve("scenarios")
      .resolve(dir.getFileName());
  }

  /** Writes {@code runs} as a TSV: {@code header}, then one line per run. */
  static <T> void writeRounds(Path tsv, String header, List<T> runs, Function<T, String> line)
    throws IOException {
    StringBuilder s = new StringBuilder(header).append('\n');
    for (T r : runs) {
      s.append(line.apply(r)).append('\n');
    }
    Files.writeString(tsv, s, StandardCharsets.UTF_8);
  }

  /** A value as the run wrote it: whole numbers without a fraction. */
  static String num(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
  }

  static Properties properties(Path dir) throws IOException {
    Properties props = new Properties();
    try (Reader r = Files.newBufferedReader(dir.resolve("run.properties"), StandardCharsets.UTF_8)) {
      props.load(r);
    }
    return props;
  }

  static Path failoverDir(Path root) {
    return root.resolve("hbase-patches/timeline-reads/results/failover");
  }

  /** The modes of one round, in the order they run: reversed on even rounds. */
  static String[] modesOf(int round) {
    return round % 2 == 1 ? MODES : new String[] { MODES[2], MODES[1], MODES[0] };
  }

  /** The faults of one round, in the order they run: abort first on odd rounds. */
  static String[] faultsOf(int round) {
    return round % 2 == 1 ? FAULTS : new String[] { FAULTS[1], FAULTS[0] };
  }

  static List<String> failoverCommand(Path root, Path dir, String fault, String[] modes) {
    return List.of("flock", LOCK, "bash", root.resolve("dev-support/hbase-perf.sh").toString(),
      "--reportDir=" + dir, "--progress=0", "--rows=10000", "--rate=100", "--duration=10s",
      "--faultAfter=3s", "--fault=" + fault, "--failoverModes=" + String.join(",", modes),
      "--table=failover", "replicaFailover");
  }

  /** One JVM of a round: its folder under {@link #rawOf}, what runs.tsv says of it, its command. */
  record Run(String name, String what, List<String> command) {
  }

  /** The runs of one round, in the order they run. */
  interface RoundPlan {
    List<Run> runsOf(Path root, Path raw, int round);
  }

  static List<Run> failoverRuns(Path root, Path raw, int round) {
    List<Run> out = new ArrayList<>();
    for (String fault : faultsOf(round)) {
      String[] modes = modesOf(round);
      Path dir = raw.resolve("r" + round + "-" + fault);
      out.add(new Run(dir.getFileName().toString(), fault + " " + String.join(",", modes),
        failoverCommand(root, dir, fault, modes)));
    }
    return out;
  }

  /** Runs {@code rounds} rounds of {@code plan} (each JVM under the lock) into {@code out}. */
  private static void runRounds(Path root, String change, Path out, String scenario, int rounds,
    RoundPlan plan, PrintStream log) throws IOException, InterruptedException, BadInputException {
    Path moduleSrc = root.resolve("hbase-patches/" + change + "/src/main");
    Path perfSrc = root.resolve("hbase-perf/src/main");
    Path raw = rawOf(out);
    deleteTree(raw);
    Files.createDirectories(raw);
    Properties run = new Properties();
    run.setProperty("scenario", scenario);
    run.setProperty("rounds", Integer.toString(rounds));
    run.setProperty("command", "java -cp jmh-benchmarks/target/benchmarks.jar"
      + " dev.hbasepatches.jmh.report.Scenario --root . " + scenario
      + (rounds != DEFAULT_ROUNDS ? " --rounds " + rounds : ""));
    String dirty = Evidence.git(root, "status", "--porcelain", "--",
      "hbase-patches/" + change + "/src", "hbase-perf/src");
    run.setProperty("commit", Evidence.git(root, "rev-parse", "--short=12", "HEAD")
      + (dirty.isEmpty() ? "" : " (with uncommitted changes)"));
    run.setProperty("module.src.sha", Evidence.treeSha(moduleSrc));
    run.setProperty("hbase-perf.src.sha", Evidence.treeSha(perfSrc));
    Evidence.describeStart(run);
    Instant begin = Instant.now();
    StringBuilder runs = new StringBuilder(
      "round\trun\twhat\tseconds\texit\tload_before\tload_after\n");
    for (int r = 1; r <= rounds; r++) {
      for (Run one : plan.runsOf(root, raw, r)) {
        Path dir = raw.resolve(one.name());
        Files.createDirectories(dir);
        String before = RunMachine.loadavg(Path.of("/proc/loadavg"));
        log.println("Scenario: round " + r + " of " + rounds + ", " + one.what() + ": "
          + String.join(" ", one.command()));
        Instant t0 = Instant.now();
        Process p = new ProcessBuilder(one.command()).directory(root.toFile())
          .redirectOutput(dir.resolve("stdout.txt").toFile())
          .redirectError(dir.resolve("stderr.txt").toFile()).start();
        int exit = p.waitFor();
        long seconds = Duration.between(t0, Instant.now()).toSeconds();
        runs.append(r).append('\t').append(one.name()).append('\t').append(one.what())
          .append('\t').append(seconds).append('\t').append(exit).append('\t').append(before)
          .append('\t').append(RunMachine.loadavg(Path.of("/proc/loadavg"))).append('\n');
        Files.writeString(out.resolve("runs.tsv"), runs, StandardCharsets.UTF_8);
        if (exit != 0) {
          throw new IOException("round " + r + ", " + one.what() + ": the run exited " + exit
            + "; its output: " + dir.resolve("stderr.txt"));
        }
      }
    }
    run.setProperty("end.utc", Instant.now().toString());
    run.setProperty("end.loadavg", RunMachine.loadavg(Path.of("/proc/loadavg")));
    run.setProperty("seconds", Long.toString(Duration.between(begin, Instant.now()).toSeconds()));
    try (Writer w = Files.newBufferedWriter(out.resolve("run.properties"),
      StandardCharsets.UTF_8)) {
      run.store(w, "the scenario run of " + scenario + " (dev.hbasepatches.jmh.report.Scenario)");
    }
  }

  /** hbase-perf's jar and the module's, each there and newer than its sources. */
  private static void checkJars(Path root, String change) throws IOException, BadInputException {
    Path moduleSrc = root.resolve("hbase-patches/" + change + "/src/main");
    Path perfSrc = root.resolve("hbase-perf/src/main");
    String build = "mvn -B package -DskipTests -pl hbase-perf,hbase-patches/" + change + " -am";
    Path perfJar = root.resolve("hbase-perf/target/hbase-perf.jar");
    if (!Files.isRegularFile(perfJar)) {
      throw new BadInputException("no " + perfJar + "; build it first: " + build);
    }
    Path moduleJar;
    try (Stream<Path> s = Files.list(root.resolve("hbase-patches/" + change + "/target"))) {
      moduleJar = s.filter(p -> p.getFileName().toString().matches(
        "hbasepatches-" + change + "-[^-]+(-SNAPSHOT)?\\.jar")).findFirst().orElse(null);
    } catch (IOException e) {
      moduleJar = null;
    }
    if (moduleJar == null) {
      throw new BadInputException("no " + change + " jar under hbase-patches/" + change
        + "/target; build it first: " + build);
    }
    for (Path[] pair : new Path[][] { { perfJar, perfSrc }, { moduleJar, moduleSrc } }) {
      Path newer = Evidence.newerThan(pair[1], Files.getLastModifiedTime(pair[0]).toMillis());
      if (newer != null) {
        throw new BadInputException(newer + " is newer than " + pair[0] + "; rebuild it first ("
          + build + ")");
      }
    }
  }

  /**
   * The run folders under {@code raw} ({@link #rawOf}), {@code r<round>-<kind>} with kind one of
   * {@code kinds} (a regex alternation), in name order, each with its match (group 1 the round, 2 the kind).
   */
  static Map<Path, Matcher> runFolders(Path raw, String kinds)
    throws IOException, BadInputException {
    Pattern name = Pattern.compile("r(\\d+)-(" + kinds + ")");
    Map<Path, Matcher> out = new LinkedHashMap<>();
    List<Path> dirs;
    try (Stream<Path> s = Files.list(raw)) {
      dirs = s.filter(Files::isDirectory).sorted().toList();
    }
    for (Path dir : dirs) {
      Matcher m = name.matcher(dir.getFileName().toString());
      if (!m.matches()) {
        throw new BadInputException(dir + ": not a run folder (r<round>-<" + kinds + ">)");
      }
      out.put(dir, m);
    }
    return out;
  }

  /** A run's CSV or TSV output: its header and its rows, split on {@code sep}. */
  record Table(List<String> header, List<String[]> rows) {

    /** Reads {@code file}, refusing it, with the column named, when a required one is missing. */
    static Table read(Path file, String sep, String... required)
      throws IOException, BadInputException {
      List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      List<String> header = List.of(lines.get(0).split(sep));
      for (String name : required) {
        if (!header.contains(name)) {
          throw new BadInputException(file + ": no column '" + name + "' (written by an older"
            + " version of the tool?)");
        }
      }
      List<String[]> rows = new ArrayList<>();
      for (String line : lines.subList(1, lines.size())) {
        rows.add(line.split(sep));
      }
      return new Table(header, rows);
    }

    int col(String name) {
      return header.indexOf(name);
    }
  }

  /** Every mode row of every run's {@code r<N>-<fault>/replicaFailover.csv} under {@code raw}. */
  static List<ModeRun> readFailover(Path raw) throws IOException, BadInputException {
    List<ModeRun> out = new ArrayList<>();
    for (Map.Entry<Path, Matcher> run : runFolders(raw, "abort|stop").entrySet()) {
      Path dir = run.getKey();
      Matcher m = run.getValue();
      Table t = Table.read(dir.resolve("replicaFailover.csv"), ",", "reads after fault",
        "within 50 ms after fault (reads)", "max after fault ms", "p99 after fault ms");
      for (String[] c : t.rows()) {
        String mode = c[0].split(" ")[0];
        out.add(new ModeRun(Integer.parseInt(m.group(1)), m.group(2), mode, Long.parseLong(c[1]),
          Long.parseLong(c[2]), Long.parseLong(c[3]), Long.parseLong(c[4]),
          Double.parseDouble(c[t.col("max after fault ms")]),
          Double.parseDouble(c[t.col("p99 after fault ms")]),
          Long.parseLong(c[t.col("reads after fault")]),
          Long.parseLong(c[t.col("within 50 ms after fault (reads)")])));
      }
    }
    return out;
  }

  static final String FAILOVER_ROUNDS = "round\tfault\tmode\treads\tfailed\tempty_or_wrong\tstale"
    + "\tmax_after_fault_ms\tp99_after_fault_ms\treads_after_fault\twithin_target_after_fault";

  static void writeFailoverRounds(Path tsv, List<ModeRun> runs) throws IOException {
    writeRounds(tsv, FAILOVER_ROUNDS, runs, r -> String.join("\t", Integer.toString(r.round()),
      r.fault(), r.mode(), num(r.reads()), num(r.failed()), num(r.empty()), num(r.stale()),
      num(r.maxAfterFaultMs()), num(r.p99AfterFaultMs()), num(r.readsAfterFault()),
      num(r.withinAfterFault())));
  }

  /** The failover scenario's {@link #ROUNDS}: every mode of every round and fault. */
  static List<ModeRun> readFailoverRounds(Path tsv) throws IOException, BadInputException {
    Table t = Table.read(tsv, "\t", FAILOVER_ROUNDS.split("\t"));
    List<ModeRun> out = new ArrayList<>();
    for (String[] c : t.rows()) {
      out.add(new ModeRun(Integer.parseInt(c[t.col("round")]), c[t.col("fault")],
        c[t.col("mode")], Long.parseLong(c[t.col("reads")]), Long.parseLong(c[t.col("failed")]),
        Long.parseLong(c[t.col("empty_or_wrong")]), Long.parseLong(c[t.col("stale")]),
        Double.parseDouble(c[t.col("max_after_fault_ms")]),
        Double.parseDouble(c[t.col("p99_after_fault_ms")]),
        Long.parseLong(c[t.col("reads_after_fault")]),
        Long.parseLong(c[t.col("within_target_after_fault")])));
    }
    return out;
  }

  /** The runs of one fault and mode, in round order. */
  static <T extends RoundRun> List<T> select(List<T> runs, String fault, String mode) {
    return runs.stream().filter(r -> r.fault().equals(fault) && r.mode().equals(mode))
      .sorted((a, b) -> Integer.compare(a.round(), b.round())).toList();
  }

  /** The same round's values of modes {@code a} and {@code b} under one fault, a / b per round. */
  static <T extends RoundRun> double[] pairedByRound(List<T> runs, String fault, String a,
    String b, java.util.function.ToDoubleFunction<T> value) {
    List<Double> out = new ArrayList<>();
    for (T x : select(runs, fault, a)) {
      for (T y : select(runs, fault, b)) {
        if (x.round() == y.round()) {
          out.add(value.applyAsDouble(x) / value.applyAsDouble(y));
        }
      }
    }
    return out.stream().mapToDouble(Double::doubleValue).toArray();
  }

  private static String iv(ForkStats.Interval i) {
    return Compare.sig3(i.estimate()) + " [" + Compare.sig3(i.low()) + ", "
      + Compare.sig3(i.high()) + "]";
  }

  private static String faultName(String fault) {
    return fault.equals("abort") ? "abort" : "graceful stop";
  }

  private static String modeName(String mode) {
    return switch (mode) {
      case "BASELINE" -> "BASELINE (STRONG reads)";
      case "UPSTREAM" -> "UPSTREAM (HBase's TIMELINE client)";
      default -> "PATCHED (TimelineReader)";
    };
  }

  /** The report's first paragraph: the command, commit, rounds, time, machine and load. */
  static String madeBy(Properties run) {
    return "Made by one command, `" + run.getProperty("command", "?") + "` (commit "
      + run.getProperty("commit", "?") + "; " + run.getProperty("rounds", "?") + " rounds, "
      + run.getProperty("seconds", "?") + " s on " + run.getProperty("machine", "?") + ", JDK "
      + run.getProperty("java", "?") + "; load average " + run.getProperty("start.loadavg", "?")
      + " at the start, " + run.getProperty("end.loadavg", "?") + " at the end).\n\n";
  }

  /** The report: the table over rounds, the paired comparisons, every round's values. */
  static String failoverReport(List<ModeRun> runs, Properties run) {
    StringBuilder s = new StringBuilder();
    s.append("# timeline-reads: TIMELINE reads through a RegionServer abort and graceful stop\n\n");
    s.append(madeBy(run));
    s.append("Each run is hbase-perf's `replicaFailover`: an embedded 3-RegionServer minicluster,"
      + " one region with three replicas (the primary away from `hbase:meta`'s server), 10,000 rows loaded and flushed, open-loop Gets"
      + " at 100/s for 10 s, latency from each read's intended start, the primary's server aborted"
      + " or stopped gracefully at 3 s. The three modes run one after another, each on the"
      + " cluster restored to three servers: odd rounds abort first with BASELINE, UPSTREAM,"
      + " PATCHED, even rounds stop first with PATCHED, UPSTREAM, BASELINE, so each mode runs"
      + " first and last equally often.\n\n");
    s.append("Target: every TIMELINE read answered within ").append((int) TARGET_MS)
      .append(" ms through the fault, i.e. the slowest read after the fault at most ")
      .append((int) TARGET_MS).append(" ms: **met** when the interval's upper bound is at or"
        + " under it, **not met** when its lower bound is above it, inconclusive otherwise."
        + " Intervals are 95% over rounds: the slowest read on the log scale (geometric mean), the"
        + " share of reads over the target on the logit scale (every round's counts), the p99 as"
        + " the median over rounds with a bootstrap interval. Failed reads (an error or no answer)"
        + " and empty or wrong answers are counted over all rounds.\n\n");
    s.append("| fault | mode | rounds | slowest read after the fault, ms | verdict (<= ")
      .append((int) TARGET_MS).append(" ms) | reads after the fault over ").append((int) TARGET_MS)
      .append(" ms, share | p99 after the fault, ms | failed / empty or wrong (all rounds)"
        + " | stale answers, share |\n");
    s.append("|---|---|---:|---|---|---|---|---|---|\n");
    for (String fault : FAULTS) {
      for (String mode : MODES) {
        List<ModeRun> r = select(runs, fault, mode);
        if (r.isEmpty()) {
          continue;
        }
        double[] slowest = r.stream().mapToDouble(ModeRun::maxAfterFaultMs).toArray();
        double[] p99 = r.stream().mapToDouble(ModeRun::p99AfterFaultMs).toArray();
        long[] over = r.stream().mapToLong(x -> x.readsAfterFault() - x.withinAfterFault())
          .toArray();
        long[] after = r.stream().mapToLong(ModeRun::readsAfterFault).toArray();
        long[] stale = r.stream().mapToLong(ModeRun::stale).toArray();
        long[] reads = r.stream().mapToLong(ModeRun::reads).toArray();
        ForkStats.Interval slow = ForkStats.positiveMean(slowest);
        long failed = r.stream().mapToLong(ModeRun::failed).sum();
        long empty = r.stream().mapToLong(ModeRun::empty).sum();
        s.append("| ").append(faultName(fault)).append(" | ").append(modeName(mode)).append(" | ")
          .append(r.size()).append(" | ").append(iv(slow)).append(" | **")
          .append(slow.atMost(TARGET_MS)).append("** | ")
          .append(iv(ForkStats.share(over, after))).append(" | ")
          .append(iv(ForkStats.percentile(p99))).append(" | ").append(failed).append(" / ")
          .append(empty).append(" | ").append(mode.equals("BASELINE") ? "-"
            : iv(ForkStats.share(stale, reads))).append(" |\n");
      }
    }
    s.append("\nPaired by round (the same round's runs; above 1: the first named is faster,"
      + " i.e. its slowest read after the fault is shorter):\n\n");
    s.append("| fault | comparison | slowest read after the fault, ratio | verdict |\n");
    s.append("|---|---|---|---|\n");
    for (String fault : FAULTS) {
      for (String[] pair : new String[][] { { "PATCHED", "UPSTREAM" },
        { "PATCHED", "BASELINE" } }) {
        double[] ratios = pairedByRound(runs, fault, pair[0], pair[1],
          x -> 1 / x.maxAfterFaultMs());
        if (ratios.length == 0) {
          continue;
        }
        ForkStats.Interval i = ForkStats.pairedRatio(ratios);
        String verdict = i.low() > 1 ? pair[0] + " faster" : i.high() < 1 ? pair[1] + " faster"
          : "no difference shown";
        s.append("| ").append(faultName(fault)).append(" | ").append(pair[0]).append(" against ")
          .append(pair[1]).append(" (").append(pair[1]).append(" / ").append(pair[0])
          .append(") | ").append(iv(i)).append(" | **").append(verdict).append("** |\n");
      }
    }
    s.append("\nEvery round (slowest read after the fault, ms; failed / empty or wrong):\n\n");
    s.append("| fault | mode | each round |\n|---|---|---|\n");
    for (String fault : FAULTS) {
      for (String mode : MODES) {
        List<ModeRun> r = select(runs, fault, mode);
        if (r.isEmpty()) {
          continue;
        }
        List<String> cells = new ArrayList<>();
        for (ModeRun x : r) {
          cells.add("r" + x.round() + " " + Compare.sig3(x.maxAfterFaultMs()) + " ("
            + x.failed() + " / " + x.empty() + ")");
        }
        s.append("| ").append(faultName(fault)).append(" | ").append(mode).append(" | ")
          .append(String.join(", ", cells)).append(" |\n");
      }
    }
    s.append("\n`rounds.tsv` has every round's values (this report is computed from it), `runs.tsv`"
      + " every run's time, exit code and load average before and after. Each run's own report,"
      + " with its timeline (slowest read per 250 ms, chart and CSV), lands in"
      + " `hbase-patches/timeline-reads/target/scenarios/failover/r<round>-<fault>/` when the"
      + " command runs; it is not kept in the tree.\n");
    return s.toString().replace("\n\n\n", "\n\n");
  }

  // ---- quotas-throttled-users ---------------------------------------------------------------

  /** The throttle of the throttled user, and how close to it an admitted rate must come. */
  static final double LIMIT_PER_SECOND = 50;
  static final double LIMIT_TOLERANCE = 0.02;

  /** One mode's run of hbase-perf's throttledUsers: both users' rows. */
  record ThrottledRun(int round, String mode, double throttledPerSecond, double freePerSecond,
    long refused, long failed, long wrong) implements RoundRun {

    @Override
    public String fault() {
      return "";
    }
  }

  static Path throttledDir(Path root) {
    return root.resolve("hbase-patches/quotas/results/throttled-users");
  }

  /** Odd rounds run the module first, even rounds stock HBase first. */
  static List<Run> throttledRuns(Path root, Path raw, int round) {
    List<Run> out = new ArrayList<>();
    for (String mode : round % 2 == 1 ? new String[] { "PATCHED", "UPSTREAM" }
      : new String[] { "UPSTREAM", "PATCHED" }) {
      Path dir = raw.resolve("r" + round + "-" + mode.toLowerCase(Locale.ROOT));
      List<String> cmd = new ArrayList<>(List.of("flock", LOCK, "bash",
        root.resolve("dev-support/hbase-perf.sh").toString()));
      if (mode.equals("PATCHED")) {
        cmd.addAll(List.of("--changes=quotas", "--changeMode=PATCHED"));
      }
      cmd.addAll(List.of("--rows=10000", "--throttle=" + (int) LIMIT_PER_SECOND + "req/sec",
        "--duration=10s", "--reportDir=" + dir, "throttledUsers", "2"));
      out.add(new Run(dir.getFileName().toString(), mode, cmd));
    }
    return out;
  }

  /** Every run's {@code r<N>-<patched|upstream>/throttledUsers.csv} under {@code raw}. */
  static List<ThrottledRun> readThrottled(Path raw) throws IOException, BadInputException {
    List<ThrottledRun> out = new ArrayList<>();
    for (Map.Entry<Path, Matcher> run : runFolders(raw, "patched|upstream").entrySet()) {
      Path dir = run.getKey();
      Matcher m = run.getValue();
      Table t = Table.read(dir.resolve("throttledUsers.csv"), ",", "admitted/s", "refused",
        "failed", "wrong");
      int perSecond = t.col("admitted/s");
      int refused = t.col("refused");
      int failed = t.col("failed");
      int wrong = t.col("wrong");
      double throttled = Double.NaN;
      double free = Double.NaN;
      long refusedSum = 0;
      long failedSum = 0;
      long wrongSum = 0;
      for (String[] c : t.rows()) {
        if (c[0].equals("perf_throttled")) {
          throttled = Double.parseDouble(c[perSecond]);
        } else if (c[0].equals("perf_free")) {
          free = Double.parseDouble(c[perSecond]);
        }
        refusedSum += Long.parseLong(c[refused]);
        failedSum += Long.parseLong(c[failed]);
        wrongSum += Long.parseLong(c[wrong]);
      }
      if (Double.isNaN(throttled) || Double.isNaN(free)) {
        throw new BadInputException(dir.resolve("throttledUsers.csv") + ": no perf_throttled or"
          + " perf_free row");
      }
      out.add(new ThrottledRun(Integer.parseInt(m.group(1)),
        m.group(2).toUpperCase(Locale.ROOT), throttled, free, refusedSum, failedSum,
        wrongSum));
    }
    return out;
  }

  static final String THROTTLED_ROUNDS = "round\tmode\tthrottled_admitted_per_s\tfree_per_s"
    + "\trefused\tfailed\twrong";

  static void writeThrottledRounds(Path tsv, List<ThrottledRun> runs) throws IOException {
    writeRounds(tsv, THROTTLED_ROUNDS, runs, r -> String.join("\t", Integer.toString(r.round()),
      r.mode(), num(r.throttledPerSecond()), num(r.freePerSecond()), num(r.refused()),
      num(r.failed()), num(r.wrong())));
  }

  /** The throttled-users scenario's {@link #ROUNDS}: both modes of every round. */
  static List<ThrottledRun> readThrottledRounds(Path tsv) throws IOException, BadInputException {
    Table t = Table.read(tsv, "\t", THROTTLED_ROUNDS.split("\t"));
    List<ThrottledRun> out = new ArrayList<>();
    for (String[] c : t.rows()) {
      out.add(new ThrottledRun(Integer.parseInt(c[t.col("round")]), c[t.col("mode")],
        Double.parseDouble(c[t.col("throttled_admitted_per_s")]),
        Double.parseDouble(c[t.col("free_per_s")]), Long.parseLong(c[t.col("refused")]),
        Long.parseLong(c[t.col("failed")]), Long.parseLong(c[t.col("wrong")])));
    }
    return out;
  }

  /** Within the tolerance of the limit: met when the whole interval is, not met when none is. */
  static String withinLimit(ForkStats.Interval i) {
    double lo = 1 - LIMIT_TOLERANCE;
    double hi = 1 + LIMIT_TOLERANCE;
    if (!Double.isFinite(i.low()) || !Double.isFinite(i.high())) {
      return "inconclusive";
    }
    if (i.low() >= lo && i.high() <= hi) {
      return "met";
    }
    return i.high() < lo || i.low() > hi ? "not met" : "inconclusive";
  }

  static String throttledReport(List<ThrottledRun> runs, Properties run) {
    StringBuilder s = new StringBuilder();
    s.append("# quotas: two users, one throttled, on one RegionServer\n\n");
    s.append(madeBy(run));
    s.append("Each run is hbase-perf's `throttledUsers`, the HBase blog's two-user quota"
      + " experiment (HBASE-11598) on an embedded minicluster: two users with two clients each read the same 10,000-row"
      + " table at once, client retries off; `perf_throttled` has a ")
      .append((int) LIMIT_PER_SECOND).append(" requests/second throttle, `perf_free` none; 3 s"
        + " warm-up, 10 s measured; a refused read waits the interval the server gave."
        + " UPSTREAM is HBase's own quotas (`MiniHBaseClusterRegionServer`), PATCHED the module"
        + " (`--changes=quotas --changeMode=PATCHED`, `ThrottlingRegionServer`). Odd rounds run"
        + " PATCHED first, even rounds UPSTREAM first.\n\n");
    s.append("Target: the throttled user is admitted the configured rate, within ")
      .append((int) Math.round(LIMIT_TOLERANCE * 100)).append("% (**met** when the whole 95%"
        + " interval of admitted / limit lies within it, **not met** when none of it does)."
        + " Intervals are 95% over rounds on the log scale (geometric mean).\n\n");
    s.append("| mode | rounds | throttled user, admitted / limit | verdict (within ")
      .append((int) Math.round(LIMIT_TOLERANCE * 100)).append("%) | free user, reads/s |"
        + " refused (all rounds) | failed / wrong (all rounds) |\n");
    s.append("|---|---:|---|---|---|---:|---|\n");
    for (String mode : new String[] { "UPSTREAM", "PATCHED" }) {
      List<ThrottledRun> r = select(runs, "", mode);
      if (r.isEmpty()) {
        continue;
      }
      ForkStats.Interval admitted = ForkStats.positiveMean(
        r.stream().mapToDouble(x -> x.throttledPerSecond() / LIMIT_PER_SECOND).toArray());
      ForkStats.Interval free = ForkStats.positiveMean(
        r.stream().mapToDouble(ThrottledRun::freePerSecond).toArray());
      s.append("| ").append(mode.equals("PATCHED") ? "PATCHED (the quotas module)"
          : "UPSTREAM (HBase's own quotas)").append(" | ").append(r.size()).append(" | ")
        .append(iv(admitted)).append(" | **").append(withinLimit(admitted)).append("** | ")
        .append(iv(free)).append(" | ").append(r.stream().mapToLong(ThrottledRun::refused).sum())
        .append(" | ").append(r.stream().mapToLong(ThrottledRun::failed).sum()).append(" / ")
        .append(r.stream().mapToLong(ThrottledRun::wrong).sum()).append(" |\n");
    }
    double[] admittedRatios =
      pairedByRound(runs, "", "PATCHED", "UPSTREAM", ThrottledRun::throttledPerSecond);
    if (admittedRatios.length > 0) {
      ForkStats.Interval a = ForkStats.pairedRatio(admittedRatios);
      ForkStats.Interval f = ForkStats.pairedRatio(
        pairedByRound(runs, "", "PATCHED", "UPSTREAM", ThrottledRun::freePerSecond));
      s.append("\nPaired by round, PATCHED / UPSTREAM: the throttled user's admitted rate ")
        .append(iv(a)).append(", the free user's reads/s ").append(iv(f))
        .append(" (the free user's rate follows the shared machine's load; it shows that the"
          + " throttle did not reach it, not that one mode is faster).\n");
    }
    s.append("\nEvery round (throttled user's admitted reads/s; free user's reads/s):\n\n");
    s.append("| mode | each round |\n|---|---|\n");
    for (String mode : new String[] { "UPSTREAM", "PATCHED" }) {
      List<String> cells = new ArrayList<>();
      for (ThrottledRun x : select(runs, "", mode)) {
        cells.add("r" + x.round() + " " + Compare.sig3(x.throttledPerSecond()) + "; "
          + Compare.sig3(x.freePerSecond()));
      }
      if (!cells.isEmpty()) {
        s.append("| ").append(mode).append(" | ").append(String.join(", ", cells)).append(" |\n");
      }
    }
    s.append("\n`rounds.tsv` has every round's values (this report is computed from it), `runs.tsv`"
      + " every run's time, exit code and load average before and after. Each run's own report,"
      + " CSV per second and output land in"
      + " `hbase-patches/quotas/target/scenarios/throttled-users/r<round>-<mode>/` when the"
      + " command runs; they are not kept in the tree.\n");
    return s.toString();
  }

  // ---- timeline-latency ---------------------------------------------------------------------

  /** The latency scenario's faults, in the order each round runs them. */
  static final String[] LATENCY_FAULTS = { "healthy", "pause3pct200ms", "slowPrimary20ms" };
  /** The p50 and p99 targets of a TIMELINE read under a slow or paused primary, ms. */
  static final double LATENCY_TARGET_MS = 5;
  /** RPCs per read a uniformly slow primary may cost the reader. */
  static final double RPCS_PER_READ = 1.1;
  /** The hedge budget's ratio: extra RPCs per read on a healthy cluster (its burst not counted). */
  static final double BUDGET = 0.05;
  /** How much slower than STRONG reads a healthy cluster's PATCHED p99 may be. */
  static final double HEALTHY_MARGIN = 0.10;

  /** One run (a fault, a mode, a round) of the latency scenario: its line of rounds.tsv. */
  record LatencyRun(String fault, String mode, int round, long reads, double p50Ms, double p99Ms,
    double maxMs, long serverGets, long stale, long errors, long empty) implements RoundRun {

    /** RPCs the servers answered beyond one per read (never below zero). */
    long extra() {
      return Math.max(0, serverGets - reads);
    }
  }

  static Path latencyDir(Path root) {
    return root.resolve("hbase-patches/timeline-reads/results/latency");
  }

  /**
   * The whole scenario is one JVM (TimelineLatencyScenario under {@code -Ptimeline-scenario}):
   * its rounds run the three modes one after another under each fault on one cluster, the order
   * reversed on even rounds, so every mode runs first and last equally often within the run.
   */
  static List<Run> latencyRuns(Path root, Path raw, String mvn, int rounds) {
    Path dir = raw.resolve("scenario");
    List<String> cmd = new ArrayList<>(List.of("flock", LOCK));
    cmd.addAll(List.of(mvn.trim().split("\\s+")));
    cmd.addAll(List.of("-B", "test", "-pl", "hbase-patches/timeline-reads", "-am",
      "-Ptimeline-scenario", "-Dtest=TimelineLatencyScenario",
      "-Dsurefire.failIfNoSpecifiedTests=false", "-Dscenario.rounds=" + rounds,
      "-Dscenario.failover.rounds=0", "-Dscenario.out=" + dir.toAbsolutePath()));
    return List.of(new Run("scenario", rounds + " rounds in one JVM", cmd));
  }

  /** Every run's line of the latency scenario's {@code rounds.tsv}. */
  static List<LatencyRun> readLatency(Path tsv) throws IOException, BadInputException {
    if (!Files.isRegularFile(tsv)) {
      throw new BadInputException("no " + tsv + " (the scenario did not finish, or an older"
        + " TimelineLatencyScenario without it)");
    }
    Table t = Table.read(tsv, "\t", "fault", "mode", "round", "reads", "p50_ms", "p99_ms",
      "max_ms", "server_gets", "stale", "errors", "empty");
    List<LatencyRun> out = new ArrayList<>();
    for (String[] c : t.rows()) {
      out.add(new LatencyRun(c[t.col("fault")], c[t.col("mode")],
        Integer.parseInt(c[t.col("round")]), Long.parseLong(c[t.col("reads")]),
        Double.parseDouble(c[t.col("p50_ms")]), Double.parseDouble(c[t.col("p99_ms")]),
        Double.parseDouble(c[t.col("max_ms")]), Long.parseLong(c[t.col("server_gets")]),
        Long.parseLong(c[t.col("stale")]), Long.parseLong(c[t.col("errors")]),
        Long.parseLong(c[t.col("empty")])));
    }
    return out;
  }

  private static String latencyFaultName(String fault) {
    return switch (fault) {
      case "healthy" -> "healthy primary";
      case "pause3pct200ms" -> "primary paused 200 ms on 3% of reads";
      case "slowPrimary20ms" -> "primary 20 ms slow on every read";
      default -> fault;
    };
  }

  private static ForkStats.Interval p50(List<LatencyRun> r) {
    return ForkStats.percentile(r.stream().mapToDouble(LatencyRun::p50Ms).toArray());
  }

  private static ForkStats.Interval p99(List<LatencyRun> r) {
    return ForkStats.percentile(r.stream().mapToDouble(LatencyRun::p99Ms).toArray());
  }

  private static ForkStats.Interval rpcsPerRead(List<LatencyRun> r) {
    return ForkStats.positiveMean(r.stream()
      .mapToDouble(x -> x.serverGets() / (double) Math.max(1, x.reads())).toArray());
  }

  private static ForkStats.Interval extraPerRead(List<LatencyRun> r) {
    return ForkStats.rate(r.stream().mapToLong(LatencyRun::extra).toArray(),
      r.stream().mapToLong(LatencyRun::reads).toArray());
  }

  static String latencyReport(List<LatencyRun> runs, Properties run) {
    StringBuilder s = new StringBuilder();
    s.append("# timeline-reads: TIMELINE read latency under a slow, paused or healthy primary\n\n");
    s.append(madeBy(run));
    s.append("The run is `TimelineLatencyScenario` (timeline-reads' tests,"
      + " `-Ptimeline-scenario`): a 3-RegionServer minicluster in one JVM, one region with three"
      + " replicas (one per server, the primary away from `hbase:meta`'s), 10,000 flushed rows, a writer at"
      + " about 100 puts/s, open-loop TIMELINE Gets at 100/s (Poisson) for 8 s per mode and fault,"
      + " latency from each read's intended start, the Gets every replica served counted on the"
      + " servers. Each round runs three faults one after another (a healthy primary; the primary"
      + " paused 200 ms on 3% of its reads; the primary 20 ms slow on every read) and under each"
      + " the three modes (BASELINE: STRONG reads; UPSTREAM: HBase's TIMELINE client; PATCHED:"
      + " the module's TimelineReader), in reverse order on even rounds.\n\n");
    s.append("Intervals are 95% over rounds: a percentile as the median of the rounds' values"
      + " with a bootstrap interval, RPCs per read on the log scale, extra RPCs per read from"
      + " every round's counts (log scale), paired ratios by round on the log scale (above 1:"
      + " PATCHED better). A verdict comes only from where the interval lies against the"
      + " target.\n\n");
    List<LatencyRun> slowP = select(runs, "slowPrimary20ms", "PATCHED");
    List<LatencyRun> pausedP = select(runs, "pause3pct200ms", "PATCHED");
    List<LatencyRun> healthyP = select(runs, "healthy", "PATCHED");
    List<LatencyRun> healthyB = select(runs, "healthy", "BASELINE");
    s.append("| target | PATCHED | UPSTREAM, same rounds | verdict |\n|---|---|---|---|\n");
    if (!slowP.isEmpty()) {
      ForkStats.Interval p = p50(slowP);
      s.append("| primary 20 ms slow: p50 <= ").append((int) LATENCY_TARGET_MS).append(" ms | ")
        .append(iv(p)).append(" ms | ")
        .append(iv(p50(select(runs, "slowPrimary20ms", "UPSTREAM")))).append(" ms | **")
        .append(p.atMost(LATENCY_TARGET_MS)).append("** |\n");
      ForkStats.Interval r = rpcsPerRead(slowP);
      s.append("| ... at <= ").append(RPCS_PER_READ).append(" RPCs per read | ").append(iv(r))
        .append(" | ").append(iv(rpcsPerRead(select(runs, "slowPrimary20ms",
          "UPSTREAM")))).append(" | **").append(r.atMost(RPCS_PER_READ)).append("** |\n");
    }
    if (!pausedP.isEmpty()) {
      ForkStats.Interval p = p99(pausedP);
      s.append("| primary paused on 3% of reads: p99 <= ").append((int) LATENCY_TARGET_MS)
        .append(" ms | ").append(iv(p)).append(" ms | ")
        .append(iv(p99(select(runs, "pause3pct200ms", "UPSTREAM")))).append(" ms | **")
        .append(p.atMost(LATENCY_TARGET_MS)).append("** |\n");
      double[] ratios = pairedByRound(runs, "pause3pct200ms", "UPSTREAM", "PATCHED",
        x -> x.extra() / (double) Math.max(1, x.reads()));
      boolean defined = java.util.Arrays.stream(ratios).allMatch(x -> x > 0 && Double.isFinite(x));
      ForkStats.Interval e = defined ? ForkStats.pairedRatio(ratios) : null;
      s.append("| ... with fewer extra RPCs than UPSTREAM (UPSTREAM / PATCHED extra RPCs per"
        + " read, paired by round) | ").append(iv(extraPerRead(pausedP))).append(" per read | ")
        .append(iv(extraPerRead(select(runs, "pause3pct200ms", "UPSTREAM"))))
        .append(" per read | ").append(e == null ? "- (a round without extra RPCs)"
          : iv(e) + ": **" + e.against(1) + "**").append(" |\n");
    }
    if (!healthyP.isEmpty() && !healthyB.isEmpty()) {
      ForkStats.Interval q = ForkStats.pairedRatio(
        pairedByRound(runs, "healthy", "BASELINE", "PATCHED", LatencyRun::p99Ms));
      s.append("| healthy: p99 within ").append((int) Math.round(HEALTHY_MARGIN * 100))
        .append("% of STRONG reads' (BASELINE / PATCHED p99, paired by round; at least ")
        .append(1 - HEALTHY_MARGIN).append(") | ").append(iv(p99(healthyP))).append(" ms | ")
        .append(iv(p99(select(runs, "healthy", "UPSTREAM")))).append(" ms | ")
        .append(iv(q)).append(": **").append(q.against(1 - HEALTHY_MARGIN)).append("** |\n");
      ForkStats.Interval e = extraPerRead(healthyP);
      s.append("| healthy: extra RPCs per read within the hedge budget (").append(BUDGET)
        .append(", its burst not counted) | ").append(iv(e)).append(" | ")
        .append(iv(extraPerRead(select(runs, "healthy", "UPSTREAM")))).append(" | **")
        .append(e.atMost(BUDGET)).append("** |\n");
      s.append("\nThe machine's floor: STRONG reads on the healthy cluster, in the same rounds,"
        + " had a p99 of ").append(iv(p99(healthyB))).append(" ms and a p50 of ")
        .append(iv(p50(healthyB))).append(" ms; a p99 target below the first is out of this"
          + " machine's reach whatever the reader does.\n");
    }
    s.append("\nEvery fault and mode (95% intervals over rounds):\n\n");
    s.append("| fault | mode | rounds | reads | p50, ms | p99, ms | RPCs per read | stale answers,"
      + " share | failed / empty (all rounds) |\n");
    s.append("|---|---|---:|---:|---|---|---|---|---|\n");
    for (String fault : LATENCY_FAULTS) {
      for (String mode : MODES) {
        List<LatencyRun> r = select(runs, fault, mode);
        if (r.isEmpty()) {
          continue;
        }
        s.append("| ").append(latencyFaultName(fault)).append(" | ").append(modeName(mode))
          .append(" | ").append(r.size()).append(" | ")
          .append(r.stream().mapToLong(LatencyRun::reads).sum()).append(" | ")
          .append(iv(p50(r))).append(" | ").append(iv(p99(r))).append(" | ")
          .append(iv(rpcsPerRead(r))).append(" | ")
          .append(mode.equals("BASELINE") ? "-" : iv(ForkStats.share(
            r.stream().mapToLong(LatencyRun::stale).toArray(),
            r.stream().mapToLong(LatencyRun::reads).toArray())))
          .append(" | ").append(r.stream().mapToLong(LatencyRun::errors).sum()).append(" / ")
          .append(r.stream().mapToLong(LatencyRun::empty).sum()).append(" |\n");
      }
    }
    s.append("\nEvery round (p50 / p99 ms; RPCs per read):\n\n");
    s.append("| fault | mode | each round |\n|---|---|---|\n");
    for (String fault : LATENCY_FAULTS) {
      for (String mode : MODES) {
        List<String> cells = new ArrayList<>();
        for (LatencyRun x : select(runs, fault, mode)) {
          cells.add("r" + x.round() + " " + Compare.sig3(x.p50Ms()) + " / "
            + Compare.sig3(x.p99Ms()) + "; " + Compare.sig3(x.serverGets()
              / (double) Math.max(1, x.reads())));
        }
        if (!cells.isEmpty()) {
          s.append("| ").append(latencyFaultName(fault)).append(" | ").append(mode).append(" | ")
            .append(String.join(", ", cells)).append(" |\n");
        }
      }
    }
    s.append("\n`rounds.tsv` has every round's values (this report is computed from it). The run's"
      + " own output lands in `hbase-patches/timeline-reads/target/scenarios/latency/scenario/`"
      + " when the command runs, not kept in the tree: `runs.md`, the run's log (every run's line"
      + " with the load average before and after, and the reader's counters for PATCHED: hedges,"
      + " budget refusals, demoted reads), and `reads/`, every read with the Gets the servers saw"
      + " for it.\n");
    return s.toString();
  }

  static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) walk.sorted((x, y) -> y.compareTo(x))::iterator) {
        Files.delete(p);
      }
    }
  }
}
