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
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.Test;

/**
 * The compatibility tables in README.md and BUILDING.md are what {@code Compatibility --docs}
 * writes from the committed records in {@code docs/compatibility/} (so a hand-edited cell, or a
 * record whose module changed without the table saying stale, fails here; rerun {@code java -cp
 * jmh-benchmarks/target/benchmarks.jar dev.hbasepatches.jmh.report.Compatibility --docs}).
 */
public class CompatibilityTest {

  private static final String HEAD = "# written by dev-support/compat.sh\n" + Compatibility.HEADER
    + "\n";

  @Test
  public void committedTablesAreWhatTheRecordsGive() throws Exception {
    Path root = DocumentLinksTest.projectRoot();
    List<Compatibility.Entry> all = Compatibility.read(root);
    assertFalse("no records in " + Compatibility.DIR + ": run dev-support/compat.sh",
      all.isEmpty());
    String readme = Compatibility.block(Files.readString(root.resolve("README.md"),
      StandardCharsets.UTF_8));
    assertNotNull("README.md has no " + Compatibility.BEGIN + " block", readme);
    assertEquals("README.md: run Compatibility --docs", Compatibility.readmeBlock(root), readme);
    String building = Compatibility.block(Files.readString(root.resolve("BUILDING.md"),
      StandardCharsets.UTF_8));
    assertNotNull("BUILDING.md has no " + Compatibility.BEGIN + " block", building);
    assertEquals("BUILDING.md: run Compatibility --docs", Compatibility.buildingBlock(root),
      building);
  }

  @Test
  public void everyRecordedModuleExists() throws Exception {
    Path root = DocumentLinksTest.projectRoot();
    for (Compatibility.Entry e : Compatibility.read(root)) {
      assertTrue(e.file() + ": " + e.module() + " is not a module",
        Files.isRegularFile(root.resolve(e.module()).resolve("pom.xml")));
    }
  }

  @Test
  public void cellsSayWhatRanAndWhatIsStale() throws Exception {
    Path root = Files.createTempDirectory("compat");
    try {
      Path a = Files.createDirectories(root.resolve("hbase-patches/a/src/main"));
      Files.writeString(a.resolve("A.java"), "class A {}\n");
      Files.writeString(root.resolve("hbase-patches/a/PATCH.md"), "# a\n");
      Files.createDirectories(root.resolve("hbase-patches/b/src"));
      Files.writeString(root.resolve("hbase-patches/b/PATCH.md"), "# b\n");
      Files.createDirectories(root.resolve("phoenix-patches/p/src"));
      Files.writeString(root.resolve("phoenix-patches/p/PATCH.md"), "# p\n");
      String shaA = Evidence.treeSha(root.resolve("hbase-patches/a/src"));
      String shaB = Evidence.treeSha(root.resolve("hbase-patches/b/src"));
      String shaP = Evidence.treeSha(root.resolve("phoenix-patches/p/src"));
      Path dir = Files.createDirectories(root.resolve(Compatibility.DIR));
      Files.writeString(dir.resolve("hbase-2.6.4-hadoop3.tsv"), HEAD
        + line("hbase-patches/a", "2.6.4-hadoop3", "-", "10 0 0 0 132 0 0 2", "passed", shaA)
        + line("hbase-patches/b", "2.6.4-hadoop3", "-", "10 2 1 0 - - - -", "failed", shaB)
        + line("phoenix-patches/p", "2.6.1-hadoop3", "5.2.1", "5 0 0 0 - - - -", "passed",
          shaP));
      Files.writeString(dir.resolve("hbase-2.6.1-hadoop3.tsv"), HEAD
        + line("hbase-patches/a", "2.6.1-hadoop3", "-", "10 0 0 0 132 0 0 0", "passed",
          "0123456789abcdef")
        + line("hbase-patches/b", "2.6.1-hadoop3", "-", "- - - - - - - -", "not run", shaB));
      String readme = Compatibility.readmeBlock(root);
      assertEquals("| module | HBase 2.6.4-hadoop3 | HBase 2.6.1-hadoop3 |\n"
        + "|---|---|---|\n"
        + "| a | passed 140/140 (2 skipped) | passed 142/142, **stale** |\n"
        + "| b | failed 3 of 10 | not run |\n"
        + "| p (Phoenix 5.2.1) | not run | passed 5/5 |\n", readme);

      // A hand edit of a cell is found; --docs writes the table back.
      Files.writeString(root.resolve("README.md"), "x\n" + Compatibility.BEGIN + "\n"
        + readme.replace("failed 3 of 10", "passed 10/10") + Compatibility.END + "\ny\n");
      Files.writeString(root.resolve("BUILDING.md"), Compatibility.BEGIN + "\n"
        + Compatibility.END + "\n");
      assertFalse(readme.equals(Compatibility.block(Files.readString(root.resolve("README.md"),
        StandardCharsets.UTF_8))));
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      Compatibility.run(new String[] {"--root", root.toString(), "--docs"},
        new PrintStream(bytes, true, StandardCharsets.UTF_8));
      String text = Files.readString(root.resolve("README.md"), StandardCharsets.UTF_8);
      assertEquals(readme, Compatibility.block(text));
      assertTrue(text.startsWith("x\n") && text.endsWith(Compatibility.END + "\ny\n"));
      String building = Compatibility.block(Files.readString(root.resolve("BUILDING.md"),
        StandardCharsets.UTF_8));
      assertTrue(building, building.contains("| hbase-patches/b | 2.6.4-hadoop3 | - | failed 3"
        + " of 10 | 10 (3, 0) | - | c0ffee123456 | 17.0.15 Debian | 2026-11-29T02:00:00Z |"
        + " [hbase-2.6.4-hadoop3.tsv](docs/compatibility/hbase-2.6.4-hadoop3.tsv) |"));
      assertTrue(building, building.contains("| hbase-patches/a | 2.6.1-hadoop3 | - | passed"
        + " 142/142, **stale** | 10 (0, 0) | 132 (0, 0) |"));

      // Changing a module's source makes its cells stale.
      Files.writeString(a.resolve("A.java"), "class A { int x; }\n");
      assertTrue(Compatibility.readmeBlock(root),
        Compatibility.readmeBlock(root).contains("| a | passed 140/140 (2 skipped), **stale** |"));
    } finally {
      try (Stream<Path> walk = Files.walk(root)) {
        walk.sorted((x, y) -> y.compareTo(x)).forEach(p -> p.toFile().delete());
      }
    }
  }

