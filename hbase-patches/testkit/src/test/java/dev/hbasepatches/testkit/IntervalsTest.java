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
package dev.hbasepatches.testkit;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.Arrays;
import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.random.Well19937c;
import org.apache.commons.math3.stat.descriptive.rank.Percentile;
import org.apache.commons.math3.stat.descriptive.rank.Percentile.EstimationType;
import org.junit.Test;

/**
 * Known inputs against bounds worked out independently (by hand from the formulas, with
 * commons-math3's own distributions and percentiles), and the property the scales are chosen
 * for: a positive quantity never gets a negative bound.
 */
public class IntervalsTest {

  private static final double T4 = 2.7764451051977987;

  @Test
  public void tQuantileIsStudents() {
    assertEquals(T4, Intervals.tQuantile(4), 1e-9);
    assertEquals(1.959963984540054, Intervals.zQuantile(), 1e-12);
  }

  @Test
  public void geometricMeanOfKnownValues() {
    // logs are 0, 1, 2, 3, 4 times ln 2: mean 2 ln 2, sd sqrt(2.5) ln 2.
    Intervals.Estimate g = Intervals.geometricMean(new double[] { 1, 2, 4, 8, 16 });
    double half = T4 * Math.sqrt(2.5 / 5) * Math.log(2);
    assertEquals(5, g.n());
    assertEquals(4.0, g.estimate(), 1e-12);
    // commons-math3's t quantile is good to about 1e-10, hence the tolerances.
    assertEquals(4 * Math.exp(-half), g.low(), 1e-8);
    assertEquals(4 * Math.exp(half), g.high(), 1e-8);
    assertEquals(1.0258052346862405, g.low(), 1e-8);
    assertEquals(15.597502780236695, g.high(), 1e-7);
  }

  @Test
  public void widelySpreadPositiveValuesKeepAPositiveLowerBound() {
    double[] v = { 0.1, 10, 0.2, 50, 1 };
    // On the arithmetic scale the interval of the mean reaches below zero...
    assertEquals(-14.439471821634497, Intervals.mean(v).low(), 1e-7);
    // ...on the log scale it cannot.
    Intervals.Estimate g = Intervals.geometricMean(v);
    assertEquals(1.5848931924611136, g.estimate(), 1e-12);
    assertEquals(0.061331636060308004, g.low(), 1e-9);
    assertEquals(40.9558034460326, g.high(), 1e-7);
    assertTrue(g.low() > 0);
  }

  @Test
  public void nonPositiveValuesHaveNoGeometricMean() {
    Intervals.Estimate g = Intervals.geometricMean(new double[] { 1, 0, 2 });
    assertTrue(Double.isNaN(g.estimate()));
    assertTrue(Double.isNaN(g.low()));
    Intervals.Estimate one = Intervals.geometricMean(new double[] { 3 });
    assertEquals(3, one.estimate(), 1e-12);
    assertTrue(Double.isNaN(one.low()));
  }

  @Test
  public void ratioIsWelchOnTheLogs() {
    double[] a = { 100, 102, 98, 101, 99 };
    double[] b = { 200, 204, 196, 202, 198 };
    Intervals.Estimate r = Intervals.ratio(b, a);
    assertEquals(2.0, r.estimate(), 1e-12);
    // Both samples have the same log spread: Welch's df is 2 (n - 1) = 8.
    double[] la = Arrays.stream(a).map(Math::log).toArray();
    double m = Arrays.stream(la).average().getAsDouble();
    double var = Arrays.stream(la).map(x -> (x - m) * (x - m)).sum() / 4;
    double half = new TDistribution(8).inverseCumulativeProbability(0.975)
      * Math.sqrt(2 * var / 5);
    assertEquals(2 * Math.exp(-half), r.low(), 1e-9);
    assertEquals(2 * Math.exp(half), r.high(), 1e-9);
  }

