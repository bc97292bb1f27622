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
package dev.hbasepatches.timeline;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import dev.hbasepatches.testkit.Intervals;
import java.util.List;
import java.util.Locale;
import org.junit.Test;

/**
 * The latency scenario's summaries over rounds: a percentile measured per round (p99, the
 * slowest read) as the median with a bootstrap interval, the share of reads within 50 ms from
 * each round's counts on the logit scale; neither can reach below zero, as the Student t interval
 * of the arithmetic mean did (a p99 of 108.9 ms [-38.9, 256.7] over five rounds).
 */
public class TimelineScenarioSummaryTest {

  @Test
  public void percentilesPerRoundAreTheMedianWithABootstrapInterval() {
    double[] p99 = { 20.5, 31.0, 300.2, 25.7, 251.9 };
    assertTrue(Intervals.mean(p99).low() < 0);
    Intervals.Estimate e = Intervals.percentileOverRounds(p99);
    String expected = String.format(Locale.ROOT, "31.00 [%.2f, %.2f]", e.low(), e.high());
    assertEquals(expected, TimelineLatencyScenario.overRounds(p99, "%.2f"));
    assertTrue(e.low() >= 20.5);
    // One round: the value alone.
    assertEquals("87.0", TimelineLatencyScenario.overRounds(new double[] { 87 }, "%.1f"));
  }

  @Test
  public void withinFiftyMillisecondsIsAShareOfEachRoundsCounts() {
    TimelineLatencyScenario.Run a = run(1000, 990);
    TimelineLatencyScenario.Run b = run(1000, 1000);
    TimelineLatencyScenario.Run c = run(1000, 940);
    TimelineLatencyScenario.Run idle = run(0, 0);
    Intervals.Estimate e =
      Intervals.share(new long[] { 990, 1000, 940 }, new long[] { 1000, 1000, 1000 });
    assertEquals(String.format(Locale.ROOT, "%.4f [%.4f, %.4f]", e.estimate(), e.low(), e.high()),
      TimelineLatencyScenario.withinShare(List.of(a, b, idle, c)));
    assertTrue(e.low() > 0 && e.high() < 1);
    assertEquals("-", TimelineLatencyScenario.withinShare(List.of(idle)));
  }

  private static TimelineLatencyScenario.Run run(long reads, long within) {
    TimelineLatencyScenario.Run r = new TimelineLatencyScenario.Run();
    r.reads = reads;
    r.within50ms = within;
    return r;
  }
}
