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

import dev.hbasepatches.perf.PerfOptions.ChangeMode;
import java.io.Closeable;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.MiniHBaseCluster;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Consistency;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.JVMClusterUtil.RegionServerThread;

/**
 * Seed 004's Bloomberg experiment: reads must keep a millisecond SLA while a RegionServer dies.
 * Three region servers, one region with three replicas (the primary placed away from hbase:meta's
 * server, so the fault measures the replica failover and not a meta outage), open-loop Gets at a
 * fixed rate with latency counted from each read's intended start, and the primary's server
 * aborted (or stopped) part-way through. One run per mode, each on a cluster restored to three
 * servers: BASELINE reads STRONG (the primary only), UPSTREAM reads TIMELINE through HBase's own
 * client, PATCHED through the timeline-reads module's {@code TimelineReader}, reached by name so
 * that the tool runs without the module (that mode is then reported as not run).
 */
final class ReplicaFailover {

  static final int SERVERS = 3;
  /** The read SLA the seed names. */
  static final long SLA_MILLIS = 50;
  static final String READER_CLASS = TimelineReads.READER_CLASS;
  /** Threads issuing the open-loop reads; a read waits for one only when all are stuck. */
  static final int READ_THREADS = 200;

  /**
   * What region replicas need on the servers (timeline-reads' PATCH.md): replica replication
   * on, secondaries refreshing store files every second, replication retried every 100 ms, and
   * short ZooKeeper session and RPC timeouts so an aborted server is noticed within seconds.
   */
  static final Map<String, String> SERVER_SETTINGS = Map.of(
    "hbase.region.replica.replication.enabled", "true",
    "hbase.region.replica.wait.for.primary.flush", "true",
    "hbase.regionserver.storefile.refresh.period", "1000",
    "replication.source.sleepforretries", "100",
    "hbase.master.wait.on.regionservers.mintostart", String.valueOf(SERVERS),
    "zookeeper.session.timeout", "6000",
    "hbase.rpc.timeout", "2000",
    "hbase.client.operation.timeout", "60000");

  private static final int FRESH = 0;
  private static final int STALE = 1;
  private static final int EMPTY = 2;
  private static final int WRONG = 3;
  private static final int FAILED = 4;
  private static final int UNFINISHED = 5;

  /** Reads one row in one mode. */
  private interface Reader extends Closeable {
    Result get(Get get) throws IOException;

    default String stats() {
      return "";
    }
  }

  /** One mode's run: every read's intended start, latency and outcome. */
  static final class Arm {
    final ChangeMode mode;
    final long[] startNanos;
    final long[] latencyNanos;
    final int[] outcome;
    long faultNanos = -1;
    String faultWhat = "";
    /** How long the fault call took (the abort or stop, as the minicluster does it). */
    long faultTookNanos = -1;
    /** The region server the fault hit, by its index in the minicluster, or -1. */
    int faultedServer = -1;
    String readerStats = "";

    Arm(ChangeMode mode, int reads) {
      this.mode = mode;
      this.startNanos = new long[reads];
      this.latencyNanos = new long[reads];
      this.outcome = new int[reads];
      Arrays.fill(outcome, UNFINISHED);
    }

    long count(int kind) {
      return Arrays.stream(outcome).filter(o -> o == kind).count();
    }
  }

  private final PerfRun run;
  private final PerfOptions options;
  private final PrintStream notes;
  private final RowShape shape;

  ReplicaFailover(PerfRun run, PerfOptions options, PrintStream notes) {
    this.run = run;
    this.options = options;
    this.notes = notes;
    this.shape = new RowShape(options);
  }

  Duration duration() {
    return options.duration != null ? options.duration : Duration.ofSeconds(10);
  }

  double rate() {
    return options.targetRate > 0 ? options.targetRate : 100;
  }

  Duration faultAfter() {
    return options.faultAfter != null ? options.faultAfter
      : Duration.ofMillis(duration().toMillis() * 3 / 10);
  }

