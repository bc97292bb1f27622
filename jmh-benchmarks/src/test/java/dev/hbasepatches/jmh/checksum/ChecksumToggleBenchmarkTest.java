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
package dev.hbasepatches.jmh.checksum;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import dev.hbasepatches.jmh.AbbaSlots;
import dev.hbasepatches.jmh.HBaseBenchmark.Mode;
import org.apache.hadoop.hbase.util.ChecksumType;
import org.junit.Test;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * The checksum toggle benchmark on real blocks: each iteration checksums the block of its slot's
 * mode and counts in that slot's counter, set-up refuses two modes that do different work, and a
 * wrong mode name is refused with the parameter and the value.
 */
public class ChecksumToggleBenchmarkTest {

  private static final IterationParams WARMUP =
    new IterationParams(IterationType.WARMUP, 1, TimeValue.seconds(1), 1);
  private static final IterationParams MEASUREMENT =
    new IterationParams(IterationType.MEASUREMENT, 1, TimeValue.seconds(1), 1);

  private static ChecksumToggleBenchmark small(String a, String b, BufferKind buffer) {
    ChecksumToggleBenchmark t = new ChecksumToggleBenchmark();
    t.a = a;
    t.b = b;
    t.order = "ABBA";
    t.buffer = buffer;
    t.bytesPerChecksum = 512;
    t.blockSize = 4096;
    t.checksumType = ChecksumType.CRC32C;
    return t;
  }

  /**
   * Runs {@code n} iterations of three verifies and three generates each; returns their slots,
   * e.g. "ABBA".
   */
  private static String run(ChecksumToggleBenchmark bench, IterationParams type, int n)
    throws Exception {
    StringBuilder slots = new StringBuilder();
    for (int i = 0; i < n; i++) {
      bench.pickSlot(type);
      AbbaSlots counters = new AbbaSlots();
      counters.reset();
      for (int k = 0; k < 3; k++) {
        assertTrue(bench.slotMode() + " passes the block", bench.verify(counters));
        bench.generate(counters);
      }
      counters.stop();
      assertEquals("operations counted in exactly one slot", 6,
        counters.aReads + counters.bReads);
      assertTrue("one slot only", counters.aReads == 0 || counters.bReads == 0);
      String slot = counters.bReads > 0 ? "B" : "A";
      assertEquals("the slot's counter and the mode it ran agree",
        Mode.valueOf(slot.equals("B") ? bench.b : bench.a), bench.slotMode());
      slots.append(slot);
    }
    return slots.toString();
  }

  @Test
  public void upstreamAgainstPatchedAlternatesAbbaOnEveryBufferKind() throws Exception {
    for (BufferKind buffer : BufferKind.values()) {
      ChecksumToggleBenchmark bench = small("UPSTREAM", "PATCHED", buffer);
      bench.setUp();
      assertEquals(buffer.toString(), "ABBAAB", run(bench, WARMUP, 6));
      // Measurement counts its iterations apart from warmup: it starts a fresh block.
      assertEquals(buffer.toString(), "ABBAABBA", run(bench, MEASUREMENT, 8));
    }
  }

  @Test
  public void baselineAgainstPatchedAndTheControl() throws Exception {
    ChecksumToggleBenchmark bench = small("BASELINE", "PATCHED", BufferKind.HEAP);
    bench.blockSize = 70001;
    bench.bytesPerChecksum = 16384;
    bench.setUp();
    assertEquals("ABBA", run(bench, MEASUREMENT, 4));
    ChecksumToggleBenchmark control = small("PATCHED", "PATCHED", BufferKind.DIRECT);
    control.setUp();
    assertEquals("ABBA", run(control, MEASUREMENT, 4));
  }

  @Test
  public void blocksThatDifferAreRefused() throws Exception {
    ChecksumBlockFixture x =
      new ChecksumBlockFixture(Mode.PATCHED, BufferKind.HEAP, ChecksumType.CRC32C, 512, 4096);
    ChecksumBlockFixture y =
      new ChecksumBlockFixture(Mode.UPSTREAM, BufferKind.HEAP, ChecksumType.CRC32C, 512, 4097);
    try {
      ChecksumToggleBenchmark.checkSameWork(x, y);
      fail("blocks of different sizes accepted as the same work");
    } catch (IllegalStateException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("generated different blocks"));
    }
    // The same sizes pass, and a changed data byte fails both modes' verify.
    ChecksumToggleBenchmark.checkSameWork(x,
      new ChecksumBlockFixture(Mode.BASELINE, BufferKind.HEAP, ChecksumType.CRC32C, 512, 4096));
    assertTrue(!x.verifyWithByteChanged(100) && x.verify());
  }

  @Test
  public void badModeOrOrderIsRefusedNamingTheValue() throws Exception {
    try {
      small("UPSTREAM", "PATCHD", BufferKind.HEAP).setUp();
      fail("unknown mode accepted");
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("b=PATCHD")
        && e.getMessage().contains("BASELINE, PATCHED, UPSTREAM"));
    }
    ChecksumToggleBenchmark order = small("UPSTREAM", "PATCHED", BufferKind.HEAP);
    order.order = "BAAB";
    try {
      order.setUp();
      fail("unknown order accepted");
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("BAAB"));
    }
  }
}
