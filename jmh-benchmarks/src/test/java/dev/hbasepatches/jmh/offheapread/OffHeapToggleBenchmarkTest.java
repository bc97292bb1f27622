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
package dev.hbasepatches.jmh.offheapread;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import dev.hbasepatches.jmh.AbbaSlots;
import dev.hbasepatches.jmh.HBaseBenchmark.Mode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.After;
import org.junit.Test;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * The off-heap toggle benchmark on real regions and caches: every thread reads the slot of the
 * iteration and counts in its own counters for that slot, tear-down's leak check passes after
 * reads from two threads, and wrong parameters are refused before anything is built.
 */
public class OffHeapToggleBenchmarkTest {

  private static final IterationParams MEASUREMENT =
    new IterationParams(IterationType.MEASUREMENT, 1, TimeValue.seconds(1), 1);

  private OffHeapToggleBenchmark bench;

  private static OffHeapToggleBenchmark small(String a, String b, String workload) {
    OffHeapToggleBenchmark t = new OffHeapToggleBenchmark();
    t.a = a;
    t.b = b;
    t.order = "ABBA";
    t.workload = workload;
    t.valueSize = 1000;
    return t;
  }

  @After
  public void close() throws Exception {
    if (bench != null) {
      // Fails if a block reference leaked in either slot's cache.
      bench.tearDown();
    }
  }

  /**
   * Runs {@code n} measured iterations, each of {@code reads} reads on each of {@code threads}
   * threads (a reader and counters per thread, as JMH's thread states); returns the slots.
   */
  private String run(int n, int threads, int reads) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      StringBuilder slots = new StringBuilder();
      for (int i = 0; i < n; i++) {
        bench.pickSlot(MEASUREMENT);
        List<Future<AbbaSlots>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          Callable<AbbaSlots> task = () -> {
            OffHeapReadBenchmark.Reader reader = new OffHeapReadBenchmark.Reader();
            AbbaSlots counters = new AbbaSlots();
            counters.reset();
            for (int k = 0; k < reads; k++) {
              assertTrue("bytes read", bench.read(reader, counters) > 0);
            }
            counters.stop();
            return counters;
          };
          done.add(pool.submit(task));
        }
        String slot = null;
        for (Future<AbbaSlots> f : done) {
          AbbaSlots counters = f.get();
          assertEquals("reads counted in exactly one slot", reads,
            counters.aReads + counters.bReads);
          assertTrue("one slot only", counters.aReads == 0 || counters.bReads == 0);
          String s = counters.bReads > 0 ? "B" : "A";
          assertTrue("every thread reads the iteration's slot", slot == null || slot.equals(s));
          slot = s;
        }
        bench.sampleCapacity();
        assertEquals(Mode.valueOf(slot.equals("B") ? bench.b : bench.a), bench.slotMode());
        slots.append(slot);
      }
      return slots.toString();
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * Churn (multiGet on a cache smaller than the data: misses, inserts and evictions) from two
   * threads, HBase's BucketCache against the module's slab cache; one test, as each slot's
   * regions take seconds to build.
   */
  @Test
  public void upstreamAgainstPatchedChurnOnTwoThreads() throws Exception {
    bench = small("UPSTREAM", "PATCHED", "churn");
    bench.setUp();
    assertEquals("ABBAABBA", run(8, 2, 3));
  }

  @Test
  public void badParamsAreRefusedBeforeAnythingIsBuilt() throws Exception {
    try {
      small("BASELINE", "PATCH", "scan").setUp();
      fail("unknown mode accepted");
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("b=PATCH")
        && e.getMessage().contains("BASELINE, PATCHED, UPSTREAM"));
    }
    try {
      small("BASELINE", "PATCHED", "get").setUp();
      fail("unknown workload accepted");
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("workload=get"));
    }
  }
}
