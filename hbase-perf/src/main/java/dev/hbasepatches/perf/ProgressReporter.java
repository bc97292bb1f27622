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
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.HdrHistogram.Histogram;

/**
 * The live line: operations so far, this interval's rate and p99, errors. On a terminal it
 * rewrites one line; into a file or pipe it prints one line per interval.
 */
final class ProgressReporter implements AutoCloseable {

  private final String label;
  private final PrintStream out;
  private final long intervalNanos;
  private final LatencyTotals latency;
  private final LongSupplier ops;
  private final LongSupplier errors;
  private final long expectedOps;
  private final boolean terminal;
  private final Thread thread;
  private volatile boolean stopped;
  private boolean printedAny;

  ProgressReporter(String label, PrintStream out, boolean terminal, Duration interval,
    LatencyTotals latency, LongSupplier ops, LongSupplier errors, long expectedOps) {
    this.label = label;
    this.out = out;
    this.intervalNanos = interval.toNanos();
    this.latency = latency;
    this.ops = ops;
    this.errors = errors;
    this.expectedOps = expectedOps;
    this.terminal = terminal;
    this.thread = new Thread(this::report, "hbase-perf-progress");
    this.thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  private void report() {
    long started = System.nanoTime();
    long previousOps = 0;
    long previousAt = started;
    while (!stopped) {
      try {
        TimeUnit.NANOSECONDS.sleep(intervalNanos);
      } catch (InterruptedException e) {
        return;
      }
      if (stopped) {
        return;
      }
      long now = System.nanoTime();
      long done = ops.getAsLong();
      Histogram interval = latency.drainInterval();
      double rate = (done - previousOps) / ((now - previousAt) / 1e9);
      previousOps = done;
      previousAt = now;
      print(line(done, rate, interval, (now - started) / 1_000_000_000L));
    }
  }

  private String line(long done, double rate, Histogram interval, long seconds) {
    StringBuilder b = new StringBuilder();
    b.append(String.format(Locale.ROOT, "  [%s] %,d ops", label, done));
    if (expectedOps > 0 && expectedOps < Long.MAX_VALUE) {
      b.append(String.format(Locale.ROOT, " (%d%%)", Math.min(100, done * 100 / expectedOps)));
    }
    b.append(String.format(Locale.ROOT, "  %,.0f ops/s", rate));
    if (interval.getTotalCount() > 0) {
      b.append("  p99 ").append(Units.micros(interval.getValueAtPercentile(99) / 1e3))
        .append(" us");
    }
    b.append(String.format(Locale.ROOT, "  errors %,d  %ds", errors.getAsLong(), seconds));
    return b.toString();
  }

  private synchronized void print(String line) {
    if (terminal) {
      out.print("\r" + line + "\033[K");
    } else {
      out.println(line);
    }
    out.flush();
    printedAny = true;
  }

  @Override
  public void close() {
    stopped = true;
    thread.interrupt();
    try {
      thread.join(TimeUnit.SECONDS.toMillis(5));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    synchronized (this) {
      if (terminal && printedAny) {
        out.print("\r\033[K");
        out.flush();
      }
    }
  }
}
