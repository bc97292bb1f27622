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

/** The ABBA pairing arithmetic and its checks of the slot order. */
public class AbbaPairsTest {

  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  /** Slot counters for {@code n} iterations in ABBA order, each iteration's reads in its slot. */
  private static double[][] slots(double[] values) {
    double[] a = new double[values.length];
    double[] b = new double[values.length];
    for (int i = 0; i < values.length; i++) {
      boolean inB = i % 4 == 1 || i % 4 == 2;
      (inB ? b : a)[i] = values[i];
    }
    return new double[][] { a, b };
  }

  @Test
  public void blockRatioIsBOverASums() throws Exception {
    double[] v = { 100, 90, 110, 100 };
    double[][] s = slots(v);
    int[] rest = new int[1];
    List<AbbaPairs.Block> blocks = AbbaPairs.blocks(1, s[0], s[1], v, rest);
    assertEquals(1, blocks.size());
    assertEquals(1.0, blocks.get(0).ratio(), 1e-12);
    v = new double[] { 100, 96, 98, 100 };
    s = slots(v);
    assertEquals(0.97, AbbaPairs.blocks(1, s[0], s[1], v, rest).get(0).ratio(), 1e-12);
  }

  /** A drift linear in time leaves the ratio of a block exactly at the true effect. */
  @Test
  public void linearDriftCancels() throws Exception {
    double[] v = new double[8];
    for (int i = 0; i < v.length; i++) {
      boolean inB = i % 4 == 1 || i % 4 == 2;
      v[i] = 5000 * (1 + 0.03 * i) * (inB ? 0.98 : 1.0);
    }
    double[][] s = slots(v);
    List<AbbaPairs.Block> blocks = AbbaPairs.blocks(1, s[0], s[1], v, new int[1]);
    assertEquals(2, blocks.size());
    for (AbbaPairs.Block b : blocks) {
      assertEquals(0.98, b.ratio(), 1e-12);
    }
    // Pairing each B with the A before it would see the drift as well: 0.98 x 1.03.
    assertEquals(1.0094, v[1] / v[0], 1e-12);
  }

  @Test
  public void incompleteLastBlockIsLeftOutAndCounted() throws Exception {
    double[] v = { 1, 1, 1, 1, 2, 2, 2, 2, 3, 3 };
    double[][] s = slots(v);
    int[] rest = new int[1];
    List<AbbaPairs.Block> blocks = AbbaPairs.blocks(2, s[0], s[1], v, rest);
    assertEquals(2, blocks.size());
    assertEquals(2, rest[0]);
    assertEquals(2, blocks.get(1).fork());
    assertEquals(2, blocks.get(1).index());
  }

