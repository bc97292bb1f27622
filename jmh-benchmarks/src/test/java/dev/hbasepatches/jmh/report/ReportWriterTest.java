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

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * Renders reports from small result files shaped like the ones JMH 1.37 writes with
 * {@code -rf json}, and checks the numbers that end up in the tables.
 */
public class ReportWriterTest {

  private static final String SEEK = "dev.hbasepatches.jmh.seekskip.SeekSkipBenchmark.scan";
  private static final String CHECKSUM = "dev.hbasepatches.jmh.checksum.ChecksumBenchmark.verify";

  /** A fixed clock and machine so the reports are reproducible. */
  private static final Clock CLOCK =
    Clock.fixed(Instant.parse("2026-01-02T03:04:05Z"), ZoneId.of("Europe/Berlin"));
  private static final MachineInfo MACHINE = new MachineInfo("Test CPU @ 1.00GHz", 8, 16L << 20);

  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  /** The fixture: a time-per-op benchmark with three cases and a throughput benchmark. */
  @Test
  public void severalResultFilesMakeOneReport() throws Exception {
    Path dir = tmp.getRoot().toPath().resolve("merged");
    Path first = tmp.newFile("part1.json").toPath();
    Path second = tmp.newFile("part2.json").toPath();
    Files.writeString(first, "[" + entry(SEEK, "thrpt", "ops/s", "fullScan", "1", "BASELINE", 10,
      "1.0", "") + "]", StandardCharsets.UTF_8);
    Files.writeString(second, "[" + entry(SEEK, "thrpt", "ops/s", "fullScan", "1", "PATCHED", 20,
      "1.0", "") + "]", StandardCharsets.UTF_8);
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = ReportWriter.run(new String[] { first.toString(), second.toString(),
      dir.toString() }, print(new ByteArrayOutputStream()), print(err));
    assertEquals(err.toString(StandardCharsets.UTF_8), 0, status);
    String report = Files.readString(dir.resolve("seek-skip.md"));
    assertContains(report, "| 10.000 ops/s | 20.000 ops/s | — | 2.000 | — |");
    assertContains(report, "part1.json");
    assertContains(report, "part2.json");
  }

  private static String fixture() {
    List<String> e = new ArrayList<>();
    // Case 1: every mode ran, with errors, and -prof gc allocation figures.
    e.add(entry(SEEK, "avgt", "ns/op", "timerangeMiss", "4", "BASELINE", 100, "5.0",
      alloc(48, "0.5")));
    e.add(entry(SEEK, "avgt", "ns/op", "timerangeMiss", "4", "PATCHED", 50, "2.0",
      alloc(0.042, "\"NaN\"")));
    e.add(entry(SEEK, "avgt", "ns/op", "timerangeMiss", "4", "UPSTREAM", 80, "8.0", ""));
    // Case 2: UPSTREAM did not run.
    e.add(entry(SEEK, "avgt", "ns/op", "hit", "1", "BASELINE", 10, "1.0", ""));
    e.add(entry(SEEK, "avgt", "ns/op", "hit", "1", "PATCHED", 12.5, "0.5", ""));
    // Case 3: one measurement iteration, so JMH wrote "NaN" for every error.
    e.add(entry(SEEK, "avgt", "ns/op", "single", "1", "BASELINE", 30, "\"NaN\"", ""));
    e.add(entry(SEEK, "avgt", "ns/op", "single", "1", "PATCHED", 20, "\"NaN\"", ""));
    // Throughput: higher is better, so no inversion.
    // An @AuxCounters(OPERATIONS) counter is a throughput too, so it gets ratios; MB/sec does not.
    e.add(entry(CHECKSUM, "thrpt", "ops/s", "timerangeMiss", "1", "BASELINE", 1000, "10.0",
      metric("cells", 2000, "20.0", "ops/s") + ", " + metric("gc.alloc.rate", 5, "1.0", "MB/sec")));
    e.add(entry(CHECKSUM, "thrpt", "ops/s", "timerangeMiss", "1", "PATCHED", 1500, "30.0",
      metric("cells", 3000, "60.0", "ops/s") + ", " + metric("gc.alloc.rate", 9, "1.0", "MB/sec")));
    return "[\n" + String.join(",\n", e) + "\n]\n";
  }

