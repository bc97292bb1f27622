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

import dev.hbasepatches.jmh.IterationCpu;
import dev.hbasepatches.jmh.HBaseBenchmark;
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
 * The off-heap read path (HBASE-11425): two standalone regions (64 KB blocks, NONE encoding)
 * share one block cache built by HBase's factory from each mode's keys; reads go through a
 * RegionScanner, cells are encoded into a reused direct buffer, then {@code shipped()} and close,
 * as the RPC layer does. {@code multiGet}: 100 random rows, one scanner each; {@code scan}: 100
 * consecutive rows; {@code churn}: multiGet on a cache a third the data's size (inserts on every
 * miss). Run with {@code -t 1} and {@code -t 2}, and {@code -prof gc}. Every trial ends by
 * checking that no block reference was leaked (PATCHED/BASELINE: every entry back at count 1).
 * <p>
 * {@code java -jar benchmarks.jar OffHeapReadBenchmark -prof gc -t 2 -p workload=multiGet}
 */
@State(Scope.Benchmark)
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 4, time = 2)
public class OffHeapReadBenchmark extends HBaseBenchmark {

  @Param({ "BASELINE", "PATCHED", "UPSTREAM" })
  public Mode mode;

  @Param({ "multiGet", "scan", "churn" })
  public String workload;

  @Param({ "100", "1000" })
  public int valueSize;

  /**
   * The churn L2's size in MB; 0 (the default): 3/8 of the data (6 MB). A diagnostic knob, to
   * compare caches at the memory another one actually used.
   */
  @Param({ "0" })
  public int churnL2Mb;

  /**
   * Churn's memory for UPSTREAM. {@code total} (the default): BucketCache's heap queue counts
   * into the L2 budget: its writer queues hold one block each (HBase's default three writers) and
   * its configured size is the budget less the most those writers can hold on the heap (a queued
   * and a drained block each, {@value OffHeapFixture#QUEUED_BLOCK_BOUND} bytes apiece), so
   * buckets plus queue never exceed the budget ours gets. {@code configured}: HBase's default
   * queues (3 x 64 blocks, up to ~13 MB on the heap beyond the configured size).
   */
  @Param({ "total" })
  public String churnMemory;

  private OffHeapFixture fixture;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    fixture = OffHeapFixture.open("offheap", mode, workload, valueSize, churnL2Mb, churnMemory);
  }

  /** Samples the L2's capacity at the end of each iteration ({@link OffHeapFixture}). */
  @TearDown(Level.Iteration)
  public void sampleCapacity() {
    fixture.sampleCapacity();
  }

  /** Closes the regions and fails the trial if a block reference leaked. */
  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    if (fixture != null) {
      System.out.println("\n" + fixture.close());
      fixture = null;
    }
  }

  /** Per thread: its random rows and the reused direct buffer the cells are encoded into. */
  @State(Scope.Thread)
  public static class Reader {
    final Random rnd = new Random(Thread.currentThread().getId());
    final ByteBuffer out = ByteBuffer.allocateDirect(1 << 20);
    final List<Cell> cells = new ArrayList<>();
  }

  @Benchmark
  public long read(Reader t, IterationCpu cpu) throws IOException {
    return fixture.read(t.rnd, t.out, t.cells);
  }
}