  @Test
  public void sharesFromCountsOnTheLogitScale() {
    // Five JVMs' profiler samples in checksum code, two of them with none: on the arithmetic
    // scale the mean share's interval is [-0.143%, 0.778%].
    long[] hits = { 2, 0, 3, 1, 0 };
    long[] totals = { 355, 398, 358, 537, 369 };
    double[] percent = new double[5];
    double[] logits = new double[5];
    for (int i = 0; i < 5; i++) {
      percent[i] = 100.0 * hits[i] / totals[i];
      logits[i] = Math.log((hits[i] + 0.5) / (totals[i] - hits[i] + 0.5));
    }
    assertEquals(-0.14299259932505842, Intervals.mean(percent).low(), 1e-8);
    Intervals.Estimate s = Intervals.share(hits, totals);
    double m = Arrays.stream(logits).average().getAsDouble();
    double sd = Math.sqrt(Arrays.stream(logits).map(x -> (x - m) * (x - m)).sum() / 4);
    double half = T4 * sd / Math.sqrt(5);
    assertEquals(1 / (1 + Math.exp(-m)), s.estimate(), 1e-12);
    assertEquals(1 / (1 + Math.exp(-(m - half))), s.low(), 1e-11);
    assertEquals(1 / (1 + Math.exp(-(m + half))), s.high(), 1e-11);
    assertEquals(0.0031802130161501766, s.estimate(), 1e-12);
    assertEquals(0.000993151432177197, s.low(), 1e-11);
    assertEquals(0.010134638002171448, s.high(), 1e-10);
  }

  @Test
  public void sharesWithNoHitAnywhereFallBackToThePooledCount() {
    Intervals.Estimate s = Intervals.share(new long[] { 0, 0, 0, 0, 0 },
      new long[] { 20, 20, 20, 20, 20 });
    Intervals.Estimate w = Intervals.wilson(0, 100);
    assertEquals(5, s.n());
    assertEquals(0, s.estimate(), 0);
    assertEquals(w.low(), s.low(), 0);
    assertEquals(0.03699349820698568, s.high(), 1e-9);
  }

  @Test
  public void ratesFromCountsOnTheLogScale() {
    // Extra RPCs in five rounds of 1,000 reads, one round with none.
    long[] extra = { 16, 0, 25, 9, 31 };
    long[] reads = { 1000, 1000, 1000, 1000, 1000 };
    double[] logs = new double[5];
    double[] perRead = new double[5];
    for (int i = 0; i < 5; i++) {
      logs[i] = Math.log((extra[i] + 0.5) / reads[i]);
      perRead[i] = extra[i] / 1000.0;
    }
    assertTrue(Intervals.mean(perRead).low() < 0.01);
    Intervals.Estimate r = Intervals.rate(extra, reads);
    Intervals.Estimate l = Intervals.mean(logs);
    assertEquals(Math.exp(l.estimate()), r.estimate(), 1e-12);
    assertEquals(Math.exp(l.low()), r.low(), 1e-12);
    assertEquals(Math.exp(l.high()), r.high(), 1e-12);
    assertTrue(r.low() > 0);
    // No event anywhere: 0, and Poisson's exact upper bound -ln(0.025) / 5,000 reads.
    Intervals.Estimate none = Intervals.rate(new long[] { 0, 0, 0, 0, 0 }, reads);
    assertEquals(0, none.estimate(), 0);
    assertEquals(0, none.low(), 0);
    assertEquals(3.6888794541139363 / 5000, none.high(), 1e-12);
  }

  @Test
  public void sharesFromFractions() {
    double[] f = { 0.01, 0.02, 0.04 };
    Intervals.Estimate s = Intervals.share(f);
    double[] logits = Arrays.stream(f).map(p -> Math.log(p / (1 - p))).toArray();
    Intervals.Estimate l = Intervals.mean(logits);
    assertEquals(1 / (1 + Math.exp(-l.estimate())), s.estimate(), 1e-12);
    assertEquals(1 / (1 + Math.exp(-l.low())), s.low(), 1e-12);
    assertTrue(s.low() > 0 && s.high() < 1);
    // A unit at exactly zero has no logit: the arithmetic mean, no bounds.
    Intervals.Estimate zero = Intervals.share(new double[] { 0, 0.02, 0.04 });
    assertEquals(0.02, zero.estimate(), 1e-12);
    assertTrue(Double.isNaN(zero.low()));
  }