  /** One result object, in JMH 1.37's layout (fields JMH writes that we do not read omitted). */
  private static String entry(String benchmark, String jmhMode, String unit, String shape,
    String files, String mode, double score, String error, String secondary) {
    return String.format(Locale.ROOT, "{\n"
      + "  \"jmhVersion\" : \"1.37\",\n"
      + "  \"benchmark\" : \"%s\",\n"
      + "  \"mode\" : \"%s\",\n"
      + "  \"threads\" : 1,\n"
      + "  \"forks\" : 2,\n"
      + "  \"jvm\" : \"/usr/lib/jvm/java-17/bin/java\",\n"
      + "  \"jvmArgs\" : [ \"-Xms2g\", \"-Xmx2g\", \"-Djava.net.preferIPv4Stack=true\" ],\n"
      + "  \"jdkVersion\" : \"17.0.15\",\n"
      + "  \"vmName\" : \"OpenJDK 64-Bit Server VM\",\n"
      + "  \"vmVersion\" : \"17.0.15+6\",\n"
      + "  \"warmupIterations\" : 5,\n"
      + "  \"warmupTime\" : \"2 s\",\n"
      + "  \"warmupBatchSize\" : 1,\n"
      + "  \"measurementIterations\" : 10,\n"
      + "  \"measurementTime\" : \"2 s\",\n"
      + "  \"measurementBatchSize\" : 1,\n"
      + "  \"params\" : { \"files\" : \"%s\", \"mode\" : \"%s\", \"seed\" : \"42\","
      + " \"shape\" : \"%s\" },\n"
      + "  \"primaryMetric\" : {\n"
      + "    \"score\" : %s,\n"
      + "    \"scoreError\" : %s,\n"
      + "    \"scoreConfidence\" : [ \"NaN\", \"NaN\" ],\n"
      + "    \"scoreUnit\" : \"%s\",\n"
      + "    \"rawData\" : [ [ %s ] ]\n"
      + "  },\n"
      + "  \"secondaryMetrics\" : { %s }\n"
      + "}", benchmark, jmhMode, files, mode, shape, score, error, unit, score, secondary);
  }

  private static String metric(String name, double score, String error, String unit) {
    return String.format(Locale.ROOT,
      "\"%s\" : { \"score\" : %s, \"scoreError\" : %s, \"scoreUnit\" : \"%s\" }", name, score,
      error, unit);
  }

  private static String alloc(double score, String error) {
    return String.format(Locale.ROOT, "\"gc.alloc.rate.norm\" : { \"score\" : %s, "
      + "\"scoreError\" : %s, \"scoreUnit\" : \"B/op\" }, "
      + "\"gc.count\" : { \"score\" : 3.0, \"scoreError\" : \"NaN\", \"scoreUnit\" : \"counts\" }",
      score, error);
  }

  private Path writeFixture(String json) throws IOException {
    Path file = tmp.newFile("jmh-result.json").toPath();
    Files.writeString(file, json, StandardCharsets.UTF_8);
    return file;
  }

  private String renderSeekSkip() throws Exception {
    Path dir = tmp.newFolder("reports").toPath();
    new ReportWriter(CLOCK, MACHINE).write(writeFixture(fixture()), dir);
    return Files.readString(dir.resolve("seek-skip.md"));
  }

