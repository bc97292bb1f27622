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

import dev.hbasepatches.jmh.CpuTime;
import dev.hbasepatches.jmh.HBaseBenchmark;
import dev.hbasepatches.rowindex.RowIndexInstaller;
import dev.hbasepatches.rowindex.SeedTableData;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
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

/**
 * The seed's reads (HBASE-16213) on a real HRegion holding the seed's table (int pk, two floats,
 * one int, Phoenix's empty column; 64 KB blocks, one HFile after the flush):
 * <ul>
 * <li>{@code randomGet}: one Get of a random existing row (an op is one Get);</li>
 * <li>{@code reverseScan100}: {@code ORDER BY pk DESC LIMIT 100} from a random row (an op is one
 * 100-row reverse scan);</li>
 * <li>{@code fullScan}: every cell, forward (an op is one whole scan);</li>
 * <li>{@code countDeleted999}: {@code COUNT(*)} (first key only) after 99.9% of the rows were
 * deleted with row markers flushed into a second file, not compacted;</li>
 * <li>{@code reverseScanDeleted999}: {@code ORDER BY pk DESC LIMIT 100} from the end over the
 * same deleted data.</li>
 * </ul>
 * {@code mode}: BASELINE is the {@code baseline} encoding (NONE, PREFIX or FAST_DIFF), UPSTREAM is
 * ROW_INDEX_V1 with HBase's codec, PATCHED is ROW_INDEX_V1 with {@code RowIndexEncoder}
 * installed for this fork's JVM (setup installs or takes it back per trial, so a fork never
 * measures the wrong one). {@code cache}: {@code cached} reads a warmed on-heap block cache;
 * {@code files} runs with no block cache, so every block is read and decoded from the HFile each
 * time (through the OS page cache, not the disk). The score is ops/s; the {@code cells} counter
 * is cells returned per second, the same unit in every case.
 */
@State(Scope.Benchmark)
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
// The annotations are the quick -Pjmh profile's settings (it passes only -f, -i and -r);
// dev-support/jmh.sh (20 s) and PATCH.md runs pass their own. On a 2-core
// machine a full scan runs at half speed for its first 10-12 s while C2 compiles the read path,
// and a 1 s warmup measures the JIT, not the encoders; the profile's 6 s is what its
// 20-minute budget allows, not a steady state there.
@Warmup(iterations = 6, time = 1)
@Measurement(iterations = 5, time = 2)
public class RegionReadBenchmark extends HBaseBenchmark {

  @Param({ "BASELINE", "PATCHED", "UPSTREAM" })
  public Mode mode;

  /** The encoding BASELINE runs; PATCHED and UPSTREAM ignore it. */
  @Param({ "NONE" })
  public String baseline;

  @Param({ "randomGet", "reverseScan100", "fullScan", "countDeleted999",
    "reverseScanDeleted999" })
  public String workload;

  @Param({ "cached", "files" })
  public String cache;

  /** Rows of the seed's table (four cells each); the seed used 4M, the full run 500k. */
  @Param({ "100000" })
  public int rows;

  @Param({ "42" })
  public long seed;

  private RegionReadWorkload reads;

  /**
   * Cells returned, reported by JMH per second beside the op rate, and the process CPU time of the
   * iteration, from which the report derives cells per CPU second. The CPU clock is read once per
   * iteration, not per call: a Get takes microseconds, and two clock reads per Get would be part
   * of what is measured.
   */
  @AuxCounters(AuxCounters.Type.OPERATIONS)
  @State(Scope.Thread)
  public static class Returned {
    public long cells;
    public long cpuNanos;
    private long cpuStart;

    @Setup(Level.Iteration)
    public void reset() {
      cells = 0;
      cpuNanos = 0;
      cpuStart = CpuTime.processNanos();
    }

    @TearDown(Level.Iteration)
    public void stop() {
      cpuNanos = CpuTime.processNanos() - cpuStart;
    }
  }

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    long start = System.nanoTime();
    reads = RegionReadWorkload.open("rowindex_" + workload, mode, baseline, workload, cache, rows,
      seed);
    long returned = reads.runOnce(x -> { });
    System.out.printf("# %s %s mode=%s rows=%d files=%d returnedCells=%d setup=%.1fs%n",
      workload, cache, mode, rows, reads.region().storeFileCount(SeedTableData.FAMILY), returned,
      (System.nanoTime() - start) / 1e9);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    try {
      if (reads != null) {
        reads.close();
      }
    } finally {
      RowIndexInstaller.uninstall();
    }
  }

  @Benchmark
  public long read(Blackhole bh, Returned counter) throws IOException {
    long n = reads.runOnce(bh::consume);
    counter.cells += n;
    return n;
  }
}
