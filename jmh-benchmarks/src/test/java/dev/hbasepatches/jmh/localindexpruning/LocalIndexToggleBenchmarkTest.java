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

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import dev.hbasepatches.jmh.AbbaSlots;
import dev.hbasepatches.jmh.HBaseBenchmark.Mode;
import org.junit.After;
import org.junit.Test;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * The local index toggle benchmark on a connectionless Phoenix table: each iteration plans the
 * scans of its slot's mode and counts in that slot's counter, each mode asks its own regions
 * every time, and wrong parameters are refused naming the value.
 */
public class LocalIndexToggleBenchmarkTest {

  private static final IterationParams MEASUREMENT =
    new IterationParams(IterationType.MEASUREMENT, 1, TimeValue.seconds(1), 1);

  private LocalIndexToggleBenchmark bench;

  private static LocalIndexToggleBenchmark small(String a, String b, int regions, String shape) {
    LocalIndexToggleBenchmark t = new LocalIndexToggleBenchmark();
    t.a = a;
    t.b = b;
    t.order = "ABBA";
    t.regions = regions;
    t.shape = shape;
    return t;
  }

  @After
  public void close() throws Exception {
    if (bench != null) {
      bench.tearDown();
    }
  }

  /**
   * Runs {@code n} measured iterations of two selections each; returns their slots, e.g. "ABBA",
   * and in {@code scans} the scans (regions asked) each slot's selections planned, which must be
   * the same every time.
   */
  private String run(int n, int[] scans) throws Exception {
    StringBuilder slots = new StringBuilder();
    for (int i = 0; i < n; i++) {
      bench.pickSlot(MEASUREMENT);
      AbbaSlots counters = new AbbaSlots();
      counters.reset();
      int[] planned = new int[2];
      for (int k = 0; k < 2; k++) {
        planned[k] = bench.select(counters);
      }
      counters.stop();
      assertEquals("selections counted in exactly one slot", 2,
        counters.aReads + counters.bReads);
      assertTrue("one slot only", counters.aReads == 0 || counters.bReads == 0);
      int slot = counters.bReads > 0 ? 1 : 0;
      assertEquals(Mode.valueOf(slot == 1 ? bench.b : bench.a), bench.slotMode());
      for (int p : planned) {
        assertTrue(bench.slotMode() + " asks the same regions every time: " + scans[slot]
          + " then " + p, scans[slot] == 0 || scans[slot] == p);
        scans[slot] = p;
      }
      slots.append(slot == 1 ? "B" : "A");
    }
    return slots.toString();
  }

  @Test
  public void upstreamAgainstPatchedSelectTheSameRegions() throws Exception {
    bench = small("UPSTREAM", "PATCHED", 200, "inList");
    bench.setUp();
    int[] scans = new int[2];
    assertEquals("ABBAABBA", run(8, scans));
    assertEquals("both modes ask the same regions", scans[0], scans[1]);
    // One region per key, or two where Phoenix keeps the region before a key on a split point.
    assertTrue(scans[0] + " regions for ten keys", scans[0] >= 10 && scans[0] <= 20);
  }

  @Test
  public void baselineAsksEveryRegionPatchedAboutOne() throws Exception {
    bench = small("BASELINE", "PATCHED", 100, "point");
    bench.setUp();
    int[] scans = new int[2];
    assertEquals("ABBA", run(4, scans));
    assertEquals("BASELINE asks every region", 100, scans[0]);
    assertTrue("PATCHED asks " + scans[1], scans[1] >= 1 && scans[1] <= 2);
  }

  @Test
  public void badParamsAreRefusedNamingTheValue() throws Exception {
    try {
      small("upstream", "PATCHED", 100, "point").setUp();
      fail("unknown mode accepted");
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("a=upstream")
        && e.getMessage().contains("BASELINE, PATCHED, UPSTREAM"));
    }
    try {
      small("UPSTREAM", "PATCHED", 100, "range").setUp();
      fail("unknown shape accepted");
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("shape=range"));
    }
    try {
      small("UPSTREAM", "PATCHED", 5, "inList").setUp();
      fail("too few regions accepted");
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("regions=5"));
    }
  }
}
