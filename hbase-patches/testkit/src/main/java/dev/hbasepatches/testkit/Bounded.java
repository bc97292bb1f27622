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
package dev.hbasepatches.testkit;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs a piece of test work that might never end (a scan in a loop, a fuzz case) on its own
 * daemon thread with a deadline, so a bug fails the build instead of stalling it. On timeout it
 * throws {@link TimedOut}, whose message names the work, says what it last reported through
 * {@link Progress} and where its thread was; then it stops that thread where the JDK still
 * allows it ({@code Thread.stop}, JDK 19 and older), so a spinning scan does not eat the rest of
 * the test run's CPU. On later JDKs the thread is left running as a daemon and ends with the
 * test JVM.
 */
public final class Bounded {

  private Bounded() {
  }

  /** What the work is doing now, for the timeout message. */
  public static final class Progress {
    private volatile String now = "(nothing reported)";

    /** Records what the work does next (a read, a phase). */
    public void at(String what) {
      now = what;
    }

    public String now() {
      return now;
    }
  }

  /** The work did not finish in time. */
  public static final class TimedOut extends AssertionError {
    private static final long serialVersionUID = 1L;
    private final String lastProgress;

    TimedOut(String message, String lastProgress) {
      super(message);
      this.lastProgress = lastProgress;
    }

    /** What the work last reported through {@link Progress#at}. */
    public String lastProgress() {
      return lastProgress;
    }
  }

  /** Work that reports its progress. */
  @FunctionalInterface
  public interface Work<T> {
    T run(Progress progress) throws Exception;
  }

  /** As {@link #call(String, Duration, Work)} for work that reports no progress. */
  public static <T> T call(String what, Duration limit, Callable<T> work) throws Exception {
    return call(what, limit, p -> work.call());
  }

  /**
   * Runs {@code work} and returns its answer or rethrows what it threw; throws {@link TimedOut}
   * if it has not finished after {@code limit}.
   */
  public static <T> T call(String what, Duration limit, Work<T> work) throws Exception {
    if (limit.isNegative() || limit.isZero()) {
      throw new IllegalArgumentException("limit must be positive, was " + limit);
    }
    Progress progress = new Progress();
    FutureTask<T> task = new FutureTask<>(() -> work.run(progress));
    Thread thread = new Thread(task, "bounded: " + what);
    thread.setDaemon(true);
    thread.start();
    try {
      return task.get(limit.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof Exception) {
        throw (Exception) cause;
      }
      if (cause instanceof Error) {
        throw (Error) cause;
      }
      throw e;
    } catch (TimeoutException e) {
      StringBuilder where = new StringBuilder();
      for (StackTraceElement f : thread.getStackTrace()) {
        where.append("\n\tat ").append(f);
      }
      String last = progress.now();
      stop(thread);
      throw new TimedOut(what + " did not finish within " + limit.toMillis() + " ms; last at: "
        + last + "; its thread was at:" + where, last);
    }
  }

  @SuppressWarnings({ "deprecation", "removal" })
  private static void stop(Thread thread) {
    try {
      thread.stop();
    } catch (UnsupportedOperationException e) {
      // JDK 20+: the daemon thread runs on until the JVM exits.
    }
  }
}
