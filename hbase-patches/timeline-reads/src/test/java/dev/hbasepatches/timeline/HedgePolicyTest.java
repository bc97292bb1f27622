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

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ServerName;
import org.junit.Test;

public class HedgePolicyTest {

  private static final long MS = 1_000_000L;
  private static final ServerName A = ServerName.valueOf("a.example", 16020, 1);
  private static final ServerName B = ServerName.valueOf("b.example", 16020, 1);
  private static final ServerName C = ServerName.valueOf("c.example", 16020, 1);

  private static HedgePolicy policy(String... kv) {
    Configuration conf = new Configuration(false);
    for (int i = 0; i < kv.length; i += 2) {
      conf.set(kv[i], kv[i + 1]);
    }
    return new HedgePolicy(TimelineSettings.from(conf));
  }

  @Test
  public void withNothingKnownThePrimaryGoesFirstAndTheDelayIsTheMaximum() {
    ReadPlan p = policy().plan(new ServerName[] { A, B, C }, 0);
    assertArrayEquals(new int[] { 0, 1, 2 }, p.order);
    assertEquals(10 * MS, p.delayNanos);
    assertEquals(ReadPlan.NO_REROUTE, p.reroute);
  }

  @Test
  public void theDelayFollowsThePrimarysQuantileInsideTheClamp() {
    HedgePolicy p = policy();
    for (int i = 0; i < 100; i++) {
      p.answered(A, 0, 3 * MS);
    }
    long d = p.plan(new ServerName[] { A, B, C }, 0).delayNanos;
    assertTrue("delay " + d, d >= 3 * MS && d <= 3.8 * MS);

    HedgePolicy fast = policy();
    for (int i = 0; i < 100; i++) {
      fast.answered(A, 0, 100_000); // 0.1 ms
    }
    assertEquals(1 * MS, fast.plan(new ServerName[] { A, B, C }, 0).delayNanos);

    HedgePolicy slow = policy();
    for (int i = 0; i < 100; i++) {
      slow.answered(A, 0, 40 * MS);
    }
    assertEquals(10 * MS, slow.plan(new ServerName[] { A, B, C }, 0).delayNanos);
  }

  @Test
  public void theClampIsConfigurable() {
    HedgePolicy p = policy(TimelineSettings.DELAY_MIN_MS, "0.5", TimelineSettings.DELAY_MAX_MS,
      "4");
    for (int i = 0; i < 100; i++) {
      p.answered(A, 0, 20 * MS);
    }
    assertEquals(4 * MS, p.plan(new ServerName[] { A, B }, 0).delayNanos);
  }

  @Test
  public void theSecondaryWithTheBestRecentLatencyIsHedgedFirst() {
    HedgePolicy p = policy();
    for (int i = 0; i < 50; i++) {
      p.answered(B, 1, 6 * MS);
      p.answered(C, 2, 2 * MS);
    }
    assertArrayEquals(new int[] { 0, 2, 1 }, p.plan(new ServerName[] { A, B, C }, 0).order);
    // a server's latency as a primary does not count for it as a secondary
    for (int i = 0; i < 50; i++) {
      p.answered(C, 0, 100 * MS);
    }
    assertArrayEquals(new int[] { 0, 2, 1 }, p.plan(new ServerName[] { A, B, C }, 0).order);
  }

  @Test
  public void aSecondaryNeverMeasuredRanksFirstSoEveryReplicaGetsMeasured() {
    HedgePolicy p = policy();
    for (int i = 0; i < 50; i++) {
      p.answered(B, 1, 1 * MS);
    }
    assertArrayEquals(new int[] { 0, 2, 1 }, p.plan(new ServerName[] { A, B, C }, 0).order);
  }

  @Test
  public void aPrimaryThatKeepsLosingIsAskedAfterTheBestSecondary() {
    HedgePolicy p = policy(TimelineSettings.DEMOTE_MIN_READS, "10");
    for (int i = 0; i < 50; i++) {
      p.answered(C, 1, 2 * MS);
      p.answered(B, 2, 3 * MS);
    }
    for (int i = 0; i < 10; i++) {
      p.primaryOutcome(A, true, 11 * MS, i * MS, false);
    }
    ReadPlan plan = p.plan(new ServerName[] { A, C, B }, 20 * MS);
    assertArrayEquals(new int[] { 1, 0, 2 }, plan.order);
    assertEquals(ReadPlan.DEMOTED, plan.reroute);
    // the wait before the primary is learned from the secondary asked first
    assertTrue("delay " + plan.delayNanos, plan.delayNanos >= 2 * MS && plan.delayNanos < 3 * MS);
    // the demotion ends after its period (5 s by default)
    assertEquals(ReadPlan.NO_REROUTE, p.plan(new ServerName[] { A, C, B }, 6000 * MS).reroute);
  }

