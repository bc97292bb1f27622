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

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The scenario report from runs written as hbase-perf's replicaFailover writes them: the right
 * rounds per mode, verdicts from the intervals, no bound below zero, bad arguments named; the
 * summary kept in the tree ({@code rounds.tsv}) holds what the runs' own output held.
 */
public class ScenarioTest {

  @Rule
  public final TemporaryFolder tmp = new TemporaryFolder();

  private static final String HEADER = "mode,reads,failed,empty or wrong,stale,p50 ms,p99 ms,"
    + "max ms,max after fault ms,within 50 ms,within 50 ms after fault,p99 after fault ms,"
    + "reads after fault,within 50 ms after fault (reads)";

  /** Round r: STRONG stalls ~1.5 s, HBase's TIMELINE ~100 ms, the reader ~30 ms. */
  private Path writeRuns(int rounds) throws Exception {
    Path root = tmp.getRoot().toPath();
    Path out = Scenario.failoverDir(root);
    for (int r = 1; r <= rounds; r++) {
      for (String fault : Scenario.faultsOf(r)) {
        Path dir = Scenario.rawOf(out).resolve("r" + r + "-" + fault);
        Files.createDirectories(dir);
        double jitter = 1 + 0.05 * r;
        Files.writeString(dir.resolve("replicaFailover.csv"), HEADER + "\n"
          + "BASELINE (STRONG),1000,0,0,0,7.7,1821,1994," + 1500 * jitter + ",0.8,0.74,1400,700,"
          + (560 - r) + "\n"
          + "UPSTREAM (HBase TIMELINE),1000,0," + (r == 2 ? 3 : 0) + ",150,10.5,182,279,"
          + 100 * jitter + ",0.95,0.97,56,700," + (690 - r) + "\n"
          + "PATCHED (TimelineReader),1000,0,0,900,6.6,20,40," + 30 * jitter
          + ",0.99,1.0,12,700,700\n", StandardCharsets.UTF_8);
      }
    }
    Files.createDirectories(out);
    Files.writeString(out.resolve("run.properties"), "command=the command\ncommit=abc\nrounds="
      + rounds + "\n", StandardCharsets.UTF_8);
    // what the command does after the runs: the summary beside the report
    Scenario.writeFailoverRounds(out.resolve(Scenario.ROUNDS),
      Scenario.readFailover(Scenario.rawOf(out)));
    return root;
  }

  @Test
  public void theReportDecidesFromIntervalsOverRounds() throws Exception {
    Path root = writeRuns(6);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    assertEquals(0, Scenario.run(new String[] { "--root", root.toString(), "--report-only",
      Scenario.FAILOVER }, new PrintStream(bytes, true, StandardCharsets.UTF_8)));
    String report = Files.readString(Scenario.failoverDir(root).resolve("report.md"));
    List<String> rows = report.substring(0, report.indexOf("Every round")).lines()
      .filter(l -> l.startsWith("| abort |")).toList();
    assertEquals(report, 5, rows.size());
    assertTrue(rows.get(0), rows.get(0).contains("BASELINE") && rows.get(0).contains("| 6 |")
      && rows.get(0).contains("**not met**"));
    assertTrue(rows.get(1), rows.get(1).contains("UPSTREAM") && rows.get(1).contains("**not met**")
      && rows.get(1).contains("| 0 / 3 |"));
    assertTrue(rows.get(2), rows.get(2).contains("PATCHED") && rows.get(2).contains("**met**")
      && rows.get(2).contains("| 0 / 0 |"));
    assertTrue(rows.get(3), rows.get(3).contains("PATCHED against UPSTREAM")
      && rows.get(3).contains("**PATCHED faster**"));
    assertTrue(rows.get(4), rows.get(4).contains("PATCHED against BASELINE")
      && rows.get(4).contains("**PATCHED faster**"));
    // No interval of a positive quantity or a share has a bound below zero.
    assertFalse(report, report.matches("(?s).*\\[-.*"));
    assertTrue(report, report.contains("the command") && report.contains("commit abc"));
    // The summary kept in the tree makes the same report without the runs' own output.
    Path rounds = Scenario.failoverDir(root).resolve(Scenario.ROUNDS);
    assertEquals(1 + 6 * 2 * 3, Files.readAllLines(rounds).size());
    assertEquals(Scenario.readFailover(Scenario.rawOf(Scenario.failoverDir(root))),
      Scenario.readFailoverRounds(rounds));
    Scenario.deleteTree(Scenario.rawOf(Scenario.failoverDir(root)));
    Files.delete(Scenario.failoverDir(root).resolve("report.md"));
    assertEquals(0, Scenario.run(new String[] { "--root", root.toString(), "--report-only",
      Scenario.FAILOVER }, new PrintStream(bytes, true, StandardCharsets.UTF_8)));
    assertEquals(report, Files.readString(Scenario.failoverDir(root).resolve("report.md")));
  }

