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
package dev.hbasepatches.jmh.quotas;

import dev.hbasepatches.jmh.CpuTime;
import dev.hbasepatches.jmh.HBaseBenchmark;
import dev.hbasepatches.quotas.ThrottlingRegionServer;
import dev.hbasepatches.testkit.MiniCluster;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.security.PrivilegedExceptionAction;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.ipc.RpcServer;
import org.apache.hadoop.hbase.quotas.OperationQuota;
import org.apache.hadoop.hbase.quotas.QuotaSettingsFactory;
import org.apache.hadoop.hbase.quotas.RegionServerRpcQuotaManager;
import org.apache.hadoop.hbase.quotas.RpcThrottlingException;
import org.apache.hadoop.hbase.quotas.ThrottleType;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HRegionServer;
import org.apache.hadoop.hbase.security.User;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.infra.ThreadParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * The end-to-end cost of quotas that do not bite, with the fork-to-fork noise taken out: one
 * fork, one minicluster, one JIT state, and the region server switched between "rpc throttle
 * off" and "on" from iteration to iteration with {@code Admin.switchRpcThrottle}. Switched off,
 * the quota manager hands every request the do-nothing quota before looking at any limit, which
 * is the request path of quotas-off; switched on, every request is checked and let through.
 * Everything else (the cluster, its chores, the table, the client) is the same in both states.
 * <p>
 * Readers as in {@link ThrottledUsersBenchmark}'s unthrottled case: two users ({@code reader0},
 * {@code reader1}) read 1 KB rows at full speed with Zipfian keys, two threads each, each thread
 * on its own connection. {@code throttle=others}: only an idle user is throttled (10 req/s), so
 * the readers' requests are checked and find no throttle of their own. {@code throttle=caller}:
 * both readers also have a request throttle of 10^12 req/s, which applies to every read and
 * never bites.
 * <p>
 * Iterations run in ABBA blocks, warmup and measurement each from their own first iteration:
 * slot A, B, B, A, then A, B, B, A again, so a drift that is linear over a block cancels and
 * each slot has one iteration right after a switch and one without; with
 * {@code order=alternate} every second block is B, A, A, B instead, so that B does not always
 * have the middle of a block. {@code toggle} says what
 * the slots are: {@code offOn} is A = throttle off, B = on (the measurement); {@code onOn} and
 * {@code offOff} keep the server in one state in both slots (the method's own noise floor).
 * Before every iteration, in every case, the setup calls {@code switchRpcThrottle} for its slot
 * (the same call whether or not the state changes), waits until the region server's manager
 * reports that state and hands the idle user (and with {@code caller}, both readers) the quota
 * that state implies, and fails the trial if it does not within 60 s.
 * <p>
 * Which slot an iteration was in is recorded by the readers themselves: every read is counted in
 * {@code aReads} or {@code bReads} by the slot in force, so in the JSON's per-iteration raw data
 * exactly one of the two is non-zero, and the score is their sum. {@code cpuNanos} is the fork's
 * process CPU over the iteration; {@code backgroundCpuNanos} the part of it spent on the master's
 * and the region server's chore threads (quota refresh chores, space quota chores and every other
 * chore) and on the region server's priority handlers (which serve system tables such as
 * {@code hbase:quota}): an upper bound of the background work quotas add, which runs alike in
 * both states. {@code dev.hbasepatches.jmh.report.AbbaPairs} turns the raw data into B / A ratios
 * per block and per fork, with a 95% interval over forks (run five forks or more).
 */
@State(Scope.Benchmark)
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 8, time = 4)
@Measurement(iterations = 20, time = 4)
@Threads(4)
public class QuotaToggleBenchmark extends HBaseBenchmark {

  private static final TableName TABLE = TableName.valueOf("quota_toggle");
  private static final String[] READERS = { "reader0", "reader1" };
  /** A request-number limit the readers cannot reach. */
  private static final long NEVER_BITES = 1_000_000_000_000L;
  /** The slots of one block: A B B A. */
  private static final boolean[] BLOCK_IS_B = { false, true, true, false };
  /** Pause after the state is confirmed, the same in every iteration. */
  private static final long SETTLE_MS = 500;
  private static final long SWITCH_TIMEOUT_MS = 60_000;

  @Param({ "PATCHED", "UPSTREAM" })
  public Mode mode;

  /** {@code others}: only an idle user is throttled; {@code caller}: the readers are too. */
  @Param({ "others", "caller" })
  public String throttle;

  /** Throttle state in slots A and B: {@code offOn}, or a control: {@code onOn}, {@code offOff}. */
  @Param({ "offOn", "onOn", "offOff" })
  public String toggle;