  @Test
  public void slotsOutOfAbbaOrderAreRejected() {
    double[] v = { 1, 1, 1, 1 };
    // A B A B
    double[] a = { 1, 0, 1, 0 };
    double[] b = { 0, 1, 0, 1 };
    try {
      AbbaPairs.blocks(1, a, b, v, new int[1]);
      fail("ABAB accepted");
    } catch (BadInputException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("slots ABAB, neither ABBA nor BAAB"));
    }
  }

  /** A mirrored block, B A A B, gives B / A just as well. */
  @Test
  public void baabBlocksArePairedToo() throws Exception {
    double[] v = { 96, 100, 100, 98, 100, 96, 98, 100 };
    double[] a = { 0, 100, 100, 0, 100, 0, 0, 100 };
    double[] b = { 96, 0, 0, 98, 0, 96, 98, 0 };
    List<AbbaPairs.Block> blocks = AbbaPairs.blocks(1, a, b, v, new int[1]);
    assertEquals("BAAB", blocks.get(0).order());
    assertEquals("ABBA", blocks.get(1).order());
    assertEquals(0.97, blocks.get(0).ratio(), 1e-12);
    assertEquals(0.97, blocks.get(1).ratio(), 1e-12);
  }

  @Test
  public void anIterationInBothOrNeitherSlotIsRejected() {
    double[] v = { 1, 1, 1, 1 };
    for (double[][] ab : new double[][][] { { { 1, 0, 0, 1 }, { 1, 1, 1, 0 } },
      { { 1, 0, 0, 0 }, { 0, 1, 1, 0 } } }) {
      try {
        AbbaPairs.blocks(1, ab[0], ab[1], v, new int[1]);
        fail("accepted " + java.util.Arrays.deepToString(ab));
      } catch (BadInputException e) {
        assertTrue(e.getMessage(), e.getMessage().contains("exactly one must be non-zero"));
      }
    }
  }

  /**
   * The fork is the unit: twenty blocks from two forks are two samples, not twenty, and each
   * fork's ratio is the geometric mean of its blocks'.
   */
  @Test
  public void forksNotBlocksAreTheUnit() throws Exception {
    List<AbbaPairs.Block> blocks = new java.util.ArrayList<>();
    for (int f = 1; f <= 2; f++) {
      double level = f == 1 ? 0.9 : 1.1;
      double[] v = new double[40];
      for (int i = 0; i < v.length; i++) {
        boolean inB = i % 4 == 1 || i % 4 == 2;
        v[i] = 100 * (inB ? level : 1.0);
      }
      double[][] s = slots(v);
      blocks.addAll(AbbaPairs.blocks(f, s[0], s[1], v, new int[1]));
    }
    assertEquals(20, blocks.size());
    double[] forks = AbbaPairs.forkRatios(blocks);
    assertEquals(2, forks.length);
    assertEquals(0.9, forks[0], 1e-12);
    assertEquals(1.1, forks[1], 1e-12);
    ForkStats.Interval r = AbbaPairs.summary(blocks);
    assertEquals(2, r.n());
    assertEquals(Math.sqrt(0.99), r.estimate(), 1e-12);
    assertTrue(!r.quotable());
    // Blocks taken as independent would have put a narrow interval round 0.995; over the two
    // forks (t with 1 degree of freedom) it spans far beyond both.
    assertTrue(r.low() < 0.5 && r.high() > 1.5);
  }

  @Test
  public void perCpuSecondDividesTheRates() {
    double[] p = AbbaPairs.perCpuSecond(new double[] { 1000, 3000 }, new double[] { 2e9, 1.5e9 });
    assertEquals(500, p[0], 1e-9);
    assertEquals(2000, p[1], 1e-9);
  }

  /** Background CPU shares: one per fork, summarised on the logit scale, never below 0. */
  @Test
  public void backgroundSharesArePerForkOnTheLogitScale() {
    // Slot A in iterations 1 and 4, slot B in 2 and 3; five forks with widely spread shares.
    double[][] a = new double[5][];
    double[][] b = new double[5][];
    double[][] cpu = new double[5][];
    double[][] bg = new double[5][];
    double[] shareA = { 0.0005, 0.0120, 0.0008, 0.0150, 0.0003 };
    for (int f = 0; f < 5; f++) {
      a[f] = new double[] { 1, 0, 0, 1 };
      b[f] = new double[] { 0, 1, 1, 0 };
      cpu[f] = new double[] { 1e9, 1e9, 1e9, 1e9 };
      bg[f] = new double[] { shareA[f] * 1e9, 0.02e9, 0.02e9, shareA[f] * 1e9 };
    }
    double[][] shares = AbbaPairs.backgroundShares(a, b, cpu, bg);
    assertEquals(0.0120, shares[0][1], 1e-12);
    assertEquals(0.02, shares[1][3], 1e-12);
    // The arithmetic interval of these shares reaches below zero; the logit one cannot.
    assertTrue(ForkStats.mean(shareA).low() < 0);
    ForkStats.Interval s = ForkStats.share(shares[0]);
    assertTrue(s.low() > 0 && s.high() < 1);
    double[] logits = java.util.Arrays.stream(shareA).map(p -> Math.log(p / (1 - p))).toArray();
    ForkStats.Interval l = ForkStats.mean(logits);
    assertEquals(1 / (1 + Math.exp(-l.low())), s.low(), 1e-12);
    assertEquals(1 / (1 + Math.exp(-l.high())), s.high(), 1e-12);
    assertEquals(Compare.sig3(100 * s.estimate()) + "% [" + Compare.sig3(100 * s.low()) + "%, "
      + Compare.sig3(100 * s.high()) + "%] over 5 forks", AbbaPairs.percent(s));
    assertEquals("1% (1 fork, no interval)",
      AbbaPairs.percent(ForkStats.share(new double[] { 0.01 })));
  }

  /** Two forks of a JMH-shaped result: the blocks of both are pooled. */
  @Test
  public void readsJmhJson() throws Exception {
    String json = "[{\"benchmark\":\"x.QuotaToggleBenchmark.read\",\"mode\":\"thrpt\","
      + "\"params\":{\"mode\":\"PATCHED\",\"toggle\":\"offOn\"},"
      + "\"primaryMetric\":{\"score\":1,\"scoreUnit\":\"ops/s\",\"rawData\":"
      + "[[100,99,99,100,100,98,98,100,50],[200,196,196,200]]},"
      + "\"secondaryMetrics\":{"
      + "\"aReads\":{\"score\":1,\"rawData\":[[100,0,0,100,100,0,0,100,50],[200,0,0,200]]},"
      + "\"bReads\":{\"score\":1,\"rawData\":[[0,99,99,0,0,98,98,0,0],[0,196,196,0]]},"
      + "\"cpuNanos\":{\"score\":1,\"rawData\":[[1e9,1e9,1e9,1e9,1e9,1e9,1e9,1e9,1e9],"
      + "[2e9,2e9,2e9,2e9]]},"
      + "\"backgroundCpuNanos\":{\"score\":1,\"rawData\":"
      + "[[1e7,2e7,2e7,1e7,1e7,2e7,2e7,1e7,1e7],"
      + "[2e7,4e7,4e7,2e7]]}}}]";
    Path file = tmp.newFile("toggle.json").toPath();
    Files.writeString(file, json, StandardCharsets.UTF_8);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = AbbaPairs.run(new String[] { file.toString() }, print(out), print(err));
    assertEquals(err.toString(StandardCharsets.UTF_8), 0, status);
    String report = out.toString(StandardCharsets.UTF_8);
    assertTrue(report, report.contains("2 fork(s), 3 blocks, 1 iteration(s)"));
    assertTrue(report,
      report.contains("| 1 | 2 | ABBA | 100.0 | 98.0 | 98.0 | 100.0 | 0.9800 | 0.9800 |"));
    // Blocks 0.99, 0.98 in fork 1 and 0.98 in fork 2: forks 0.9850 and 0.9800.
    assertTrue(report, report.contains("| B / A, score | 2 | 3 | 0.9850, 0.9800 | 0.982 |"));
    assertTrue(report, report.contains("| B / A, per CPU second | 2 | 3 | 0.9850, 0.9800 |"));
    assertTrue(report, report.contains("(2 < 5: not quotable)"));
    // One share per fork and slot (background / process CPU), on the logit scale over forks.
    assertTrue(report,
      report.contains("slot A 1% [1%, 1%] over 2 forks, slot B 2% [2%, 2%] over 2 forks"));
    assertTrue(report, !report.contains("Pooled"));
    // The same combination in a second file: its blocks are pooled with the first file's.
    Path again = tmp.newFile("toggle2.json").toPath();
    Files.writeString(again, json.replace("[200,196,196,200]", "[200,190,190,200]"),
      StandardCharsets.UTF_8);
    out.reset();
    assertEquals(0, AbbaPairs.run(new String[] { file.toString(), again.toString() }, print(out),
      print(err)));
    report = out.toString(StandardCharsets.UTF_8);
    assertTrue(report, report.contains("### Pooled over 2 files: x.QuotaToggleBenchmark.read"
      + " (mode=PATCHED, toggle=offOn)"));
    // Four forks over the two files: 0.9850, 0.9800, then 0.9850, 0.9500.
    assertTrue(report,
      report.contains("| B / A, score | 4 | 6 | 0.9850, 0.9800, 0.9850, 0.9500 |"));
    // --summary: one row per case and file, no blocks.
    out.reset();
    assertEquals(0, AbbaPairs.run(new String[] { "--summary", file.toString() }, print(out),
      print(err)));
    report = out.toString(StandardCharsets.UTF_8);
    assertTrue(report, report.contains("| mode=PATCHED, toggle=offOn | toggle.json | 2 | 0.982 |"));
    assertTrue(report, !report.contains("ABBA |"));
    assertEquals(2, AbbaPairs.run(new String[] { "--summary" }, print(out), print(err)));
    // A case run with SERIES and with PATCHED against UPSTREAM: their quotient.
    Path series = tmp.newFile("series.json").toPath();
    Path patched = tmp.newFile("patched.json").toPath();
    String toggle = json.replace("x.QuotaToggleBenchmark.read", "x.SeriesToggleBenchmark.run")
      .replace("\"mode\":\"PATCHED\",\"toggle\":\"offOn\"",
        "\"a\":\"UPSTREAM\",\"b\":\"SIDE\",\"target\":\"c:x\"");
    Files.writeString(series, toggle.replace("SIDE", "SERIES"), StandardCharsets.UTF_8);
    Files.writeString(patched, toggle.replace("SIDE", "PATCHED")
      .replace("[100,99,99,100,100,98,98,100,50],[200,196,196,200]",
        "[100,198,198,100,100,196,196,100,50],[200,392,392,200]"), StandardCharsets.UTF_8);
    out.reset();
    assertEquals(0, AbbaPairs.run(new String[] { "--summary", series.toString(),
      patched.toString() }, print(out), print(err)));
    report = out.toString(StandardCharsets.UTF_8);
    // SERIES 0.982, PATCHED twice that: SERIES / PATCHED 0.5.
    assertTrue(report, report.contains("| c:x against UPSTREAM | 0.982 | 1.96 | 0.5 |"));
    // An allocation counter: bytes per operation of each slot.
    Path alloc = tmp.newFile("alloc.json").toPath();
    Files.writeString(alloc, toggle.replace("SIDE", "SERIES").replace("\"cpuNanos\":",
      "\"allocBytes\":{\"score\":1,\"rawData\":[[1000,198,198,1000,1000,196,196,1000,500],"
        + "[2000,392,392,2000]]},\"cpuNanos\":"), StandardCharsets.UTF_8);
    out.reset();
    assertEquals(0, AbbaPairs.run(new String[] { "--summary", alloc.toString() }, print(out),
      print(err)));
    report = out.toString(StandardCharsets.UTF_8);
    assertTrue(report, report.contains("| alloc.json | 10 | 2 |"));
  }

  @Test
  public void aFileWithoutSlotCountersIsAnError() throws Exception {
    Path file = tmp.newFile("other.json").toPath();
    Files.writeString(file, "[{\"benchmark\":\"x.Y.z\",\"primaryMetric\":{\"score\":1}}]",
      StandardCharsets.UTF_8);
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    assertEquals(1, AbbaPairs.run(new String[] { file.toString() },
      print(new ByteArrayOutputStream()), print(err)));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("no entry has the aReads"));
  }

  private static PrintStream print(ByteArrayOutputStream out) {
    return new PrintStream(out, true, StandardCharsets.UTF_8);
  }
}
