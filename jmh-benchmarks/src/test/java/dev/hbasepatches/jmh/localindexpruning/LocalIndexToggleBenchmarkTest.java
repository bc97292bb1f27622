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
   * checking each slot's selection asks {@code scansA} or {@code scansB} regions.
   */
  private String run(int n, int scansA, int scansB) throws Exception {
    StringBuilder slots = new StringBuilder();
    for (int i = 0; i < n; i++) {
      bench.pickSlot(MEASUREMENT);
      AbbaSlots counters = new AbbaSlots();
      counters.reset();
      for (int k = 0; k < 2; k++) {
        int scans = bench.select(counters);
        assertEquals(bench.slotMode() + " asks its regions every time",
          counters.bReads > 0 ? scansB : scansA, scans);
      }
      counters.stop();
      assertEquals("selections counted in exactly one slot", 2,
        counters.aReads + counters.bReads);
      assertTrue("one slot only", counters.aReads == 0 || counters.bReads == 0);
      String slot = counters.bReads > 0 ? "B" : "A";
      assertEquals(Mode.valueOf(slot.equals("B") ? bench.b : bench.a), bench.slotMode());
      slots.append(slot);
    }
    return slots.toString();
  }

  @Test
  public void upstreamAgainstPatchedSelectTheSameTenRegions() throws Exception {
    bench = small("UPSTREAM", "PATCHED", 200, "inList");
    bench.setUp();
    assertEquals("ABBAABBA", run(8, 10, 10));
  }

  @Test
  public void baselineAsksEveryRegionPatchedOne() throws Exception {
    bench = small("BASELINE", "PATCHED", 100, "point");
    bench.setUp();
    assertEquals("ABBA", run(4, 100, 1));
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
