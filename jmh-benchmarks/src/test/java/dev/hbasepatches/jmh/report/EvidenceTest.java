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
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import dev.hbasepatches.jmh.SideLines;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.openjdk.jmh.annotations.Param;

/** The evidence command's parts: its targets file, the verdict rules, the JSON it reads. */
public class EvidenceTest {

  private static final List<String> PACKAGES = List.of("seekskip", "rowindex", "checksum",
    "checksumoverlay", "offheapread", "quotas", "timelinereads", "localindexpruning", "series");

  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  private static Class<?> benchmarkClass(String simpleName) {
    for (String p : PACKAGES) {
      try {
        return Class.forName(ChangeNames.ROOT_PACKAGE + "." + p + "." + simpleName);
      } catch (ClassNotFoundException e) {
        // next package
      }
    }
    throw new AssertionError("no benchmark class " + simpleName);
  }

  /**
   * Every shipped target names a benchmark that exists, pins each of its @Params that has more
   * than one default (so one run is one case), uses only @Params the class has, and belongs to a
   * module of this project.
   */
  @Test
  public void shippedTargetsAreRunnable() {
    Path root = DocumentLinksTest.projectRoot();
    List<Evidence.Row> rows = Evidence.builtIn();
    assertTrue(rows.size() >= 10);
    for (Evidence.Row r : rows) {
      assertTrue(r.change() + ": no module", Files.isDirectory(Evidence.moduleDir(root,
        r.change()).resolve("src/main")));
      int dot = r.benchmark().indexOf('.');
      Class<?> c = benchmarkClass(dot < 0 ? r.benchmark() : r.benchmark().substring(0, dot));
      List<String> methods = new ArrayList<>();
      for (Class<?> k = c; k != null; k = k.getSuperclass()) {
        for (java.lang.reflect.Method m : k.getDeclaredMethods()) {
          if (m.isAnnotationPresent(org.openjdk.jmh.annotations.Benchmark.class)) {
            methods.add(m.getName());
          }
        }
      }
      assertTrue(r.id() + ": " + r.benchmark() + " must name one of " + methods,
        dot < 0 ? methods.size() == 1 : methods.contains(r.benchmark().substring(dot + 1)));
      List<String> params = new ArrayList<>();
      for (Class<?> k = c; k != null; k = k.getSuperclass()) {
        for (Field f : k.getDeclaredFields()) {
          Param p = f.getAnnotation(Param.class);
          if (p != null) {
            params.add(f.getName());
            assertTrue(r.id() + ": @Param " + f.getName() + " of " + r.benchmark() + " has "
              + p.value().length + " defaults and must be pinned",
              p.value().length <= 1 || r.params().containsKey(f.getName()));
          }
        }
      }
      if (dev.hbasepatches.jmh.AbbaToggleBenchmark.class.isAssignableFrom(c)) {
        // The slots' defaults serve runs by hand; a target says what it compares.
        assertTrue(r.id() + ": a toggle's target must pin a and b",
          r.params().containsKey("a") && r.params().containsKey("b"));
      }
      for (String key : r.params().keySet()) {
        assertTrue(r.id() + ": " + key + " is no @Param of " + r.benchmark(),
          params.contains(key) || List.of("threads", "wi", "i").contains(key));
      }
    }
    assertTrue(Evidence.changes(rows).containsAll(List.of("seek-skip", "row-index", "quotas",
      "timeline-reads")));
  }

