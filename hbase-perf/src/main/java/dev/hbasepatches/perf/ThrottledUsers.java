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
import java.io.PrintStream;
import java.security.PrivilegedExceptionAction;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.quotas.QuotaSettingsFactory;
import org.apache.hadoop.hbase.quotas.RpcThrottlingException;
import org.apache.hadoop.hbase.quotas.ThrottleType;
import org.apache.hadoop.hbase.regionserver.HRegionServer;
import org.apache.hadoop.hbase.security.User;

/**
 * Seed 004's quota experiment: two users read the same table at once, closed loop, one under a
 * request throttle set as {@code set_quota} sets it. Client retries are off, so every refusal is
 * seen and counted; a refused client waits the interval the server asked for, as a polite client
 * would. Stock HBase's quotas, or the quotas module's limiter with {@code --changes=quotas}.
 */
final class ThrottledUsers {

  static final String THROTTLED = "perf_throttled";
  static final String FREE = "perf_free";
  static final int REFRESH_MILLIS = 500;

  /** Quotas on, and read back by the servers every half second rather than every 5 minutes. */
  static final Map<String, String> SERVER_SETTINGS = Map.of("hbase.quota.enabled", "true",
    "hbase.quota.refresh.period", String.valueOf(REFRESH_MILLIS));

  /** What one user's clients saw. */
  static final class Tally {
    final String user;
    final Recorder latency = new Recorder(3);
    final AtomicLong admitted = new AtomicLong();
    final AtomicLong refused = new AtomicLong();
    final AtomicLong failed = new AtomicLong();
    final AtomicLong wrong = new AtomicLong();
    final AtomicLongArray perSecond;
    volatile boolean counting;
    String lastError = "";

    Tally(String user, int seconds) {
      this.user = user;
      this.perSecond = new AtomicLongArray(seconds + 1);
    }
  }

  private final PerfRun run;
  private final PerfOptions options;
  private final PrintStream notes;

  ThrottledUsers(PerfRun run, PerfOptions options, PrintStream notes) {
    this.run = run;
    this.options = options;
    this.notes = notes;
  }

  /** The limit and its time unit from a {@code 50req/sec} text (checked by the parser). */
  static long limit(String throttle) {
    return Long.parseLong(throttle.substring(0, throttle.indexOf("req")));
  }

  static TimeUnit unit(String throttle) {
    String u = throttle.substring(throttle.indexOf('/') + 1);
    switch (u) {
      case "sec":
        return TimeUnit.SECONDS;
      case "min":
        return TimeUnit.MINUTES;
      case "hour":
        return TimeUnit.HOURS;
      default:
        return TimeUnit.DAYS;
    }
  }

  static double perSecond(String throttle) {
    return limit(throttle) / (double) unit(throttle).toSeconds(1);
  }

