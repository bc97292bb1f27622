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
import java.security.PrivilegedExceptionAction;
import java.util.concurrent.TimeUnit;
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
import org.apache.hadoop.hbase.quotas.RateLimiter;
import org.apache.hadoop.hbase.quotas.RpcThrottlingException;
import org.apache.hadoop.hbase.quotas.ThrottleType;
import org.apache.hadoop.hbase.security.User;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * The seed's experiment on one machine: two users read 1 KB rows at full speed from the same
 * table on a minicluster (local file system, one region server running
 * {@link ThrottlingRegionServer}); user {@code throttled} has a request-number throttle of
 * {@code limit} per second, user {@code free} has none. Each user has its own connection and
 * threads. A refused read sleeps the wait the server advertised and tries again, as HBase's
 * client does (the loop is here rather than in the client so refusals can be counted), so a
 * user's score is the rate it achieved and its mean latency is threads / score. The group score
 * is the server's total; {@code throttledUserRefusals} is the rate of refused attempts, the
 * retry pressure short waits put on the server (HBASE-28453).
 * <p>
 * {@code limit = -1} gives the readers no throttle but stores one for an idle third user, so
 * quotas are on and the server checks every request without any limit biting: compared with
 * BASELINE that is the cost of quotas that do not bite. UPSTREAM runs HBase's own manager with
 * {@code upstreamLimiter} (AverageIntervalRateLimiter, HBase's default, or
 * FixedIntervalRateLimiter); the other modes ignore that parameter.
 */
@State(Scope.Benchmark)
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1, time = 6)
@Measurement(iterations = 3, time = 5)
public class ThrottledUsersBenchmark extends HBaseBenchmark {

  static final String THROTTLED = "throttled";
  static final String FREE = "free";
  static final String IDLE = QuotaBenchCluster.IDLE;
  private static final TableName TABLE = TableName.valueOf("throttled_users");
  /** A read gives up after this many refused attempts (counted as a failure). */
  private static final int MAX_ATTEMPTS = 1000;

  @Param({ "PATCHED", "UPSTREAM", "BASELINE" })
  public Mode mode;

  @Param({ "AverageIntervalRateLimiter" })
  public String upstreamLimiter;

  /** Requests per second allowed to user {@code throttled}; -1: no reader is throttled. */
  @Param({ "500" })
  public int limit;

  @Param({ "10000" })
  public int rows;

  /** {@code uniform} or {@code zipf} (exponent 0.99, hot keys spread over the table). */
  @Param({ "zipf" })
  public String keys;

  MiniCluster cluster;
  KeyChooser.Shape keyShape;

  @Setup(Level.Trial)
  public void startCluster() throws Exception {
    keyShape = KeyChooser.shape(keys, rows);
    cluster = QuotaBenchCluster.builder(mode)
      .conf("hbase.regionserver.handler.count", "16")
      .conf(RateLimiter.QUOTA_RATE_LIMITER_CONF_KEY,
        "org.apache.hadoop.hbase.quotas." + upstreamLimiter)
      .build();
    cluster.start();
    QuotaBenchCluster.loadTable(cluster, TABLE, rows);
    Admin admin = cluster.admin();
    if (limit > 0) {
      admin.setQuota(QuotaSettingsFactory.throttleUser(THROTTLED, ThrottleType.REQUEST_NUMBER,
        limit, TimeUnit.SECONDS));
    }
    // Two refresh periods: every server has read the settings before the warmup starts.
    Thread.sleep(2L * QuotaBenchCluster.REFRESH_MS + 500);
  }

  @TearDown(Level.Trial)
  public void stopCluster() {
    if (cluster != null) {
      cluster.stop();
      cluster = null;
    }
  }

  /** One reader thread: its own connection as its user, and its own key sequence. */
  @State(Scope.Thread)
  public abstract static class Reader {
    private Connection connection;
    private Table table;
    private KeyChooser chooser;

    abstract String user();

    /** Counts a read that failed for another reason or after every retry (should not happen). */
    abstract void failed();

    /** Counts one refused attempt. */
    abstract void refused();

    @Setup(Level.Trial)
    public void connect(ThrottledUsersBenchmark bench) throws Exception {
      Configuration conf = new Configuration(bench.cluster.conf());
      // One attempt per call: refusals come back here, are counted and waited out below.
      conf.setInt(HConstants.HBASE_CLIENT_RETRIES_NUMBER, 0);
      User u = User.createUserForTesting(conf, user(), new String[] { user() });
      connection = u.runAs(
        (PrivilegedExceptionAction<Connection>) () -> ConnectionFactory.createConnection(conf));
      table = connection.getTable(TABLE);
      chooser = new KeyChooser(bench.keyShape, System.nanoTime() ^ user().hashCode());
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
      table.close();
      connection.close();
    }

    Result read() throws InterruptedException {
      Get get = new Get(chooser.next());
      for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        try {
          return table.get(get);
        } catch (IOException e) {
          RpcThrottlingException refusal = throttling(e);
          if (refusal == null) {
            break;
          }
          refused();
          Thread.sleep(refusal.getWaitInterval());
        }
      }
      failed();
      return null;
    }

    private static RpcThrottlingException throttling(Throwable t) {
      for (Throwable c = t; c != null; c = c.getCause()) {
        if (c instanceof RpcThrottlingException) {
          return (RpcThrottlingException) c;
        }
      }
      return null;
    }
  }

  /** Threads of the throttled user. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.OPERATIONS)
  public static class ThrottledReader extends Reader {
    /** Reads of the throttled user that failed. */
    public long throttledUserFailures;
    /** Attempts of the throttled user the server refused. */
    public long throttledUserRefusals;
    /**
     * The fork's process CPU time over the iteration (client threads and server together), kept
     * by one thread only; the report turns it into requests per CPU second, which is what
     * "quotas cost nothing when they don't bite" is about on a machine whose two cores are busy
     * in every mode.
     */
    public long cpuNanos;
    private long cpuStart;
    private boolean keepsClock;

    @Setup(Level.Iteration)
    public void startClock(ThreadParams thread) {
      keepsClock = thread.getSubgroupThreadIndex() == 0;
      cpuStart = CpuTime.processNanos();
    }

    @TearDown(Level.Iteration)
    public void stopClock() {
      cpuNanos = keepsClock ? CpuTime.processNanos() - cpuStart : 0;
    }

    @Override
    String user() {
      return THROTTLED;
    }

    @Override
    void failed() {
      throttledUserFailures++;
    }

    @Override
    void refused() {
      throttledUserRefusals++;
    }
  }

  /** Threads of the user without a throttle. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.OPERATIONS)
  public static class FreeReader extends Reader {
    /** Reads of the free user that failed. */
    public long freeUserFailures;
    /** Attempts of the free user the server refused (should stay 0). */
    public long freeUserRefusals;

    @Override
    String user() {
      return FREE;
    }

    @Override
    void failed() {
      freeUserFailures++;
    }

    @Override
    void refused() {
      freeUserRefusals++;
    }
  }

  @Benchmark
  @Group("twoUsers")
  @GroupThreads(2)
  public Result throttledUser(ThrottledReader r) throws InterruptedException {
    return r.read();
  }

  @Benchmark
  @Group("twoUsers")
  @GroupThreads(2)
  public Result freeUser(FreeReader r) throws InterruptedException {
    return r.read();
  }
}
