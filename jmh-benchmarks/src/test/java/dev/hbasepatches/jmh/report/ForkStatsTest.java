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
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.Test;

public class ForkStatsTest {

  @Test
  public void meanIntervalIsStudentsTOverTheForks() {
    ForkStats.Interval i = ForkStats.mean(new double[] { 1, 2, 3, 4, 5 });
    // sd = sqrt(2.5), se = sd / sqrt(5) = 0.70711, t(0.975, 4 df) = 2.77645
    assertEquals(3.0, i.estimate(), 1e-12);
    assertEquals(3.0 - 2.77645 * 0.707107, i.low(), 1e-4);
    assertEquals(3.0 + 2.77645 * 0.707107, i.high(), 1e-4);
    assertTrue(i.quotable());
    assertFalse(ForkStats.mean(new double[] { 1, 2, 3, 4 }).quotable());
    assertTrue(Double.isNaN(ForkStats.mean(new double[] { 7 }).low()));
  }

  @Test
  public void verdictNeedsTheWholeIntervalOnOneSide() {
    assertEquals(ForkStats.Verdict.MET, new ForkStats.Interval(5, 1.6, 1.51, 1.7).against(1.5));
    assertEquals(ForkStats.Verdict.INCONCLUSIVE,
      new ForkStats.Interval(5, 1.6, 1.49, 1.7).against(1.5));
    assertEquals(ForkStats.Verdict.NOT_MET,
      new ForkStats.Interval(5, 1.3, 1.2, 1.49).against(1.5));
    assertEquals(ForkStats.Verdict.INCONCLUSIVE,
      new ForkStats.Interval(1, 1.6, Double.NaN, Double.NaN).against(1.5));
  }

  @Test
  public void unpairedRatioIsTheRatioOfGeometricMeansWithAWelchInterval() {
    double[] a = { 100, 102, 98, 101, 99 };
    double[] b = { 200, 204, 196, 202, 198 };
    ForkStats.Interval r = ForkStats.ratio(b, a);
    assertEquals(2.0, r.estimate(), 1e-3);
    assertTrue(r.low() < 2.0 && r.low() > 1.9);
    assertTrue(r.high() > 2.0 && r.high() < 2.1);
    assertEquals(ForkStats.Verdict.MET, r.against(1.5));
    // The same forks on both sides: the interval holds 1 and nothing is decided.
    ForkStats.Interval same = ForkStats.ratio(a, a.clone());
    assertEquals(1.0, same.estimate(), 1e-12);
    ForkStats.Interval noisy = ForkStats.ratio(new double[] { 90, 110, 95, 105, 100 }, a);
    assertTrue(noisy.low() < 1 && noisy.high() > 1);
    assertEquals(ForkStats.Verdict.INCONCLUSIVE, noisy.against(1.0));
  }

  @Test
  public void unpairedDifferenceIsWelchOnTheRawScale() {
    // One side without spread: Welch's degrees of freedom fall to the other side's n - 1 = 4.
    double[] b = { 10, 12, 11, 13, 9 };
    double[] a = { 5, 5, 5, 5, 5 };
    ForkStats.Interval d = ForkStats.difference(b, a);
    assertEquals(6.0, d.estimate(), 1e-12);
    double half = ForkStats.tQuantile(4) * Math.sqrt(2.5 / 5);
    assertEquals(6.0 - half, d.low(), 1e-9);
    assertEquals(6.0 + half, d.high(), 1e-9);
    assertTrue(Double.isNaN(ForkStats.difference(new double[] { 1 }, a).low()));
  }

  @Test
  public void unpairedRatioWithOneForkHasNoInterval() {
    ForkStats.Interval r = ForkStats.ratio(new double[] { 4 }, new double[] { 2, 2 });
    assertEquals(2.0, r.estimate(), 1e-12);
    assertTrue(Double.isNaN(r.low()));
  }

  @Test
  public void pairedRatiosAreSummarisedOnTheLogScale() {
    ForkStats.Interval r = ForkStats.pairedRatio(new double[] { 2.0, 0.5, 2.0, 0.5, 1.0 });
    assertEquals(1.0, r.estimate(), 1e-12);
    assertTrue(r.low() < 1 && r.high() > 1);
  }

  @Test
  public void positiveValuesNeverGetANegativeBound() {
    // A p99 per round in ms, one round far out: the arithmetic interval crosses zero.
    double[] p99 = { 20.5, 31.0, 300.2, 25.7, 251.9 };
    assertTrue(ForkStats.mean(p99).low() < 0);
    ForkStats.Interval g = ForkStats.positiveMean(p99);
    double[] logs = java.util.Arrays.stream(p99).map(Math::log).toArray();
    ForkStats.Interval l = ForkStats.mean(logs);
    assertEquals(Math.exp(l.estimate()), g.estimate(), 1e-9);
    assertEquals(Math.exp(l.low()), g.low(), 1e-9);
    assertEquals(Math.exp(l.high()), g.high(), 1e-9);
    assertTrue(g.low() > 0);
    ForkStats.Interval p = ForkStats.percentile(p99);
    assertEquals(31.0, p.estimate(), 0);
    assertTrue(p.low() >= 20.5 && p.high() <= 300.2);
    assertEquals(p, ForkStats.percentile(p99.clone()));
  }