  @Test
  public void timeUnitRatiosAreInverted() throws Exception {
    String report = renderSeekSkip();
    // vs BASELINE: 100/50 = 2; vs UPSTREAM: 80/50 = 1.6; one fork a side, so no interval.
    assertContains(report, "| 4 | timerangeMiss | 100.000 ns/op | 50.000 ns/op"
      + " | 80.000 ns/op | 2.000 | 1.600 |");
    // PATCHED slower: 10/12.5 = 0.8 < 1.
    assertContains(report, "| 1 | hit | 10.000 ns/op | 12.500 ns/op | — | 0.8000 | — |");
    assertContains(report, "Lower is better for `ns/op`, so the ratios are inverted");
  }

  @Test
  public void jmhErrorIsNeverShown() throws Exception {
    String report = renderSeekSkip();
    // JMH's 99.9% error (here given for most entries, NaN for one) appears nowhere: the report's
    // intervals are over forks.
    assertContains(report, "| 1 | single | 30.000 ns/op | 20.000 ns/op | — | 1.500 | — |");
    assertFalse(report, report.contains("\u00b1"));
    assertFalse(report, report.contains("99.9% confidence"));
  }

  @Test
  public void ratiosOverFiveForksCarryTheForkInterval() throws Exception {
    // Five forks a side: the result table's ratio is the headline's, with ForkStats' interval.
    double[] u = { 100, 104, 98, 101, 97 };
    double[] p = { 50, 51, 49, 52, 48 };
    String json = "[" + forks(SEEK, "UPSTREAM", u) + "," + forks(SEEK, "PATCHED", p) + "]";
    Path dir = tmp.newFolder("fiveForks").toPath();
    new ReportWriter(CLOCK, MACHINE).write(writeFixture(json), dir);
    String report = Files.readString(dir.resolve("seek-skip.md"));
    ForkStats.Interval r = ForkStats.ratio(u, p);
    String cell = Format.number(r.estimate(), 3) + " [" + Format.number(r.low(), 3) + ", "
      + Format.number(r.high(), 3) + "]";
    assertContains(report, "| " + cell + " |");
    assertContains(report, "| " + Compare.sig3(r.estimate()) + " | " + ForkStatsCli.interval(r)
      + " |");
    assertFalse(report, report.contains("\u00b1"));
  }

  /** A time-per-op entry with one iteration per fork, the forks given. */
  private static String forks(String benchmark, String mode, double[] perFork) {
    StringBuilder raw = new StringBuilder();
    double sum = 0;
    for (double v : perFork) {
      raw.append(raw.length() == 0 ? "" : ", ").append("[ ").append(v).append(" ]");
      sum += v;
    }
    return entry(benchmark, "avgt", "ns/op", "fullScan", "1", mode, sum / perFork.length, "1.0",
      "").replace("\"rawData\" : [ [ " + (sum / perFork.length) + " ] ]",
      "\"rawData\" : [ " + raw + " ]");
  }

  @Test
  public void casesKeepParamColumnsAndRunOrder() throws Exception {
    String report = renderSeekSkip();
    // JMH writes parameters sorted by name, so that is the column order.
    assertContains(report, "| files | shape | BASELINE | PATCHED | UPSTREAM | PATCHED vs BASELINE"
      + " | PATCHED vs UPSTREAM |\n| --- | --- | ---: | ---: | ---: | ---: | ---: |\n");
    assertTrue(report.indexOf("| 4 | timerangeMiss |") < report.indexOf("| 1 | hit |"));
    assertTrue(report.indexOf("| 1 | hit |") < report.indexOf("| 1 | single |"));
  }

