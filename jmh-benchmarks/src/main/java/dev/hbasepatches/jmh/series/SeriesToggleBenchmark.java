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
package dev.hbasepatches.jmh.series;

import dev.hbasepatches.jmh.AbbaSlots;
import dev.hbasepatches.jmh.AbbaToggleBenchmark;
import dev.hbasepatches.jmh.SideLines;
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
 * A change's upstream series as applied, against the release it was applied to, both in one fork:
 * side {@link #a} and side {@link #b} each hold a whole HBase in a class loader of their own
 * ({@link Side}), SERIES with the change's patched classes in front and its key on, UPSTREAM the
 * release as shipped (PATCHED and BASELINE, this project's module in that mode, can take either
 * slot too). The iterations alternate the two in blocks of four, A B B A, and the report tool
 * {@code dev.hbasepatches.jmh.report.AbbaPairs} turns each block into one ratio B / A (above 1:
 * B does more operations per second), each fork into the geometric mean of its blocks, and the
 * forks into a 95% interval; the fork is the unit, so run five or more.
 * <p>
 * Both sides run the same case ({@link Workloads} lists them per change) on data built from the
 * same seed, and set-up fails unless their first operations return the same count; SERIES must
 * load every class of the series jar from that jar and the other sides none.
 * <p>
 * Because each side has its own copy of HBase's classes, each side's call sites see only its own
 * classes, as on a RegionServer running one build, unlike the module toggles
 * ({@code SeekSkipToggleBenchmark}, {@code RowIndexToggleBenchmark}), whose two regions share one
 * copy.
 * <p>
 * {@code java -jar benchmarks.jar SeriesToggleBenchmark
 * -p target=seek-skip:oneVersionOfTen/4 -p a=UPSTREAM -p b=SERIES -f 5 -rf json -rff series.json}, then
 * {@code java -cp benchmarks.jar dev.hbasepatches.jmh.report.AbbaPairs series.json}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
// Warmup alternates too, so both sides' read paths are compiled before the first measured block.
@Warmup(iterations = 16, time = 1)
@Measurement(iterations = 32, time = 1)
public class SeriesToggleBenchmark extends AbbaToggleBenchmark {

  /**
   * The change and its case, {@code CHANGE:CASE}, the case's parts split on '/' (see
   * {@link Workloads}); one parameter, so that a list of cases runs each with its own change.
   */
  @Param({ "seek-skip:oneVersionOfTen/4" })
  public String target;




  private Side sideA;
  private Side sideB;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    startBlocks();
    int colon = target.indexOf(':');
    if (colon <= 0) {
      throw new IllegalArgumentException("target must be CHANGE:CASE, e.g. "
        + "seek-skip:oneVersionOfTen/4, not '" + target + "'");
    }
    String change = target.substring(0, colon);
    String caseSpec = target.substring(colon + 1);
    sideA = Side.open(change, a, caseSpec);
    try {
      sideB = Side.open(change, b, caseSpec);
    } catch (Exception | Error e) {
      sideA.close();
      sideA = null;
      throw e;
    }
    long firstA = sideA.run();
    long firstB = sideB.run();
    if (firstA != firstB) {
      throw new IllegalStateException(target + ": " + a + "'s first operation "
        + "returned " + firstA + ", " + b + "'s " + firstB);
    }
    SideLines.print("A: " + sideA.describe(), "B: " + sideB.describe(),
      "first operation returned " + firstA + " on both");
  }

  @TearDown(Level.Trial)
  public void tearDown() throws Exception {
    try {
      if (sideA != null) {
        sideA.close();
      }
    } finally {
      if (sideB != null) {
        sideB.close();
      }
    }
  }

  @Benchmark
  public long run(AbbaSlots slots) {
    long returned = (inB ? sideB : sideA).run();
    slots.count(inB);
    return returned;
  }
}