  ScenarioReport run() {
    Duration d = duration();
    if (faultAfter().compareTo(d) >= 0) {
      throw ToolFailure.usage("--faultAfter=" + faultAfter().toMillis() + "ms is not inside the "
        + d.toMillis() + " ms run (--duration)");
    }
    TableName name = TableName.valueOf(options.table);
    TableManager.TableState state = run.tables().prepare(name, options.inMemory);
    if (!state.loaded) {
      run.load(name, state, Command.REPLICA_FAILOVER);
    }
    List<Arm> arms = new ArrayList<>();
    List<String> notRun = new ArrayList<>();
    for (ChangeMode mode : options.failoverModes) {
      if (mode == ChangeMode.PATCHED && !readerOnClasspath()) {
        notRun.add("PATCHED not run: no " + READER_CLASS + " on the class path (build "
          + "hbase-patches/timeline-reads, or add its jar with HBASE_PERF_CLASSPATH)");
        notes.println("replicaFailover: " + notRun.get(notRun.size() - 1));
        continue;
      }
      restore(name);
      Arm arm = runArm(name, mode);
      arms.add(arm);
      if (arm.faultedServer >= 0) {
        // The next restore counts live servers: this one must be gone first.
        mini().waitOnRegionServer(arm.faultedServer);
      }
    }
    return report(arms, notRun);
  }

