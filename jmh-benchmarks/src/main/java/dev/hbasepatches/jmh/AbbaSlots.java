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
package dev.hbasepatches.jmh;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The per-iteration counters of a two-mode toggle benchmark ({@link AbbaSchedule}): operations
 * done in an A iteration ({@code aReads}) or a B iteration ({@code bReads}), so exactly one of
 * them is above zero per iteration, and the iteration's process CPU ({@code cpuNanos}, read at
 * each end of the iteration as {@link IterationCpu} does; JMH reports only the counters a class
 * declares itself, so this class cannot inherit them). The counter names are the ones the report
 * tool {@code AbbaPairs} reads. Take it as a {@code @Benchmark} method parameter and call
 * {@link #count} once per operation.
 */
@AuxCounters(AuxCounters.Type.OPERATIONS)
@State(Scope.Thread)
public class AbbaSlots {
  /** Operations completed in an A iteration. */
  public long aReads;
  /** Operations completed in a B iteration. */
  public long bReads;
  /** Process CPU time of the iteration, all threads. */
  public long cpuNanos;
  /**
   * Bytes the benchmark thread allocated in the iteration (JMH reports it per second, like the
   * operation counts, so allocBytes / aReads is bytes per operation of an A iteration).
   */
  public long allocBytes;
  private long cpuStart;
  private long allocStart;

  @Setup(Level.Iteration)
  public void reset() {
    aReads = 0;
    bReads = 0;
    cpuNanos = 0;
    allocBytes = 0;
    cpuStart = CpuTime.processNanos();
    allocStart = CpuTime.threadAllocatedBytes();
  }

  @TearDown(Level.Iteration)
  public void stop() {
    cpuNanos = CpuTime.processNanos() - cpuStart;
    allocBytes = CpuTime.threadAllocatedBytes() - allocStart;
  }

  /** Counts one operation in the slot of the running iteration. */
  public void count(boolean inB) {
    if (inB) {
      bReads++;
    } else {
      aReads++;
    }
  }
}
