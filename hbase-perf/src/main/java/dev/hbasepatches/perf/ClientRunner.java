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
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;
import org.HdrHistogram.Recorder;

/**
 * One client thread: runs its workload's operations back to back, or on a fixed schedule when
 * --rate is set. On a schedule, latency counts from when the operation was due, not from when
 * it got to start, so a stall shows up in every operation it delayed (no coordinated omission).
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
    final CyclicBarrier startLine;
    volatile long startNanos;
    final long deadlineAfterNanos;
    final long intervalNanos;

    Shared(RunContext ctx) {
      int clients = ctx.options.clients;
      this.serviceTime = ctx.targetRate > 0 ? new Recorder(3) : null;
      this.deadlineAfterNanos = ctx.duration == null ? Long.MAX_VALUE : ctx.duration.toNanos();
      this.intervalNanos = ctx.targetRate > 0
        ? Math.max(1, Math.round(TimeUnit.SECONDS.toNanos(1) * clients / ctx.targetRate))
        : 0;
      this.startLine = new CyclicBarrier(clients, () -> startNanos = System.nanoTime());
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
    int consecutiveErrors = 0;
    for (long i = 0; i < ctx.opsPerClient; i++) {
      long intended = start + i * shared.intervalNanos;
      if (shared.intervalNanos > 0) {
        waitUntil(intended);
      }
      long begin = System.nanoTime();
      if (begin - start >= shared.deadlineAfterNanos || Thread.currentThread().isInterrupted()) {
        break;
      }
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
        continue;
      }
      long end = System.nanoTime();
      if (rows == ClientWorkload.EXHAUSTED) {
        break;
      }
      consecutiveErrors = 0;
      shared.latency.recordValue(end - (shared.intervalNanos > 0 ? intended : begin));
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

  private static void waitUntil(long nanos) {
    for (long left = nanos - System.nanoTime(); left > 0; left = nanos - System.nanoTime()) {
      LockSupport.parkNanos(left);
      if (Thread.currentThread().isInterrupted()) {
        return;
      }
    }
  }
}
