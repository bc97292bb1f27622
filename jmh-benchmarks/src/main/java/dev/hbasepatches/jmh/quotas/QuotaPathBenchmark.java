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
import java.net.InetAddress;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.CellScanner;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.ipc.RpcCall;
import org.apache.hadoop.hbase.ipc.RpcCallback;
import org.apache.hadoop.hbase.ipc.RpcServer;
import org.apache.hadoop.hbase.quotas.OperationQuota;
import org.apache.hadoop.hbase.quotas.QuotaSettingsFactory;
import org.apache.hadoop.hbase.quotas.RegionServerRpcQuotaManager;
import org.apache.hadoop.hbase.quotas.ThrottleType;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HRegionServer;
import org.apache.hadoop.hbase.security.User;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos;
import org.apache.hbase.thirdparty.com.google.protobuf.BlockingService;
import org.apache.hbase.thirdparty.com.google.protobuf.Descriptors;
import org.apache.hbase.thirdparty.com.google.protobuf.Message;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * What request throttling costs a region server per request when no throttle bites, measured
 * directly. A minicluster's region server ({@link ThrottlingRegionServer} in {@code mode}, quotas
 * on) is asked, from the benchmark thread, exactly what {@code RSRpcServices} asks it per Get
 * ({@code checkBatchQuota(region, GET)}, {@code addGetResult}, {@code close}) and per scan call
 * ({@code checkScanQuota}, {@code getMaxResultSize}, {@code addScanResult}, {@code close}). The
 * thread carries a stand-in RPC call for the process user, as a handler thread carries the real
 * one, so the user is found the way the server finds it.
 * <p>
 * {@code throttle=caller}: the calling user has a request throttle of 10^12/s, which applies to
 * every request and never bites. {@code throttle=others}: only an idle user is throttled, so the
 * caller's requests are checked and let through (the end-to-end experiment's {@code limit=-1}).
 * BASELINE enforces nothing whatever is stored.
 * <p>
 * {@code request} is one whole Get from a client on the same cluster, single-threaded, with the
 * CPU it costs: {@code processCpuNanos} (the whole JVM: client, server, GC, JIT) and
 * {@code handlerCpuNanos} (the region server's RPC handler threads only, where the quota path
 * runs; a lower bound of the server's share). Divided by the score they give CPU ns per request,
 * the denominator of the overhead bound in the quotas PATCH.md.
 */
@State(Scope.Benchmark)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class QuotaPathBenchmark extends HBaseBenchmark {

  private static final TableName TABLE = TableName.valueOf("quota_path");
  private static final int ROWS = 100;
  private static final int SCAN_ROWS = 10;
  /** A request-number limit no benchmark can reach. */
  private static final long NEVER_BITES = 1_000_000_000_000L;

  @Param({ "PATCHED", "UPSTREAM", "BASELINE" })
  public Mode mode;

  /** {@code caller}: the calling user has a throttle; {@code others}: only an idle user has. */
  @Param({ "caller", "others" })
  public String throttle;

  MiniCluster cluster;
  HRegionServer server;
  HRegion region;
  User caller;
  private Result getResult;
  private List<Result> scanResults;
  private ClientProtos.ScanRequest scanRequest;
  private long maxScannerResultSize;
  private int rpcPort;

  @Setup(Level.Trial)
  public void startCluster() throws Exception {
    if (!throttle.equals("caller") && !throttle.equals("others")) {
      throw new IllegalArgumentException("throttle must be caller or others: " + throttle);
    }
    cluster = QuotaBenchCluster.builder(mode).build();
    cluster.start();
    QuotaBenchCluster.loadTable(cluster, TABLE, ROWS);
    Admin admin = cluster.admin();
    caller = User.getCurrent();
    if (throttle.equals("caller")) {
      admin.setQuota(QuotaSettingsFactory.throttleUser(caller.getShortName(),
        ThrottleType.REQUEST_NUMBER, NEVER_BITES, TimeUnit.SECONDS));
    }
    server = cluster.regionServer(0);
    region = cluster.regions(TABLE).get(0);
    rpcPort = server.getRpcServer().getListenerAddress().getPort();
    getResult = region.get(new Get(KeyChooser.row(0)));
    List<Result> rs = new ArrayList<>();
    for (int i = 0; i < SCAN_ROWS; i++) {
      rs.add(region.get(new Get(KeyChooser.row(i))));
    }
    scanResults = Collections.unmodifiableList(rs);
    // A running scanner's second call, as RSRpcServices sees it.
    scanRequest = ClientProtos.ScanRequest.newBuilder().setScannerId(1).setNumberOfRows(SCAN_ROWS)
      .setNextCallSeq(1).build();
    maxScannerResultSize = server.getConfiguration().getLong(
      HConstants.HBASE_SERVER_SCANNER_MAX_RESULT_SIZE_KEY,
      HConstants.DEFAULT_HBASE_SERVER_SCANNER_MAX_RESULT_SIZE);
    awaitSettings();
  }

  /**
   * Waits until the server enforces what was stored (the idle user's throttle, and the caller's
   * when there is one), and checks that the caller gets the quota this case is about: a real
   * one for {@code caller}, the shared do-nothing one otherwise.
   */
  private void awaitSettings() throws Exception {
    boolean enforcing = mode != Mode.BASELINE;
    String idleQuota = quotaClassFor(User.createUserForTesting(server.getConfiguration(), QuotaBenchCluster.IDLE,
      new String[0]), enforcing ? "" : "FreeOperationQuota");
    String callerQuota = quotaClassFor(caller, !enforcing ? "FreeOperationQuota"
      : throttle.equals("caller") ? "" : mode == Mode.PATCHED ? "FreeOperationQuota"
      : "NoopOperationQuota");
    System.out.printf("%n[quota-path] mode %s, throttle %s: idle user gets %s, caller %s gets %s;"
      + " handler threads %s%n", mode, throttle, idleQuota, caller.getShortName(), callerQuota,
      handlerThreadNames());
  }

  /** The quota class the server hands {@code user} once it has read the settings. */
  private String quotaClassFor(User user, String expected) throws Exception {
    RpcServer.setCurrentCall(new StandInCall(user));
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (true) {
        OperationQuota q = quotas().checkBatchQuota(region, OperationQuota.OperationType.GET);
        q.close();
        String name = q.getClass().getSimpleName();
        boolean ok = expected.isEmpty()
          ? !name.equals("FreeOperationQuota") && !name.equals("NoopOperationQuota")
          : name.equals(expected);
        if (ok) {
          return name;
        }
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("mode " + mode + ", throttle " + throttle + ": user "
            + user.getShortName() + " still gets " + name + " after 60 s");
        }
        Thread.sleep(100);
      }
    } finally {
      RpcServer.unsetCurrentCall();
    }
  }

  @TearDown(Level.Trial)
  public void stopCluster() {
    if (cluster != null) {
      cluster.stop();
      cluster = null;
    }
  }

  RegionServerRpcQuotaManager quotas() {
    // Asked per request, as RSRpcServices does.
    return server.getRegionServerRpcQuotaManager();
  }

  /** The benchmark thread's stand-in RPC call, installed for each iteration. */
  @State(Scope.Thread)
  public static class Caller {
    @Setup(Level.Iteration)
    public void enter(QuotaPathBenchmark bench) {
      RpcServer.setCurrentCall(new StandInCall(bench.caller));
    }

    @TearDown(Level.Iteration)
    public void leave() {
      RpcServer.unsetCurrentCall();
    }
  }

  @Benchmark
  @BenchmarkMode(org.openjdk.jmh.annotations.Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.NANOSECONDS)
  public OperationQuota get(Caller c) throws IOException {
    OperationQuota q = quotas().checkBatchQuota(region, OperationQuota.OperationType.GET);
    q.addGetResult(getResult);
    q.close();
    return q;
  }

  @Benchmark
  @BenchmarkMode(org.openjdk.jmh.annotations.Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.NANOSECONDS)
  public long scan(Caller c) throws IOException {
    OperationQuota q = quotas().checkScanQuota(region, scanRequest, maxScannerResultSize,
      64 * 1024, 0);
    long max = q.getMaxResultSize();
    q.addScanResult(scanResults);
    q.close();
    return max;
  }

  /** The client's table and the CPU counters of the {@code request} benchmark. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.OPERATIONS)
  public static class Client {
    /** JVM CPU over the iteration (client, server, GC, JIT). */
    public long processCpuNanos;
    /** CPU of the region server's RPC handler threads over the iteration. */
    public long handlerCpuNanos;
    private Table table;
    private int next;
    private long processStart;
    private long handlerStart;
    private QuotaPathBenchmark bench;

    @Setup(Level.Trial)
    public void open(QuotaPathBenchmark b) throws IOException {
      bench = b;
      table = b.cluster.connection().getTable(TABLE);
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
      table.close();
    }

    @Setup(Level.Iteration)
    public void startClocks() {
      handlerStart = bench.handlerCpuNanos();
      processStart = CpuTime.processNanos();
    }

    @TearDown(Level.Iteration)
    public void stopClocks() {
      processCpuNanos = CpuTime.processNanos() - processStart;
      handlerCpuNanos = bench.handlerCpuNanos() - handlerStart;
    }

    byte[] nextRow() {
      next = next + 1 == ROWS ? 0 : next + 1;
      return KeyChooser.row(next);
    }
  }

  @Benchmark
  @BenchmarkMode(org.openjdk.jmh.annotations.Mode.Throughput)
  @OutputTimeUnit(TimeUnit.SECONDS)
  public Result request(Client c) throws IOException {
    return c.table.get(new Get(c.nextRow()));
  }

  /** The region server's RPC handler threads (the master's have another port in the name). */
  private List<Thread> handlerThreads() {
    String port = "port=" + rpcPort;
    List<Thread> found = new ArrayList<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      String n = t.getName();
      if (n.startsWith("RpcServer.") && n.contains(".handler=") && n.contains(port)) {
        found.add(t);
      }
    }
    return found;
  }

  private List<String> handlerThreadNames() {
    List<String> names = new ArrayList<>();
    for (Thread t : handlerThreads()) {
      names.add(t.getName());
    }
    Collections.sort(names);
    return names;
  }

  long handlerCpuNanos() {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long sum = 0;
    for (Thread t : handlerThreads()) {
      long ns = mx.getThreadCpuTime(t.getId());
      if (ns > 0) {
        sum += ns;
      }
    }
    return sum;
  }

  /**
   * What a handler thread holds while it serves a request: the call, whose user the quota
   * manager charges. Only the user matters to the quota path; the rest answers as an idle call.
   */
  static final class StandInCall implements RpcCall {
    private final User user;

    StandInCall(User user) {
      this.user = user;
    }

    @Override
    public Optional<User> getRequestUser() {
      // As HBase's own calls answer: a new Optional per question.
      return Optional.ofNullable(user);
    }

    @Override
    public byte[] getRequestAttribute(String key) {
      return null;
    }

    @Override
    public Map<String, byte[]> getRequestAttributes() {
      return Collections.emptyMap();
    }

    @Override
    public Map<String, byte[]> getConnectionAttributes() {
      return Collections.emptyMap();
    }

    @Override
    public BlockingService getService() {
      return null;
    }

    @Override
    public Descriptors.MethodDescriptor getMethod() {
      return null;
    }

    @Override
    public Message getParam() {
      return null;
    }

    @Override
    public CellScanner getCellScanner() {
      return null;
    }

    @Override
    public long getReceiveTime() {
      return 0;
    }

    @Override
    public long getStartTime() {
      return 0;
    }

    @Override
    public void setStartTime(long startTime) {
    }

    @Override
    public int getTimeout() {
      return 0;
    }

    @Override
    public int getPriority() {
      return HConstants.NORMAL_QOS;
    }

    @Override
    public long getDeadline() {
      return Long.MAX_VALUE;
    }

    @Override
    public long getSize() {
      return 0;
    }

    @Override
    public RPCProtos.RequestHeader getHeader() {
      return null;
    }

    @Override
    public int getRemotePort() {
      return 0;
    }

    @Override
    public void setResponse(Message param, CellScanner cells, Throwable errorThrowable,
      String error) {
    }

    @Override
    public void sendResponseIfReady() {
    }

    @Override
    public void cleanup() {
    }

    @Override
    public String toShortString() {
      return "stand-in call of " + user;
    }

    // RpcCall members in HBase 2.6.1 only (2.6.4 dropped them): no @Override, so the class
    // compiles against both.
    public void updateFsReadTime(long latencyMillis) {
    }

    public long getFsReadTime() {
      return 0;
    }

    @Override
    public long disconnectSince() {
      return -1;
    }

    @Override
    public boolean isClientCellBlockSupported() {
      return false;
    }

    @Override
    public Optional<X509Certificate[]> getClientCertificateChain() {
      return Optional.empty();
    }

    @Override
    public InetAddress getRemoteAddress() {
      return null;
    }

    @Override
    public HBaseProtos.VersionInfo getClientVersionInfo() {
      return null;
    }

    @Override
    public void setCallBack(RpcCallback callback) {
    }

    @Override
    public boolean isRetryImmediatelySupported() {
      return false;
    }

    @Override
    public long getResponseCellSize() {
      return 0;
    }

    @Override
    public void incrementResponseCellSize(long cellSize) {
    }

    @Override
    public long getBlockBytesScanned() {
      return 0;
    }

    @Override
    public void incrementBlockBytesScanned(long blockSize) {
    }

    @Override
    public long getResponseExceptionSize() {
      return 0;
    }

    @Override
    public void incrementResponseExceptionSize(long exceptionSize) {
    }
  }
}