  @Test
  public void upstreamVariantsGetTheirOwnRatioColumns() throws Exception {
    String quota = "dev.hbasepatches.jmh.quotas.LimiterBenchmark.admit";
    String json = "[" + entry(quota, "avgt", "ns/op", "a", "1", "BASELINE", 1, "0.1", "") + ","
      + entry(quota, "avgt", "ns/op", "a", "1", "PATCHED", 20, "1", "") + ","
      + entry(quota, "avgt", "ns/op", "a", "1", "UPSTREAM_AVERAGE", 30, "1", "") + ","
      + entry(quota, "avgt", "ns/op", "a", "1", "UPSTREAM_FIXED", 40, "1", "") + "]";
    Path dir = tmp.newFolder("variants").toPath();
    new ReportWriter(CLOCK, MACHINE).write(writeFixture(json), dir);
    String report = Files.readString(dir.resolve("quotas.md"));
    assertContains(report, "| PATCHED vs BASELINE | PATCHED vs UPSTREAM_AVERAGE"
      + " | PATCHED vs UPSTREAM_FIXED |");
    assertFalse(report, report.contains("PATCHED vs UPSTREAM |"));
    // Lower is better: 30/20 and 40/20.
    assertContains(report, "| 1.500 ");
    assertContains(report, "| 2.000 ");
  }

  @Test
  public void throughputRatiosAreNotInverted() throws Exception {
    Path dir = tmp.newFolder("reports").toPath();
    new ReportWriter(CLOCK, MACHINE).write(writeFixture(fixture()), dir);
    String report = Files.readString(dir.resolve("checksum.md"));
    // An @AuxCounters "cells" counter becomes the score, in cells/s; the operation rate moves
    // to the secondary table as "ops". 3000/2000 = 1.5.
    assertContains(report, "| 1 | 42 | timerangeMiss | 2000.0 cells/s"
      + " | 3000.0 cells/s | — | 1.500 | — |");
    assertContains(report, "Higher is better for `cells/s`");
    assertFalse(report.contains("Allocation per op"));
    assertContains(report, "| 1 | 42 | timerangeMiss | ops | 1000.0 ops/s"
      + " | 1500.0 ops/s | — | 1.500 | — |");
    // No ratio where the unit does not say which way is better.
    assertContains(report, "| 1 | 42 | timerangeMiss | gc.alloc.rate | 5.000 MB/sec"
      + " | 9.000 MB/sec | — |  |  |");
  }

  @Test
  public void paramsFixedAcrossCasesAreStatedOnce() throws Exception {
    Path dir = tmp.newFolder("reports").toPath();
    new ReportWriter(CLOCK, MACHINE).write(writeFixture(fixture()), dir);
    String seek = Files.readString(dir.resolve("seek-skip.md"));
    assertContains(seek, "Same in every case: `seed=42`.");
    assertFalse(seek.contains("| seed |"));
    // A single case keeps every parameter in its row.
    String checksum = Files.readString(dir.resolve("checksum.md"));
    assertContains(checksum, "| files | seed | shape | BASELINE |");
    assertFalse(checksum.contains("Same in every case"));
  }

  @Test
  public void allocationAndOtherSecondaryMetricsHaveTheirOwnTables() throws Exception {
    String report = renderSeekSkip();
    assertContains(report, "Allocation per op (B/op)");
    assertContains(report,
      "| 4 | timerangeMiss | 48.000 B/op | 0.04200 B/op | — |");
    assertContains(report, "| 4 | timerangeMiss | gc.count | 3.000 counts"
      + " | 3.000 counts | — |");
    // Cases without secondary metrics get no rows in those tables.
    assertFalse(report.contains("| 1 | hit | gc.count"));
  }

  @Test
  public void whatRanComesFromTheFileAndTheMachine() throws Exception {
    String report = renderSeekSkip();
    assertTrue(report.startsWith("# seek-skip: JMH results\n"));
    // The clock is in Berlin; the report must still say UTC.
    assertContains(report, "Generated 2026-01-02 03:04 UTC from ");
    assertContains(report, "- CPU: Test CPU @ 1.00GHz\n- Logical cores: 8\n"
      + "- Memory: 16.0 GiB (MemTotal 16777216 kB)\n");
    assertContains(report, "read from /proc when this report was written");
    assertContains(report, "- JDK: 17.0.15, OpenJDK 64-Bit Server VM 17.0.15+6");
    assertContains(report, "- JMH: 1.37\n");
    assertContains(report, "| SeekSkipBenchmark.scan | avgt | 1 | 2 | 5 × 2 s | 10 × 2 s"
      + " | 3 (list 1) |");
    assertContains(report, "```text\n-Xms2g -Xmx2g -Djava.net.preferIPv4Stack=true\n```");
    assertContains(report, "### SeekSkipBenchmark.scan (avgt, ns/op)");
  }

