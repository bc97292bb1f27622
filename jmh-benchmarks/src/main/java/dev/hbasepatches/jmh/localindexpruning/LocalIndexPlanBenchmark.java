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
package dev.hbasepatches.jmh.localindexpruning;

import dev.hbasepatches.jmh.IterationCpu;
import dev.hbasepatches.jmh.HBaseBenchmark;
import dev.hbasepatches.localindex.LocalIndexQueryExecutor;
import java.sql.SQLException;
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

/**
 * The planning cost of a LOCAL index query alone: compile, let Phoenix pick the index, and plan
 * its scans (which regions to ask), with no cluster and no rows read. Phoenix's connectionless
 * mode ({@code jdbc:phoenix:none}) plans against the table's SPLIT ON points, so a table of
 * {@link #regions} regions costs nothing but its metadata.
 * <p>
 * The table is {@code (K CHAR(8), ID INTEGER)} with a local index on {@code V1}; shapes:
 * <ul>
 * <li>{@code point}: {@code K = ?} on the pk prefix, one region to ask (PHOENIX-5096's case);</li>
 * <li>{@code inList}: {@code K IN} ten keys spread over the table, ten regions;</li>
 * <li>{@code noPrefix}: the index predicate only, every region in every mode (what PATCHED's
 * extra work costs when nothing can be pruned).</li>
 * </ul>
 * BASELINE asks every region, UPSTREAM is Phoenix 5.2.1's walk over each region in the range,
 * PATCHED this module's binary searches. Statistics parallelization is off on the table, as
 * PATCHED requires.
 * <p>
 * Two measured ops: {@link #plan} is the whole planning a client pays per query (compile,
 * optimize, plan scans), whose compile and optimize steps are the same work in every mode;
 * {@link #select} is the region selection alone, Phoenix's {@code getParallelScans} on the plan
 * compiled once in set-up, with the mode's scan grouper (the step this change replaces, and what
 * the "at 10,000 regions" target is about).
 * <p>
 * The score is plans per second; {@code cpuNanos} (the JVM's CPU time over the iteration) gives
 * plans per CPU second, the steadier number on a shared machine
 * ({@code dev-support/paired-forks.sh --cpu cpuNanos}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
// Short for the quick -Pjmh run; quoted numbers come from paired forks with their own settings
// (results/ in the module).
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 3, time = 1)
public class LocalIndexPlanBenchmark extends HBaseBenchmark {

  @Param({ "100", "1000", "10000", "100000" })
  public int regions;

  @Param({ "BASELINE", "PATCHED", "UPSTREAM" })
  public Mode mode;

  /** noPrefix is left out of the default grid (pass -p shape=noPrefix): no mode prunes it. */
  @Param({ "point", "inList" })
  public String shape;

  private LocalIndexQuery query;
  private LocalIndexQueryExecutor executor;
  private LocalIndexQueryExecutor.Planned compiled;

  @Setup(Level.Trial)
  public void setUp() throws SQLException {
    query = LocalIndexQuery.open(regions, shape);
    executor = LocalIndexQuery.executor(mode);
    int asked = plan(null);
    compiled = executor.planScans(query.statement);
    if (select(null) != asked) {
      throw new IllegalStateException(mode + " " + shape + ": planning the compiled plan again "
        + "asked " + select(null) + " regions, a fresh plan " + asked);
    }
    query.checkAsked(mode, asked);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws SQLException {
    if (query != null) {
      query.close();
    }
  }

  /** Plans the query; returns how many scans it plans, so nothing is optimized away. */
  @Benchmark
  public int plan(IterationCpu cpu) throws SQLException {
    return LocalIndexQuery.scans(executor.planScans(query.statement));
  }

  /** Plans the scans of the plan compiled in set-up again: the region selection step alone. */
  @Benchmark
  public int select(IterationCpu cpu) throws SQLException {
    return LocalIndexQuery.scans(compiled.replanScans());
  }
}
