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
package dev.hbasepatches.perf;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.apache.hadoop.hbase.TableName;
import org.junit.Test;

/**
 * The client loop with a staged workload instead of a cluster: how a stall is counted, how
 * errors are counted, when a client gives up.
 */
public class ClientRunnerTest {

  private static final long STALL_MILLIS = 300;

  /** A workload whose first operation stalls and whose others return at once. */
  private static final class StallFirst extends ClientWorkload {
    StallFirst(RunContext ctx) {
      super(ctx, 0);
    }

    @Override
    int execute(long index) {
      if (index == 0) {
        sleep(STALL_MILLIS);
      }
      return 1;
    }
  }

  private static final class AlwaysFails extends ClientWorkload {
    AlwaysFails(RunContext ctx) {
      super(ctx, 0);
    }

    @Override
    int execute(long index) throws java.io.IOException {
      throw new java.io.IOException("region is gone");
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static RunContext context(String... args) {
    return new RunContext(PerfArgsParser.parse(args), Command.RANDOM_READ, null,
      TableName.valueOf("unused"), false);
  }

  private static Histogram run(RunContext ctx, java.util.function.IntFunction<ClientWorkload> w,
    ClientRunner.Shared shared) {
    new ClientRunner(ctx, 0, shared, w).run();
    return shared.latency.getIntervalHistogram();
  }

  @Test
  public void onAScheduleAStallDelaysEveryOperationDueDuringIt() {
    // 100 ops/s: one operation due every 10 ms; the first one stalls for 300 ms.
    RunContext ctx = context("--rate=100", "--ops=40", "randomRead");
    ClientRunner.Shared shared = new ClientRunner.Shared(ctx);
    Histogram latency = run(ctx, c -> new StallFirst(ctx), shared);
    Histogram service = shared.serviceTime.getIntervalHistogram();
    assertEquals(40, latency.getTotalCount());
    // Counted from their scheduled starts, the ~29 operations due during the stall all waited
    // at least 100 ms; counted from when each actually started, only the stalled one did.
    long slowFromSchedule = latency.getCountBetweenValues(TimeUnit.MILLISECONDS.toNanos(100),
      Long.MAX_VALUE / 2);
    long slowFromStart = service.getCountBetweenValues(TimeUnit.MILLISECONDS.toNanos(100),
      Long.MAX_VALUE / 2);
    assertTrue("operations seen as slow from schedule: " + slowFromSchedule,
      slowFromSchedule >= 15);
    assertEquals(1, slowFromStart);
  }

  @Test
  public void withoutAScheduleLatencyIsEachOperationsOwnTime() {
    RunContext ctx = context("--ops=20", "randomRead");
    ClientRunner.Shared shared = new ClientRunner.Shared(ctx);
    Histogram latency = run(ctx, c -> new StallFirst(ctx), shared);
    assertEquals(20, latency.getTotalCount());
    assertEquals(1, latency.getCountBetweenValues(TimeUnit.MILLISECONDS.toNanos(100),
      Long.MAX_VALUE / 2));
    assertEquals(null, shared.serviceTime);
  }

  @Test
  public void failuresAreCountedAndAClientStopsAfterTooManyInARow() {
    RunContext ctx = context("--ops=1000", "randomRead");
    ClientRunner.Shared shared = new ClientRunner.Shared(ctx);
    ClientRunner runner = new ClientRunner(ctx, 0, shared, c -> new AlwaysFails(ctx));
    runner.run();
    assertEquals(ClientRunner.GIVE_UP_AFTER_CONSECUTIVE_ERRORS, ctx.errors.count());
    assertEquals(0, shared.ops.sum());
    assertTrue(runner.gaveUp(), runner.gaveUp().contains("stopped after 100 failed operations"));
    assertEquals("100 x IOException: region is gone", ctx.errors.samples().get(0));
  }

  @Test
  public void aDurationBoundsARunWithoutAnOperationCount() {
    RunContext ctx = context("--duration=300ms", "randomRead");
    assertEquals(Long.MAX_VALUE, ctx.opsPerClient);
    // A clock that moves only when an operation runs: 1 ms per operation, so a 300 ms run is
    // exactly the operations that begin at 0, 1, ..., 299 ms.
    AtomicLong now = new AtomicLong(TimeUnit.HOURS.toNanos(1));
    ClientRunner.Shared shared = new ClientRunner.Shared(ctx, now::get);
    new ClientRunner(ctx, 0, shared, c -> new ClientWorkload(ctx, 0) {
      @Override
      int execute(long index) {
        now.addAndGet(TimeUnit.MILLISECONDS.toNanos(1));
        return 1;
      }
    }).run();
    assertEquals(300, shared.ops.sum());
    assertEquals(300, shared.rows.sum());
  }

  /** Allocates {@code bytes} per operation while warming up, nothing once counted. */
  private static final class HeavyWarmUp extends ClientWorkload {
    private final long warmupOps;
    private final int bytes;
    volatile byte[] sink;

    HeavyWarmUp(RunContext ctx, long warmupOps, int bytes) {
      super(ctx, 0);
      this.warmupOps = warmupOps;
      this.bytes = bytes;
    }

    @Override
    int execute(long index) {
      if (index < warmupOps) {
        sink = new byte[bytes];
      }
      return 1;
    }
  }

  @Test
  public void warmUpAllocationIsNotInTheMeasuredCounters() {
    int perWarmUpOp = 4 << 20;
    RunContext ctx = context("--measureAfter=10", "--ops=10", "randomRead");
    JvmCounters before = JvmCounters.now();
    CommandRunner.Measurement m = new CommandRunner(System.out, false, java.time.Duration.ZERO)
      .run(ctx, "test", c -> new HeavyWarmUp(ctx, 10, perWarmUpOp));
    JvmCounters whole = JvmCounters.now().since(before);
    org.junit.Assume.assumeTrue("this JVM does not count allocation", m.jvm.allocatedBytes >= 0);
    assertEquals(10, m.ops);
    // The warm-up allocated 40 MB; the whole run saw it, the measured part must not.
    assertTrue("whole run allocated " + whole.allocatedBytes,
      whole.allocatedBytes >= 10L * perWarmUpOp);
    assertTrue("measured part allocated " + m.jvm.allocatedBytes,
      m.jvm.allocatedBytes < perWarmUpOp);
  }
}
