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
package dev.hbasepatches.jmh.seekskip;

import dev.hbasepatches.jmh.AbbaSchedule;
import dev.hbasepatches.jmh.AbbaSlots;
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
 * Two modes in one fork: the same shape loaded into two regions, one in mode {@link #a}, one in
 * mode {@link #b}, and the iterations scanning one or the other in blocks of four, A B B A. The
 * report tool {@code dev.hbasepatches.jmh.report.AbbaPairs} turns each block into one ratio
 * B / A, each fork into the geometric mean of its blocks, and summarises the forks (the fork is
 * the unit: run five or more).
 * <p>
 * Why: on the project's 2-vCPU VM a single fork of {@link SeekSkipScanBenchmark} can run at
 * one level (about 20 scans/s on deletedColumns/4) and drop to another (12) for some seconds
 * and come back, in every mode; with one fork per mode, a pair of forks compares those levels as
 * much as the modes. Here both modes share the fork, its heap, its compiled code and whatever the
 * host does to it in the same seconds; a level change inside a block moves A and B alike.
 * <p>
 * What it does not show: each mode alone in its JVM. Both regions run through the same HBase
 * methods here, so their call sites see both scanner classes (stock {@code StoreScanner} and
 * the module's subclass) where a server with one mode would see one. {@link SeekSkipScanBenchmark}
 * measures each mode alone; the two answer different questions and the PATCH.md gives both.
 * <p>
 * With {@code a} and {@code b} the same mode (two regions of the same mode) it is its own
 * control: what B / A reads when nothing differs but the region.
 * <p>
 * Not in the quick {@code -Pjmh} run (its three iterations make no block). Run it with its own
 * warmup and iteration counts (not {@code dev-support/jmh.sh}'s, whose ten measured iterations
 * make two blocks), e.g. {@code java -jar benchmarks.jar SeekSkipToggleBenchmark
 * -p shape=deletedColumns -p files=4 -f 5 -rf json -rff toggle.json}, then {@code java -cp
 * benchmarks.jar dev.hbasepatches.jmh.report.AbbaPairs toggle.json}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
// Warmup alternates too, so that both regions' scanners are compiled and profiled before the
// first measured block; 24 s is past the 10-20 s C2 takes on this stack on 2 cores.
@Warmup(iterations = 24, time = 1)
@Measurement(iterations = 40, time = 1)
public class SeekSkipToggleBenchmark extends ShapeParams {

  /** The mode of slot A: the reference of the ratio B / A. */
  @Param({ "UPSTREAM" })
  public Mode a;

  /** The mode of slot B. */
  @Param({ "PATCHED" })
  public Mode b;

  /**
   * {@code ABBA}: every block A B B A; {@code alternate}: A B B A, then B A A B, and so on, so
   * that neither slot always has the middle of a block.
   */
  @Param({ "ABBA" })
  public String order;

  private ShapeRegion regionA;
  private ShapeRegion regionB;
  private AbbaSchedule schedule;
  /** The slot of the running iteration. */
  private boolean inB;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    schedule = new AbbaSchedule(order);
    regionA = openRegion(a);
    try {
      regionB = openRegion(b);
    } catch (IOException | RuntimeException e) {
      // A failed set-up leaves no region open behind it, whether or not tearDown runs.
      regionA.close();
      regionA = null;
      throw e;
    }
    long returnedA = regionA.scan(batch -> { });
    long returnedB = regionB.scan(batch -> { });
    if (returnedA != returnedB) {
      throw new IllegalStateException(shape + "/" + files + ": " + a + " returned " + returnedA
        + " cells, " + b + " returned " + returnedB);
    }
    System.out.println("# " + regionA.data() + " A=" + a + " B=" + b + " returnedCells="
      + returnedA);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    try {
      if (regionA != null) {
        regionA.close();
      }
    } finally {
      if (regionB != null) {
        regionB.close();
      }
    }
  }

  /** Picks this iteration's slot: A B B A (mirrored every other block with {@code alternate}). */
  @Setup(Level.Iteration)
  public void pickSlot(IterationParams iteration) {
    inB = schedule.nextIsB(iteration);
  }

  /** The mode the running iteration scans. */
  Mode slotMode() {
    return inB ? b : a;
  }

  @Benchmark
  public long scan(Blackhole bh, AbbaSlots slots) throws IOException {
    long returned = (inB ? regionB : regionA).scan(bh::consume);
    slots.count(inB);
    return returned;
  }
}
