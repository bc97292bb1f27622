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
package dev.hbasepatches.timeline;

import dev.hbasepatches.testkit.Intervals;
import dev.hbasepatches.testkit.MiniCluster;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.MiniHBaseCluster;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Consistency;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.ClassRule;
import org.junit.Test;

/**
 * The open-loop latency scenario of issue 16, on a 3-RegionServer minicluster with region
 * replication 3, 10k flushed rows and a background writer: Poisson arrivals, latency from each
 * read's intended start (HdrHistogram), extra RPCs per read counted on the servers, stale
 * fraction. Arms BASELINE / UPSTREAM / PATCHED interleaved round by round under each fault:
 * healthy, a primary pausing 200 ms on 3% of reads, a uniformly slow primary (+20 ms); then a
 * primary abort and a graceful stop mid-run. Not a unit test (minutes of load): run it with
 * {@code -Ptimeline-scenario}; settings as system properties {@code scenario.rounds} (5),
 * {@code scenario.rate} (reads/s, 100), {@code scenario.seconds} (per arm and round, 8),
 * {@code scenario.failover.rounds} (1), {@code scenario.failover.seconds} (15, the fault 3 s in),
 * {@code scenario.out} (target/timeline-scenario). With {@code scenario.rounds=0} only the
 * failover runs are made: per round a graceful stop then an abort of the primary's server under
 * each mode, the mode order reversed on even rounds. Every run also counts, on the servers, the
 * Gets each replica answered with no cell at all (the rows read all exist).
 */
public class TimelineLatencyScenario {

  private static final TableName TABLE = TableName.valueOf("timeline_scenario");
  private static final byte[] F = ReplicaTagObserver.FAMILY;
  private static final byte[] V = Bytes.toBytes("v");
  private static final int ROWS = 10_000;
  private static final long SEED = 4242L;

  @ClassRule
  public static final MiniCluster CLUSTER = ReplicaClusters.threeServers()
    .conf("hbase.client.operation.timeout", "30000")
    .conf("hbase.regionserver.handler.count", "30")
    .build();

  private final int rounds = Integer.getInteger("scenario.rounds", 5);
  private final double rate = Double.parseDouble(System.getProperty("scenario.rate", "100"));
  private final int seconds = Integer.getInteger("scenario.seconds", 8);
  private final int failoverRounds = Integer.getInteger("scenario.failover.rounds", 1);
  private final int failoverSeconds = Integer.getInteger("scenario.failover.seconds", 15);
  private final Path out =
    Paths.get(System.getProperty("scenario.out", "target/timeline-scenario"));

  private final AtomicBoolean writing = new AtomicBoolean(true);
  private final AtomicLong writes = new AtomicLong();
  private final Map<TimelineMode, Connection> sync = new EnumMap<>(TimelineMode.class);
  private final Map<TimelineMode, AsyncConnection> async = new EnumMap<>(TimelineMode.class);

  /** One run of one arm: what the reads saw. */
  static final class Run {
    final Histogram latency = new Histogram(TimeUnit.SECONDS.toMicros(60), 3);
    long reads;
    long stale;
    long errors;
    long serverGets;
    long within50ms;
    long empty;
    final long[] serverEmpty = new long[3];
    final List<String> emptySeen = new ArrayList<>();
    String loadBefore = "";
    String loadAfter = "";
    final Map<String, Integer> errorKinds = new LinkedHashMap<>();
    final List<long[]> timeline = new ArrayList<>(); // {start offset us, latency us, stale}
    /** Every read: row, intended and actual start, end (nanoTime), stale, ok. */
    final List<Object[]> each = new ArrayList<>();
    final List<ReplicaTagObserver.Served> served = new ArrayList<>();
    long startNanos;
    long faultNanos;
    String stats = "";
    TimelineMode mode;
    int round;

    double extraPerRead() {
      return reads == 0 ? 0 : (serverGets - reads) / (double) reads;
    }
  }

