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
package dev.hbasepatches.jmh.offheapread;

import dev.hbasepatches.jmh.AbbaSlots;
import dev.hbasepatches.jmh.AbbaToggleBenchmark;
import dev.hbasepatches.jmh.SideLines;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.Cell;
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

/**
 * {@link OffHeapReadBenchmark}'s reads with two modes in one fork: each slot has its own block
 * cache and two regions, built for mode {@link #a} and mode {@link #b} as that benchmark builds
 * them ({@link OffHeapFixture}, the same data from the same seed), and the iterations read one or
 * the other in blocks of four, A B B A ({@link AbbaSchedule}), counted per slot in
 * {@link AbbaSlots}. The report tool {@code dev.hbasepatches.jmh.report.AbbaPairs} turns each
 * block into one ratio B / A (above 1: B reads more per second), each fork into the geometric
 * mean of its blocks, and the forks into a 95% interval (the fork is the unit: run five or more).
 * <p>
 * Runs with JMH threads ({@code -t 2}): the caches and regions are shared, each thread has its
 * own rows and reused buffer ({@link OffHeapReadBenchmark.Reader}) and its own counters, and
 * every thread reads the same slot in an iteration. With two threads {@code cpuNanos} is the
 * process CPU counted once per thread (both slots alike, so B / A per CPU second holds).
 * <p>
 * Set-up refuses to run unless both slots hold the same cells and the same reads (three of the
 * workload's, from the same random rows) return the same bytes; tear-down fails the trial if a
 * block reference leaked in either cache, as {@link OffHeapReadBenchmark}'s does. Churn runs
 * with that benchmark's default memory ({@code churnL2Mb=0}, {@code churnMemory=total}).
 * <p>
 * Not in the quick {@code -Pjmh} run. E.g. {@code java -jar benchmarks.jar OffHeapToggleBenchmark
 * -p a=BASELINE -p b=PATCHED -p workload=multiGet -p valueSize=100 -t 2 -f 5 -rf json
 * -rff t.json}, then {@code java -cp benchmarks.jar dev.hbasepatches.jmh.report.AbbaPairs
 * t.json}. {@code a} = {@code b} is the control.
 */
@State(Scope.Benchmark)
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
// Warmup alternates too (three whole blocks); six measured blocks per fork.
@Warmup(iterations = 12, time = 1)
@Measurement(iterations = 24, time = 1)
public class OffHeapToggleBenchmark extends AbbaToggleBenchmark {




  @Param({ "multiGet", "scan", "churn" })
  public String workload;

  @Param({ "100", "1000" })
  public int valueSize;

  /** Reads compared between the slots at set-up. */
  static final int CHECKED_READS = 3;

  private Mode modeA;
  private Mode modeB;
  private OffHeapFixture fixtureA;
  private OffHeapFixture fixtureB;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    startBlocks();
    modeA = Mode.parse("a", a);
    modeB = Mode.parse("b", b);
    OffHeapFixture.checkParams(workload, "total");
    try {
      fixtureA = OffHeapFixture.open("offheap_a", modeA, workload, valueSize, 0, "total");
      fixtureB = OffHeapFixture.open("offheap_b", modeB, workload, valueSize, 0, "total");
      long cellsA = fixtureA.cellCount();
      long cellsB = fixtureB.cellCount();
      if (cellsA != cellsB || cellsA == 0) {
        throw new IllegalStateException(workload + "/" + valueSize + ": " + modeA + "'s regions"
          + " hold " + cellsA + " cells, " + modeB + "'s " + cellsB);
      }
      ByteBuffer out = ByteBuffer.allocateDirect(1 << 20);
      List<Cell> cells = new ArrayList<>();
      for (int seed = 1; seed <= CHECKED_READS; seed++) {
        long bytesA = fixtureA.read(new Random(seed), out, cells);
        long bytesB = fixtureB.read(new Random(seed), out, cells);
        if (bytesA != bytesB || bytesA == 0) {
          throw new IllegalStateException(workload + "/" + valueSize + ": the same " + workload
            + " read returned " + bytesA + " bytes from " + modeA + ", " + bytesB + " from "
            + modeB);
        }
      }
      SideLines.print("A: " + fixtureA, "B: " + fixtureB, "both hold " + cellsA
        + " cells and return the same bytes for the same reads");
    } catch (IOException | RuntimeException e) {
      try {
        tearDown();
      } catch (IOException | RuntimeException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }

  /** Closes both slots' regions and caches; fails the trial if a block reference leaked. */
  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    try {
      if (fixtureA != null) {
        System.out.println();
        SideLines.print("A " + fixtureA.close());
        fixtureA = null;
      }
    } finally {
      if (fixtureB != null) {
        SideLines.print("B " + fixtureB.close());
        fixtureB = null;
      }
    }
  }

  /** Samples the L2 capacity of the slot the iteration read. */
  @TearDown(Level.Iteration)
  public void sampleCapacity() {
    (inB ? fixtureB : fixtureA).sampleCapacity();
  }

  /** The mode the running iteration reads. */
  Mode slotMode() {
    return inB ? modeB : modeA;
  }

  @Benchmark
  public long read(OffHeapReadBenchmark.Reader t, AbbaSlots slots) throws IOException {
    long bytes = (inB ? fixtureB : fixtureA).read(t.rnd, t.out, t.cells);
    slots.count(inB);
    return bytes;
  }
}