  static boolean readerOnClasspath() {
    try {
      Class.forName(READER_CLASS, false, ReplicaFailover.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  private MiniHBaseCluster mini() {
    return run.miniCluster().util().getMiniHBaseCluster();
  }

  /**
   * Brings the cluster back to {@link #SERVERS} live servers, flushes the table (a secondary
   * opened anew serves reads once it has seen a primary flush), puts replica r on the r-th
   * server with the primary away from meta's, and waits until every replica answers.
   */
  private void restore(TableName name) {
    MiniHBaseCluster mini = mini();
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    try {
      while (liveServers(mini) < SERVERS) {
        notes.println("replicaFailover: starting a region server to replace the stopped one");
        mini.startRegionServer().waitForServerOnline();
      }
      run.miniCluster().util().waitUntilNoRegionsInTransition(180_000);
      ServerName meta = mini.getServerHoldingMeta();
      List<ServerName> targets = new ArrayList<>();
      for (RegionServerThread t : mini.getLiveRegionServerThreads()) {
        ServerName s = t.getRegionServer().getServerName();
        if (t.getRegionServer().isAborted() || t.getRegionServer().isStopped()) {
          continue;
        }
        if (!s.equals(meta)) {
          targets.add(s);
        }
      }
      if (meta != null) {
        targets.add(meta);
      }
      try (Admin admin = run.connection().getAdmin();
        RegionLocator l = run.connection().getRegionLocator(name)) {
        for (HRegionLocation loc : l.getRegionLocations(RowKeys.key(0), true)) {
          ServerName want = targets.get(loc.getRegion().getReplicaId() % targets.size());
          if (!want.equals(loc.getServerName())) {
            admin.move(loc.getRegion().getEncodedNameAsBytes(), want);
          }
        }
        run.miniCluster().util().waitUntilNoRegionsInTransition(180_000);
        admin.flush(name);
      }
      waitForReplicas(name, deadline);
    } catch (IOException e) {
      throw ToolFailure.cluster("could not restore the cluster for replicaFailover", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw ToolFailure.cluster("interrupted while restoring the cluster");
    }
  }

  private static int liveServers(MiniHBaseCluster mini) {
    int live = 0;
    for (RegionServerThread t : mini.getLiveRegionServerThreads()) {
      if (!t.getRegionServer().isAborted() && !t.getRegionServer().isStopped()) {
        live++;
      }
    }
    return live;
  }

  private void waitForReplicas(TableName name, long deadline) throws InterruptedException {
    Set<Integer> answered = new HashSet<>();
    String last = "";
    try (Table t = run.connection().getTable(name)) {
      while (answered.size() < SERVERS && System.nanoTime() < deadline) {
        for (int r = 0; r < SERVERS; r++) {
          if (answered.contains(r)) {
            continue;
          }
          try {
            Get g = new Get(RowKeys.key(0)).setConsistency(Consistency.TIMELINE).setReplicaId(r);
            if (!t.get(g).isEmpty()) {
              answered.add(r);
            }
          } catch (IOException e) {
            last = ToolFailure.describe(e);
          }
        }
        if (answered.size() < SERVERS) {
          Thread.sleep(200);
        }
      }
    } catch (IOException e) {
      last = ToolFailure.describe(e);
    }
    if (answered.size() < SERVERS) {
      throw ToolFailure.cluster("replicas " + answered + " of " + SERVERS + " answer after "
        + "3 minutes" + (last.isEmpty() ? "" : ": " + last));
    }
  }

  private Reader reader(ChangeMode mode, TableName name, Configuration conf) throws IOException {
    Connection conn = ConnectionFactory.createConnection(conf);
    if (mode != ChangeMode.PATCHED) {
      Table t = conn.getTable(name);
      Consistency c = mode == ChangeMode.BASELINE ? Consistency.STRONG : Consistency.TIMELINE;
      return new Reader() {
        @Override
        public Result get(Get get) throws IOException {
          return t.get(get.setConsistency(c));
        }

        @Override
        public void close() throws IOException {
          t.close();
          conn.close();
        }
      };
    }
    AsyncConnection async = null;
    try {
      async = ConnectionFactory.createAsyncConnection(conf).get(60, TimeUnit.SECONDS);
      TimelineReads reads = TimelineReads.load();
      Object reader = reads.open(conn, async, name);
      AsyncConnection asyncConn = async;
      return new Reader() {
        @Override
        public Result get(Get g) throws IOException {
          return reads.get(reader, g.setConsistency(Consistency.TIMELINE));
        }

        @Override
        public String stats() {
          return reads.stats(reader);
        }

        @Override
        public void close() throws IOException {
          ((Closeable) reader).close();
          asyncConn.close();
          conn.close();
        }
      };
    } catch (IOException | RuntimeException e) {
      closeQuietly(async);
      conn.close();
      throw e instanceof IOException ? (IOException) e
        : new IOException("could not build the timeline-reads reader: "
          + ToolFailure.describe(e), e);
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      conn.close();
      throw new IOException("could not open the timeline-reads reader's AsyncConnection: "
        + ToolFailure.describe(e), e);
    } catch (InterruptedException e) {
      conn.close();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  private static void closeQuietly(Closeable c) {
    if (c != null) {
      try {
        c.close();
      } catch (IOException e) {
        // The reader failed already; that failure is the one reported.
      }
    }
  }

  private Arm runArm(TableName name, ChangeMode mode) {
    Duration d = duration();
    double rate = rate();
    int reads = (int) Math.max(1, Math.round(rate * d.toNanos() / 1e9));
    Arm arm = new Arm(mode, reads);
    long interval = Math.round(1e9 / rate);
    long faultAt = faultAfter().toNanos();
    Configuration conf = new Configuration(run.miniCluster().conf());
    conf.set("hbasepatches.timeline.mode", mode.name());
    notes.println(String.format(Locale.ROOT, "replicaFailover %s: %,d reads at %,.0f/s over %.1f"
      + " s, %s of the primary's server at %.1f s", mode, reads, rate, d.toMillis() / 1e3,
      options.fault, faultAt / 1e9));
    Random random = new Random(options.seed * 31 + mode.ordinal());
    long totalRows = options.totalRows();
    ThreadPoolExecutor pool = new ThreadPoolExecutor(READ_THREADS, READ_THREADS, 10,
      TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
        Thread t = new Thread(r, "hbase-perf-failover-read");
        t.setDaemon(true);
        return t;
      });
    pool.prestartAllCoreThreads();
    AtomicReference<RuntimeException> faultError = new AtomicReference<>();
    Thread faulter = null;
    try (Reader reader = reader(mode, name, conf)) {
      // One read first, so the connection has found the region before the clock starts.
      reader.get(new Get(RowKeys.key(0)));
      long t0 = System.nanoTime();
      // The fault runs on its own thread, so the reads keep their schedule while the server is
      // aborted; reads intended from the fault's time on count as after it.
      arm.faultNanos = faultAt;
      faulter = new Thread(() -> {
        try {
          sleepUntil(t0 + faultAt);
          arm.faultWhat = fault(name, arm);
          arm.faultTookNanos = System.nanoTime() - t0 - faultAt;
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
          faultError.set(e);
        }
      }, "hbase-perf-failover-fault");
      faulter.setDaemon(true);
      faulter.start();
      for (int i = 0; i < reads; i++) {
        long intended = i * interval;
        sleepUntil(t0 + intended);
        int index = i;
        long row = (long) (random.nextDouble() * totalRows);
        arm.startNanos[i] = intended;
        pool.execute(() -> read(reader, arm, index, row, t0 + intended));
      }
      faulter.join(TimeUnit.MINUTES.toMillis(3));
      if (faultError.get() != null) {
        throw faultError.get();
      }
      if (faulter.isAlive()) {
        throw ToolFailure.cluster("replicaFailover " + mode + ": the " + options.fault
          + " of the primary's server did not return within 3 minutes");
      }
      pool.shutdown();
      if (!pool.awaitTermination(90, TimeUnit.SECONDS)) {
        notes.println("replicaFailover " + mode + ": reads still running after 90 s are "
          + "counted as failed");
        pool.shutdownNow();
      }
      arm.readerStats = reader.stats();
    } catch (IOException e) {
      throw ToolFailure.cluster("replicaFailover " + mode + ": the reader failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw ToolFailure.cluster("replicaFailover " + mode + ": interrupted");
    } finally {
      pool.shutdownNow();
      if (faulter != null) {
        faulter.interrupt();
      }
    }
    notes.println(String.format(Locale.ROOT, "replicaFailover %s: %s; %d failed, %d empty, "
      + "%d wrong, %d stale", mode, arm.faultWhat, arm.count(FAILED) + arm.count(UNFINISHED),
      arm.count(EMPTY), arm.count(WRONG), arm.count(STALE)));
    return arm;
  }

  private void read(Reader reader, Arm arm, int i, long row, long intendedStart) {
    int outcome;
    try {
      Result r = reader.get(new Get(RowKeys.key(row)));
      if (r == null || r.isEmpty()) {
        outcome = EMPTY;
      } else if (shape.check(r, row) != null) {
        outcome = WRONG;
      } else {
        outcome = r.isStale() ? STALE : FRESH;
      }
    } catch (IOException | RuntimeException e) {
      outcome = FAILED;
    }
    arm.latencyNanos[i] = System.nanoTime() - intendedStart;
    arm.outcome[i] = outcome;
  }

  private static void sleepUntil(long nanoTime) throws InterruptedException {
    long wait;
    while ((wait = nanoTime - System.nanoTime()) > 0) {
      TimeUnit.NANOSECONDS.sleep(Math.min(wait, 50_000_000));
    }
  }

  /** Aborts or stops the server holding the primary of the table's first region. */
  private String fault(TableName name, Arm arm) {
    try (RegionLocator l = run.connection().getRegionLocator(name)) {
      ServerName primary = l.getRegionLocation(RowKeys.key(0), 0, true).getServerName();
      MiniHBaseCluster mini = mini();
      List<RegionServerThread> threads = mini.getRegionServerThreads();
      for (int i = 0; i < threads.size(); i++) {
        if (threads.get(i).getRegionServer().getServerName().equals(primary)
          && threads.get(i).isAlive()) {
          if (options.fault.equals("stop")) {
            mini.stopRegionServer(i);
          } else {
            mini.abortRegionServer(i);
          }
          arm.faultedServer = i;
          return options.fault + " of " + primary.toShortString();
        }
      }
      throw ToolFailure.cluster("no live region server " + primary + " holds the primary");
    } catch (IOException e) {
      throw ToolFailure.cluster("could not find the primary's server", e);
    }
  }

  static final List<String> COLUMNS = List.of("mode", "reads", "failed", "empty or wrong",
    "stale", "p50 ms", "p99 ms", "max ms", "max after fault ms", "within " + SLA_MILLIS + " ms",
    "within " + SLA_MILLIS + " ms after fault", "p99 after fault ms", "reads after fault",
    "within " + SLA_MILLIS + " ms after fault (reads)");

  private ScenarioReport report(List<Arm> arms, List<String> notRun) {
    ScenarioReport report = new ScenarioReport("replicaFailover", String.format(Locale.ROOT,
      "Replica failover: %s of the primary's server at %.1f s of %.1f s, %,.0f reads/s, "
        + "%,d rows, %d servers, region replication %d", options.fault,
      faultAfter().toMillis() / 1e3, duration().toMillis() / 1e3, rate(), options.totalRows(),
      SERVERS, SERVERS), COLUMNS);
    long bucket = Math.max(100_000_000L, duration().toNanos() / 40);
    int buckets = (int) ((duration().toNanos() + bucket - 1) / bucket);
    List<String> xLabels = new ArrayList<>();
    for (int b = 0; b < buckets; b++) {
      xLabels.add(String.format(Locale.ROOT, "%.1f", b * bucket / 1e9));
    }
    ScenarioReport.Chart maxChart = new ScenarioReport.Chart("Slowest read per "
      + bucket / 1_000_000 + " ms of intended start", "ms", xLabels, false);
    List<List<String>> series = new ArrayList<>();
    for (Arm a : arms) {
      Histogram all = new Histogram(3);
      Histogram afterAll = new Histogram(3);
      long afterMax = 0;
      long within = 0;
      long afterWithin = 0;
      long after = 0;
      double[] maxPerBucket = new double[buckets];
      Histogram[] perBucket = new Histogram[buckets];
      long[] failedPerBucket = new long[buckets];
      for (int i = 0; i < a.outcome.length; i++) {
        long lat = Math.max(1, a.latencyNanos[i]);
        boolean ok = a.outcome[i] == FRESH || a.outcome[i] == STALE;
        int b = (int) Math.min(buckets - 1, a.startNanos[i] / bucket);
        if (a.outcome[i] == UNFINISHED) {
          failedPerBucket[b]++;
          continue;
        }
        all.recordValue(lat);
        if (perBucket[b] == null) {
          perBucket[b] = new Histogram(3);
        }
        perBucket[b].recordValue(lat);
        maxPerBucket[b] = Math.max(maxPerBucket[b], lat / 1e6);
        if (!ok) {
          failedPerBucket[b]++;
        }
        boolean inSla = ok && lat <= SLA_MILLIS * 1_000_000;
        within += inSla ? 1 : 0;
        if (a.faultNanos >= 0 && a.startNanos[i] >= a.faultNanos) {
          afterAll.recordValue(lat);
          after++;
          afterWithin += inSla ? 1 : 0;
          afterMax = Math.max(afterMax, lat);
        }
      }
      long n = a.outcome.length;
      report.row(a.mode.name() + (a.mode == ChangeMode.BASELINE ? " (STRONG)"
          : a.mode == ChangeMode.UPSTREAM ? " (HBase TIMELINE)" : " (TimelineReader)"),
        n, a.count(FAILED) + a.count(UNFINISHED), a.count(EMPTY) + a.count(WRONG),
        a.count(STALE), ms(all, 50), ms(all, 99), all.getMaxValue() / 1e6, afterMax / 1e6,
        (double) within / n, after == 0 ? null : (double) afterWithin / after,
        after == 0 ? null : ms(afterAll, 99), after, afterWithin);
      maxChart.series(a.mode.name(), maxPerBucket);
      for (int b = 0; b < buckets; b++) {
        Histogram h = perBucket[b];
        series.add(List.of(a.mode.name(), xLabels.get(b),
          String.valueOf(h == null ? 0 : h.getTotalCount()),
          ScenarioReport.format(h == null ? Double.NaN : ms(h, 50)),
          ScenarioReport.format(h == null ? Double.NaN : ms(h, 99)),
          ScenarioReport.format(maxPerBucket[b]), String.valueOf(failedPerBucket[b])));
      }
      report.note(a.mode + ": " + a.faultWhat + " at " + String.format(Locale.ROOT, "%.2f s"
        + " (the call returned after %.1f ms)", a.faultNanos / 1e9, a.faultTookNanos / 1e6)
        + (a.readerStats.isEmpty() ? "" : "; reader " + a.readerStats));
    }
    notRun.forEach(report::note);
    report.note("Latency counts from each read's intended start (open loop, fixed interval, "
      + READ_THREADS + " reader threads), so a stall delays every read scheduled during it. "
      + "Failed: an error or no answer within 90 s after the run; empty or wrong: an answer "
      + "without the row as written (the table was loaded and flushed before).");
    report.note("Each mode runs on the cluster restored to " + SERVERS + " servers, replicas "
      + "re-placed (primary away from hbase:meta's server) and the table flushed. Server "
      + "settings: " + new java.util.TreeMap<>(SERVER_SETTINGS) + ".");
    report.note("One run per mode on one machine: a single failover per mode, not an interval;"
      + " repeat the command for a spread.");
    if (!arms.isEmpty()) {
      report.chart(maxChart);
    }
    report.csv("timeseries", List.of("mode", "second", "reads", "p50 ms", "p99 ms", "max ms",
      "failed"), series);
    return report;
  }

  private static double ms(Histogram h, double percentile) {
    return h.getValueAtPercentile(percentile) / 1e6;
  }

  static Map<String, String> serverSettings() {
    return new LinkedHashMap<>(SERVER_SETTINGS);
  }
}