  @Test
  public void run() throws Exception {
    Files.createDirectories(out);
    setUp();
    Thread writer = new Thread(this::writeForever, "scenario-writer");
    writer.setDaemon(true);
    writer.start();
    Map<String, Map<TimelineMode, List<Run>>> results = new LinkedHashMap<>();
    String[] faults = { "healthy", "pause3pct200ms", "slowPrimary20ms" };
    try {
      for (int round = 1; round <= rounds; round++) {
        for (String fault : faults) {
          List<TimelineMode> order = new ArrayList<>(List.of(TimelineMode.values()));
          if (round % 2 == 0) {
            java.util.Collections.reverse(order);
          }
          for (TimelineMode m : order) {
            setFault(fault);
            try {
              Run r = load(m, seconds, round, null);
              results.computeIfAbsent(fault, k -> new EnumMap<>(TimelineMode.class))
                .computeIfAbsent(m, k -> new ArrayList<>()).add(r);
              log(fault + " round " + round + " " + m + ": " + describe(r));
              writeReads(fault, m, round, r);
            } finally {
              ReplicaTagObserver.healthy();
            }
          }
        }
      }
      for (int round = 1; round <= failoverRounds; round++) {
        List<TimelineMode> order = new ArrayList<>(List.of(TimelineMode.values()));
        if (round % 2 == 0) {
          java.util.Collections.reverse(order);
        }
        for (String fault : new String[] { "gracefulStop", "abort" }) {
          for (TimelineMode m : order) {
            placeReplicas();
            Run r = load(m, failoverSeconds, round, fault);
            results.computeIfAbsent(fault, k -> new EnumMap<>(TimelineMode.class))
              .computeIfAbsent(m, k -> new ArrayList<>()).add(r);
            log(fault + " round " + round + " " + m + ": " + describe(r));
            writeTimeline(fault, m, round, r);
            writeReads(fault, m, round, r);
            restoreServers();
          }
        }
      }
    } finally {
      writing.set(false);
      writer.join(10_000);
      writeSummary(results);
      for (Connection c : sync.values()) {
        c.close();
      }
      for (AsyncConnection c : async.values()) {
        c.close();
      }
    }
  }

  private void setUp() throws Exception {
    ReplicaClusters.createAndLoad(CLUSTER, TABLE, F, V,
      java.util.stream.IntStream.range(0, ROWS).mapToObj(TimelineLatencyScenario::row)
        .collect(java.util.stream.Collectors.toList()), 500);
    placeReplicas();
    Thread.sleep(3000); // store-file refresh on the secondaries
    for (TimelineMode m : TimelineMode.values()) {
      Configuration conf = new Configuration(CLUSTER.conf());
      conf.set(TimelineMode.KEY, m.name());
      sync.put(m, ConnectionFactory.createConnection(conf));
      async.put(m, ConnectionFactory.createAsyncConnection(conf).get(60, TimeUnit.SECONDS));
    }
  }

  private static String row(int i) {
    return String.format("row-%06d", i);
  }

  private void writeForever() {
    Random rnd = new Random(SEED);
    try (Table t = CLUSTER.connection().getTable(TABLE)) {
      while (writing.get()) {
        try {
          t.put(new Put(Bytes.toBytes(row(rnd.nextInt(ROWS)))).addColumn(F, V,
            Bytes.toBytes("v" + writes.incrementAndGet())));
        } catch (IOException e) {
          // a write during a failover may fail; the writer only keeps the memstores busy
        }
        Thread.sleep(10);
      }
    } catch (Exception e) {
      // shutting down
    }
  }

  private static void setFault(String fault) {
    switch (fault) {
      case "pause3pct200ms":
        ReplicaTagObserver.slowPrimary(0.03, 200);
        break;
      case "slowPrimary20ms":
        ReplicaTagObserver.slowPrimary(1.0, 20);
        break;
      default:
        ReplicaTagObserver.healthy();
    }
  }