  @Test
  public void aResultThatDoesNotFollowFromItsCountsIsRefused() {
    BadInputException e = assertThrows(BadInputException.class, () -> Compatibility.parse("r.tsv",
      HEAD + line("hbase-patches/a", "2.6.4-hadoop3", "-", "10 1 0 0 - - - -", "passed",
        "0123456789abcdef")));
    assertTrue(e.getMessage(), e.getMessage().contains("hbase-patches/a: result 'passed' does not"
      + " follow from its counts"));
    assertThrows(BadInputException.class, () -> Compatibility.parse("r.tsv",
      HEAD + line("hbase-patches/a", "2.6.4-hadoop3", "-", "- - - - - - - -", "passed",
        "0123456789abcdef")));
    assertThrows(BadInputException.class, () -> Compatibility.parse("r.tsv",
      HEAD + line("hbase-patches/a", "2.6.4-hadoop3", "-", "10 0 0 0 - - - -", "green",
        "0123456789abcdef")));
    assertThrows(BadInputException.class, () -> Compatibility.parse("r.tsv",
      "module\thbase\n"));
  }

  @Test
  public void releasesNewestFirst() {
    assertEquals(List.of("3.0.0-beta-1", "2.6.4-hadoop3", "2.6.4", "2.6.1-hadoop3"),
      Compatibility.releases(List.of(entry("2.6.1-hadoop3"), entry("2.6.4"),
        entry("3.0.0-beta-1"), entry("2.6.4-hadoop3"))));
  }

  private static Compatibility.Entry entry(String hbase) {
    return new Compatibility.Entry("f", "m", hbase, "-", 1, 0, 0, 0, -1, -1, -1, -1, "passed",
      "none", "c", "j", "d");
  }

  private static String line(String module, String hbase, String phoenix, String counts,
    String result, String sha) {
    return module + "\t" + hbase + "\t" + phoenix + "\t" + counts.replace(' ', '\t') + "\t"
      + result + "\t" + sha + "\tc0ffee123456\t17.0.15 Debian\t2026-11-29T02:00:00Z\n";
  }
}
