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
package dev.hbasepatches.jmh.timelinereads;

import dev.hbasepatches.jmh.HBaseBenchmark;
import dev.hbasepatches.timeline.HedgePolicy;
import dev.hbasepatches.timeline.ReadPlan;
import dev.hbasepatches.timeline.TimelineSettings;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.RegionLocations;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.client.RegionReplicaUtil;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * What deciding a TIMELINE read costs the client, apart from its RPCs and timers: the hedging
 * decision per read, fed a seeded stream of simulated latencies (97% around 0.8 ms, 3% paused
 * 200 ms, the fault) for a region with three replicas.
 * <ul>
 * <li>BASELINE: STRONG, nothing to decide (the primary's location is the only input).</li>
 * <li>UPSTREAM: a model of HBase 2.6.1's per-read bookkeeping in
 * {@code ConnectionUtils.timelineConsistentRead} (fixed primary timeout less the time spent
 * locating, then every secondary of the {@code RegionLocations}): our re-statement of its logic,
 * not HBase's code, which is private and wired to a live connection.</li>
 * <li>PATCHED: {@link HedgePolicy}: plan (order, delay from the quantile, demotion check, budget
 * earn), the budget's admission when the simulated primary is slower than the delay, and the
 * feedback of the winner's latency and the primary's outcome.</li>
 * </ul>
 * Run with {@code -prof gc} for bytes per read ({@code gc.alloc.rate.norm}).
 */
@State(Scope.Thread)
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
public class TimelineDecisionBenchmark extends HBaseBenchmark {

  private static final int SAMPLES = 1 << 14;
  private static final long SEED = 20261125L;

  @Param({ "BASELINE", "PATCHED", "UPSTREAM" })
  public Mode mode;

  private ServerName[] servers;
  private RegionLocations locations;
  private HedgePolicy policy;
  private long primaryCallTimeoutNs;
  private final long[] primaryNanos = new long[SAMPLES];
  private final long[] secondaryNanos = new long[SAMPLES];
  private int next;
  private long clock;

  @Setup
  public void setUp() {
    servers = new ServerName[] { ServerName.valueOf("rs1.example", 16020, 1L),
      ServerName.valueOf("rs2.example", 16020, 1L), ServerName.valueOf("rs3.example", 16020, 1L) };
    RegionInfo primary = RegionInfoBuilder.newBuilder(TableName.valueOf("t")).build();
    HRegionLocation[] locs = new HRegionLocation[3];
    for (int r = 0; r < 3; r++) {
      locs[r] = new HRegionLocation(RegionReplicaUtil.getRegionInfoForReplica(primary, r),
        servers[r]);
    }
    locations = new RegionLocations(locs);
    policy = new HedgePolicy(TimelineSettings.defaults());
    primaryCallTimeoutNs = TimeUnit.MICROSECONDS.toNanos(10_000); // HBase's default, 10 ms
    Random rnd = new Random(SEED);
    for (int i = 0; i < SAMPLES; i++) {
      double base = 800_000 * Math.exp(0.3 * rnd.nextGaussian());
      primaryNanos[i] = rnd.nextDouble() < 0.03 ? 200_000_000L : (long) base;
      secondaryNanos[i] = (long) (900_000 * Math.exp(0.3 * rnd.nextGaussian()));
    }
  }

  @Benchmark
  public void decide(Blackhole bh) {
    int i = next++ & (SAMPLES - 1);
    long primaryLatency = primaryNanos[i];
    switch (mode) {
      case BASELINE:
        bh.consume(locations.getDefaultRegionLocation());
        break;
      case UPSTREAM:
        upstream(bh, primaryLatency);
        break;
      default:
        patched(bh, primaryLatency, secondaryNanos[i]);
    }
  }

  private void upstream(Blackhole bh, long primaryLatency) {
    long startNs = System.nanoTime();
    bh.consume(locations.getDefaultRegionLocation());
    if (locations.size() <= 1) {
      return;
    }
    long delayNs = primaryCallTimeoutNs - (System.nanoTime() - startNs);
    if (primaryLatency > delayNs) {
      for (int r = 1; r < locations.size(); r++) {
        bh.consume(locations.getRegionLocation(r));
      }
    }
  }

  private void patched(Blackhole bh, long primaryLatency, long secondaryLatency) {
    clock += 1_000_000; // a read per simulated millisecond
    ReadPlan plan = policy.plan(servers, clock);
    int first = plan.order[0];
    long firstLatency = first == 0 ? primaryLatency : secondaryLatency;
    if (firstLatency > plan.delayNanos && policy.admitHedge(plan.delayNanos)) {
      int second = plan.order[1];
      long secondDone = plan.delayNanos + (second == 0 ? primaryLatency : secondaryLatency);
      if (secondDone < firstLatency) {
        policy.answered(servers[second], second, secondDone - plan.delayNanos);
        if (first == 0) {
          policy.primaryOutcome(servers[0], true, secondDone, clock, false);
        }
        bh.consume(second);
        return;
      }
    }
    policy.answered(servers[first], first, firstLatency);
    if (first == 0) {
      policy.primaryOutcome(servers[0], firstLatency > plan.delayNanos, firstLatency, clock, true);
    }
    bh.consume(first);
  }
}