  /**
   * Open-loop load: Poisson arrivals at {@link #rate}, each read on a pool thread, its latency
   * counted from when it was meant to start, so a stalled client shows up as latency.
   */
  private Run load(TimelineMode mode, int secs, int round, String failover) throws Exception {
    Run run = new Run();
    run.mode = mode;
    run.round = round;
    Random rnd = new Random(SEED * 31 + round);
    ExecutorService pool = Executors.newFixedThreadPool(256);
    Object lock = new Object();
    try (TimelineReader reader = TimelineReader.create(sync.get(mode), async.get(mode), TABLE)) {
      for (int i = 0; i < 200; i++) { // warm the connection's caches and the policy
        reader.get(new Get(Bytes.toBytes(row(rnd.nextInt(ROWS))))
          .setConsistency(Consistency.TIMELINE));
      }
      ReplicaTagObserver.reset();
      ReplicaTagObserver.trace(true);
      run.loadBefore = loadAverage();
      TimelineStats st = reader.stats();
      long[] before = { st.reads(), st.hedges(), st.budgetRefusals(), st.hedgesPastCap(),
        st.demotedReads(), st.unlocatedPrimaryReads(), st.staleAnswers() };
      long start = System.nanoTime();
      run.startNanos = start;
      long end = start + TimeUnit.SECONDS.toNanos(secs);
      long failAt = start + TimeUnit.SECONDS.toNanos(3);
      boolean failed = failover == null;
      long intended = start;
      while (intended < end) {
        intended += (long) (-Math.log(1 - rnd.nextDouble()) / rate * 1e9);
        long now;
        while ((now = System.nanoTime()) < intended) {
          // park, never spin: the client shares two cores with the cluster; a late start is
          // still counted, since latency runs from the intended start
          java.util.concurrent.locks.LockSupport.parkNanos(intended - now);
        }
        if (!failed && now >= failAt) {
          failed = true;
          final String kind = failover;
          run.faultNanos = now;
          new Thread(() -> fail(kind), "scenario-failover").start();
        }
        final long t0 = intended;
        final byte[] row = Bytes.toBytes(row(rnd.nextInt(ROWS)));
        pool.execute(() -> {
          long began = System.nanoTime();
          boolean ok = true;
          boolean stale = false;
          String error = null;
          try {
            Result r = reader.get(new Get(row).setConsistency(Consistency.TIMELINE));
            stale = r.isStale();
            if (r.isEmpty()) { // every row read exists: an empty answer is a wrong one
              ok = false;
              error = "empty result";
            }
          } catch (Throwable e) {
            ok = false;
            String m = String.valueOf(e.getMessage());
            error = e.getClass().getSimpleName() + ": " + m.substring(0, Math.min(160, m.length()));
          }
          long t1 = System.nanoTime();
          long micros = Math.max(1, (t1 - t0) / 1000);
          synchronized (lock) {
            run.reads++;
            if (ok && micros <= 50_000) {
              run.within50ms++;
            }
            if ("empty result".equals(error)) {
              run.empty++;
            }
            if (!ok) {
              run.errors++;
              run.errorKinds.merge(error, 1, Integer::sum);
            }
            if (stale) {
              run.stale++;
            }
            run.latency.recordValue(Math.min(micros, run.latency.getHighestTrackableValue()));
            run.timeline.add(new long[] { (t0 - start) / 1000, micros, stale ? 1 : 0 });
            run.each.add(new Object[] { Bytes.toString(row), t0, began, t1, stale, ok });
          }
        });
      }
      pool.shutdown();
      pool.awaitTermination(120, TimeUnit.SECONDS);
      Thread.sleep(300);
      ReplicaTagObserver.trace(false);
      run.served.addAll(ReplicaTagObserver.SERVED);
      long[] after = { st.reads(), st.hedges(), st.budgetRefusals(), st.hedgesPastCap(),
        st.demotedReads(), st.unlocatedPrimaryReads(), st.staleAnswers() };
      if (mode == TimelineMode.PATCHED) {
        run.stats = String.format(Locale.ROOT,
          " reader: reads=%d hedges=%d refused=%d pastCap=%d demoted=%d unlocated=%d stale=%d",
          after[0] - before[0], after[1] - before[1], after[2] - before[2],
          after[3] - before[3], after[4] - before[4], after[5] - before[5],
          after[6] - before[6]);
      }
      run.serverGets = ReplicaTagObserver.gets();
      for (int i = 0; i < run.serverEmpty.length; i++) {
        run.serverEmpty[i] = ReplicaTagObserver.EMPTY_GETS.get(i);
      }
      run.emptySeen.addAll(ReplicaTagObserver.EMPTY_SEEN);
      run.loadAfter = loadAverage();
    } finally {
      pool.shutdownNow();
    }
    return run;
  }