  /**
   * {@code ABBA}: every block A B B A; {@code alternate}: A B B A, then B A A B, and so on, so
   * that neither slot always has the middle of a block.
   */
  @Param({ "ABBA" })
  public String order;

  @Param({ "10000" })
  public int rows;

  /** {@code uniform} or {@code zipf}, as in {@link ThrottledUsersBenchmark}. */
  @Param({ "zipf" })
  public String keys;

  MiniCluster cluster;
  KeyChooser.Shape keyShape;
  private HRegionServer server;
  private HRegion region;
  private boolean throttleInA;
  private boolean throttleInB;
  private int warmupIndex;
  private int measurementIndex;
  /** The slot of the running iteration; read by the readers on every call. */
  volatile boolean inB;

  @Setup(Level.Trial)
  public void startCluster() throws Exception {
    if (!throttle.equals("caller") && !throttle.equals("others")) {
      throw new IllegalArgumentException("throttle must be caller or others: " + throttle);
    }
    switch (toggle) {
      case "offOn":
        throttleInA = false;
        throttleInB = true;
        break;
      case "onOn":
        throttleInA = true;
        throttleInB = true;
        break;
      case "offOff":
        throttleInA = false;
        throttleInB = false;
        break;
      default:
        throw new IllegalArgumentException("toggle must be offOn, onOn or offOff: " + toggle);
    }
    if (!order.equals("ABBA") && !order.equals("alternate")) {
      throw new IllegalArgumentException("order must be ABBA or alternate: " + order);
    }
    keyShape = KeyChooser.shape(keys, rows);
    cluster = QuotaBenchCluster.builder(mode).conf("hbase.regionserver.handler.count", "16")
      .build();
    cluster.start();
    QuotaBenchCluster.loadTable(cluster, TABLE, rows);
    if (throttle.equals("caller")) {
      for (String reader : READERS) {
        cluster.admin().setQuota(QuotaSettingsFactory.throttleUser(reader,
          ThrottleType.REQUEST_NUMBER, NEVER_BITES, TimeUnit.SECONDS));
      }
    }
    server = cluster.regionServer(0);
    region = cluster.regions(TABLE).get(0);
    warmupIndex = 0;
    measurementIndex = 0;
  }

  @TearDown(Level.Trial)
  public void stopCluster() {
    if (cluster != null) {
      cluster.stop();
      cluster = null;
    }
  }

  /** Puts the server in the state of this iteration's slot and checks that it got there. */
  @Setup(Level.Iteration)
  public void switchThrottle(IterationParams iteration) throws Exception {
    boolean warmup = iteration.getType() == IterationType.WARMUP;
    int index = warmup ? warmupIndex++ : measurementIndex++;
    boolean mirrored = order.equals("alternate") && (index / BLOCK_IS_B.length) % 2 == 1;
    boolean slotB = BLOCK_IS_B[index % BLOCK_IS_B.length] != mirrored;
    boolean enable = slotB ? throttleInB : throttleInA;
    cluster.admin().switchRpcThrottle(enable);
    String seen = awaitState(enable);
    Thread.sleep(SETTLE_MS);
    inB = slotB;
    System.out.printf("%n[quota-toggle] %s %d: slot %s, rpc throttle %s (%s)%n",
      warmup ? "warmup" : "measurement", index + 1, slotB ? "B" : "A", enable ? "on" : "off",
      seen);
  }

