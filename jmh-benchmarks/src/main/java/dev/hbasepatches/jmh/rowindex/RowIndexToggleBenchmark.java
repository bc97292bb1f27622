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
package dev.hbasepatches.jmh.rowindex;

import dev.hbasepatches.jmh.AbbaSchedule;
import dev.hbasepatches.jmh.AbbaSlots;
import dev.hbasepatches.jmh.HBaseBenchmark;
import dev.hbasepatches.rowindex.RowIndexInstaller;
import dev.hbasepatches.rowindex.SeedTableData;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;
import org.openjdk.jmh.infra.IterationParams;

/**
 * {@link RegionReadBenchmark}'s reads with two modes in one fork: one region per mode (the same
 * seed's table), the iterations reading one or the other in blocks of four, A B B A, with the
 * slot's ROW_INDEX_V1 encoder selected at each iteration's start (ours for PATCHED, HBase's
 * otherwise; the swap is checked). {@code dev.hbasepatches.jmh.report.AbbaPairs} turns each block
 * into one ratio B / A and summarises the forks (the fork is the unit: run five or more).
 * <p>
 * Why: region reads of one mode per fork spread by 10-20% from fork to fork on the project's
 * 2-vCPU VM, wider than the 5% the row-index targets need to tell apart; here both modes share
 * the fork, its heap, compiled code and whatever the host does in the same seconds. What it does
 * not show: each mode alone in its JVM (HBase's read path sees both seekers' classes here).
 * {@code a} = {@code b} is the control.
 * <p>
 * Not in the quick {@code -Pjmh} run. E.g. {@code java -jar benchmarks.jar RowIndexToggleBenchmark
 * -p a=UPSTREAM -p b=PATCHED -p workload=fullScan -p cache=cached -f 5 -rf json -rff t.json},
 * then {@code java -cp benchmarks.jar dev.hbasepatches.jmh.report.AbbaPairs t.json}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
// Warmup alternates too, so both regions' read paths are compiled before the first measured
// block; 16 s is past the 10-12 s C2 takes on a full scan here.
@Warmup(iterations = 16, time = 1)
@Measurement(iterations = 32, time = 1)
public class RowIndexToggleBenchmark extends HBaseBenchmark {

  /** The mode of slot A: the reference of the ratio B / A. */
  @Param({ "UPSTREAM" })
  public Mode a;

  @Param({ "PATCHED" })
  public Mode b;

  /** The encoding BASELINE runs (NONE, PREFIX, DIFF or FAST_DIFF). */
  @Param({ "NONE" })
  public String baseline;

  @Param({ "randomGet", "reverseScan100", "fullScan", "countDeleted999",
    "reverseScanDeleted999" })
  public String workload;

  @Param({ "cached", "files" })
  public String cache;

  @Param({ "100000" })
  public int rows;

  @Param({ "42" })
  public long seed;

  private RegionReadWorkload regionA;
  private RegionReadWorkload regionB;
  private AbbaSchedule schedule;
  private boolean inB;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    regionA = RegionReadWorkload.open("rowindex_a_" + workload, a, baseline, workload, cache,
      rows, seed);
    try {
      regionB = RegionReadWorkload.open("rowindex_b_" + workload, b, baseline, workload, cache,
        rows, seed);
      RegionReadWorkload.select(a);
      long returnedA = regionA.runOnce(x -> { });
      RegionReadWorkload.select(b);
      long returnedB = regionB.runOnce(x -> { });
      if (returnedA != returnedB) {
        throw new IllegalStateException(workload + ": " + a + " returned " + returnedA
          + " cells, " + b + " returned " + returnedB);
      }
      System.out.printf("# %s %s A=%s B=%s rows=%d files=%d returnedCells=%d%n", workload, cache,
        a, b, rows, regionA.region().storeFileCount(SeedTableData.FAMILY), returnedA);
    } catch (IOException | RuntimeException e) {
      tearDown();
      throw e;
    }
    schedule = new AbbaSchedule("ABBA");
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    try {
      if (regionA != null) {
        regionA.close();
        regionA = null;
      }
    } finally {
      try {
        if (regionB != null) {
          regionB.close();
          regionB = null;
        }
      } finally {
        RowIndexInstaller.uninstall();
      }
    }
  }

  /** Picks this iteration's slot, A B B A, and selects its mode's encoder. */
  @Setup(Level.Iteration)
  public void pickSlot(IterationParams iteration) {
    inB = schedule.nextIsB(iteration);
    RegionReadWorkload.select(slotMode());
  }

  /** The mode the running iteration reads. */
  Mode slotMode() {
    return inB ? b : a;
  }

  @Benchmark
  public long read(Blackhole bh, AbbaSlots slots) throws IOException {
    long returned = (inB ? regionB : regionA).runOnce(bh::consume);
    slots.count(inB);
    return returned;
  }
}