  private ServerName primaryServer() throws IOException {
    try (RegionLocator l = CLUSTER.connection().getRegionLocator(TABLE)) {
      return l.getRegionLocation(HConstantsEmpty.ROW, 0, true).getServerName();
    }
  }

  /** Holder for the empty start row, so the locator finds the table's one region. */
  private static final class HConstantsEmpty {
    static final byte[] ROW = new byte[0];
  }

  private static int indexOf(ServerName sn) {
    MiniHBaseCluster c = CLUSTER.util().getMiniHBaseCluster();
    for (int i = 0; i < c.getRegionServerThreads().size(); i++) {
      if (!c.getRegionServerThreads().get(i).isAlive()) {
        continue;
      }
      if (c.getRegionServer(i).getServerName().equals(sn)) {
        return i;
      }
    }
    throw new IllegalStateException(sn + " is not a live server of the cluster");
  }

  private void fail(String kind) {
    try {
      ServerName primary = primaryServer();
      int i = indexOf(primary);
      log("failover: " + kind + " of " + primary + " at " + Instant.now());
      if (kind.equals("abort")) {
        CLUSTER.util().getMiniHBaseCluster().abortRegionServer(i);
      } else {
        CLUSTER.util().getMiniHBaseCluster().stopRegionServer(i);
      }
    } catch (Exception e) {
      log("failover " + kind + " failed: " + e);
    }
  }

  /** Back to three live servers after a failover, replicas apart again. */
  private void restoreServers() throws Exception {
    MiniHBaseCluster c = CLUSTER.util().getMiniHBaseCluster();
    c.getLiveRegionServerThreads();
    while (c.getLiveRegionServerThreads().size() < 3) {
      c.startRegionServer();
    }
    CLUSTER.util().waitUntilNoRegionsInTransition(120_000);
    placeReplicas();
  }

  /** One replica per server, the primary away from hbase:meta's server. */
  private void placeReplicas() throws Exception {
    log(ReplicaClusters.placeReplicas(CLUSTER, TABLE));
  }

  /** The machine's 1-minute load average, to show how busy the shared machine was. */
  private static String loadAverage() {
    try {
      return Files.readAllLines(Paths.get("/proc/loadavg")).get(0).split(" ")[0];
    } catch (IOException | RuntimeException e) {
      return "?";
    }
  }

  private static String describe(Run r) {
    Histogram h = r.latency;
    return String.format(Locale.ROOT,
      "reads=%d p50=%.2fms p99=%.2fms p99.9=%.2fms max=%.2fms extra/read=%.3f stale=%.3f errors=%d"
        + " load %s->%s",
      r.reads, h.getValueAtPercentile(50) / 1e3, h.getValueAtPercentile(99) / 1e3,
      h.getValueAtPercentile(99.9) / 1e3, h.getMaxValue() / 1e3, r.extraPerRead(),
      r.reads == 0 ? 0 : r.stale / (double) r.reads, r.errors, r.loadBefore, r.loadAfter)
      + String.format(Locale.ROOT, " within50ms=%.4f",
        r.reads == 0 ? 0 : r.within50ms / (double) r.reads)
      + (r.faultNanos == 0 ? ""
        : String.format(Locale.ROOT, " fault at %.0f ms", (r.faultNanos - r.startNanos) / 1e6))
      + r.stats
      + " serverEmptyGets(replica 0,1,2)=" + java.util.Arrays.toString(r.serverEmpty)
      + (r.errorKinds.isEmpty() ? "" : " errors by kind " + r.errorKinds)
      + (r.emptySeen.isEmpty() ? "" : " first empty answers " + r.emptySeen);
  }

