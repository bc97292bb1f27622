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
 * The process CPU time of each iteration (all of the JVM's threads, GC and JIT included), as the
 * JMH counter {@code cpuNanos}, from which the report and {@code paired-forks.sh --cpu cpuNanos}
 * derive work per CPU second: on a shared machine a fork that waits for a core scores low per
 * wall second but not per CPU second. The clock is read once at each end of the iteration, not
 * per call. Take it as a {@code @Benchmark} method parameter.
 */
@AuxCounters(AuxCounters.Type.OPERATIONS)
@State(Scope.Thread)
public class IterationCpu {
  public long cpuNanos;
  private long cpuStart;

  @Setup(Level.Iteration)
  public void reset() {
    cpuNanos = 0;
    cpuStart = CpuTime.processNanos();
  }

  @TearDown(Level.Iteration)
  public void stop() {
    cpuNanos = CpuTime.processNanos() - cpuStart;
  }
}
