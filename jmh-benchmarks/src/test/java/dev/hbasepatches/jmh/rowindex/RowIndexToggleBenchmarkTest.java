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
package dev.hbasepatches.jmh.rowindex;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import dev.hbasepatches.jmh.AbbaSlots;
import dev.hbasepatches.jmh.HBaseBenchmark.Mode;
import dev.hbasepatches.rowindex.RowIndexEncoder;
import dev.hbasepatches.rowindex.RowIndexInstaller;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.junit.After;
import org.junit.Test;
import org.openjdk.jmh.infra.Blackhole;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * The row-index toggle benchmark on small real regions: each iteration reads the region of its
 * slot with that slot's ROW_INDEX_V1 encoder installed, counts in that slot's counter, and both
 * regions return the same cells.
 */
public class RowIndexToggleBenchmarkTest {

  private static final IterationParams MEASUREMENT =
    new IterationParams(IterationType.MEASUREMENT, 1, TimeValue.seconds(1), 1);

  private final Blackhole bh = new Blackhole(
    "Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.");
  private RowIndexToggleBenchmark bench;

  private static RowIndexToggleBenchmark small(Mode a, Mode b, String workload, String cache) {
    RowIndexToggleBenchmark t = new RowIndexToggleBenchmark();
    t.a = a;
    t.b = b;
    t.baseline = "NONE";
    t.workload = workload;
    t.cache = cache;
    t.rows = 3_000;
    t.seed = 11;
    return t;
  }

  @After
  public void close() throws Exception {
    if (bench != null) {
      bench.tearDown();
    }
    assertFalse("tearDown gives ROW_INDEX_V1 back to HBase", RowIndexInstaller.isInstalled());
    bh.evaporate("Yes, I am Stephen Hawking, and know a thing or two about black holes.");
  }

  /** Runs {@code n} measured iterations of two reads each; returns their slots, e.g. "ABBA". */
  private String run(int n) throws Exception {
    StringBuilder slots = new StringBuilder();
    long cells = -1;
    for (int i = 0; i < n; i++) {
      bench.pickSlot(MEASUREMENT);
      boolean ours = DataBlockEncoding.ROW_INDEX_V1.getEncoder() instanceof RowIndexEncoder;
      assertEquals("the slot's encoder is installed", bench.slotMode() == Mode.PATCHED, ours);
      AbbaSlots counters = new AbbaSlots();
      counters.reset();
      for (int k = 0; k < 2; k++) {
        long returned = bench.read(bh, counters);
        if (cells >= 0 && !bench.workload.equals("randomGet")) {
          assertEquals("both slots return the same cells", cells, returned);
        }
        cells = returned;
        assertTrue("cells returned", returned > 0);
      }
      counters.stop();
      assertEquals("reads counted in exactly one slot", 2, counters.aReads + counters.bReads);
      assertTrue("one slot only", counters.aReads == 0 || counters.bReads == 0);
      String slot = counters.bReads > 0 ? "B" : "A";
      assertEquals(slot.equals("B") ? bench.b : bench.a, bench.slotMode());
      slots.append(slot);
    }
    return slots.toString();
  }

  @Test
  public void upstreamAgainstPatchedSwapsTheEncoderPerSlot() throws Exception {
    bench = small(Mode.UPSTREAM, Mode.PATCHED, "fullScan", "cached");
    bench.setUp();
    assertEquals("ABBAABBA", run(8));
  }

  @Test
  public void baselineAgainstPatchedOverDeletedRowsFromFiles() throws Exception {
    bench = small(Mode.BASELINE, Mode.PATCHED, "reverseScanDeleted999", "files");
    bench.setUp();
    assertEquals("ABBA", run(4));
  }

  @Test
  public void badParamsAreRefusedWithTheReason() throws Exception {
    bench = small(Mode.UPSTREAM, Mode.PATCHED, "noSuchWorkload", "cached");
    try {
      bench.setUp();
      fail("unknown workload accepted");
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("noSuchWorkload"));
    }
    bench = small(Mode.UPSTREAM, Mode.PATCHED, "fullScan", "disk");
    try {
      bench.setUp();
      fail("unknown cache accepted");
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("cached or files"));
    }
  }
}
