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

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import dev.hbasepatches.jmh.CpuTime;
import dev.hbasepatches.jmh.AbbaSlots;
import dev.hbasepatches.jmh.HBaseBenchmark.Mode;
import org.junit.After;
import org.junit.Test;
import org.openjdk.jmh.infra.Blackhole;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * The toggle benchmark's slots: which region each iteration scans, and which counter it counts
 * in, on real regions of a small shape. The AbbaPairs report depends on both.
 */
public class SeekSkipToggleBenchmarkTest {

  private static final IterationParams WARMUP =
    new IterationParams(IterationType.WARMUP, 1, TimeValue.seconds(1), 1);
  private static final IterationParams MEASUREMENT =
    new IterationParams(IterationType.MEASUREMENT, 1, TimeValue.seconds(1), 1);

  private final Blackhole bh = new Blackhole(
    "Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.");
  private SeekSkipToggleBenchmark bench;

  private static SeekSkipToggleBenchmark small(String shape, int files, String order) {
    SeekSkipToggleBenchmark b = new SeekSkipToggleBenchmark();
    b.a = Mode.UPSTREAM;
    b.b = Mode.PATCHED;
    b.shape = shape;
    b.files = files;
    b.cells = 4_000;
    b.layout = "versionsAcrossFiles";
    b.maxSkips = "";
    b.seed = 7;
    b.order = order;
    return b;
  }

  @After
  public void close() throws Exception {
    if (bench != null) {
      bench.tearDown();
    }
    bh.evaporate(
      "Yes, I am Stephen Hawking, and know a thing or two about black holes.");
  }

  /** Runs one iteration of one scan; returns "A" or "B" by the counter it counted in. */
  private String iteration(IterationParams params, long[] returned) throws Exception {
    bench.pickSlot(params);
    AbbaSlots slots = new AbbaSlots();
    slots.reset();
    long cpuBefore = CpuTime.processNanos();
    returned[0] = bench.scan(bh, slots);
    long cpuAround = CpuTime.processNanos() - cpuBefore;
    slots.stop();
    // The iteration's CPU time holds the scan's: at least the CPU time measured around the call
    // (a reading that missed the scan would be smaller), and far from an absolute clock value.
    assertTrue("CPU time counted " + slots.cpuNanos + " ns, around the scan " + cpuAround
      + " ns", slots.cpuNanos >= cpuAround && slots.cpuNanos < cpuAround + 5_000_000_000L);
    assertEquals("one scan counted in exactly one slot", 1, slots.aReads + slots.bReads);
    String slot = slots.bReads == 1 ? "B" : "A";
    Mode expected = slot.equals("B") ? bench.b : bench.a;
    assertEquals("the slot's counter and the scanned region agree", expected, bench.slotMode());
    return slot;
  }

  @Test
  public void abbaBlocksInWarmupAndMeasurementAlikeBothRegionsSameCells() throws Exception {
    bench = small("deletedColumns", 4, "ABBA");
    bench.setUp();
    long[] returned = new long[1];
    long cells = -1;
    StringBuilder warm = new StringBuilder();
    for (int i = 0; i < 6; i++) {
      warm.append(iteration(WARMUP, returned));
      cells = check(cells, returned[0]);
    }
    StringBuilder measured = new StringBuilder();
    for (int i = 0; i < 8; i++) {
      measured.append(iteration(MEASUREMENT, returned));
      cells = check(cells, returned[0]);
    }
    // Warmup and measurement count their iterations apart: measurement starts a fresh block.
    assertEquals("ABBAAB", warm.toString());
    assertEquals("ABBAABBA", measured.toString());
    assertTrue("the scan returns cells", cells > 0);
  }

  @Test
  public void alternateMirrorsEveryOtherBlock() throws Exception {
    bench = small("oneVersionOfTen", 1, "alternate");
    bench.setUp();
    assertEquals("ABBABAABABBA", measuredSlots(12));
  }

  /** The slots of the next {@code n} measured iterations, e.g. "ABBA". */
  private String measuredSlots(int n) throws Exception {
    long[] returned = new long[1];
    StringBuilder slots = new StringBuilder();
    for (int i = 0; i < n; i++) {
      slots.append(iteration(MEASUREMENT, returned));
    }
    return slots.toString();
  }

  private static long check(long before, long now) {
    if (before >= 0) {
      assertEquals("every scan of either region returns the same number of cells", before, now);
    }
    return now;
  }

  @Test
  public void sameModeInBothSlotsIsTheControl() throws Exception {
    bench = small("fullScan", 1, "ABBA");
    bench.b = Mode.UPSTREAM;
    bench.setUp();
    assertEquals("ABBA", measuredSlots(4));
  }

  @Test
  public void badParamsAreRefusedBeforeAnyRegionIsBuilt() throws Exception {
    SeekSkipToggleBenchmark order = small("fullScan", 1, "BAAB");
    try {
      order.setUp();
      fail("unknown order accepted");
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("ABBA or alternate"));
    }
    SeekSkipToggleBenchmark shape = small("noSuchShape", 1, "ABBA");
    try {
      shape.setUp();
      fail("unknown shape accepted");
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("noSuchShape"));
    }
  }
}