  @Test
  public void writesOneReportPerChangeAndAnIndex() throws Exception {
    Path dir = tmp.getRoot().toPath().resolve("out/reports");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = ReportWriter.run(
      new String[] { writeFixture(fixture()).toString(), dir.toString() }, print(out),
      print(err));
    assertEquals(err.toString(StandardCharsets.UTF_8), 0, status);
    assertTrue(Files.exists(dir.resolve("seek-skip.md")));
    assertTrue(Files.exists(dir.resolve("checksum.md")));
    String index = Files.readString(dir.resolve("index.md"));
    assertContains(index, "| [checksum](checksum.md) | ChecksumBenchmark.verify | 2 |");
    assertContains(index, "| [seek-skip](seek-skip.md) | SeekSkipBenchmark.scan | 7 |");
    assertTrue(index.indexOf("checksum") < index.indexOf("seek-skip"));
  }

  @Test
  public void changeNamesFollowTheModules() {
    assertEquals("seek-skip", change("dev.hbasepatches.jmh.seekskip.SeekSkipBenchmark.scan"));
    assertEquals("row-index", change("dev.hbasepatches.jmh.rowindex.RowIndexBenchmark.seek"));
    assertEquals("checksum", change("dev.hbasepatches.jmh.checksum.ChecksumBenchmark.verify"));
    assertEquals("checksum-overlay",
      change("dev.hbasepatches.jmh.checksumoverlay.OverlayBenchmark.readBlock"));
    assertEquals("offheap-read", change("dev.hbasepatches.jmh.offheapread.ReadBenchmark.get"));
    assertEquals("offheap-read", change("dev.hbasepatches.jmh.offheapread.OffHeapReadBenchmark.read"));
    assertEquals("quotas", change("dev.hbasepatches.jmh.quotas.QuotaBenchmark.check"));
    assertEquals("timeline-reads", change("dev.hbasepatches.jmh.timelinereads.TBenchmark.get"));
    assertEquals("local-index-pruning",
      change("dev.hbasepatches.jmh.localindexpruning.PruneBenchmark.prune"));
    // Unknown packages keep their own name; sub-packages count as their change.
    assertEquals("newthing", change("dev.hbasepatches.jmh.newthing.NewBenchmark.run"));
    assertEquals("seek-skip", change("dev.hbasepatches.jmh.seekskip.sub.Inner.run"));
    assertEquals("sample", change("org.example.sample.Triv.run"));
    // Nested benchmark classes: the package ends at the first class name.
    assertEquals("quotas", change("dev.hbasepatches.jmh.quotas.Outer.Inner.run"));
    // A change must not overwrite the index.
    assertEquals("index-change", change("dev.hbasepatches.jmh.index.IndexBenchmark.run"));
  }