  @Test
  public void theThrottledUsersReportJudgesTheAdmittedRateAgainstTheLimit() throws Exception {
    Path root = tmp.getRoot().toPath();
    Path out = Scenario.throttledDir(root);
    for (int r = 1; r <= 5; r++) {
      for (Scenario.Run run : Scenario.throttledRuns(root, Scenario.rawOf(out), r)) {
        Path dir = Scenario.rawOf(out).resolve(run.name());
        Files.createDirectories(dir);
        boolean patched = run.name().endsWith("patched");
        double throttled = patched ? 50.0 : 38 + 0.3 * r;
        Files.writeString(dir.resolve("throttledUsers.csv"), "user,limit,clients,admitted,"
          + "admitted/s,refused,failed,wrong,p50 ms,p99 ms,max ms\n"
          + "perf_throttled,50req/sec,2," + (int) (throttled * 10) + "," + throttled + ",400,0,0,"
          + "3,16,140\nperf_free,none,2,7000," + (700 + 10 * r) + ",0,0,0,1.5,12,138\n",
          StandardCharsets.UTF_8);
      }
    }
    Files.createDirectories(out);
    Files.writeString(out.resolve("run.properties"), "command=c\ncommit=abc\nrounds=5\n",
      StandardCharsets.UTF_8);
    Scenario.writeThrottledRounds(out.resolve(Scenario.ROUNDS),
      Scenario.readThrottled(Scenario.rawOf(out)));
    assertEquals(0, Scenario.run(new String[] { "--root", root.toString(), "--report-only",
      Scenario.THROTTLED }, System.out));
    String report = Files.readString(out.resolve("report.md"));
    String upstream = report.lines().filter(l -> l.startsWith("| UPSTREAM (")).findFirst()
      .orElseThrow();
    String patched = report.lines().filter(l -> l.startsWith("| PATCHED (")).findFirst()
      .orElseThrow();
    assertTrue(upstream, upstream.contains("| 5 |") && upstream.contains("**not met**"));
    assertTrue(patched, patched.contains("1 [1, 1]") && patched.contains("**met**")
      && patched.contains("| 2000 |") && patched.contains("| 0 / 0 |"));
    assertTrue(report, report.contains("Paired by round, PATCHED / UPSTREAM"));
    assertFalse(report, report.matches("(?s).*\\[-.*"));
    assertEquals(Scenario.readThrottled(Scenario.rawOf(out)),
      Scenario.readThrottledRounds(out.resolve(Scenario.ROUNDS)));
  }