  private void writeTimeline(String fault, TimelineMode m, int round, Run r) throws IOException {
    Path f = out.resolve(fault + "-" + m + "-round" + round + "-timeline.csv");
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(f, StandardCharsets.UTF_8))) {
      w.println("second,reads,p50_ms,max_ms,stale_fraction");
      long buckets = r.timeline.stream().mapToLong(x -> x[0] / 500_000).max().orElse(0) + 1;
      for (long b = 0; b < buckets; b++) {
        Histogram h = new Histogram(TimeUnit.SECONDS.toMicros(60), 3);
        long stale = 0;
        for (long[] x : r.timeline) {
          if (x[0] / 500_000 == b) {
            h.recordValue(Math.min(x[1], h.getHighestTrackableValue()));
            stale += x[2];
          }
        }
        w.printf(Locale.ROOT, "%.1f,%d,%.2f,%.2f,%.3f%n", b * 0.5, h.getTotalCount(),
          h.getValueAtPercentile(50) / 1e3, h.getMaxValue() / 1e3,
          h.getTotalCount() == 0 ? 0 : stale / (double) h.getTotalCount());
      }
    }
  }

  /**
   * Every read of a run, one line each, with what the servers saw of it: the Gets of its row
   * that began after the read did and before the next read of that row (a loser's RPC may land
   * after the read ended), as {@code r<replica>@<ms after the intended start>+<ms served>}, with
   * {@code p} when the primary was paused. Times in ms from the run's start.
   */
  private void writeReads(String fault, TimelineMode m, int round, Run r) throws IOException {
    Path dir = out.resolve("reads");
    Files.createDirectories(dir);
    Map<String, List<Object[]>> byRow = new java.util.HashMap<>();
    for (Object[] x : r.each) {
      byRow.computeIfAbsent((String) x[0], k -> new ArrayList<>()).add(x);
    }
    Map<Object[], StringBuilder> seen = new java.util.IdentityHashMap<>();
    for (ReplicaTagObserver.Served sv : r.served) {
      List<Object[]> same = byRow.get(sv.row);
      if (same == null) {
        continue;
      }
      Object[] owner = null;
      for (Object[] x : same) { // the latest read of the row that began before the Get did
        if ((long) x[2] <= sv.startNanos && (owner == null || (long) x[2] > (long) owner[2])) {
          owner = x;
        }
      }
      if (owner == null) {
        continue;
      }
      long t0 = (long) owner[1];
      StringBuilder b = seen.computeIfAbsent(owner, k -> new StringBuilder());
      b.append(b.length() == 0 ? "" : " ").append(String.format(Locale.ROOT, "r%d@%.2f+%.2f%s", sv.replica,
          (sv.startNanos - t0) / 1e6, (sv.endNanos - sv.startNanos) / 1e6, sv.paused ? "p" : ""));
    }
    Path f = dir.resolve(fault + "-" + m + "-round" + round + ".csv");
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(f, StandardCharsets.UTF_8))) {
      w.println("# " + fault + " " + m + " round " + round + (r.faultNanos == 0 ? ""
        : String.format(Locale.ROOT, ", fault at %.1f ms", (r.faultNanos - r.startNanos) / 1e6)));
      w.println("row,start_ms,start_lag_ms,latency_ms,stale,ok,server_gets");
      List<Object[]> sorted = new ArrayList<>(r.each);
      sorted.sort(java.util.Comparator.comparingLong(x -> (long) x[1]));
      for (Object[] x : sorted) {
        long t0 = (long) x[1];
        StringBuilder g = seen.get(x);
        w.printf(Locale.ROOT, "%s,%.2f,%.2f,%.2f,%d,%d,%s%n", x[0], (t0 - r.startNanos) / 1e6,
          ((long) x[2] - t0) / 1e6, ((long) x[3] - t0) / 1e6, (boolean) x[4] ? 1 : 0,
          (boolean) x[5] ? 1 : 0, g == null ? "" : g);
      }
    }
  }

  /**
   * A percentile measured once per round (a round's p99, its slowest read): the median over the
   * rounds [95% percentile bootstrap interval, {@link Intervals#BOOTSTRAP_RESAMPLES} resamples
   * from a fixed start], never outside what the rounds measured.
   */
  static String overRounds(double[] perRound, String format) {
    Intervals.Estimate e = Intervals.percentileOverRounds(perRound);
    String est = String.format(Locale.ROOT, format, e.estimate());
    return Double.isFinite(e.low()) ? est + " [" + String.format(Locale.ROOT, format, e.low())
      + ", " + String.format(Locale.ROOT, format, e.high()) + "]" : est;
  }

  /** The share of reads within 50 ms over the rounds that read, from their counts. */
  static String withinShare(List<Run> runs) {
    long[] hits = runs.stream().filter(r -> r.reads > 0).mapToLong(r -> r.within50ms).toArray();
    long[] totals = runs.stream().filter(r -> r.reads > 0).mapToLong(r -> r.reads).toArray();
    if (totals.length == 0) {
      return "-";
    }
    Intervals.Estimate e = Intervals.share(hits, totals);
    String est = String.format(Locale.ROOT, "%.4f", e.estimate());
    return Double.isFinite(e.low()) ? est + String.format(Locale.ROOT, " [%.4f, %.4f]", e.low(),
      e.high()) : est;
  }

  private void writeSummary(Map<String, Map<TimelineMode, List<Run>>> results)
    throws IOException {
    Path f = out.resolve("summary.md");
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(f, StandardCharsets.UTF_8))) {
      w.printf(Locale.ROOT, "# Timeline reads: open-loop latency scenario%n%n");
      w.printf(Locale.ROOT,
        "Run %s on %s cores, JDK %s; rate %.0f reads/s Poisson, %d s per arm and round, %d rounds"
          + " (arms interleaved, order reversed on even rounds), failover rounds %d;"
          + " 3-RS minicluster in the same JVM as the client (shared 2-core machine, other"
          + " builds may have been running).%n%n",
        Instant.now(), Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.version"), rate, seconds, rounds, failoverRounds);
      w.println("| fault | mode | reads | p50 ms | p99 ms | p99.9 ms | max ms | per-round p99 ms,"
        + " median over rounds [95% bootstrap interval] | extra RPCs/read | stale | errors |");
      w.println("|---|---|---|---|---|---|---|---|---|---|---|");
      for (Map.Entry<String, Map<TimelineMode, List<Run>>> e : results.entrySet()) {
        for (Map.Entry<TimelineMode, List<Run>> m : e.getValue().entrySet()) {
          Histogram all = new Histogram(TimeUnit.SECONDS.toMicros(60), 3);
          long reads = 0;
          long stale = 0;
          long errors = 0;
          long gets = 0;
          double[] p99s = new double[m.getValue().size()];
          int k = 0;
          for (Run r : m.getValue()) {
            all.add(r.latency);
            reads += r.reads;
            stale += r.stale;
            errors += r.errors;
            gets += r.serverGets;
            p99s[k++] = r.latency.getValueAtPercentile(99) / 1e3;
          }
          w.printf(Locale.ROOT,
            "| %s | %s | %d | %.2f | %.2f | %.2f | %.2f | %s | %.3f | %.3f | %d |%n",
            e.getKey(), m.getKey(), reads, all.getValueAtPercentile(50) / 1e3,
            all.getValueAtPercentile(99) / 1e3, all.getValueAtPercentile(99.9) / 1e3,
            all.getMaxValue() / 1e3, overRounds(p99s, "%.2f"),
            reads == 0 ? 0 : (gets - reads) / (double) reads,
            reads == 0 ? 0 : stale / (double) reads, errors);
        }
      }
    }
    writeFailoverSummary(results);
    writeRounds(results);
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(out.resolve("runs.md"),
      StandardCharsets.UTF_8))) {
      w.println("# Every run, in the order it ran (load = the machine's 1-minute load average)");
      w.println();
      for (String line : runLog) {
        w.println("- " + line);
      }
    }
    log("summary in " + f.toAbsolutePath());
  }

  /**
   * One line per run (fault, mode, round), the values the scenario report's intervals start
   * from: {@code dev.hbasepatches.jmh.report.Scenario timeline-latency} reads this file.
   */
  private void writeRounds(Map<String, Map<TimelineMode, List<Run>>> results)
    throws IOException {
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(out.resolve("rounds.tsv"),
      StandardCharsets.UTF_8))) {
      w.println("fault\tmode\tround\treads\tp50_ms\tp99_ms\tmax_ms\tserver_gets\tstale"
        + "\terrors\tempty\tload_before\tload_after");
      for (Map.Entry<String, Map<TimelineMode, List<Run>>> e : results.entrySet()) {
        for (List<Run> runs : e.getValue().values()) {
          for (Run r : runs) {
            Histogram h = r.latency;
            w.printf(Locale.ROOT, "%s\t%s\t%d\t%d\t%.3f\t%.3f\t%.3f\t%d\t%d\t%d\t%d\t%s\t%s%n",
              e.getKey(), r.mode, r.round, r.reads, h.getValueAtPercentile(50) / 1e3,
              h.getValueAtPercentile(99) / 1e3, h.getMaxValue() / 1e3, r.serverGets, r.stale,
              r.errors, r.empty, r.loadBefore, r.loadAfter);
          }
        }
      }
    }
  }

  /**
   * The failover runs judged per round: the slowest read (median over rounds with a percentile
   * bootstrap interval, as every percentile per round) and the share of reads answered
   * (non-empty) within 50 ms (from each round's counts, logit scale, Student t over rounds), and
   * the empty answers counted on the client and on the servers.
   */
  private void writeFailoverSummary(Map<String, Map<TimelineMode, List<Run>>> results)
    throws IOException {
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(out.resolve("failover.md"),
      StandardCharsets.UTF_8))) {
      w.println("# Failover runs, per round (95% intervals over the rounds)");
      w.println();
      w.println("| fault | mode | rounds | per-round max ms, median [95% bootstrap interval] |"
        + " per-round max ms, each | reads within 50 ms, share [95% interval, logit scale] |"
        + " lowest round | empty results (client) |"
        + " empty Gets on servers, replica 0/1/2 |");
      w.println("|---|---|---|---|---|---|---|---|---|");
      for (String fault : new String[] { "gracefulStop", "abort" }) {
        Map<TimelineMode, List<Run>> byMode = results.get(fault);
        if (byMode == null) {
          continue;
        }
        for (Map.Entry<TimelineMode, List<Run>> m : byMode.entrySet()) {
          List<Run> runs = m.getValue();
          double[] max = new double[runs.size()];
          double[] within = new double[runs.size()];
          long empty = 0;
          long[] serverEmpty = new long[3];
          StringBuilder each = new StringBuilder();
          for (int i = 0; i < runs.size(); i++) {
            Run r = runs.get(i);
            max[i] = r.latency.getMaxValue() / 1e3;
            within[i] = r.reads == 0 ? 0 : r.within50ms / (double) r.reads;
            empty += r.empty;
            for (int k = 0; k < 3; k++) {
              serverEmpty[k] += r.serverEmpty[k];
            }
            each.append(i == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.0f", max[i]));
          }
          w.printf(Locale.ROOT,
            "| %s | %s | %d | %s | %s | %s | %.4f | %d | %d/%d/%d |%n",
            fault, m.getKey(), runs.size(), overRounds(max, "%.1f"), each, withinShare(runs),
            java.util.Arrays.stream(within).min().orElse(0), empty,
            serverEmpty[0], serverEmpty[1], serverEmpty[2]);
        }
      }
    }
  }

  private final List<String> runLog = java.util.Collections.synchronizedList(new ArrayList<>());

  private void log(String s) {
    runLog.add(s);
    System.out.println("[scenario] " + s);
  }
}
