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

import dev.hbasepatches.jmh.AbbaSlots;
import dev.hbasepatches.jmh.AbbaToggleBenchmark;
import dev.hbasepatches.localindex.LocalIndexQueryExecutor;
import java.sql.SQLException;
import java.util.TreeSet;
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
 * {@link LocalIndexPlanBenchmark#select}, the region selection of a LOCAL index query, with two
 * modes in one fork: one table and query ({@link LocalIndexQuery}), its plan compiled once per
 * slot with the executor of mode {@link #a} and of mode {@link #b}, and the iterations planning
 * one or the other's scans again in blocks of four, A B B A ({@link AbbaSchedule}), counted per
 * slot in {@link AbbaSlots}. The report tool {@code dev.hbasepatches.jmh.report.AbbaPairs} turns
 * each block into one ratio B / A (above 1: B selects faster), each fork into the geometric mean
 * of its blocks, and the forks into a 95% interval (the fork is the unit: run five or more).
 * <p>
 * Set-up refuses to run unless both modes select the same regions for the query (BASELINE, which
 * prunes nothing, every region: a superset of the other's), each asks about as many regions as
 * its mode must, replanning asks what the first plan asked, and PATCHED's pruner did not fall
 * back to Phoenix's region list.
 * <p>
 * Not in the quick {@code -Pjmh} run. E.g. {@code java -jar benchmarks.jar
 * LocalIndexToggleBenchmark -p a=UPSTREAM -p b=PATCHED -p regions=10000 -p shape=inList -f 5
 * -rf json -rff t.json}, then {@code java -cp benchmarks.jar
 * dev.hbasepatches.jmh.report.AbbaPairs t.json}. {@code a} = {@code b} is the control.
 */
@State(Scope.Benchmark)
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
// Warmup alternates too (three whole blocks); six measured blocks per fork.
@Warmup(iterations = 12, time = 1)
@Measurement(iterations = 24, time = 1)
public class LocalIndexToggleBenchmark extends AbbaToggleBenchmark {




  @Param({ "100", "1000", "10000", "100000" })
  public int regions;

  /** point, inList, or noPrefix (left out of the default grid: no mode prunes it). */
  @Param({ "point", "inList" })
  public String shape;

  private Mode modeA;
  private Mode modeB;
  private LocalIndexQuery query;
  private LocalIndexQueryExecutor.Planned compiledA;
  private LocalIndexQueryExecutor.Planned compiledB;

  @Setup(Level.Trial)
  public void setUp() throws SQLException {
    startBlocks();
    modeA = Mode.parse("a", a);
    modeB = Mode.parse("b", b);
    query = LocalIndexQuery.open(regions, shape);
    try {
      compiledA = LocalIndexQuery.executor(modeA).planScans(query.statement);
      compiledB = LocalIndexQuery.executor(modeB).planScans(query.statement);
      TreeSet<String> askedA = asked(modeA, compiledA);
      TreeSet<String> askedB = asked(modeB, compiledB);
      boolean prunesA = modeA != Mode.BASELINE;
      boolean prunesB = modeB != Mode.BASELINE;
      boolean agree = prunesA == prunesB ? askedA.equals(askedB)
        : prunesA ? askedB.containsAll(askedA) : askedA.containsAll(askedB);
      if (!agree) {
        throw new IllegalStateException(shape + " over " + regions + " regions: " + modeA
          + " asked " + askedA.size() + " regions " + brief(askedA) + ", " + modeB + " asked "
          + askedB.size() + " " + brief(askedB));
      }
      System.out.printf("# %s over %d regions: A=%s asks %d regions, B=%s asks %d%n", shape,
        regions, modeA, askedA.size(), modeB, askedB.size());
    } catch (SQLException | RuntimeException e) {
      tearDown();
      throw e;
    }
  }

  /** The regions a compiled plan asks when planned again, checked against what the mode must. */
  private TreeSet<String> asked(Mode mode, LocalIndexQueryExecutor.Planned compiled)
    throws SQLException {
    if (mode == Mode.PATCHED && compiled.pruner == null) {
      throw new IllegalStateException("PATCHED " + shape + ": the plan does not scan the LOCAL "
        + "index, so nothing is pruned");
    }
    // The plan keeps the scans of its last planning: read the first before planning again.
    TreeSet<String> first = LocalIndexQuery.regionsAsked(compiled);
    LocalIndexQueryExecutor.Planned again = compiled.replanScans();
    for (LocalIndexQueryExecutor.Planned p : new LocalIndexQueryExecutor.Planned[] { compiled,
      again }) {
      if (p.pruner != null && p.pruner.fallbackReason() != null) {
        throw new IllegalStateException("PATCHED " + shape + ": the pruner fell back to "
          + "Phoenix's region list: " + p.pruner.fallbackReason());
      }
    }
    TreeSet<String> replanned = LocalIndexQuery.regionsAsked(again);
    if (!first.equals(replanned)) {
      throw new IllegalStateException(mode + " " + shape + ": planning the compiled plan again "
        + "asked " + replanned.size() + " regions, the first plan " + first.size());
    }
    query.checkAsked(mode, replanned.size());
    return replanned;
  }

  private static String brief(TreeSet<String> regions) {
    return regions.size() <= 12 ? regions.toString()
      : "[" + regions.first() + " ... " + regions.last() + "]";
  }

  @TearDown(Level.Trial)
  public void tearDown() throws SQLException {
    if (query != null) {
      query.close();
      query = null;
    }
  }

  /** The mode the running iteration selects regions with. */
  Mode slotMode() {
    return inB ? modeB : modeA;
  }

  /** Plans the scans of the slot's compiled plan again: the region selection step alone. */
  @Benchmark
  public int select(AbbaSlots slots) throws SQLException {
    int scans = LocalIndexQuery.scans((inB ? compiledB : compiledA).replanScans());
    slots.count(inB);
    return scans;
  }
}