  @Test
  public void badLinesAreRefusedByName() throws Exception {
    String ok = "c\tid\tB\ta=X b=Y\tY / X\t";
    String[][] bad = {
      { "c\tid\tB\ta=X\tY / X\tatLeast\t1.3", "expected 8" },
      { ok + "most\t1\tt", "kind 'most'" },
      { ok + "atLeast\tfast\tt", "number 'fast'" },
      { ok + "level\t1.5\tt", "a margin between 0 and 1, got 1.5" },
      { ok + "atLeast\t-2\tt", "a positive number, got -2" },
      { "c\tid x\tB\ta=X\tY / X\tatLeast\t1\tt", "id 'id x'" },
      { "c\tid\tB\ta=\tY / X\tatLeast\t1\tt", "case 'a=' is not key=value" },
      { ok + "atLeast\t1\tt\n" + ok + "atLeast\t2\tt", "id 'id' twice for c" } };
    for (String[] b : bad) {
      try {
        Evidence.parse(new StringReader(b[0]));
        fail("accepted " + b[0]);
      } catch (BadInputException e) {
        assertTrue(e.getMessage(), e.getMessage().contains(b[1]));
      }
    }
    List<Evidence.Row> rows = Evidence.parse(new StringReader("# c\n\n" + ok
      + "measure\t-\tt\n"));
    assertEquals(Map.of("a", "X", "b", "Y"), rows.get(0).params());
    assertEquals(List.of(".*\\.B\\..*", "-p", "a=X", "-p", "b=Y"), rows.get(0).jmhOptions());
    rows = Evidence.parse(new StringReader("c\tid\tB.verify\ta=X\tY / X\tmeasure\t-\tt\n"));
    assertEquals(".*\\.B\\.verify$", rows.get(0).jmhOptions().get(0));
  }

  private static Evidence.Row row(Evidence.Kind kind, double number) {
    return new Evidence.Row("c", "id", "B", Map.of(), "B / A", kind, number, "t");
  }

  private static ForkStats.Interval i(double est, double low, double high) {
    return new ForkStats.Interval(5, est, low, high);
  }

  @Test
  public void verdictsComeFromTheIntervalOnly() {
    Evidence.Row atLeast = row(Evidence.Kind.AT_LEAST, 1.3);
    assertEquals("met", Evidence.verdict(atLeast, i(1.5, 1.3, 1.7)));
    assertEquals("not met", Evidence.verdict(atLeast, i(1.2, 1.1, 1.29)));
    assertEquals("inconclusive", Evidence.verdict(atLeast, i(1.5, 1.2, 1.9)));
    Evidence.Row level = row(Evidence.Kind.LEVEL, 0.03);
    assertEquals("no worse", Evidence.verdict(level, i(0.99, 0.97, 1.01)));
    assertEquals("better", Evidence.verdict(level, i(1.1, 1.05, 1.15)));
    assertEquals("worse", Evidence.verdict(level, i(0.9, 0.85, 0.96)));
    assertEquals("inconclusive", Evidence.verdict(level, i(1.0, 0.9, 1.1)));
    Evidence.Row atMost = row(Evidence.Kind.AT_MOST, 1000);
    assertEquals("met", Evidence.verdict(atMost, i(85, 80, 1000)));
    assertEquals("not met", Evidence.verdict(atMost, i(1500, 1200, 1800)));
    assertEquals("inconclusive", Evidence.verdict(atMost, i(900, 800, 1100)));
    // The same mean with a wider interval never earns a milder verdict than inconclusive.
    assertEquals("inconclusive", Evidence.verdict(atLeast, i(1.2, 0.5, 2.9)));
    assertEquals("no verdict (4 forks)",
      Evidence.verdict(atLeast, new ForkStats.Interval(4, 1.5, 1.4, 1.6)));
  }