  @Test
  public void aLatePrimaryInsideTheClampStaysFirst() {
    HedgePolicy p = policy(TimelineSettings.DEMOTE_MIN_READS, "10");
    for (int i = 0; i < 10; i++) {
      p.answered(A, 0, 8 * MS); // a busy client: late against a 1-8 ms delay, inside the clamp
      p.primaryOutcome(A, true, 8 * MS, i * MS, true);
    }
    assertEquals(ReadPlan.NO_REROUTE, p.plan(new ServerName[] { A, C, B }, 20 * MS).reroute);
  }

  @Test
  public void aUniformlySlowPrimaryIsDemotedWithoutLosingARace() {
    HedgePolicy p = policy(TimelineSettings.DEMOTE_MIN_READS, "10");
    for (int i = 0; i < 10; i++) {
      p.answered(A, 0, 25 * MS); // the budget held every hedge back: it answered, late
      p.primaryOutcome(A, true, 25 * MS, i * MS, true);
    }
    assertEquals(ReadPlan.DEMOTED, p.plan(new ServerName[] { A, C, B }, 20 * MS).reroute);
  }

  @Test
  public void occasionalLossesKeepThePrimaryFirst() {
    HedgePolicy p = policy();
    for (int i = 0; i < 1000; i++) {
      p.primaryOutcome(A, i % 33 == 0, 2 * MS, i * MS, true);
    }
    assertEquals(ReadPlan.NO_REROUTE, p.plan(new ServerName[] { A, B, C }, 1000 * MS).reroute);
  }

  @Test
  public void anUnknownPrimaryLocationSendsTheReadToASecondaryAtOnce() {
    HedgePolicy p = policy();
    for (int i = 0; i < 50; i++) {
      p.answered(B, 1, 5 * MS);
      p.answered(C, 2, 1 * MS);
    }
    ReadPlan plan = p.plan(new ServerName[] { null, B, C }, 0);
    assertArrayEquals(new int[] { 2, 1, 0 }, plan.order);
    assertEquals(ReadPlan.PRIMARY_UNKNOWN, plan.reroute);
    assertArrayEquals(new int[] { 0, 1 }, p.plan(new ServerName[] { A, null }, 0).order);
  }

  @Test
  public void theBudgetHoldsHedgesBackUntilTheCap() {
    HedgePolicy p = policy(TimelineSettings.BUDGET_RATIO, "0.01", TimelineSettings.BUDGET_BURST,
      "2", TimelineSettings.HEDGE_CAP_MS, "50");
    ServerName[] locs = { A, B, C };
    int granted = 0;
    for (int i = 0; i < 1000; i++) {
      p.plan(locs, i);
      if (p.admitHedge(5 * MS)) {
        granted++;
      }
    }
    assertTrue("granted " + granted, granted <= 0.01 * 1000 + 2);
    assertFalse(p.admitHedge(5 * MS));
    assertTrue("past the cap a read hedges anyway", p.admitHedge(50 * MS));
  }

  @Test
  public void aRegionWithoutLocationsIsReadInReplicaOrder() {
    ReadPlan plan = policy().planUnlocated(3);
    assertArrayEquals(new int[] { 0, 1, 2 }, plan.order);
    assertEquals(10 * MS, plan.delayNanos);
  }

  /**
   * A server no plan has named for ten minutes is forgotten (a restarted RegionServer comes back
   * under a new start code, so a long-lived reader would otherwise keep every one it ever saw);
   * the servers still in use keep what they learned.
   */
  @Test
  public void serversNoLongerPlannedAreForgotten() {
    long min = 60_000 * MS;
    HedgePolicy p = policy();
    p.plan(new ServerName[] { A, B, C }, 0);
    for (int i = 0; i < 100; i++) {
      p.answered(B, 1, 3 * MS);
    }
    assertEquals(3, p.knownServers());
    ServerName restartedA = ServerName.valueOf("a.example", 16020, 2);
    p.plan(new ServerName[] { restartedA, B, C }, 5 * min);
    assertEquals("A is still remembered five minutes on", 4, p.knownServers());
    for (long t = 6 * min; t <= 11 * min; t += min) {
      p.plan(new ServerName[] { restartedA, B, C }, t);
    }
    assertEquals("A's old incarnation, unplanned for 11 minutes, is forgotten", 3,
      p.knownServers());
    assertEquals("B kept its samples", 100, p.record(B).asSecondary.size());
    for (long t = 12 * min; t <= 60 * min; t += min) {
      p.plan(new ServerName[] { restartedA, B, C }, t);
    }
    assertEquals(3, p.knownServers());
  }
}
