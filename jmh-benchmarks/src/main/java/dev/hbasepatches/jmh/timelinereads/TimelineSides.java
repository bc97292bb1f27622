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
package dev.hbasepatches.jmh.timelinereads;

import dev.hbasepatches.jmh.SideLines;
import dev.hbasepatches.jmh.series.SideLoader;
import dev.hbasepatches.jmh.series.SideWorkload;
import dev.hbasepatches.testkit.LocalRegion;
import dev.hbasepatches.timeline.TimelineMode;
import dev.hbasepatches.timeline.TimelineReader;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Consistency;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The timeline-reads change's sides for the series comparison
 * ({@code dev.hbasepatches.jmh.series}): TIMELINE Gets from a table of region replication 3 on a
 * real 3-RegionServer minicluster, whose primary replica is slow for a seeded share of the reads.
 * The cluster is stock HBase, started once per JVM in a class loader of its own
 * ({@link TimelineCluster}) and shared by every side,
 * whose clients connect to it through its ZooKeeper quorum; only the client differs:
 * <ul>
 * <li>UPSTREAM: HBase's sync client as released, {@code Table.get} of a Get with
 * {@code Consistency.TIMELINE}, {@code hbase.client.primaryCallTimeout.get} at its default (10
 * ms): the primary, then after the timeout every secondary at once.</li>
 * <li>SERIES: the same call with the timeline-reads series in front of HBase's classes
 * ({@code ConnectionImplementation}, {@code RpcRetryingCallerWithReadReplicas},
 * {@code ReplicaHedgePolicy}) and both its keys on, {@link #SERIES_ADAPTIVE} and
 * {@link #SERIES_ONE_FIRST}; opening checks the connection's policy has both.</li>
 * <li>PATCHED: the module's {@link TimelineReader} with its default settings over the stock
 * client.</li>
 * <li>BASELINE: the module's BASELINE mode, which reads STRONG: every Get waits for the
 * primary.</li>
 * </ul>
 * Case {@code slowPrimary[/slowPercent[/pauseMs[/primaryTimeoutMs[/secondaryPauseMs]]]]} (default
 * {@code slowPrimary/3/50}, {@code primaryTimeoutMs} unset: HBase's default): one
 * operation is {@link #GETS_PER_OP} TIMELINE Gets, one after the other, of rows chosen from a
 * seeded random stream, in which every run of 100 reads has exactly {@code slowPercent} reads of
 * a slow row at seeded places; the primary sleeps {@code pauseMs} before serving a slow row
 * ({@link SlowPrimaryObserver}), and each secondary {@code secondaryPauseMs} (when given; else it
 * answers at once). Every side reads the same rows in the same order; each Get must
 * return the row's one cell with its value, or the operation fails; the operation returns the
 * cells read. {@code primaryTimeoutMs}, when given, sets
 * {@code hbase.client.primaryCallTimeout.get} on every side's client (HBase's sync client waits
 * that long for the primary; the module's reader does not read it); the benchmark's rows leave it
 * at HBase's default, a test sets it far above a secondary's answer time so that whether one or
 * two secondaries are asked does not depend on how busy the machine is. The description counts
 * the Gets the servers' secondaries served per read of the side (from the observer's counters)
 * and the stale answers.
 */
public final class TimelineSides {

  /** The series' two keys. */
  public static final String SERIES_ADAPTIVE = "hbase.client.replica.hedge.adaptive";
  public static final String SERIES_ONE_FIRST = "hbase.client.replica.hedge.one.secondary.first";
  /** TIMELINE Gets per operation. */
  public static final int GETS_PER_OP = 10;
  static final int VALUE_BYTES = 100;
  private static final long SEED = 4242L;
  private static final String CHANGE = "timeline-reads";
  private static final String CASES =
    "slowPrimary[/slowPercent[/pauseMs[/primaryTimeoutMs[/secondaryPauseMs]]]]";
  /** HBase's key for the sync client's wait on the primary, in microseconds. */
  static final String PRIMARY_TIMEOUT = "hbase.client.primaryCallTimeout.get";
  /** Where the running cluster is kept, in {@link System#getProperties()}: JDK types only. */
  private static final String REGISTRY = "dev.hbasepatches.jmh.timelinereads.cluster";

  private TimelineSides() {
  }

  /** Row {@code i} of the fast or slow kind. */
  static byte[] row(boolean slow, int i) {
    return Bytes.toBytes(String.format(Locale.ROOT, "%s%05d",
      slow ? SlowPrimaryObserver.SLOW_PREFIX : "fast-", i));
  }

  /** A row's one value: {@link #VALUE_BYTES} bytes naming the row. */
  static byte[] value(byte[] row) {
    byte[] v = new byte[VALUE_BYTES];
    Arrays.fill(v, (byte) '.');
    byte[] name = ("value of " + Bytes.toString(row)).getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(name, 0, v, 0, Math.min(name.length, v.length));
    return v;
  }

  /** Case {@link #CASES} on {@code side}. */
  public static SideWorkload open(String side, String caseSpec) throws IOException {
    String[] p = SideWorkload.parts(CHANGE, caseSpec, 1, "slowPrimary", "slowPercent", "pauseMs",
      "primaryTimeoutMs", "secondaryPauseMs");
    if (!p[0].equals("slowPrimary")) {
      throw new IllegalArgumentException(CHANGE + " case '" + caseSpec + "' must be " + CASES);
    }
    int percent = SideWorkload.intPart(CHANGE, p, 1, 3);
    int pauseMs = SideWorkload.intPart(CHANGE, p, 2, 50);
    int timeoutMs = SideWorkload.intPart(CHANGE, p, 3, 0);
    int secondaryPauseMs = SideWorkload.intPart(CHANGE, p, 4, 0);
    if (percent < 0 || percent > 100) {
      throw new IllegalArgumentException(CHANGE + ": slowPercent is " + percent
        + ", must be from 0 to 100");
    }
    if (pauseMs < 1 || pauseMs > 10_000) {
      throw new IllegalArgumentException(CHANGE + ": pauseMs is " + pauseMs
        + ", must be from 1 to 10000");
    }
    if (p.length > 3 && (timeoutMs < 1 || timeoutMs > 10_000)) {
      throw new IllegalArgumentException(CHANGE + ": primaryTimeoutMs is " + timeoutMs
        + ", must be from 1 to 10000");
    }
    if (p.length > 4 && (secondaryPauseMs < 1 || secondaryPauseMs > 10_000)) {
      throw new IllegalArgumentException(CHANGE + ": secondaryPauseMs is " + secondaryPauseMs
        + ", must be from 1 to 10000");
    }
    String caseName = "slowPrimary/" + percent + "/" + pauseMs + (p.length > 3 ? "/" + timeoutMs
      : "") + (p.length > 4 ? "/" + secondaryPauseMs : "");
    Lease lease = Lease.acquire(new long[] { pauseMs, secondaryPauseMs });
    Reader reader = null;
    try {
      Configuration conf = HBaseConfiguration.create();
      lease.conf.forEach(conf::set);
      if (p.length > 3) {
        conf.setLong(PRIMARY_TIMEOUT, TimeUnit.MILLISECONDS.toMicros(timeoutMs));
      }
      switch (side) {
        case "UPSTREAM":
          reader = stock(conf, false);
          break;
        case "SERIES":
          conf.setBoolean(SERIES_ADAPTIVE, true);
          conf.setBoolean(SERIES_ONE_FIRST, true);
          reader = stock(conf, true);
          break;
        case "PATCHED":
          conf.unset(TimelineMode.KEY);
          reader = module(conf, TimelineMode.PATCHED);
          break;
        case "BASELINE":
          conf.set(TimelineMode.KEY, TimelineMode.BASELINE.name());
          reader = module(conf, TimelineMode.BASELINE);
          break;
        default:
          throw SideWorkload.noSide(CHANGE, side, "one of UPSTREAM, SERIES, PATCHED, BASELINE");
      }
      return new Reads(side, caseName, percent, reader, lease);
    } catch (IOException | RuntimeException | Error e) {
      try {
        if (reader != null) {
          reader.close();
        }
      } catch (IOException closing) {
        e.addSuppressed(closing);
      } finally {
        lease.close();
      }
      throw e;
    }
  }

  /** One way of reading a Get. */
  private interface Reader {
    Result get(Get get) throws IOException;

    void close() throws IOException;
  }

  /** HBase's sync client: {@code Table.get}; with the series, checks its policy took the keys. */
  private static Reader stock(Configuration conf, boolean series) throws IOException {
    Connection conn = ConnectionFactory.createConnection(conf);
    try {
      Table table = conn.getTable(TimelineCluster.TABLE);
      String what = "HBase's sync client, Table.get, " + PRIMARY_TIMEOUT + "="
        + conf.get(PRIMARY_TIMEOUT, "10000 (default)") + " us; "
        + from(conn.getClass());
      if (series) {
        what += "; " + seriesPolicy(conn);
      }
      return reader(table::get, () -> {
        table.close();
        conn.close();
      }, what);
    } catch (IOException | RuntimeException e) {
      conn.close();
      throw e;
    }
  }

  /**
   * The connection's {@code ReplicaHedgePolicy} (the series adds it): both switches must be on,
   * and the policy and the replica caller must come from the series jar.
   */
  private static String seriesPolicy(Connection conn) {
    Object policy;
    try {
      Method m = conn.getClass().getDeclaredMethod("getReplicaHedgePolicy");
      m.setAccessible(true);
      policy = m.invoke(conn);
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException("SERIES: the connection " + conn.getClass().getName()
        + " has no ReplicaHedgePolicy: the timeline-reads series is not in front of HBase's "
        + "classes");
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("SERIES: could not read the connection's policy", e);
    }
    boolean adaptive;
    boolean oneFirst;
    try {
      adaptive = (Boolean) policy.getClass().getMethod("isAdaptive").invoke(policy);
      oneFirst = (Boolean) policy.getClass().getMethod("isOneSecondaryFirst").invoke(policy);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("SERIES: " + policy.getClass() + " is not the series' "
        + "ReplicaHedgePolicy", e);
    }
    if (!adaptive || !oneFirst) {
      throw new IllegalStateException("SERIES: the connection's policy has adaptive=" + adaptive
        + " oneSecondaryFirst=" + oneFirst + ", both keys were set true");
    }
    String jar = "series-timeline-reads.jar";
    String callerFrom;
    try {
      callerFrom = from(Class.forName("org.apache.hadoop.hbase.client."
        + "RpcRetryingCallerWithReadReplicas", false, conn.getClass().getClassLoader()));
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(e);
    }
    String policyFrom = from(policy.getClass());
    if (!policyFrom.endsWith(jar) || !callerFrom.endsWith(jar)) {
      throw new IllegalStateException("SERIES: " + policyFrom + ", " + callerFrom
        + ": not both from the series jar");
    }
    return policyFrom + " with " + SERIES_ADAPTIVE + "=true " + SERIES_ONE_FIRST + "=true; "
      + callerFrom;
  }

  /** The module's reader in {@code mode} over a sync and an async connection. */
  private static Reader module(Configuration conf, TimelineMode mode) throws IOException {
    Connection conn = ConnectionFactory.createConnection(conf);
    AsyncConnection async = null;
    try {
      async = ConnectionFactory.createAsyncConnection(conf).get(60, TimeUnit.SECONDS);
      TimelineReader reader = TimelineReader.create(conn, async, TimelineCluster.TABLE);
      if (reader.mode() != mode) {
        reader.close();
        throw new IllegalStateException("the reader runs in " + reader.mode() + ", not " + mode);
      }
      AsyncConnection a = async;
      return reader(reader::get, () -> {
        try {
          reader.close();
        } finally {
          try {
            a.close();
          } finally {
            conn.close();
          }
        }
      }, "the module's TimelineReader, mode " + mode + (mode == TimelineMode.BASELINE
        ? " (reads STRONG: the primary only)" : " (default settings)") + ", over "
        + from(conn.getClass()));
    } catch (Exception e) {
      if (async != null) {
        async.close();
      }
      conn.close();
      if (e instanceof IOException) {
        throw (IOException) e;
      }
      if (e instanceof RuntimeException) {
        throw (RuntimeException) e;
      }
      throw new IOException("could not connect to the timeline cluster: " + e, e);
    }
  }

  private interface IoGet {
    Result get(Get get) throws IOException;
  }

  private interface IoClose {
    void close() throws IOException;
  }

  private static Reader reader(IoGet get, IoClose close, String what) {
    return new Reader() {
      @Override
      public Result get(Get g) throws IOException {
        return get.get(g);
      }

      @Override
      public void close() throws IOException {
        close.close();
      }

      @Override
      public String toString() {
        return what;
      }
    };
  }

  /** A class and the jar or directory it was loaded from. */
  private static String from(Class<?> c) {
    CodeSource source = c.getProtectionDomain().getCodeSource();
    URL where = source == null ? null : source.getLocation();
    String path = where == null ? "?" : where.getPath();
    return c.getSimpleName() + " from " + path.substring(path.lastIndexOf('/',
      path.length() - 2) + 1);
  }

  /** The rows to read: per 100 reads exactly {@code percent} slow ones, at seeded places. */
  private static final class Schedule {
    private final Random random = new Random(SEED);
    private final int percent;
    private final boolean[] slow = new boolean[100];
    private final int[] places = new int[100];
    private int next = slow.length;

    Schedule(int percent) {
      this.percent = percent;
    }

    byte[] next() {
      if (next == slow.length) {
        Arrays.fill(slow, false);
        for (int i = 0; i < places.length; i++) {
          places[i] = i;
        }
        for (int i = 0; i < percent; i++) {
          int j = i + random.nextInt(places.length - i);
          int t = places[i];
          places[i] = places[j];
          places[j] = t;
          slow[places[i]] = true;
        }
        next = 0;
      }
      return row(slow[next++], random.nextInt(TimelineCluster.ROWS));
    }
  }

  /** The workload of one side. */
  private static final class Reads extends SideWorkload {
    private final String side;
    private final String caseName;
    private final Reader reader;
    private final Lease lease;
    private final Schedule schedule;
    private long reads;
    private long slowReads;
    private long stale;
    private long secondaryGets;

    Reads(String side, String caseName, int percent, Reader reader, Lease lease) {
      this.side = side;
      this.caseName = caseName;
      this.reader = reader;
      this.lease = lease;
      this.schedule = new Schedule(percent);
    }

    private long secondaries() {
      long n = 0;
      for (int i = 1; i < lease.gets.length(); i++) {
        n += lease.gets.get(i);
      }
      return n;
    }

    @Override
    public long getAsLong() {
      long before = secondaries();
      long cells = 0;
      try {
        for (int i = 0; i < GETS_PER_OP; i++) {
          byte[] row = schedule.next();
          Result r = reader.get(new Get(row).setConsistency(Consistency.TIMELINE));
          byte[] v = r.getValue(TimelineCluster.FAMILY, TimelineCluster.QUALIFIER);
          if (r.size() != 1 || !Arrays.equals(row, r.getRow())
            || !Arrays.equals(value(row), v)) {
            throw new IllegalStateException(CHANGE + " " + side + ": the Get of "
              + Bytes.toString(row) + " returned " + r + ", not its one cell");
          }
          if (r.isStale()) {
            stale++;
          }
          if (row[0] == 's') {
            slowReads++;
          }
          cells += r.size();
        }
      } catch (IOException e) {
        throw new IllegalStateException(CHANGE + " " + side + ": a TIMELINE Get failed: " + e, e);
      }
      reads += GETS_PER_OP;
      secondaryGets += secondaries() - before;
      return cells;
    }

    /** Gets served by secondaries per read of this side, and stale answers, so far. */
    String counts() {
      return String.format(Locale.ROOT, "%d reads (%d of slow rows): %.3f Gets served by "
        + "secondaries per read, %d stale answers", reads, slowReads,
        reads == 0 ? 0.0 : secondaryGets / (double) reads, stale);
    }

    @Override
    public void close() throws IOException {
      SideLines.print(CHANGE + " " + side + " " + caseName + ": " + counts());
      try {
        reader.close();
      } finally {
        lease.close();
      }
    }

    @Override
    public String toString() {
      return CHANGE + " " + side + " " + caseName + ": " + GETS_PER_OP + " TIMELINE Gets per "
        + "operation; " + reader + "; " + lease.what + "; " + counts();
    }
  }

  /**
   * Keeps the shared cluster running, for a test that opens and closes sides one after the
   * other; the cluster stops when the last holder (side or lease) closes.
   */
  public static AutoCloseable holdCluster() throws IOException {
    return Lease.acquire(null);
  }

  /** Gets served by each replica (index = replica id) since the cluster started; for tests. */
  public static long[] serverGets() {
    AtomicLongArray gets = (AtomicLongArray) registry().get("gets");
    if (gets == null) {
      throw new IllegalStateException("the timeline cluster is not running");
    }
    long[] n = new long[gets.length()];
    for (int i = 0; i < n.length; i++) {
      n[i] = gets.get(i);
    }
    return n;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> registry() {
    return (Map<String, Object>) System.getProperties().computeIfAbsent(REGISTRY,
      k -> new ConcurrentHashMap<String, Object>());
  }

  /**
   * One user's hold on the shared cluster: the first starts it, the last to close stops it. Every
   * side of one JVM reads with the same pauses of the primary and the secondaries; a side asking
   * for others while one holds them is refused.
   */
  private static final class Lease implements AutoCloseable {
    final Map<String, String> conf;
    final AtomicLongArray gets;
    final String what;
    private final boolean setsPause;
    private boolean closed;

    @SuppressWarnings("unchecked")
    private Lease(Map<String, Object> reg, boolean setsPause) {
      this.conf = (Map<String, String>) reg.get("conf");
      this.gets = (AtomicLongArray) reg.get("gets");
      this.what = (String) reg.get("what");
      this.setsPause = setsPause;
    }

    /** The case parts of the pauses, and whose pause each is, for a refusal's message. */
    private static final String[][] PAUSES = { { "pauseMs", "the primary" },
      { "secondaryPauseMs", "the secondaries" } };

    /** {@code pausesMs}: the primary's and the secondaries' pause, or null to hold the cluster. */
    static Lease acquire(long[] pausesMs) throws IOException {
      Map<String, Object> reg = registry();
      synchronized (reg) {
        if (reg.isEmpty()) {
          Map<String, Object> started = startCluster();
          reg.putAll(started);
          reg.put("users", new AtomicInteger());
          reg.put("pauseUsers", new AtomicInteger());
        }
        AtomicLongArray pauses = (AtomicLongArray) reg.get("pausesMs");
        AtomicInteger pauseUsers = (AtomicInteger) reg.get("pauseUsers");
        if (pausesMs != null) {
          for (int i = 0; i < PAUSES.length; i++) {
            if (pauseUsers.get() > 0 && pauses.get(i) != pausesMs[i]) {
              throw new IllegalStateException(CHANGE + ": " + PAUSES[i][0] + " is " + pausesMs[i]
                + ", but a side open in this JVM reads with " + PAUSES[i][1] + " paused "
                + pauses.get(i) + " ms");
            }
          }
          for (int i = 0; i < PAUSES.length; i++) {
            pauses.set(i, pausesMs[i]);
          }
          pauseUsers.incrementAndGet();
        }
        ((AtomicInteger) reg.get("users")).incrementAndGet();
        return new Lease(reg, pausesMs != null);
      }
    }

    @Override
    public void close() {
      Map<String, Object> reg = registry();
      synchronized (reg) {
        if (closed) {
          return;
        }
        closed = true;
        if (setsPause) {
          ((AtomicInteger) reg.get("pauseUsers")).decrementAndGet();
        }
        if (((AtomicInteger) reg.get("users")).decrementAndGet() == 0) {
          Runnable stop = (Runnable) reg.get("stop");
          reg.clear();
          stop.run();
        }
      }
    }

    /** Starts {@link TimelineCluster} in a loader of stock HBase of its own. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> startCluster() throws IOException {
      Path dir = Files.createTempDirectory("hbasepatches-timeline-cluster-");
      URLClassLoader loader;
      try {
        // Never closed, like a side's loader: Hadoop registers shutdown hooks from it.
        loader = SideLoader.loader(CHANGE, false, dir);
      } finally {
        LocalRegion.deleteTree(dir);
      }
      Thread me = Thread.currentThread();
      ClassLoader previous = me.getContextClassLoader();
      me.setContextClassLoader(loader);
      try {
        return (Map<String, Object>) loader.loadClass(TimelineCluster.class.getName())
          .getMethod("start").invoke(null);
      } catch (InvocationTargetException e) {
        Throwable cause = e.getCause();
        throw new IOException("the timeline cluster did not start: " + cause, cause);
      } catch (ReflectiveOperationException e) {
        throw new IOException("the timeline cluster did not start: " + e, e);
      } finally {
        me.setContextClassLoader(previous);
      }
    }
  }
}