  @Test
  public void sharesStayBetweenZeroAndOne() {
    // Profiler samples in checksum code per JVM, two JVMs with none.
    ForkStats.Interval s = ForkStats.share(new long[] { 2, 0, 3, 1, 0 },
      new long[] { 355, 398, 358, 537, 369 });
    assertEquals(0.0031802130161501766, s.estimate(), 1e-12);
    assertEquals(0.000993151432177197, s.low(), 1e-11);
    assertEquals(0.010134638002171448, s.high(), 1e-10);
    assertEquals(ForkStats.Verdict.MET, s.atMost(0.03));
    ForkStats.Interval w = ForkStats.wilson(5, 100);
    assertEquals(0.02154367915436796, w.low(), 1e-9);
  }

  @Test
  public void atMostNeedsTheWholeIntervalOnOneSide() {
    assertEquals(ForkStats.Verdict.MET, new ForkStats.Interval(5, 80, 60, 100).atMost(100));
    assertEquals(ForkStats.Verdict.INCONCLUSIVE,
      new ForkStats.Interval(5, 87, 60, 114).atMost(100));
    assertEquals(ForkStats.Verdict.INCONCLUSIVE,
      new ForkStats.Interval(5, 87, 24, 150).atMost(100));
    assertEquals(ForkStats.Verdict.NOT_MET, new ForkStats.Interval(5, 130, 101, 150).atMost(100));
    assertEquals(ForkStats.Verdict.INCONCLUSIVE,
      new ForkStats.Interval(1, 80, Double.NaN, Double.NaN).atMost(100));
  }

  @Test
  public void forkMeansAverageEachForksIterations() {
    double[] m = ForkStats.forkMeans(new double[][] { { 1, 3 }, { 10, 20, 30 } });
    assertEquals(2.0, m[0], 0);
    assertEquals(20.0, m[1], 0);
  }

  private static String entry(String mode, String jmhMode, String unit, double... forkScores) {
    StringBuilder raw = new StringBuilder();
    for (double s : forkScores) {
      raw.append(raw.length() == 0 ? "" : ",").append('[').append(s).append(',').append(s)
        .append(']');
    }
    return "{\"benchmark\":\"dev.x.FooBenchmark.get\",\"mode\":\"" + jmhMode + "\","
      + "\"params\":{\"mode\":\"" + mode + "\",\"rows\":\"100\"},\"primaryMetric\":{\"score\":1,"
      + "\"scoreUnit\":\"" + unit + "\",\"rawData\":[" + raw + "]}}";
  }

  @Test
  public void compareModesOrientsRatiosSoThatAboveOneIsBetter() throws Exception {
    String thrpt = "[" + entry("UPSTREAM", "thrpt", "ops/s", 100, 101, 99, 100, 100) + ","
      + entry("PATCHED", "thrpt", "ops/s", 150, 151, 149, 150, 150) + "]";
    List<Compare.Row> rows =
      Compare.compareModes(Compare.read(thrpt, "t"), "UPSTREAM", "PATCHED", 1.2);
    assertEquals(1, rows.size());
    assertEquals("rows=100", rows.get(0).params());
    assertEquals(1.5, rows.get(0).ratio().estimate(), 1e-3);
    assertEquals("met", rows.get(0).verdict());

    String avgt = "[" + entry("UPSTREAM", "avgt", "ns/op", 100, 101, 99) + ","
      + entry("PATCHED", "avgt", "ns/op", 50, 51, 49) + "]";
    Compare.Row r =
      Compare.compareModes(Compare.read(avgt, "a"), "UPSTREAM", "PATCHED", null).get(0);
    assertEquals(2.0, r.ratio().estimate(), 1e-2);
    assertEquals("better (3 forks < 5)", r.verdict());
  }

  @Test
  public void compareFilesMatchesCasesByBenchmarkAndParams() throws Exception {
    Map<String, Compare.Side> old =
      Compare.read("[" + entry("PATCHED", "thrpt", "ops/s", 100, 100, 100, 100, 100) + "]", "o");
    Map<String, Compare.Side> now =
      Compare.read("[" + entry("PATCHED", "thrpt", "ops/s", 80, 81, 79, 80, 80) + "]", "n");
    Compare.Row r = Compare.compareFiles(old, now, null).get(0);
    assertEquals("worse", r.verdict());
  }

