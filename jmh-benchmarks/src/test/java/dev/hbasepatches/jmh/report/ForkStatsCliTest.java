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

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.Test;

/** The scripts' door to {@link ForkStats}: labelled ratios in, one row per label out. */
public class ForkStatsCliTest {

  private static String[] run(String input, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = ForkStatsCli.run(args,
      new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)),
      new PrintStream(out, true, StandardCharsets.UTF_8),
      new PrintStream(err, true, StandardCharsets.UTF_8));
    return new String[] { String.valueOf(status), out.toString(StandardCharsets.UTF_8),
      err.toString(StandardCharsets.UTF_8) };
  }

  @Test
  public void oneRowPerLabelInFirstSeenOrderWithForkStatsInterval() {
    String in = "P / U\t2.0\nP / B\t1.1\nP / U\t0.5\nP / U\t2.0\nP / U\t0.5\nP / U\t1.0\n";
    String[] r = run(in);
    assertEquals(r[2], "0", r[0]);
    String[] lines = r[1].split("\n");
    assertEquals("| ratio | pairs | geometric mean | 95% interval | verdict |", lines[0]);
    ForkStats.Interval expected = ForkStats.pairedRatio(new double[] { 2, 0.5, 2, 0.5, 1 });
    assertEquals("| P / U | 5 | 1 | " + Compare.sig3(expected.low()) + " to "
      + Compare.sig3(expected.high()) + " | contains 1 |", lines[2]);
    assertEquals("| P / B | 1 | 1.1 | - | n/a (1 < 5: not quotable) |", lines[3]);
  }

  @Test
  public void verdictAgainstATarget() {
    String in = "x\t1.60\nx\t1.62\nx\t1.58\nx\t1.61\nx\t1.59\n";
    assertTrue(run(in, "--target", "1.5")[1].contains("| met |"));
    assertTrue(run(in, "--target", "1.7")[1].contains("| not met |"));
    assertTrue(run(in, "--target", "1.6", "--no-header")[1].startsWith("| x | 5 | 1.6 |"));
    assertTrue(run(in, "--target", "1.6")[1].contains("| inconclusive |"));
    // Three pairs well above the target: still inconclusive, since three are too few to quote.
    String few = "x\t1.60\nx\t1.62\nx\t1.58\n";
    assertTrue(run(few, "--target", "1.5")[1].contains("| inconclusive (3 < 5: not quotable) |"));
  }

  @Test
  public void badInputIsRefusedWithTheLine() {
    String[] r = run("x\t1.0\nx\tabc\n");
    assertEquals("1", r[0]);
    assertTrue(r[2], r[2].contains("line 2: a ratio must be a positive number, got 'abc' for x"));
    r = run("no tab here\n");
    assertTrue(r[2], r[2].contains("line 1: expected LABEL<TAB>RATIO"));
    r = run("x\t-1\n");
    assertTrue(r[2], r[2].contains("positive number"));
    r = run("", "--target", "0");
    assertEquals("2", r[0]);
    assertTrue(r[2], r[2].contains("--target must be a positive ratio"));
  }

  @Test
  public void signedValuesWithAnUpperLimit() {
    // Differences per fork, zeros allowed: the arithmetic mean and ForkStats' t interval.
    String in = "d\t0.0\nd\t0.5\nd\t1.0\nd\t0.5\nd\t0.0\n";
    ForkStats.Interval expected = ForkStats.mean(new double[] { 0, 0.5, 1, 0.5, 0 });
    String[] r = run(in, "--signed", "--at-most", "3");
    assertEquals(r[2], "0", r[0]);
    String[] lines = r[1].split("\n");
    assertEquals("| value | units | mean | 95% interval | verdict |", lines[0]);
    assertEquals("| d | 5 | 0.4 | " + Compare.sig3(expected.low()) + " to "
      + Compare.sig3(expected.high()) + " | met (at most 3) |", lines[2]);
    assertTrue(run(in, "--signed", "--at-most", "0.5")[1]
      .contains("| inconclusive (at most 0.5) |"));
    assertTrue(run(in, "--signed", "--at-most", "-1")[1].contains("| not met (at most -1) |"));
    assertTrue(run(in, "--signed")[1].contains("| - |"));
    assertEquals("2", run(in, "--signed", "--target", "1")[0]);
    assertEquals("2", run(in, "--at-most", "1")[0]);
    assertEquals("2", run(in, "--signed", "--mean")[0]);
    String[] bad = run("x\tNaN\n", "--signed");
    assertEquals("1", bad[0]);
    assertTrue(bad[2], bad[2].contains("a value must be a finite number"));
  }

  @Test
  public void positiveMeansAreGeometricAndRefuseZero() {
    String in = "p99 ms\t20.5\np99 ms\t31.0\np99 ms\t300.2\np99 ms\t25.7\np99 ms\t251.9\n";
    ForkStats.Interval g = ForkStats.positiveMean(new double[] { 20.5, 31.0, 300.2, 25.7, 251.9 });
    String[] r = run(in, "--mean", "--at-most", "1000");
    assertEquals(r[2], "0", r[0]);
    String[] lines = r[1].split("\n");
    assertEquals("| value | units | geometric mean | 95% interval (log scale) | verdict |",
      lines[0]);
    assertEquals("| p99 ms | 5 | " + Compare.sig3(g.estimate()) + " | " + Compare.sig3(g.low())
      + " to " + Compare.sig3(g.high()) + " | met (at most 1000) |", lines[2]);
    assertTrue(g.low() > 0);
    // A rate as counts (extra RPCs in a round's reads), zero allowed: log scale.
    String rates = "extra\t16/1000\nextra\t0/1000\nextra\t25/1000\nextra\t9/1000\n"
      + "extra\t31/1000\n";
    ForkStats.Interval rate = ForkStats.rate(new long[] { 16, 0, 25, 9, 31 },
      new long[] { 1000, 1000, 1000, 1000, 1000 });
    assertTrue(run(rates, "--mean")[1].contains("| extra | 5 | " + Compare.sig3(rate.estimate())
      + " | " + Compare.sig3(rate.low()) + " to " + Compare.sig3(rate.high()) + " | - |"));
    assertTrue(rate.low() > 0);
    assertEquals("1", run("x\t1/10\nx\t0.2\n", "--mean")[0]);
    String[] zero = run("x\t0\nx\t1\n", "--mean");
    assertEquals("1", zero[0]);
    assertTrue(zero[2], zero[2].contains("line 1: --mean takes positive values"));
  }

  @Test
  public void sharesFromCountsOrFractionsStayPositive() {
    // Per JVM, profiler samples in checksum code of all samples; two JVMs with none.
    String in = "PATCHED\t2/355\nPATCHED\t0/398\nPATCHED\t3/358\nPATCHED\t1/537\n"
      + "PATCHED\t0/369\n";
    String[] r = run(in, "--share", "--at-most", "0.03");
    assertEquals(r[2], "0", r[0]);
    String[] lines = r[1].split("\n");
    assertEquals("| share | units | share | 95% interval (logit scale) | verdict |", lines[0]);
    assertEquals("| PATCHED | 5 | 0.00318 | 0.000993 to 0.0101 | met (at most 0.03) |", lines[2]);
    assertTrue(run("f\t0.01\nf\t0.02\n", "--share")[1].contains("| f | 2 |"));
    String[] zero = run("f\t0\nf\t0.02\n", "--share");
    assertEquals("1", zero[0]);
    assertTrue(zero[2], zero[2].contains("strictly between 0 and 1"));
    String[] mixed = run("f\t1/10\nf\t0.02\n", "--share");
    assertEquals("1", mixed[0]);
    assertTrue(mixed[2], mixed[2].contains("one form per label"));
    // No hit in any unit: the estimate is 0, Wilson's interval of the pooled count.
    assertTrue(run("z\t0/100\nz\t0/100\n", "--share")[1].contains("| z | 2 | 0 | 0 to 0.0188 |"));
    assertEquals("1", run("f\t11/10\n", "--share")[0]);
  }

  @Test
  public void percentilesPerRoundGetABootstrapInterval() {
    String in = "p99\t20.5\np99\t31.0\np99\t300.2\np99\t25.7\np99\t251.9\n";
    ForkStats.Interval p = ForkStats.percentile(new double[] { 20.5, 31.0, 300.2, 25.7, 251.9 });
    String[] r = run(in, "--percentile", "--at-most", "400");
    assertEquals(r[2], "0", r[0]);
    String[] lines = r[1].split("\n");
    assertEquals("| percentile | rounds | median over rounds | 95% bootstrap interval (10,000"
      + " resamples) | verdict |", lines[0]);
    assertEquals("| p99 | 5 | 31 | " + Compare.sig3(p.low()) + " to " + Compare.sig3(p.high())
      + " | met (at most 400) |", lines[2]);
    // The same input gives the same interval: the bootstrap starts from a fixed point.
    assertEquals(r[1], run(in, "--percentile", "--at-most", "400")[1]);
  }
}
