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

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntFunction;

/** Runs one command's client threads to the end and gathers what they measured. */
final class CommandRunner {

  /** What the clients measured; checks made afterwards live in the {@link RunContext}. */
  static final class Measurement {
    final long ops;
    final long rows;
    final long elapsedNanos;
    final LatencySummary latency;
    final LatencySummary serviceTime;
    /**
     * GC and allocation in this JVM over the measured part: from the start line (or the end of
     * the warm-up) to the last client's end; the clients' set-up and warm-up are not in it.
     */
    final JvmCounters jvm;
    final List<String> notes = new ArrayList<>();
    /** Latency by kind of operation, for workloads that mix kinds; empty otherwise. */
    final Map<String, LatencySummary> perOperation = new TreeMap<>();

    Measurement(long ops, long rows, long elapsedNanos, LatencySummary latency,
      LatencySummary serviceTime, JvmCounters jvm) {
      this.ops = ops;
      this.rows = rows;
      this.elapsedNanos = elapsedNanos;
      this.latency = latency;
      this.serviceTime = serviceTime;
      this.jvm = jvm;
    }
  }

  private final PrintStream progressOut;
  private final boolean terminal;
  private final Duration progressInterval;

  /**
   * @param terminal whether {@code progressOut} is a terminal, where the progress line can be
   *   rewritten in place rather than printed anew
   */
  CommandRunner(PrintStream progressOut, boolean terminal, Duration progressInterval) {
    this.progressOut = progressOut;
    this.terminal = terminal;
    if (progressInterval == null) {
      this.progressInterval = Duration.ofSeconds(terminal ? 2 : 10);
    } else {
      this.progressInterval = progressInterval.isZero() ? null : progressInterval;
    }
  }

  Measurement run(RunContext ctx, String name) {
    return run(ctx, name, c -> ClientWorkload.create(ctx, c));
  }

  /** As {@link #run(RunContext, String)} with the workloads {@code workloads} makes (tests). */
  Measurement run(RunContext ctx, String name, IntFunction<ClientWorkload> workloads) {
    int clients = ctx.options.clients;
    ClientRunner.Shared shared = new ClientRunner.Shared(ctx);
    LatencyTotals latency = new LatencyTotals(shared.latency);
    List<ClientRunner> runners = new ArrayList<>();
    List<Thread> threads = new ArrayList<>();
    for (int c = 0; c < clients; c++) {
      ClientRunner r = new ClientRunner(ctx, c, shared, workloads);
      runners.add(r);
      Thread t = new Thread(r, "hbase-perf-" + name + "-client-" + c);
      t.setDaemon(true);
      threads.add(t);
    }
    long expected = ctx.opsPerClient == Long.MAX_VALUE ? 0 : ctx.opsPerClient * clients;
    ProgressReporter progress = progressInterval == null ? null
      : new ProgressReporter(name, progressOut, terminal, progressInterval, latency,
        shared.ops::sum, ctx.errors::count, expected);
    JvmCounters jvmBefore = JvmCounters.now();
    threads.forEach(Thread::start);
    if (progress != null) {
      progress.start();
    }
    try {
      for (Thread t : threads) {
        t.join();
      }
    } catch (InterruptedException e) {
      threads.forEach(Thread::interrupt);
      Thread.currentThread().interrupt();
    } finally {
      if (progress != null) {
        progress.close();
      }
    }
    long measuredFrom = shared.measureStart.get() == Long.MAX_VALUE ? shared.startNanos
      : shared.measureStart.get();
    long elapsed = Math.max(0, System.nanoTime() - measuredFrom);
    JvmCounters jvm = JvmCounters.now().since(shared.jvmCountersFrom(jvmBefore));
    latency.drainInterval();
    LatencySummary service = shared.serviceTime == null ? null
      : new LatencySummary(shared.serviceTime.getIntervalHistogram());
    long late = ctx.errors.lateFailures();
    Measurement m = new Measurement(shared.ops.sum() - late, shared.rows.sum() - late, elapsed,
      new LatencySummary(latency.total()), service, jvm);
    shared.perOperation.forEach((kind, rec) -> m.perOperation.put(kind,
      new LatencySummary(rec.getIntervalHistogram())));
    for (ClientRunner r : runners) {
      if (r.gaveUp() != null) {
        m.notes.add(r.gaveUp());
      }
    }
    return m;
  }
}
