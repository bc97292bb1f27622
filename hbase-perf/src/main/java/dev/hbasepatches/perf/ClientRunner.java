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

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;
import org.HdrHistogram.Recorder;

/**
 * One client thread: runs its workload's operations back to back, or on a fixed schedule when
 * --rate is set. On a schedule, latency counts from when the operation was due, not from when
 * it got to start, so a stall shows up in every operation it delayed (no coordinated omission);
 * client c's schedule is offset by c/clients of an interval, so clients take turns rather than
 * fire together. Operations in the warm-up (--warmup, --measureAfter) run but are not counted.
 */
final class ClientRunner implements Runnable {

  /** A client that fails this many operations in a row stops rather than spin. */
  static final int GIVE_UP_AFTER_CONSECUTIVE_ERRORS = 100;

  /** Counters and recorders all clients of a command add to. */
  static final class Shared {
    final Recorder latency = new Recorder(3);
    final Recorder serviceTime;
    final LongAdder ops = new LongAdder();
    final LongAdder rows = new LongAdder();
    /** Latency per kind of operation, for workloads that mix kinds (the YCSB workloads). */
    final Map<String, Recorder> perOperation = new ConcurrentHashMap<>();
    final CyclicBarrier startLine;
    volatile long startNanos;
    final long deadlineAfterNanos;
    final long intervalNanos;
    /** Nanoseconds after the start before anything is counted. */
    final long warmupNanos;
    /** Operations each client runs before anything of its own is counted. */
    final long warmupOps;
    /** With a warm-up: when the first counted operation began (or was due), over all clients. */
    final AtomicLong measureStart = new AtomicLong(Long.MAX_VALUE);
    /** The JVM's counters when the clients crossed the start line (their set-up excluded). */
    volatile JvmCounters jvmAtStart;
    /** With a warm-up: the JVM's counters when the first client began counting. */
    final AtomicReference<JvmCounters> jvmAtMeasureStart = new AtomicReference<>();

    /** Nanosecond time: System.nanoTime, or a test's clock. */
    final LongSupplier clock;

    Shared(RunContext ctx) {
      this(ctx, System::nanoTime);
    }

    Shared(RunContext ctx, LongSupplier clock) {
      this.clock = clock;
      int clients = ctx.options.clients;
      this.serviceTime = ctx.targetRate > 0 ? new Recorder(3) : null;
      this.warmupNanos = ctx.warmup == null ? 0 : ctx.warmup.toNanos();
      this.warmupOps = ctx.warmupOps;
      this.deadlineAfterNanos = ctx.duration == null ? Long.MAX_VALUE
        : warmupNanos + ctx.duration.toNanos();
      this.intervalNanos = ctx.targetRate > 0
        ? Math.max(1, Math.round(TimeUnit.SECONDS.toNanos(1) * clients / ctx.targetRate))
        : 0;
      this.startLine = new CyclicBarrier(clients, () -> {
        jvmAtStart = JvmCounters.now();
        startNanos = clock.getAsLong();
      });
    }

    /**
     * Where the JVM counters of the measured part begin: after the warm-up when there is one,
     * else at the start line; {@code fallback} if the clients never got that far.
     */
    JvmCounters jvmCountersFrom(JvmCounters fallback) {
      JvmCounters measured = jvmAtMeasureStart.get();
      if (measured != null) {
        return measured;
      }
      return jvmAtStart != null ? jvmAtStart : fallback;
    }
  }

  private final RunContext ctx;
  private final int client;
  private final Shared shared;
  private final IntFunction<ClientWorkload> workloads;
  private volatile String gaveUp;

  ClientRunner(RunContext ctx, int client, Shared shared) {
    this(ctx, client, shared, c -> ClientWorkload.create(ctx, c));
  }

  /** With the workload made by {@code workloads}, which tests use to stage stalls. */
  ClientRunner(RunContext ctx, int client, Shared shared,
    IntFunction<ClientWorkload> workloads) {
    this.ctx = ctx;
    this.client = client;
    this.shared = shared;
    this.workloads = workloads;
  }

  /** Why this client stopped early, or null. */
  String gaveUp() {
    return gaveUp;
  }

  @Override
  public void run() {
    ClientWorkload workload = workloads.apply(client);
    boolean opened = false;
    try {
      try {
        workload.open();
        opened = true;
      } catch (IOException | RuntimeException e) {
        ctx.errors.record(e);
        gaveUp = "client " + client + " could not start: " + ToolFailure.describe(e);
      }
      awaitStart();
      if (opened) {
        loop(workload);
      }
    } finally {
      try {
        workload.close();
      } catch (IOException | RuntimeException e) {
        ctx.errors.record(e);
      }
    }
  }

  private void awaitStart() {
    try {
      shared.startLine.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (BrokenBarrierException e) {
      // Another client failed to arrive; run anyway, timing from its own start.
    }
  }

  private void loop(ClientWorkload workload) {
    long start = shared.startNanos;
    long offset = shared.intervalNanos * client / ctx.options.clients;
    int consecutiveErrors = 0;
    long counted = 0;
    for (long i = 0; counted < ctx.opsPerClient; i++) {
      long intended = start + offset + i * shared.intervalNanos;
      if (shared.intervalNanos > 0) {
        waitUntil(intended);
      }
      long begin = shared.clock.getAsLong();
      if (begin - start >= shared.deadlineAfterNanos || Thread.currentThread().isInterrupted()) {
        break;
      }
      boolean warming = i < shared.warmupOps || begin - start < shared.warmupNanos;
      int rows;
      try {
        rows = workload.execute(i);
      } catch (IOException | RuntimeException e) {
        ctx.errors.record(e);
        if (++consecutiveErrors >= GIVE_UP_AFTER_CONSECUTIVE_ERRORS) {
          gaveUp = "client " + client + " stopped after " + consecutiveErrors
            + " failed operations in a row";
          break;
        }
        if (!warming) {
          counted++;
        }
        continue;
      }
      long end = shared.clock.getAsLong();
      if (rows == ClientWorkload.EXHAUSTED) {
        break;
      }
      consecutiveErrors = 0;
      if (warming) {
        workload.checkLast();
        continue;
      }
      if (counted++ == 0 && (shared.warmupNanos > 0 || shared.warmupOps > 0)) {
        // Allocation and GC counted from here: the first client out of its warm-up takes the
        // snapshot (others still warming add their last few operations, a small overcount).
        if (shared.jvmAtMeasureStart.get() == null) {
          shared.jvmAtMeasureStart.compareAndSet(null, JvmCounters.now());
        }
        shared.measureStart.accumulateAndGet(shared.intervalNanos > 0 ? intended : begin,
          Math::min);
      }
      long latency = end - (shared.intervalNanos > 0 ? intended : begin);
      shared.latency.recordValue(latency);
      String kind = workload.lastOperation();
      if (kind != null) {
        shared.perOperation.computeIfAbsent(kind, k -> new Recorder(3)).recordValue(latency);
      }
      if (shared.serviceTime != null) {
        shared.serviceTime.recordValue(end - begin);
      }
      shared.ops.increment();
      shared.rows.add(rows);
      workload.checkLast();
    }
    try {
      workload.finish();
    } catch (IOException | RuntimeException e) {
      ctx.errors.record(e);
    }
  }

  private void waitUntil(long nanos) {
    for (long left = nanos - shared.clock.getAsLong(); left > 0;
      left = nanos - shared.clock.getAsLong()) {
      LockSupport.parkNanos(left);
      if (Thread.currentThread().isInterrupted()) {
        return;
      }
    }
  }
}
