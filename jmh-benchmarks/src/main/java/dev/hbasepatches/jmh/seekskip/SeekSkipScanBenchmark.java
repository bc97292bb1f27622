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

import dev.hbasepatches.jmh.CpuTime;
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
 * Full scans of a real HRegion, block cache warm, for each of HBASE-13109's data shapes. The
 * {@code cells} counter is the score: stored cells (delete markers included) the scan crossed per
 * second. The primary metric is whole scans per second, proportional to it within a case.
 */
@State(Scope.Benchmark)
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
// The annotations are the quick -Pjmh profile's settings (it passes only -f, -i and -r);
// dev-support/jmh.sh (20 s) and PATCH.md runs pass their own. On a 2-core
// machine C2 needs 10-20 s to compile the scanner stack (PATCHED read 5-7 scans/s in its first
// 10 s and 13-15 once compiled), and a 1 s warmup measures the JIT's progress, not the modes;
// the profile's 6 s is what its 20-minute budget allows, not a steady state there.
@Warmup(iterations = 6, time = 1)
@Measurement(iterations = 5, time = 2)
public class SeekSkipScanBenchmark extends ShapeParams {

  @Param({ "BASELINE", "PATCHED", "UPSTREAM" })
  public Mode mode;

  private ShapeRegion region;
  private long storedCells;

  @AuxCounters(AuxCounters.Type.OPERATIONS)
  @State(Scope.Thread)
  public static class CellsScanned {
    public long cells;
    public long cpuNanos;

    @Setup(Level.Iteration)
    public void reset() {
      cells = 0;
      cpuNanos = 0;
    }
  }

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    region = openRegion(mode);
    storedCells = region.storedCells();
    long returned = scanOnce(null);
    System.out.println("# " + region.data() + " mode=" + mode + " returnedCells=" + returned);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    if (region != null) {
      region.close();
    }
  }

  private long scanOnce(Blackhole bh) throws IOException {
    return region.scan(bh == null ? batch -> { } : bh::consume);
  }

  @Benchmark
  public long scan(Blackhole bh, CellsScanned counter) throws IOException {
    long cpuStart = CpuTime.processNanos();
    long returned = scanOnce(bh);
    counter.cpuNanos += CpuTime.processNanos() - cpuStart;
    counter.cells += storedCells;
    return returned;
  }
}