  @Test
  public void badInputIsRefusedWithTheReason() {
    BadInputException e = assertThrows(BadInputException.class, () -> Compare.read("{}", "x.json"));
    assertTrue(e.getMessage(), e.getMessage().contains("x.json"));
    assertThrows(BadInputException.class, () -> Compare.compareModes(
      Compare.read("[" + entry("PATCHED", "thrpt", "ops/s", 1, 2) + "]", "y"), "UPSTREAM",
      "PATCHED", null));
  }
  /** A throughput entry whose forks carry a cpuNanos counter and an allocation per op. */
  private static String cpuEntry(String mode, double[] scores, double[] cpuNanos, double bytes) {
    StringBuilder raw = new StringBuilder();
    StringBuilder cpu = new StringBuilder();
    StringBuilder alloc = new StringBuilder();
    for (int i = 0; i < scores.length; i++) {
      String sep = i == 0 ? "" : ",";
      raw.append(sep).append('[').append(scores[i]).append(']');
      cpu.append(sep).append('[').append(cpuNanos[i]).append(']');
      alloc.append(sep).append('[').append(bytes).append(']');
    }
    return "{\"benchmark\":\"dev.x.FooBenchmark.get\",\"mode\":\"thrpt\","
      + "\"params\":{\"mode\":\"" + mode + "\"},\"primaryMetric\":{\"score\":1,"
      + "\"scoreUnit\":\"ops/s\",\"rawData\":[" + raw + "]},\"secondaryMetrics\":{"
      + "\"cpuNanos\":{\"score\":1,\"scoreUnit\":\"#/s\",\"rawData\":[" + cpu + "]},"
      + "\"gc.alloc.rate.norm\":{\"score\":1,\"scoreUnit\":\"B/op\",\"rawData\":[" + alloc
      + "]}}}";
  }

  @Test
  public void pairedModesPairForkIWithForkIAndCpuAndMetricMeasures() throws Exception {
    // Each pair sits on its own level; B is 1.1x A inside every pair.
    double[] a = { 100, 50, 200, 80, 120 };
    double[] b = new double[a.length];
    double[] cpuA = new double[a.length];
    double[] cpuB = new double[a.length];
    for (int i = 0; i < a.length; i++) {
      b[i] = 1.1 * a[i];
      cpuA[i] = 1e9;
      cpuB[i] = 0.5e9; // B does its work on half the CPU: 2.2x per CPU second
    }
    String run = "[" + cpuEntry("UPSTREAM", a, cpuA, 64) + "," + cpuEntry("PATCHED", b, cpuB, 32)
      + "]";
    Compare.Row paired = Compare.compareModes(Compare.read(run, "p"), "UPSTREAM", "PATCHED", 1.05,
      true).get(0);
    assertEquals(1.1, paired.ratio().estimate(), 1e-9);
    assertEquals(1.1, paired.ratio().low(), 1e-9);
    assertEquals("met", paired.verdict());
    // Unpaired, the levels are noise and nothing is decided.
    Compare.Row unpaired = Compare.compareModes(Compare.read(run, "p"), "UPSTREAM", "PATCHED",
      1.05, false).get(0);
    assertEquals("inconclusive", unpaired.verdict());
    Compare.Row cpu = Compare.compareModes(Compare.read(run, "p",
      new Compare.Measure(null, "cpuNanos")), "UPSTREAM", "PATCHED", null, true).get(0);
    assertEquals(2.2, cpu.ratio().estimate(), 1e-9);
    assertEquals("ops/s per CPU s", cpu.a().unit());
    // Bytes per op: fewer is better, so half the bytes reads 2.0.
    Compare.Row bytes = Compare.compareModes(Compare.read(run, "p",
      new Compare.Measure("gc.alloc.rate.norm", null)), "UPSTREAM", "PATCHED", null, true).get(0);
    assertEquals(2.0, bytes.ratio().estimate(), 1e-9);
    BadInputException e = assertThrows(BadInputException.class, () -> Compare.read(run, "p",
      new Compare.Measure("nope", null)));
    assertTrue(e.getMessage(), e.getMessage().contains("no secondary metric nope"));
  }

  @Test
  public void pairedNeedsAsManyForksOfEachMode() throws Exception {
    String run = "[" + entry("UPSTREAM", "thrpt", "ops/s", 1, 2, 3) + ","
      + entry("PATCHED", "thrpt", "ops/s", 1, 2) + "]";
    Compare.Row r = Compare.compareModes(Compare.read(run, "r"), "UPSTREAM", "PATCHED", null,
      true).get(0);
    assertTrue(r.verdict(), r.verdict().startsWith("n/a (--paired needs as many forks of each"));
    assertTrue(Double.isNaN(r.ratio().estimate()));
  }
}