  /**
   * The latency scenario's rounds as TimelineLatencyScenario writes them: a slow primary the
   * reader hedges around (p50 ~3 ms at ~1.03 RPCs per read), a paused primary whose p99 sits at
   * the machine's floor, a healthy cluster where the reader matches STRONG reads.
   */
  @Test
  public void theLatencyReportJudgesEachTargetFromItsInterval() throws Exception {
    Path root = tmp.getRoot().toPath();
    Path dir = Scenario.latencyDir(root);
    Path raw = Files.createDirectories(Scenario.rawOf(dir).resolve("scenario"));
    StringBuilder tsv = new StringBuilder("fault\tmode\tround\treads\tp50_ms\tp99_ms\tmax_ms"
      + "\tserver_gets\tstale\terrors\tempty\tload_before\tload_after\n");
    for (int r = 1; r <= 6; r++) {
      double j = 1 + 0.02 * r;
      String[] lines = {
        "healthy\tBASELINE\t" + r + "\t800\t" + 2 * j + "\t" + 20 * j + "\t40\t800\t0\t0\t0",
        "healthy\tUPSTREAM\t" + r + "\t800\t" + 2 * j + "\t" + 21 * j + "\t40\t860\t30\t0\t0",
        "healthy\tPATCHED\t" + r + "\t800\t" + 2 * j + "\t" + 19 * j + "\t40\t" + (810 + r)
          + "\t5\t0\t0",
        "pause3pct200ms\tBASELINE\t" + r + "\t800\t" + 2 * j + "\t201\t210\t800\t0\t0\t0",
        "pause3pct200ms\tUPSTREAM\t" + r + "\t800\t" + 2 * j + "\t" + 12 * j + "\t60\t"
          + (880 + r) + "\t40\t0\t0",
        "pause3pct200ms\tPATCHED\t" + r + "\t800\t" + 2 * j + "\t" + 15 * j + "\t60\t"
          + (830 + r) + "\t30\t0\t0",
        "slowPrimary20ms\tBASELINE\t" + r + "\t800\t" + 22 * j + "\t30\t40\t800\t0\t0\t0",
        "slowPrimary20ms\tUPSTREAM\t" + r + "\t800\t" + 16 * j + "\t30\t40\t2300\t700\t0\t0",
        "slowPrimary20ms\tPATCHED\t" + r + "\t800\t" + 3 * j + "\t9\t40\t" + (820 + r)
          + "\t790\t0\t0" };
      for (String l : lines) {
        tsv.append(l).append("\t1.0\t1.1\n");
      }
    }
    Files.writeString(raw.resolve(Scenario.ROUNDS), tsv, StandardCharsets.UTF_8);
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("run.properties"), "command=c\ncommit=abc\nrounds=6\n",
      StandardCharsets.UTF_8);
    Files.copy(raw.resolve(Scenario.ROUNDS), dir.resolve(Scenario.ROUNDS));
    assertEquals(0, Scenario.run(new String[] { "--root", root.toString(), "--report-only",
      Scenario.LATENCY }, System.out));
    String report = Files.readString(dir.resolve("report.md"));
    List<String> targets = report.substring(report.indexOf("| target |"),
      report.indexOf("The machine's floor")).lines().filter(l -> l.startsWith("| primary ")
      || l.startsWith("| ... ") || l.startsWith("| healthy: ")).toList();
    String[][] expected = { { "p50 <= 5 ms", "met" }, { "RPCs per read", "met" },
      { "p99 <= 5 ms", "not met" }, { "fewer extra RPCs", "met" }, { "within 10%", "met" },
      { "hedge budget", "met" } };
    assertEquals(report, expected.length, targets.size());
    for (int i = 0; i < expected.length; i++) {
      assertTrue(targets.get(i), targets.get(i).contains(expected[i][0])
        && targets.get(i).endsWith("**" + expected[i][1] + "** |"));
    }
    assertTrue(report, report.contains("The machine's floor"));
    assertEquals(report, 9, report.lines().filter(l -> l.matches("\\| (healthy primary|primary"
      + " paused|primary 20 ms).*\\| 6 \\| 4800 \\|.*")).count());
    assertFalse(report, report.matches("(?s).*\\[-.*"));
    assertEquals(tsv.toString(), Files.readString(dir.resolve(Scenario.ROUNDS)));
  }

  @Test
  public void aRateWithinTheToleranceIsMetOnlyWhenTheWholeIntervalIs() {
    assertEquals("met", Scenario.withinLimit(new ForkStats.Interval(5, 1, 0.99, 1.01)));
    assertEquals("inconclusive", Scenario.withinLimit(new ForkStats.Interval(5, 1, 0.97, 1.01)));
    assertEquals("not met", Scenario.withinLimit(new ForkStats.Interval(5, 0.77, 0.75, 0.79)));
  }

  /**
   * The committed scenario reports are what the report code makes of their committed runs: a
   * number edited by hand, or a report left behind when the code changed, fails here.
   */
  @Test
  public void committedScenarioReportsComeFromTheirRuns() throws Exception {
    Path root = DocumentLinksTest.projectRoot();
    Path failover = Scenario.failoverDir(root);
    assertTrue("no committed failover scenario at " + failover,
      Files.isRegularFile(failover.resolve("report.md")));
    assertEquals(Files.readString(failover.resolve("report.md")), Scenario.failoverReport(
      Scenario.readFailoverRounds(failover.resolve(Scenario.ROUNDS)),
      Scenario.properties(failover)));
    Path latency = Scenario.latencyDir(root);
    if (Files.isRegularFile(latency.resolve("report.md"))) {
      assertEquals(Files.readString(latency.resolve("report.md")), Scenario.latencyReport(
        Scenario.readLatency(latency.resolve(Scenario.ROUNDS)), Scenario.properties(latency)));
    }
    Path throttled = Scenario.throttledDir(root);
    if (Files.isRegularFile(throttled.resolve("report.md"))) {
      assertEquals(Files.readString(throttled.resolve("report.md")), Scenario.throttledReport(
        Scenario.readThrottledRounds(throttled.resolve(Scenario.ROUNDS)),
        Scenario.properties(throttled)));
    }
    String readme = MarkedBlock.between(Files.readString(root.resolve("README.md")),
      Scenario.BEGIN, Scenario.END);
    assertEquals("README.md: run Scenario --root . --docs", Scenario.readmeBlock(root), readme);
  }

  /**
   * A scenario's report is stale once its module's code, or hbase-perf's for the scenarios it
   * runs, differs from what its run recorded; the README's table says so and why.
   */
  @Test
  public void aScenarioIsStaleWhenTheCodeItRanChanged() throws Exception {
    Path root = tmp.newFolder("root").toPath();
    Path quotasSrc = Files.createDirectories(root.resolve("hbase-patches/quotas/src/main"));
    Path perfSrc = Files.createDirectories(root.resolve("hbase-perf/src/main"));
    Path timelineSrc =
      Files.createDirectories(root.resolve("hbase-patches/timeline-reads/src/main"));
    Files.writeString(quotasSrc.resolve("Q.java"), "q");
    Files.writeString(timelineSrc.resolve("T.java"), "t");
    Path perf = Files.writeString(perfSrc.resolve("P.java"), "p");
    Path throttled = Files.createDirectories(Scenario.throttledDir(root));
    Path latency = Files.createDirectories(Scenario.latencyDir(root));
    for (Path dir : List.of(throttled, latency)) {
      Path src = dir.equals(throttled) ? quotasSrc : timelineSrc;
      Files.writeString(dir.resolve("run.properties"), "commit=abc\nrounds=6\n"
        + "end.utc=2026-11-29T10\\:00\\:00Z\nmodule.src.sha=" + Evidence.treeSha(src)
        + "\nhbase-perf.src.sha=" + Evidence.treeSha(perfSrc) + "\n");
    }
    Scenario.Known throttledUsers = Scenario.KNOWN.stream()
      .filter(k -> k.name().equals(Scenario.THROTTLED)).findFirst().get();
    Scenario.Known latencyRuns = Scenario.KNOWN.stream()
      .filter(k -> k.name().equals(Scenario.LATENCY)).findFirst().get();
    assertEquals(null, Scenario.staleWhy(root, throttledUsers));
    String table = Scenario.readmeBlock(root);
    assertTrue(table, table.contains("| `Scenario quotas-throttled-users` | quotas | commit abc, 6"
      + " rounds, 2026-11-29 | [report](hbase-patches/quotas/results/throttled-users/report.md) |"));
    assertTrue(table, table.contains("| `Scenario timeline-failover` | timeline-reads | never run"));
    // hbase-perf runs the throttled users, not the latency scenario (a test of the module).
    Files.writeString(perf, "p2");
    assertEquals("hbase-perf's code changed since", Scenario.staleWhy(root, throttledUsers));
    assertEquals(null, Scenario.staleWhy(root, latencyRuns));
    Files.writeString(quotasSrc.resolve("Q.java"), "q2");
    assertEquals("the module's code changed since", Scenario.staleWhy(root, throttledUsers));
    assertTrue(Scenario.readmeBlock(root),
      Scenario.readmeBlock(root).contains("(**stale**: the module's code changed since)"));
  }

  @Test
  public void modesAndFaultsSwapOrderEveryOtherRound() {
    assertArrayEquals(new String[] { "BASELINE", "UPSTREAM", "PATCHED" }, Scenario.modesOf(1));
    assertArrayEquals(new String[] { "PATCHED", "UPSTREAM", "BASELINE" }, Scenario.modesOf(2));
    assertArrayEquals(new String[] { "abort", "stop" }, Scenario.faultsOf(3));
    assertArrayEquals(new String[] { "stop", "abort" }, Scenario.faultsOf(4));
    List<String> cmd = Scenario.failoverCommand(Path.of("/r"), Path.of("/r/out"), "stop",
      Scenario.modesOf(2));
    assertTrue(cmd.toString(), cmd.contains("--failoverModes=PATCHED,UPSTREAM,BASELINE")
      && cmd.contains("--fault=stop") && cmd.get(0).equals("flock"));
  }

  @Test
  public void badArgumentsAreNamed() throws Exception {
    for (String[] args : new String[][] { { "--root", "/x", "--rounds", "3", Scenario.FAILOVER },
      { "--root", "/x", "--rounds", "many", Scenario.FAILOVER },
      { "--root", "/x", "--report-only", "failover-of-something" }, { Scenario.FAILOVER } }) {
      try {
        Scenario.run(args, System.out);
        fail(String.join(" ", args));
      } catch (BadInputException e) {
        String m = e.getMessage();
        assertTrue(m, m.contains(args.length > 3 ? args[3] : "usage")
          || m.contains("failover-of-something"));
      }
    }
  }

  @Test
  public void runsWithoutTheCountColumnsAreRefused() throws Exception {
    Path root = tmp.getRoot().toPath();
    Path dir = Scenario.rawOf(Scenario.failoverDir(root)).resolve("r1-abort");
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("replicaFailover.csv"), "mode,reads,failed,empty or wrong,"
      + "stale,p50 ms,p99 ms,max ms,max after fault ms,within 50 ms,within 50 ms after fault,"
      + "p99 after fault ms\nPATCHED (TimelineReader),1,0,0,0,1,1,1,1,1,1,1\n");
    try {
      Scenario.readFailover(Scenario.rawOf(Scenario.failoverDir(root)));
      fail();
    } catch (BadInputException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("reads after fault"));
    }
  }
}