  /**
   * Waits until the region server's quota manager says the rpc throttle is {@code enabled} and
   * hands out the quotas that implies: the idle user (and with {@code caller} each reader) a real
   * quota when on, the do-nothing one when off. Fails the trial after 60 s.
   */
  private String awaitState(boolean enabled) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SWITCH_TIMEOUT_MS);
    String last = "";
    while (true) {
      RegionServerRpcQuotaManager quotas = server.getRegionServerRpcQuotaManager();
      boolean reported = throttleEnabled(quotas);
      StringBuilder seen = new StringBuilder("manager " + quotas.getClass().getSimpleName()
        + " reports " + (reported ? "on" : "off"));
      boolean ok = reported == enabled;
      ok &= quotaMatches(quotas, QuotaBenchCluster.IDLE, enabled, seen);
      if (throttle.equals("caller")) {
        for (String reader : READERS) {
          ok &= quotaMatches(quotas, reader, enabled, seen);
        }
      }
      if (ok) {
        return seen.toString();
      }
      last = seen.toString();
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("mode " + mode + ", throttle " + throttle + ": rpc throttle"
          + " not switched " + (enabled ? "on" : "off") + " after " + SWITCH_TIMEOUT_MS + " ms: "
          + last);
      }
      Thread.sleep(50);
    }
  }

  /** Whether {@code user} gets an enforcing quota exactly when {@code enabled}. */
  private boolean quotaMatches(RegionServerRpcQuotaManager quotas, String user, boolean enabled,
    StringBuilder seen) throws IOException {
    User u = User.createUserForTesting(server.getConfiguration(), user, new String[0]);
    RpcServer.setCurrentCall(new QuotaPathBenchmark.StandInCall(u));
    String name;
    try {
      OperationQuota q = quotas.checkBatchQuota(region, OperationQuota.OperationType.GET);
      q.close();
      name = q.getClass().getSimpleName();
    } catch (RpcThrottlingException e) {
      // Only an enforcing quota refuses (the idle user's 10 req/s).
      name = "refused";
    } finally {
      RpcServer.unsetCurrentCall();
    }
    seen.append(", ").append(user).append(' ').append(name);
    boolean free = name.equals("FreeOperationQuota") || name.equals("NoopOperationQuota");
    return free != enabled;
  }

  /** The manager's own answer (HBase's protected {@code isRpcThrottleEnabled()}). */
  private static boolean throttleEnabled(RegionServerRpcQuotaManager quotas) throws Exception {
    Method m = RegionServerRpcQuotaManager.class.getDeclaredMethod("isRpcThrottleEnabled");
    m.setAccessible(true);
    try {
      return (Boolean) m.invoke(quotas);
    } catch (InvocationTargetException e) {
      throw new IllegalStateException("isRpcThrottleEnabled failed", e.getCause());
    }
  }

  /**
   * One reader thread: its own connection as its user, its own key sequence, and the counters
   * that say which slot its reads were in.
   */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.OPERATIONS)
  public static class Reader {
    /** Reads completed while the iteration was in slot A. */
    public long aReads;
    /** Reads completed while the iteration was in slot B. */
    public long bReads;
    /** The fork's process CPU over the iteration, kept by one thread only. */
    public long cpuNanos;
    /** CPU of chore threads and priority handlers over the iteration, kept by one thread. */
    public long backgroundCpuNanos;
    /** Reads that failed (should stay 0: nothing bites). */
    public long failures;
    private Connection connection;
    private Table table;
    private KeyChooser chooser;
    private QuotaToggleBenchmark bench;
    private boolean keepsClock;
    private long cpuStart;
    private Map<Long, Long> backgroundStart;

    @Setup(Level.Trial)
    public void connect(QuotaToggleBenchmark b, ThreadParams thread) throws Exception {
      bench = b;
      String user = READERS[thread.getThreadIndex() % READERS.length];
      Configuration conf = new Configuration(b.cluster.conf());
      User u = User.createUserForTesting(conf, user, new String[] { user });
      connection = u.runAs(
        (PrivilegedExceptionAction<Connection>) () -> ConnectionFactory.createConnection(conf));
      table = connection.getTable(TABLE);
      chooser = new KeyChooser(b.keyShape, System.nanoTime() ^ thread.getThreadIndex());
      keepsClock = thread.getThreadIndex() == 0;
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
      table.close();
      connection.close();
    }

    /** Takes the benchmark state so that its switch runs first and is not on this clock. */
    @Setup(Level.Iteration)
    public void startClock(QuotaToggleBenchmark b) {
      aReads = 0;
      bReads = 0;
      failures = 0;
      cpuNanos = 0;
      backgroundCpuNanos = 0;
      if (keepsClock) {
        backgroundStart = backgroundCpu();
        cpuStart = CpuTime.processNanos();
      }
    }

    @TearDown(Level.Iteration)
    public void stopClock() {
      if (!keepsClock) {
        return;
      }
      cpuNanos = CpuTime.processNanos() - cpuStart;
      long sum = 0;
      for (Map.Entry<Long, Long> t : backgroundCpu().entrySet()) {
        sum += t.getValue() - backgroundStart.getOrDefault(t.getKey(), 0L);
      }
      backgroundCpuNanos = sum;
    }
  }

  /** CPU so far of each chore thread and priority handler, by thread id. */
  static Map<Long, Long> backgroundCpu() {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    Map<Long, Long> cpu = new HashMap<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      String n = t.getName();
      if (n.contains(".Chore.") || n.startsWith("RpcServer.priority.")
        || n.startsWith("RpcServer.metaPriority.")) {
        long ns = mx.getThreadCpuTime(t.getId());
        if (ns > 0) {
          cpu.put(t.getId(), ns);
        }
      }
    }
    return cpu;
  }

  @Benchmark
  public Result read(Reader r) {
    try {
      Result result = r.table.get(new Get(r.chooser.next()));
      if (r.bench.inB) {
        r.bReads++;
      } else {
        r.aReads++;
      }
      return result;
    } catch (IOException e) {
      r.failures++;
      return null;
    }
  }
}