  ScenarioReport run() {
    TableName name = TableName.valueOf(options.table);
    TableManager.TableState state = run.tables().prepare(name, options.inMemory);
    if (!state.loaded) {
      run.load(name, state, Command.THROTTLED_USERS);
    }
    Duration d = options.duration != null ? options.duration : Duration.ofSeconds(10);
    Duration warmup = options.warmup != null ? options.warmup : Duration.ofSeconds(3);
    int seconds = (int) Math.max(1, (d.toMillis() + 999) / 1000);
    String server = serverClass();
    try (Admin admin = run.connection().getAdmin()) {
      admin.setQuota(QuotaSettingsFactory.throttleUser(THROTTLED, ThrottleType.REQUEST_NUMBER,
        limit(options.throttle), unit(options.throttle)));
      notes.println("throttledUsers: " + THROTTLED + " limited to " + options.throttle + ", "
        + FREE + " unlimited; region servers " + server);
      Tally throttled = new Tally(THROTTLED, seconds);
      Tally free = new Tally(FREE, seconds);
      List<Thread> threads = new ArrayList<>();
      List<Connection> connections = new ArrayList<>();
      long end;
      try {
        Connection tc = connect(THROTTLED);
        connections.add(tc);
        Connection fc = connect(FREE);
        connections.add(fc);
        long start = System.nanoTime() + warmup.toNanos();
        end = start + d.toNanos();
        for (int c = 0; c < options.clients; c++) {
          threads.add(client(tc, name, throttled, c, start, end));
          threads.add(client(fc, name, free, 1000 + c, start, end));
        }
        threads.forEach(Thread::start);
        notes.println(String.format(Locale.ROOT, "throttledUsers: %d client(s) per user, %.1f s "
          + "warm-up (the servers pick the quota up within %d ms) then %.1f s measured",
          options.clients, warmup.toMillis() / 1e3, REFRESH_MILLIS, d.toMillis() / 1e3));
        for (Thread t : threads) {
          t.join(d.toMillis() + warmup.toMillis() + 120_000);
          if (t.isAlive()) {
            throw ToolFailure.cluster("throttledUsers: a client did not finish 2 minutes after "
              + "the end");
          }
        }
      } finally {
        for (Connection c : connections) {
          c.close();
        }
        admin.setQuota(QuotaSettingsFactory.unthrottleUser(THROTTLED));
      }
      return report(List.of(throttled, free), d, server);
    } catch (IOException e) {
      throw ToolFailure.cluster("throttledUsers could not set or clear the quota", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw ToolFailure.cluster("throttledUsers: interrupted");
    }
  }

  private String serverClass() {
    HRegionServer rs = run.miniCluster().regionServer(0);
    return rs == null ? "?" : rs.getClass().getName();
  }

  /**
   * Whose limiter the servers run: HBase's own region server classes (the minicluster's
   * MiniHBaseClusterRegionServer among them) have stock quotas; any other is a change module's.
   */
  static String limiter(String serverClass, PerfOptions.ChangeMode mode) {
    if (serverClass.startsWith("org.apache.hadoop.hbase.")) {
      return "stock HBase's limiter (region servers " + simpleName(serverClass) + ")";
    }
    return "the region servers are " + simpleName(serverClass) + " (--changes=quotas, mode "
      + mode + ")";
  }

  private static String simpleName(String className) {
    return className.substring(Math.max(className.lastIndexOf('.'), className.lastIndexOf('$'))
      + 1);
  }

  private Connection connect(String user) throws IOException {
    Configuration conf = new Configuration(run.miniCluster().conf());
    conf.setInt(HConstants.HBASE_CLIENT_RETRIES_NUMBER, 0);
    conf.setInt(HConstants.HBASE_CLIENT_OPERATION_TIMEOUT, 30_000);
    User u = User.createUserForTesting(conf, user, new String[] { user + "_group" });
    try {
      return u.runAs((PrivilegedExceptionAction<Connection>) () -> ConnectionFactory
        .createConnection(conf));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted connecting as " + user, e);
    }
  }

  private Thread client(Connection conn, TableName name, Tally tally, int id, long start,
    long end) {
    RowShape shape = new RowShape(options);
    Random random = new Random(options.seed * 1_000_003 + id);
    long rows = options.totalRows();
    Thread t = new Thread(() -> {
      try (Table table = conn.getTable(name)) {
        while (true) {
          long now = System.nanoTime();
          if (now >= end) {
            return;
          }
          boolean counting = now >= start;
          long row = (long) (random.nextDouble() * rows);
          try {
            Result r = table.get(new Get(RowKeys.key(row)));
            long done = System.nanoTime();
            if (counting) {
              tally.latency.recordValue(Math.max(1, done - now));
              tally.admitted.incrementAndGet();
              tally.perSecond.incrementAndGet((int) Math.min(tally.perSecond.length() - 1,
                (now - start) / 1_000_000_000L));
              if (shape.check(r, row) != null) {
                tally.wrong.incrementAndGet();
              }
            }
          } catch (IOException e) {
            RpcThrottlingException refusal = throttling(e);
            if (refusal == null) {
              if (counting) {
                tally.failed.incrementAndGet();
              }
              tally.lastError = ToolFailure.describe(e);
              Thread.sleep(10);
            } else {
              if (counting) {
                tally.refused.incrementAndGet();
              }
              Thread.sleep(Math.max(1, Math.min(1000, refusal.getWaitInterval())));
            }
          }
        }
      } catch (IOException e) {
        tally.lastError = ToolFailure.describe(e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "hbase-perf-" + tally.user + "-" + id);
    t.setDaemon(true);
    return t;
  }

  static RpcThrottlingException throttling(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof RpcThrottlingException) {
        return (RpcThrottlingException) c;
      }
    }
    return null;
  }

  static final List<String> COLUMNS = List.of("user", "limit", "clients", "admitted",
    "admitted/s", "refused", "failed", "wrong", "p50 ms", "p99 ms", "max ms");

  private ScenarioReport report(List<Tally> tallies, Duration d, String server) {
    ScenarioReport report = new ScenarioReport("throttledUsers", String.format(Locale.ROOT,
      "Throttled vs unthrottled users: %s at %s, %d client(s) each, %.1f s, region servers %s",
      THROTTLED, options.throttle, options.clients, d.toMillis() / 1e3, server), COLUMNS);
    int seconds = tallies.get(0).perSecond.length() - 1;
    List<String> x = new ArrayList<>();
    for (int s = 0; s < seconds; s++) {
      x.add(String.valueOf(s));
    }
    ScenarioReport.Chart chart = new ScenarioReport.Chart("Admitted reads per second", "reads/s",
      x, false);
    List<List<String>> series = new ArrayList<>();
    for (Tally t : tallies) {
      Histogram h = t.latency.getIntervalHistogram();
      boolean empty = h.getTotalCount() == 0;
      report.row(t.user, t.user.equals(THROTTLED) ? options.throttle : "none", options.clients,
        t.admitted.get(), t.admitted.get() / (d.toNanos() / 1e9), t.refused.get(),
        t.failed.get(), t.wrong.get(), empty ? null : h.getValueAtPercentile(50) / 1e6,
        empty ? null : h.getValueAtPercentile(99) / 1e6, empty ? null : h.getMaxValue() / 1e6);
      double[] values = new double[seconds];
      for (int s = 0; s < seconds; s++) {
        values[s] = t.perSecond.get(s);
        series.add(List.of(t.user, String.valueOf(s), String.valueOf(t.perSecond.get(s))));
      }
      chart.series(t.user, values);
      if (!t.lastError.isEmpty()) {
        report.note(t.user + "'s last error: " + t.lastError);
      }
    }
    report.note(String.format(Locale.ROOT, "The throttle allows %.1f reads/s; admitted/s is over "
      + "the measured %.1f s after the warm-up. Client retries are off: a refused read is "
      + "counted and its client waits the interval the server gave (at most 1 s).",
      perSecond(options.throttle), d.toMillis() / 1e3));
    report.note("Quotas: " + limiter(server, options.changeMode) + "; servers refresh quotas "
      + "every " + REFRESH_MILLIS + " ms.");
    report.chart(chart);
    report.csv("persecond", List.of("user", "second", "admitted"), series);
    return report;
  }
}