  @Test
  public void ratioMath() {
    Metric patched = new Metric(50, 2, "ns/op");
    Metric baseline = new Metric(100, 5, "ns/op");
    // No per-fork values: the ratio of the scores, no interval; JMH's errors play no part.
    Ratio inverted = Ratio.of(patched, baseline, true);
    assertEquals(2.0, inverted.value(), 1e-12);
    assertTrue(Double.isNaN(inverted.low()));
    assertEquals("2.000", Format.ratio(inverted));
    Ratio plain = Ratio.of(patched, baseline, false);
    assertEquals(0.5, plain.value(), 1e-12);
    assertNull(Ratio.of(patched, null, true));
    assertEquals("n/a", Format.ratio(Ratio.of(patched, new Metric(0, 1, "ns/op"), true)));
    // Five forks a side: ForkStats' ratio of geometric means and its interval over forks.
    List<Double> pf = List.of(50.0, 51.0, 49.0, 52.0, 48.0);
    List<Double> bf = List.of(100.0, 104.0, 98.0, 101.0, 97.0);
    Ratio forks = Ratio.of(new Metric(50, 2, "ns/op", pf), new Metric(100, 5, "ns/op", bf), true);
    ForkStats.Interval expected = ForkStats.ratio(new double[] { 100, 104, 98, 101, 97 },
      new double[] { 50, 51, 49, 52, 48 });
    assertEquals(expected.estimate(), forks.value(), 1e-12);
    assertEquals(expected.low(), forks.low(), 1e-12);
    assertEquals(expected.high(), forks.high(), 1e-12);
    // Fewer than five forks: the estimate without an interval.
    Ratio few = Ratio.of(new Metric(50, 2, "ns/op", pf.subList(0, 3)),
      new Metric(100, 5, "ns/op", bf.subList(0, 3)), true);
    assertTrue(Double.isNaN(few.low()));
    for (String unit : List.of("ns/op", "us/op", "ms/op", "s/op")) {
      assertTrue(unit, Ratio.lowerIsBetter(unit));
    }
    for (String unit : List.of("ops/s", "ops/ms", "ops/us", "B/op", "MB/sec")) {
      assertFalse(unit, Ratio.lowerIsBetter(unit));
    }
  }

  @Test
  public void badInputIsOneLineAndExitTwo() throws Exception {
    assertBadInput(tmp.getRoot().toPath().resolve("nope.json"), "no such file");
    assertBadInput(file("garbage.json", "this is { not json"),
      "not a JMH JSON result file (invalid JSON at line 1 column 7)");
    assertBadInput(file("object.json", "{\"benchmark\": \"x\"}"), "expected a JSON array");
    assertBadInput(file("empty.json", ""), "empty (JMH writes results only when a run finishes)");
    assertBadInput(file("no-results.json", "[]"), "contains no benchmark results");
    assertBadInput(file("entry.json", "[{\"benchmark\": \"a.B.c\", \"mode\": \"avgt\"}]"),
      "entry 1 (a.B.c): missing \"primaryMetric\"");
    assertBadInput(file("score.json", "[{\"benchmark\": \"a.B.c\", \"mode\": \"avgt\","
      + " \"primaryMetric\": {\"score\": \"fast\", \"scoreUnit\": \"ns/op\"}}]"),
      "\"primaryMetric.score\" is not a number");
    assertBadInput(file("binary.json", "\u0000\u0001"), "not a JMH JSON result file");
  }