  /** Five forks of A B B A blocks where B does 1.1x to 1.3x A's operations. */
  @Test
  public void readsTheBlocksOfEveryFork() throws Exception {
    StringBuilder score = new StringBuilder("[");
    StringBuilder a = new StringBuilder("[");
    StringBuilder b = new StringBuilder("[");
    double[] ratios = { 1.1, 1.2, 1.3, 1.2, 1.15 };
    for (int f = 0; f < 5; f++) {
      double av = 100 + f;
      double bv = av * ratios[f];
      String sep = f == 0 ? "" : ",";
      score.append(sep).append(String.format(java.util.Locale.ROOT, "[%s,%s,%s,%s,%s,%s,%s,%s]",
        av, bv, bv, av, av, bv, bv, av));
      a.append(sep).append(String.format(java.util.Locale.ROOT, "[%s,0,0,%s,%s,0,0,%s]",
        av, av, av, av));
      b.append(sep).append(String.format(java.util.Locale.ROOT, "[0,%s,%s,0,0,%s,%s,0]",
        bv, bv, bv, bv));
    }
    String json = "[{\"benchmark\":\"x.SeriesToggleBenchmark.run\",\"mode\":\"thrpt\","
      + "\"params\":{\"a\":\"UPSTREAM\",\"b\":\"PATCHED\"},"
      + "\"primaryMetric\":{\"score\":1,\"scoreUnit\":\"ops/s\",\"rawData\":" + score
      + "]},\"secondaryMetrics\":{\"aReads\":{\"score\":1,\"rawData\":" + a + "]},"
      + "\"bReads\":{\"score\":1,\"rawData\":" + b + "]}}}]";
    Path file = tmp.newFile("t.json").toPath();
    Files.writeString(file, json, StandardCharsets.UTF_8);
    ForkStats.Interval r = Evidence.analyse(row(Evidence.Kind.AT_LEAST, 1.1), file);
    assertEquals(5, r.n());
    double logMean = 0;
    for (double x : ratios) {
      logMean += Math.log(x) / ratios.length;
    }
    assertEquals(Math.exp(logMean), r.estimate(), 1e-9);
    assertTrue(r.low() > 1.1 && r.high() < 1.32);
    // Two parameter combinations in one file: refused, the target must pin its case.
    Files.writeString(file, "[" + json.substring(1, json.length() - 1) + ","
      + json.substring(1), StandardCharsets.UTF_8);
    try {
      Evidence.analyse(row(Evidence.Kind.AT_LEAST, 1.1), file);
      fail();
    } catch (BadInputException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("2 parameter combinations"));
    }
  }

  private static Evidence.Row sides(String id, String bench, String target, String a, String b) {
    Map<String, String> p = new java.util.LinkedHashMap<>();
    p.put("target", target);
    p.put("a", a);
    p.put("b", b);
    p.put("wi", "8");
    return new Evidence.Row("c", id, bench, p, b + " / " + a, Evidence.Kind.MEASURE, 0, id);
  }

  /** A measured row of SeriesToggleBenchmark with estimate e and interval [e - 0.1, e + 0.1]. */
  private static Evidence.Outcome outcome(String id, String target, String a, String b, double e) {
    return new Evidence.Outcome(sides(id, "SeriesToggleBenchmark", target, a, b), 5,
      i(e, e - 0.1, e + 0.1), "B better", 60);
  }

  /**
   * SERIES is set beside PATCHED only where both ran on the same benchmark and case against the
   * same side; the quotient is of the two estimates.
   */
  @Test
  public void setsTheSeriesBesideTheModuleOnlyOnTheSameBenchmarkAndCase() {
    Evidence.Outcome series = outcome("g-series", "c:get", "UPSTREAM", "SERIES", 1.2);
    Evidence.Outcome patched = outcome("g-upstream", "c:get", "UPSTREAM", "PATCHED", 1.6);
    Evidence.Outcome otherCase = outcome("s-upstream", "c:scan", "UPSTREAM", "PATCHED", 3);
    Evidence.Outcome otherSide = outcome("g-baseline", "c:get", "BASELINE", "PATCHED", 5);
    String s = Evidence.seriesSection(List.of(otherCase, otherSide, series, patched),
      tmp.getRoot().toPath());
    assertTrue(s, s.contains("| get | UPSTREAM | 1.2 [1.1, 1.3] (g-series) | 1.6 [1.5, 1.7]"
      + " (g-upstream) | 0.75 |"));
    s = Evidence.seriesSection(List.of(otherCase, otherSide, series), tmp.getRoot().toPath());
    assertTrue(s, s.contains("| not measured on this benchmark | - |"));
    assertEquals("no SERIES row, no section", "",
      Evidence.seriesSection(List.of(patched, otherCase), tmp.getRoot().toPath()));
  }

  /** Heap bytes per operation: each slot's allocation over the operations counted in its slot. */
  @Test
  public void bytesPerOperationOfEachSlot() throws Exception {
    // One fork, A B B A: A does 100 ops/s allocating 1000 B/s, B 50 ops/s allocating 2000 B/s.
    String json = "[{\"benchmark\":\"x.SeriesToggleBenchmark.run\",\"params\":{},"
      + "\"primaryMetric\":{\"rawData\":[[100,50,50,100]]},\"secondaryMetrics\":{"
      + "\"aReads\":{\"rawData\":[[100,0,0,100]]},\"bReads\":{\"rawData\":[[0,50,50,0]]},"
      + "\"allocBytes\":{\"rawData\":[[1000,2000,2000,1000]]}}}]";
    Path file = tmp.newFile("alloc.json").toPath();
    Files.writeString(file, json, StandardCharsets.UTF_8);
    double[] perOp = Evidence.bytesPerOp(row(Evidence.Kind.MEASURE, 0), file);
    assertEquals(10, perOp[0], 1e-9);
    assertEquals(40, perOp[1], 1e-9);
    Files.writeString(file, json.replace(",\n\"allocBytes\"", "").replaceAll(
      ",\"allocBytes\":\\{[^}]*\\}", ""), StandardCharsets.UTF_8);
    assertEquals(null, Evidence.bytesPerOp(row(Evidence.Kind.MEASURE, 0), file));
  }

  /** The tree hash is what the shell pipeline the series script uses prints. */
  @Test
  public void treeShaMatchesTheShell() throws Exception {
    Path dir = tmp.newFolder("tree").toPath();
    Files.createDirectories(dir.resolve("a/B"));
    Files.writeString(dir.resolve("a/B/x.java"), "x\n");
    Files.writeString(dir.resolve("a/b.txt"), "yy\n");
    Files.writeString(dir.resolve("Z"), "");
    Process p = new ProcessBuilder("sh", "-c", "find . -type f | LC_ALL=C sort | xargs sha256sum"
      + " | sha256sum | cut -c1-16").directory(dir.toFile()).start();
    String shell = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    assertEquals(0, p.waitFor());
    assertEquals(shell, Evidence.treeSha(dir));
  }

  /** A source file newer than the jar is found, so a run never reports a tree it did not build. */
  @Test
  public void findsSourcesNewerThanTheJar() throws Exception {
    Path dir = tmp.newFolder("src").toPath();
    Files.createDirectories(dir.resolve("a"));
    Path f = Files.writeString(dir.resolve("a/X.java"), "x");
    Files.setLastModifiedTime(f, java.nio.file.attribute.FileTime.fromMillis(1_000_000L));
    assertEquals(null, Evidence.newerThan(dir, 2_000_000L));
    assertEquals(f, Evidence.newerThan(dir, 500_000L));
    assertEquals(null, Evidence.newerThan(dir.resolve("missing"), 0));
  }

  @Test
  public void refusesFewerThanFiveForksAndUnknownChanges() throws Exception {
    PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    try {
      Evidence.run(new String[] { "--forks", "4", "--list" }, out);
      fail();
    } catch (BadInputException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("--forks 4: a verdict needs 5 forks"));
    }
    try {
      Evidence.run(new String[] { "--changes", "seek-skip,warp-drive", "--list" }, out);
      fail();
    } catch (BadInputException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("no targets for change 'warp-drive'"));
    }
  }

  /**
   * The overlay's PATCHED side verifies through the checksum module: a change to either module's
   * code marks the overlay's report stale, naming which.
   */
  @Test
  public void aReportIsStaleWhenAModuleItRunsChanged() throws Exception {
    Path root = tmp.newFolder("root").toPath();
    Path overlay = root.resolve("hbase-patches/checksum-overlay");
    Path checksum = root.resolve("hbase-patches/checksum");
    Files.createDirectories(overlay.resolve("src/main"));
    Files.createDirectories(checksum.resolve("src/main"));
    Files.createDirectories(overlay.resolve("results"));
    Files.writeString(overlay.resolve("src/main/ChecksumUtil.java"), "overlay");
    Path summer = Files.writeString(checksum.resolve("src/main/BlockChecksummer.java"), "crc");
    Files.writeString(overlay.resolve("results").resolve(Evidence.RUN),
      "module.src.sha=" + Evidence.treeSha(overlay.resolve("src/main")) + "\n"
        + "uses.checksum.src.sha=" + Evidence.treeSha(checksum.resolve("src/main")) + "\n");
    List<Evidence.Row> all = Evidence.builtIn();
    Evidence.Current c = Evidence.current(root, all, "checksum-overlay");
    assertTrue(c.staleWhy(), !c.stale());
    Files.writeString(summer, "crc, faster");
    c = Evidence.current(root, all, "checksum-overlay");
    assertTrue(c.stale());
    assertEquals("the checksum module's code changed since", c.staleWhy());
  }

  /**
   * What a benchmark prints about its sides survives its JMH log: the marked side lines (behind
   * JMH's iteration label too), each distinct one once, in the report's section by target.
   */
  @Test
  public void theSidesEachTargetRanAreKeptFromItsLog() throws Exception {
    Path log = tmp.newFile("t.log").toPath();
    String m = SideLines.MARK;
    Files.writeString(log, String.join("\n", "# JMH version: 1.37", "# Fork: 1 of 5",
      m + "A: checksum UPSTREAM buffers=HEAP", m + "B: checksum PATCHED buffers=HEAP",
      m + "both generate the same 65552-byte block", "Iteration   1: 1000.0 ops/s",
      "Iteration  16: " + m + "timeline-reads PATCHED slowPrimary/3/50: 10 reads, 2 stale answers",
      m + "A L2 BucketCache hits=1 hitRatio=0.2", "# Fork: 2 of 5", "# A: not marked",
      m + "A: checksum UPSTREAM buffers=HEAP", m + "B: checksum PATCHED buffers=HEAP",
      "# Benchmark mode: Throughput, ops/time", m + "B L2 SlabBlockCache{blocks=90} hits=9", ""));
    assertEquals(List.of("A: checksum UPSTREAM buffers=HEAP", "B: checksum PATCHED buffers=HEAP",
      "both generate the same 65552-byte block",
      "timeline-reads PATCHED slowPrimary/3/50: 10 reads, 2 stale answers",
      "A L2 BucketCache hits=1 hitRatio=0.2", "B L2 SlabBlockCache{blocks=90} hits=9"),
      Evidence.sideLines(log));
    Path results = tmp.newFolder("results").toPath();
    Files.createDirectories(results.resolve("jmh"));
    Files.writeString(results.resolve("jmh").resolve(Evidence.SIDES),
      "heap\tA: `x` UPSTREAM\nheap\tB: PATCHED\nother\tA: not a row here\n");
    String md = Evidence.sidesSection(List.of(sides("heap", "B", "checksum:HEAP", "UPSTREAM",
      "PATCHED")), results);
    assertTrue(md, md.startsWith("## What each side ran"));
    assertTrue(md, md.contains("- heap:\n  - `A: 'x' UPSTREAM`\n  - `B: PATCHED`\n"));
    assertFalse(md, md.contains("not a row here"));
    assertEquals("", Evidence.sidesSection(List.of(sides("none", "B", "checksum:HEAP",
      "UPSTREAM", "PATCHED")), results));
  }
}
