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
package dev.hbasepatches.quotas;

import java.io.IOException;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.quotas.RpcThrottlingException;
import org.apache.hadoop.hbase.security.User;

/**
 * Client-side load for the minicluster tests: a user's own connection (no retries, so every
 * throttle refusal reaches the caller), and closed-loop workers that count admitted and refused
 * operations. A refused worker sleeps the wait the server advertised, as a well-behaved client
 * does, so the test also shows the advertised wait is usable.
 */
final class LoadProbe {

  /** One operation against a table. */
  @FunctionalInterface
  interface Op {
    void run(Table table, long i) throws IOException;
  }

  /** What a run saw. */
  static final class Tally {
    final AtomicLong admitted = new AtomicLong();
    final AtomicLong throttled = new AtomicLong();
    final AtomicLong minWaitMs = new AtomicLong(Long.MAX_VALUE);
    final AtomicLong maxWaitMs = new AtomicLong();
    final List<Throwable> failures = new ArrayList<>();
    volatile long elapsedNanos;

    double seconds() {
      return elapsedNanos / 1e9;
    }

    @Override
    public String toString() {
      String first;
      synchronized (failures) {
        first = failures.isEmpty() ? "" : " (first: " + failures.get(0) + ")";
      }
      return "admitted=" + admitted + " throttled=" + throttled + " wait(ms)=[" + minWaitMs
        + ", " + maxWaitMs + "] failures=" + failures.size() + first + " over "
        + String.format("%.2f s", seconds());
    }
  }

  private LoadProbe() {
  }

  static User user(Configuration conf, String name) {
    return User.createUserForTesting(conf, name, new String[] { name + "_group" });
  }

  /** A connection whose requests carry {@code user}, with client retries off. */
  static Connection connect(Configuration clusterConf, User user) throws Exception {
    Configuration conf = new Configuration(clusterConf);
    conf.setInt(HConstants.HBASE_CLIENT_RETRIES_NUMBER, 0);
    conf.setInt(HConstants.HBASE_CLIENT_OPERATION_TIMEOUT, 30_000);
    return user.runAs((PrivilegedExceptionAction<Connection>) () -> ConnectionFactory
      .createConnection(conf));
  }

  static RpcThrottlingException throttling(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof RpcThrottlingException) {
        return (RpcThrottlingException) c;
      }
    }
    return null;
  }

  /**
   * Runs {@code threads} closed-loop workers until {@code done} holds for what they saw (checked
   * between operations), and waits for them. Runs end on behaviour, never on a duration, so a
   * slow machine takes longer instead of seeing less; the case's own timeout bounds it.
   */
  static Tally runUntil(Connection c, TableName table, int threads,
    java.util.function.Predicate<Tally> done, Op op) throws Exception {
    Tally tally = new Tally();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    long start = System.nanoTime();
    List<Future<?>> futures = new ArrayList<>();
    for (int w = 0; w < threads; w++) {
      final long seed = w * 1_000_003L;
      futures.add(pool.submit(() -> {
        try (Table t = c.getTable(table)) {
          long i = seed;
          while (!done.test(tally)) {
            try {
              op.run(t, i++);
              tally.admitted.incrementAndGet();
            } catch (IOException e) {
              RpcThrottlingException r = throttling(e);
              if (r == null) {
                synchronized (tally.failures) {
                  tally.failures.add(e);
                }
                if (tally.failures.size() > 100) {
                  return null; // the case fails on them; do not spin
                }
                continue;
              }
              tally.throttled.incrementAndGet();
              long wait = r.getWaitInterval();
              tally.minWaitMs.accumulateAndGet(wait, Math::min);
              tally.maxWaitMs.accumulateAndGet(wait, Math::max);
              Thread.sleep(wait);
            }
          }
        }
        return null;
      }));
    }
    try {
      for (Future<?> f : futures) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    tally.elapsedNanos = System.nanoTime() - start;
    return tally;
  }
}