  @Test
  public void usageErrorExitsTwo() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    assertEquals(2, ReportWriter.run(new String[] { "only-one" }, print(new
      ByteArrayOutputStream()), print(err)));
    assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("usage: ReportWriter"));
  }

  @Test
  public void machineInfoFromProcFiles() throws Exception {
    Path cpu = file("cpuinfo", "processor\t: 0\nmodel name\t: AMD EPYC 7B13\nflags\t\t: fpu\n\n"
      + "processor\t: 1\nmodel name\t: AMD EPYC 7B13\n");
    Path mem = file("meminfo", "MemTotal:       24684084 kB\nMemFree:         1000 kB\n");
    MachineInfo m = MachineInfo.read(cpu, mem);
    assertEquals("AMD EPYC 7B13", m.cpuModel());
    assertEquals(2, m.logicalCores());
    assertEquals(24684084L, m.memTotalKb());
    MachineInfo none = MachineInfo.read(tmp.getRoot().toPath().resolve("x"),
      tmp.getRoot().toPath().resolve("y"));
    assertEquals("unknown", none.describeCores());
    assertEquals("unknown", none.describeMemory());
  }

  @Test
  public void oldSecondaryMetricPrefixIsDropped() throws Exception {
    String json = "[" + entry(SEEK, "avgt", "ns/op", "a", "1", "PATCHED", 1, "0.1",
      "\"\u00b7gc.alloc.rate.norm\" : { \"score\" : 8.0, \"scoreError\" : 0.0,"
        + " \"scoreUnit\" : \"B/op\" }") + "]";
    List<JmhResult> results = JmhJsonParser.parse(json, "old.json");
    assertTrue(results.get(0).secondary().containsKey(ResultTables.ALLOC_METRIC));
  }

  @Test
  public void cpuCounterBecomesWorkPerCpuSecondIterationByIteration() throws Exception {
    // Two forks of two iterations; per-second rates of cells and of CPU nanoseconds.
    String json = "[{\"benchmark\": \"" + SEEK + "\", \"mode\": \"thrpt\","
      + " \"params\": {\"mode\": \"PATCHED\"},"
      + " \"primaryMetric\": {\"score\": 2.0, \"scoreError\": 0.1, \"scoreUnit\": \"ops/s\","
      + "   \"rawData\": [[2, 2], [2, 2]]},"
      + " \"secondaryMetrics\": {"
      + "  \"cells\": {\"score\": 150, \"scoreError\": 90, \"scoreUnit\": \"ops/s\","
      + "   \"rawData\": [[100, 200], [100, 200]]},"
      + "  \"cpuNanos\": {\"score\": 7.5e8, \"scoreError\": 1e8, \"scoreUnit\": \"ops/s\","
      + "   \"rawData\": [[5e8, 1e9], [5e8, 1e9]]}}}]";
    JmhResult r = JmhJsonParser.parse(json, "cpu.json").get(0);
    assertFalse("the raw counter is folded in", r.secondary().containsKey("cpuNanos"));
    Metric perCpu = r.secondary().get(JmhJsonParser.CELLS_PER_CPU);
    // Every iteration did 200 cells per CPU second although its wall rates differ by 2x.
    assertEquals(200.0, perCpu.score(), 1e-9);
    assertEquals(0.0, perCpu.error(), 1e-9);
    assertEquals("cells/cpu-s", perCpu.unit());
    assertEquals(Ratio.Better.HIGHER, Ratio.better(perCpu.unit()));
    assertEquals(150.0, r.primary().score(), 1e-9);

    String noRaw = json.replace("\"rawData\": [[5e8, 1e9], [5e8, 1e9]]", "\"x\": 1");
    BadInputException e = org.junit.Assert.assertThrows(BadInputException.class,
      () -> JmhJsonParser.parse(noRaw, "cpu.json"));
    assertTrue(e.getMessage(), e.getMessage().contains("rawData"));
  }

  private void assertBadInput(Path json, String expected) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Path dir = tmp.getRoot().toPath().resolve("bad-reports");
    int status = ReportWriter.run(new String[] { json.toString(), dir.toString() }, print(out),
      print(err));
    String message = err.toString(StandardCharsets.UTF_8);
    assertEquals(message, 2, status);
    assertTrue(message, message.startsWith("ReportWriter: "));
    assertTrue(message, message.contains(expected));
    // One line, and no stack trace.
    assertEquals(message, 1, message.lines().count());
    assertFalse(message, message.contains("Exception"));
    assertFalse("nothing written for bad input", Files.exists(dir));
  }

  private Path file(String name, String content) throws IOException {
    Path file = tmp.getRoot().toPath().resolve(name);
    Files.writeString(file, content, StandardCharsets.UTF_8);
    return file;
  }

  private static String change(String benchmark) {
    return ChangeNames.changeOf(new JmhResult(benchmark, "avgt", java.util.Map.of(),
      new Metric(1, 0, "ns/op"), java.util.Map.of(), null, null));
  }

  private static PrintStream print(ByteArrayOutputStream bytes) {
    return new PrintStream(bytes, true, StandardCharsets.UTF_8);
  }

  private static void assertContains(String text, String expected) {
    assertTrue("expected to find:\n" + expected + "\nin:\n" + text, text.contains(expected));
  }
}