  @Test
  public void wilsonOfKnownCounts() {
    Intervals.Estimate w = Intervals.wilson(5, 100);
    assertEquals(0.05, w.estimate(), 1e-12);
    assertEquals(0.02154367915436796, w.low(), 1e-9);
    assertEquals(0.11175046923191913, w.high(), 1e-9);
    Intervals.Estimate none = Intervals.wilson(0, 100);
    assertEquals(0, none.low(), 0);
    // z^2 / (n + z^2) with z = 1.95996
    assertEquals(0.03699349820698568, none.high(), 1e-9);
  }

  @Test
  public void quantileIsTypeSeven() {
    double[] v = { 7, 1, 3, 9, 5, 2 };
    Percentile r7 = new Percentile().withEstimationType(EstimationType.R_7);
    for (double p : new double[] { 0.025, 0.25, 0.5, 0.9, 0.975 }) {
      assertEquals(r7.evaluate(v, 100 * p), Intervals.quantile(v, p), 1e-12);
    }
    assertEquals(4, Intervals.median(v), 1e-12);
  }

  @Test
  public void bootstrapOfTwoRoundsIsTheirRange() {
    // The median of two resampled rounds is 10 (1 in 4), 15 (2 in 4) or 20 (1 in 4): its 2.5th
    // and 97.5th percentiles are the two rounds.
    Intervals.Estimate b = Intervals.percentileOverRounds(new double[] { 10, 20 });
    assertEquals(15, b.estimate(), 1e-12);
    assertEquals(10, b.low(), 1e-12);
    assertEquals(20, b.high(), 1e-12);
    Intervals.Estimate same = Intervals.percentileOverRounds(new double[] { 4, 4, 4 });
    assertEquals(4, same.low(), 0);
    assertEquals(4, same.high(), 0);
    assertTrue(Double.isNaN(Intervals.percentileOverRounds(new double[] { 4 }).low()));
  }

  @Test
  public void bootstrapIsReproducibleAndAsDocumented() {
    // Five rounds' p99 in ms, one round far out: the median's interval stays positive.
    double[] p99 = { 20.5, 31.0, 300.2, 25.7, 251.9 };
    Intervals.Estimate a = Intervals.percentileOverRounds(p99);
    Intervals.Estimate b = Intervals.percentileOverRounds(p99.clone());
    assertEquals(a, b);
    assertEquals(31.0, a.estimate(), 0);
    assertTrue(a.low() > 0);
    assertTrue(a.low() >= 20.5 && a.high() <= 300.2);
    // The documented procedure, written out with commons-math3: Well19937c from the fixed start,
    // n draws of nextInt(n) per resample, medians, R-7 percentiles 2.5 and 97.5.
    Well19937c rng = new Well19937c(Intervals.BOOTSTRAP_SEED);
    Percentile r7 = new Percentile().withEstimationType(EstimationType.R_7);
    double[] medians = new double[Intervals.BOOTSTRAP_RESAMPLES];
    for (int r = 0; r < medians.length; r++) {
      double[] draw = new double[p99.length];
      for (int i = 0; i < draw.length; i++) {
        draw[i] = p99[rng.nextInt(p99.length)];
      }
      medians[r] = r7.evaluate(draw, 50);
    }
    assertEquals(r7.evaluate(medians, 2.5), a.low(), 1e-12);
    assertEquals(r7.evaluate(medians, 97.5), a.high(), 1e-12);
    // Another start gives another (close) interval: the start is what makes reports repeatable.
    Intervals.Estimate other =
      Intervals.bootstrap(p99, Intervals::median, Intervals.BOOTSTRAP_RESAMPLES, 7);
    assertEquals(a.estimate(), other.estimate(), 0);
  }

  @Test
  public void differenceMayBeNegative() {
    Intervals.Estimate d = Intervals.difference(new double[] { 1, 2, 3 }, new double[] { 4, 5, 6 });
    assertEquals(-3, d.estimate(), 1e-12);
    assertTrue(d.high() < 0);
  }
}
