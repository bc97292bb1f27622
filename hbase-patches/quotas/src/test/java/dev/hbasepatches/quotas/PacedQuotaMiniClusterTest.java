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

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import dev.hbasepatches.quotas.limit.RateLimit;
import dev.hbasepatches.testkit.MiniCluster;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.coprocessor.CoprocessorHost;
import org.apache.hadoop.hbase.quotas.OperationQuota;
import org.apache.hadoop.hbase.quotas.QuotaCache;
import org.apache.hadoop.hbase.quotas.QuotaScope;
import org.apache.hadoop.hbase.quotas.QuotaSettingsFactory;
import org.apache.hadoop.hbase.quotas.QuotaTableUtil;
import org.apache.hadoop.hbase.quotas.QuotaUtil;
import org.apache.hadoop.hbase.quotas.RpcThrottlingException;
import org.apache.hadoop.hbase.quotas.ThrottleType;
import org.apache.hadoop.hbase.regionserver.Region;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.JVMClusterUtil;
import org.junit.AfterClass;
import org.junit.Assume;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * PATCHED throttling on a real RegionServer: quotas are set with {@code Admin.setQuota} exactly
 * as an operator would, reach the server through its refresh of {@code hbase:quota}, and are
 * observed from real clients running as different users.
 * <p>
 * The servers' limiters read {@link SteppedClockRegionServer#CLOCK}: a case that counts what a
 * per-second throttle admits freezes it, so nothing refills while the clients run however slow
 * the machine is, and moves it by exact amounts (a period, half a period, the wait a refusal
 * advertised). Counts are then exact: a throttle of R per second admits its burst of R, and R
 * again after one period of limiter time. Nothing reads the wall clock to judge a result. Other
 * cases run on the clock as it follows the system's, with limits per day, which nothing refills
 * during a case.
 */
public class PacedQuotaMiniClusterTest {

  private static final Logger LOG = LoggerFactory.getLogger(PacedQuotaMiniClusterTest.class);

  private static final int REFRESH_MS = 500;

  @ClassRule
  public static final MiniCluster CLUSTER = MiniCluster.builder()
    .conf(HConstants.REGION_SERVER_IMPL, SteppedClockRegionServer.class)
    .conf(QuotaUtil.QUOTA_CONF_KEY, "true")
    .conf(QuotaCache.REFRESH_CONF_KEY, String.valueOf(REFRESH_MS))
    .conf(QuotaMode.MODE_KEY, QuotaMode.PATCHED.name())
    .conf(QuotaCache.QUOTA_USER_REQUEST_ATTRIBUTE_OVERRIDE_KEY, PacedQuotaMiniClusterTest.OVERRIDE)
    .conf(CoprocessorHost.REGION_COPROCESSOR_CONF_KEY, QuotaProbeObserver.class.getName())
    .build();

  /**
   * No case may hang the build: four minutes each (the cluster's start has its own bound). Not
   * "looking for stuck threads": that runs each case in a thread group JUnit destroys after it,
   * and the shared client connections' pool threads started in it could not be replaced later
   * (IllegalThreadStateException).
   */
  @Rule
  public final Timeout timeout = Timeout.builder().withTimeout(240, TimeUnit.SECONDS).build();

  /** The request attribute that names the user quotas are charged to. */
  static final String OVERRIDE = "quota.user";

  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");
  private static final TableName READS = TableName.valueOf("paced_reads");
  private static final TableName OTHER = TableName.valueOf("paced_other");
  private static final String NS = "paced_ns";
  private static final TableName IN_NS = TableName.valueOf(NS, "t");
  private static final TableName WRITES = TableName.valueOf("paced_writes");
  private static final int ROWS = 100;

  private static Connection alice;
  private static Connection bob;
  private static Connection carol;

  @BeforeClass
  public static void setUp() throws Exception {
    Admin admin = CLUSTER.admin();
    CLUSTER.util().waitTableAvailable(QuotaUtil.QUOTA_TABLE_NAME, 60_000);
    admin.createNamespace(NamespaceDescriptor.create(NS).build());
    for (TableName t : new TableName[] { READS, OTHER, IN_NS, WRITES }) {
      admin.createTable(TableDescriptorBuilder.newBuilder(t)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F)).build());
      try (Table table = CLUSTER.connection().getTable(t)) {
        List<Put> puts = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
          puts.add(new Put(row(i)).addColumn(F, Q, new byte[1000]));
        }
        table.put(puts);
      }
    }
    alice = LoadProbe.connect(CLUSTER.conf(), LoadProbe.user(CLUSTER.conf(), "alice"));
    bob = LoadProbe.connect(CLUSTER.conf(), LoadProbe.user(CLUSTER.conf(), "bob"));
    carol = LoadProbe.connect(CLUSTER.conf(), LoadProbe.user(CLUSTER.conf(), "carol"));
    assertTrue("the RegionServer runs the PATCHED manager",
      CLUSTER.regionServer(0).getRegionServerRpcQuotaManager() instanceof PacedRpcQuotaManager);
  }

  @AfterClass
  public static void tearDown() throws IOException {
    for (Connection c : new Connection[] { alice, bob, carol }) {
      if (c != null) {
        c.close();
      }
    }
  }

  private static byte[] row(long i) {
    return Bytes.toBytes(String.format("row%05d", Math.floorMod(i, ROWS)));
  }

  private static PacedRpcQuotaManager manager() {
    return (PacedRpcQuotaManager) CLUSTER.regionServer(0).getRegionServerRpcQuotaManager();
  }

  /** Waits (a few refresh periods at most) until the server's throttles satisfy {@code p}. */
  private static QuotaSnapshot awaitSnapshot(String what, Predicate<QuotaSnapshot> p)
    throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (System.nanoTime() < deadline) {
      QuotaSnapshot s = manager().snapshot();
      if (p.test(s)) {
        return s;
      }
      Thread.sleep(50);
    }
    fail("the server never saw: " + what + "; it has " + manager().snapshot());
    return null;
  }

  private static void get(Table t, long i) throws IOException {
    if (t.get(new Get(row(i))).isEmpty()) {
      throw new IOException("row " + i + " missing");
    }
  }

  /**
   * {@code workers} clients of {@code c} race {@code attempts} Gets each on {@code table}, all
   * started together, going on after refusals; what each saw.
   */
  private static Outcome[] race(Connection c, TableName table, int workers, int attempts,
    List<RpcThrottlingException> refusals) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(workers);
    java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
    try {
      List<Future<Outcome>> runs = new ArrayList<>();
      for (int w = 0; w < workers; w++) {
        final int first = w * attempts;
        runs.add(pool.submit((Callable<Outcome>) () -> {
          Outcome o = new Outcome();
          try (Table t = c.getTable(table)) {
            start.await();
            for (int i = 0; i < attempts; i++) {
              try {
                get(t, first + i);
                o.admitted++;
              } catch (IOException e) {
                RpcThrottlingException r = refusalIn(e);
                if (r == null) {
                  throw e;
                }
                o.refusal = r;
                refusals.add(r);
              }
            }
          }
          return o;
        }));
      }
      start.countDown();
      Outcome[] out = new Outcome[workers];
      for (int w = 0; w < workers; w++) {
        out[w] = runs.get(w).get(120, TimeUnit.SECONDS);
      }
      return out;
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * Every refusal names {@code type} and a wait of whole requests' time ({@code perRequestMs}):
   * the exact wait, one request's time when the limit is full, or a later slot up to one period
   * past it, so that clients refused together come back one after another.
   */
  private static void assertRefusals(String what, RpcThrottlingException.Type type,
    long perRequestMs, long periodMs, List<RpcThrottlingException> refusals) {
    assertTrue(what + ": never refused", !refusals.isEmpty());
    for (RpcThrottlingException r : refusals) {
      long wait = r.getWaitInterval();
      assertEquals(what + ": " + r, type, r.getType());
      assertTrue(what + ": a wait of whole requests' time, at most a period past the first: " + r,
        wait >= perRequestMs && wait <= perRequestMs + periodMs && wait % perRequestMs == 0);
    }
  }

  /**
   * Alice at 8 requests a second, the limiter's clock frozen: two clients racing for her limit
   * get exactly her burst of 8 between them and every later request is refused with a wait of
   * whole requests' time; bob, past her limit, is never refused; one period of limiter time later
   * she gets exactly 8 again, half a period later exactly 4.
   */
  @Test
  public void throttledUserHoldsItsRateAndTheOtherUserIsUntouched() throws Exception {
    Admin admin = CLUSTER.admin();
    int rate = 8;
    admin.setQuota(
      QuotaSettingsFactory.throttleUser("alice", ThrottleType.REQUEST_NUMBER, rate,
        TimeUnit.SECONDS));
    try {
      awaitSnapshot("alice throttled", s -> s.user("alice") != null);
      SteppedClockRegionServer.CLOCK.freeze();
      List<RpcThrottlingException> refusals =
        java.util.Collections.synchronizedList(new ArrayList<>());
      Outcome[] racing = race(alice, READS, 2, 2 * rate, refusals);
      String msg = "alice's two clients: " + racing[0] + "; " + racing[1];
      LOG.info(msg);
      assertEquals(msg, rate, racing[0].admitted + racing[1].admitted);
      assertEquals(msg, 3 * rate, refusals.size());
      assertRefusals(msg, RpcThrottlingException.Type.NumRequestsExceeded, 1000 / rate, 1000,
        refusals);
      try (Table t = bob.getTable(READS)) {
        assertOutcome("bob, past alice's limit", 3 * rate, null,
          untilRefused(3 * rate, i -> get(t, i)));
      }
      try (Table t = alice.getTable(READS)) {
        SteppedClockRegionServer.CLOCK.advance(TimeUnit.SECONDS.toNanos(1));
        assertOutcome("alice one period later", rate,
          RpcThrottlingException.Type.NumRequestsExceeded, untilRefused(3 * rate, i -> get(t, i)));
        SteppedClockRegionServer.CLOCK.advance(TimeUnit.MILLISECONDS.toNanos(500));
        assertOutcome("alice half a period later", rate / 2,
          RpcThrottlingException.Type.NumRequestsExceeded, untilRefused(3 * rate, i -> get(t, i)));
      }
    } finally {
      SteppedClockRegionServer.CLOCK.thaw();
      admin.setQuota(QuotaSettingsFactory.unthrottleUser("alice"));
      awaitSnapshot("alice unthrottled", s -> s.user("alice") == null);
    }
  }

  @Test
  public void changingAndRemovingAThrottleTakesEffectWithoutRestart() throws Exception {
    Admin admin = CLUSTER.admin();
    admin.setQuota(QuotaSettingsFactory.throttleUser("alice", READS, ThrottleType.READ_NUMBER,
      1, TimeUnit.DAYS));
    QuotaSnapshot s = awaitSnapshot("alice on " + READS, x -> x.user("alice") != null);
    RateLimit limit = s.user("alice").forTable(READS).limit(ThrottleType.READ_NUMBER);
    assertNull("the throttle is for one table only", s.user("alice").forTable(OTHER));
    int refused = 0;
    try (Table t = alice.getTable(READS); Table other = alice.getTable(OTHER)) {
      for (int i = 0; i < 10; i++) {
        try {
          get(t, i);
        } catch (IOException e) {
          RpcThrottlingException r = LoadProbe.throttling(e);
          assertNotNull(e.toString(), r);
          assertEquals(RpcThrottlingException.Type.NumReadRequestsExceeded, r.getType());
          refused++;
        }
        get(other, i);
      }
      assertEquals("10 reads against 1 a day: all but the first refused", 9, refused);

      admin.setQuota(QuotaSettingsFactory.throttleUser("alice", READS,
        ThrottleType.READ_NUMBER, 10_000, TimeUnit.SECONDS));
      s = awaitSnapshot("alice at 10000/s",
        x -> x.user("alice") != null && x.user("alice").forTable(READS)
          .limit(ThrottleType.READ_NUMBER).units() == 10_000);
      assertSame("the limiter is re-rated in place, not replaced", limit,
        s.user("alice").forTable(READS).limit(ThrottleType.READ_NUMBER));
      // What the day's one read owes is 0.1 ms at the new rate: the next 20 reads pass.
      for (int i = 0; i < 20; i++) {
        get(t, i);
      }

      admin.setQuota(QuotaSettingsFactory.unthrottleUser("alice", READS));
      awaitSnapshot("alice unthrottled", x -> x.user("alice") == null);
      for (int i = 0; i < 20; i++) {
        get(t, i);
      }
    } finally {
      admin.setQuota(QuotaSettingsFactory.unthrottleUser("alice", READS));
    }
  }

  /**
   * A table and a namespace at 4 requests a second, the limiter's clock frozen: bob gets exactly
   * 4 on the table and then alice none (the table's limit binds every user), carol exactly 4 in
   * the namespace, and nothing on an unthrottled table is refused; a period later alice gets
   * exactly 4 on the table and carol 4 in the namespace.
   */
  @Test
  public void tableAndNamespaceThrottlesBindEveryUser() throws Exception {
    Admin admin = CLUSTER.admin();
    int rate = 4;
    admin.setQuota(
      QuotaSettingsFactory.throttleTable(READS, ThrottleType.REQUEST_NUMBER, rate,
        TimeUnit.SECONDS));
    admin.setQuota(QuotaSettingsFactory.throttleNamespace(NS, ThrottleType.REQUEST_NUMBER, rate,
      TimeUnit.SECONDS));
    RpcThrottlingException.Type out = RpcThrottlingException.Type.NumRequestsExceeded;
    try (Table bobReads = bob.getTable(READS); Table aliceReads = alice.getTable(READS);
      Table carolNs = carol.getTable(IN_NS); Table carolOther = carol.getTable(OTHER)) {
      awaitSnapshot("table and namespace throttles",
        s -> s.table(READS) != null && s.namespace(NS) != null);
      SteppedClockRegionServer.CLOCK.freeze();
      assertOutcome("bob on the throttled table", rate, out,
        untilRefused(3 * rate, i -> get(bobReads, i)));
      assertOutcome("alice on it after bob", 0, out,
        untilRefused(3 * rate, i -> get(aliceReads, i)));
      assertOutcome("carol in the throttled namespace", rate, out,
        untilRefused(3 * rate, i -> get(carolNs, i)));
      assertOutcome("carol on an unthrottled table", 3 * rate, null,
        untilRefused(3 * rate, i -> get(carolOther, i)));
      SteppedClockRegionServer.CLOCK.advance(TimeUnit.SECONDS.toNanos(1));
      assertOutcome("alice on the table a period later", rate, out,
        untilRefused(3 * rate, i -> get(aliceReads, i)));
      assertOutcome("carol in the namespace a period later", rate, out,
        untilRefused(3 * rate, i -> get(carolNs, i)));
    } finally {
      SteppedClockRegionServer.CLOCK.thaw();
      admin.setQuota(QuotaSettingsFactory.unthrottleTable(READS));
      admin.setQuota(QuotaSettingsFactory.unthrottleNamespace(NS));
      awaitSnapshot("no table or namespace throttles",
        s -> s.table(READS) == null && s.namespace(NS) == null);
    }
  }

  /**
   * Carol at 4 KB written a second, the limiter's clock frozen: she puts exactly as many 1 KB
   * cells as fit 4096 bytes (each put charged its cells' serialized size), then is refused with
   * WriteSizeExceeded and a wait within one period; a period later exactly as many again. Reads
   * are not writes: they pass.
   */
  @Test
  public void writeSizeThrottleHoldsBytesPerSecond() throws Exception {
    Admin admin = CLUSTER.admin();
    long bytesPerSecond = 4 * 1024;
    admin.setQuota(QuotaSettingsFactory.throttleUser("carol", ThrottleType.WRITE_SIZE,
      bytesPerSecond, TimeUnit.SECONDS));
    try (Table t = carol.getTable(WRITES)) {
      awaitSnapshot("carol write-size throttle", s -> s.user("carol") != null);
      long cost = QuotaUtil.calculateMutationSize(new Put(row(0)).addColumn(F, Q, new byte[1000]));
      int perPeriod = (int) (bytesPerSecond / cost);
      assertTrue("a put of " + cost + " bytes fits the limit more than once", perPeriod > 1);
      RpcThrottlingException.Type out = RpcThrottlingException.Type.WriteSizeExceeded;
      SteppedClockRegionServer.CLOCK.freeze();
      Outcome first = untilRefused(20,
        i -> t.put(new Put(row(i)).addColumn(F, Q, new byte[1000])));
      LOG.info("carol writing puts of {} bytes: {}", cost, first);
      assertOutcome("carol's puts of " + cost + " bytes under " + bytesPerSecond + " B/s",
        perPeriod, out, first);
      assertTrue(first.toString(), first.refusal.getWaitInterval() <= 1000);
      SteppedClockRegionServer.CLOCK.advance(TimeUnit.SECONDS.toNanos(1));
      assertOutcome("carol's puts a period later", perPeriod, out,
        untilRefused(20, i -> t.put(new Put(row(i)).addColumn(F, Q, new byte[1000]))));
      // Reads are not writes.
      try (Table table = carol.getTable(READS)) {
        for (int i = 0; i < 20; i++) {
          get(table, i);
        }
      }
    } finally {
      SteppedClockRegionServer.CLOCK.thaw();
      admin.setQuota(QuotaSettingsFactory.unthrottleUser("carol"));
      awaitSnapshot("carol unthrottled", s -> s.user("carol") == null);
    }
  }

  @Test
  public void scanReadSizeThrottleAdvertisesWaitsThatWork() throws Exception {
    Admin admin = CLUSTER.admin();
    // One full scan (about 103 KB) must fit a period, or its wait exceeds one.
    long bytesPerSecond = 150 * 1024;
    admin.setQuota(QuotaSettingsFactory.throttleUser("frank", ThrottleType.READ_SIZE,
      bytesPerSecond, TimeUnit.SECONDS));
    try (Connection frank =
      LoadProbe.connect(CLUSTER.conf(), LoadProbe.user(CLUSTER.conf(), "frank"));
      Table t = frank.getTable(READS)) {
      awaitSnapshot("frank read-size throttle", s -> s.user("frank") != null);
      long bytes = 0;
      int scans = 0;
      int retriesAdmitted = 0;
      int retriesRefused = 0;
      boolean retrying = false;
      long waitedNanos = 0;
      // The limiter's clock moves only by the waits refused scans were told to take.
      SteppedClockRegionServer.CLOCK.freeze();
      // Until the burst is spent twice over and refused scans were retried: behaviour, not time.
      while (scans < 4 || retriesAdmitted + retriesRefused < 2) {
        try (ResultScanner rs = t.getScanner(new Scan().setCaching(ROWS))) {
          long scanned = 0;
          for (Result r : rs) {
            for (Cell c : r.rawCells()) {
              scanned += c.getSerializedSize();
            }
          }
          bytes += scanned;
          scans++;
          if (retrying) {
            retriesAdmitted++;
          }
          retrying = false;
        } catch (IOException | UncheckedIOException e) {
          // The scanner's iterator wraps what next() throws.
          RpcThrottlingException r = LoadProbe.throttling(e);
          assertNotNull(e.toString(), r);
          assertEquals(RpcThrottlingException.Type.ReadSizeExceeded, r.getType());
          assertTrue("a wait is never longer than one period: " + r, r.getWaitInterval() <= 1000);
          if (retrying) {
            retriesRefused++;
          }
          retrying = true;
          long wait = TimeUnit.MILLISECONDS.toNanos(r.getWaitInterval());
          SteppedClockRegionServer.CLOCK.advance(wait);
          waitedNanos += wait;
        }
      }
      // The burst (one period) plus the rate over the limiter time that passed, and two scans'
      // rows of slack: a scan is charged an estimate first and settled with what it read.
      double seconds = waitedNanos / 1e9;
      double most = bytesPerSecond * (seconds + 1) + 2 * ROWS * 1100;
      String msg = scans + " full scans, " + bytes + " bytes over " + String.format("%.3f s", seconds)
        + " of limiter time; expected at most " + (long) most + "; after waiting the advertised wait "
        + retriesAdmitted + " retries were admitted, " + retriesRefused + " refused again";
      LOG.info("frank scanning: {}", msg);
      assertTrue(msg, bytes <= most);
      assertTrue(msg, retriesAdmitted + retriesRefused > 0);
      assertTrue(msg, retriesAdmitted >= 2 * retriesRefused);
    } finally {
      SteppedClockRegionServer.CLOCK.thaw();
      admin.setQuota(QuotaSettingsFactory.unthrottleUser("frank"));
      awaitSnapshot("frank unthrottled", s -> s.user("frank") == null);
    }
  }

  @Test
  public void rpcThrottleSwitchTurnsEnforcementOffAndOn() throws Exception {
    Admin admin = CLUSTER.admin();
    admin.setQuota(QuotaSettingsFactory.throttleUser("bob", OTHER, ThrottleType.REQUEST_NUMBER,
      1, TimeUnit.DAYS));
    try {
      awaitSnapshot("bob throttled on " + OTHER, s -> s.user("bob") != null);
      assertTrue(admin.switchRpcThrottle(false));
      try (Table t = bob.getTable(OTHER)) {
        for (int i = 0; i < 10; i++) {
          get(t, i);
        }
        admin.switchRpcThrottle(true);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!manager().isRpcThrottleEnabled() && System.nanoTime() < deadline) {
          Thread.sleep(50);
        }
        assertTrue("the server saw the switch", manager().isRpcThrottleEnabled());
        int refused = 0;
        for (int i = 0; i < 5; i++) {
          try {
            get(t, i);
          } catch (IOException e) {
            assertNotNull(e.toString(), LoadProbe.throttling(e));
            refused++;
          }
        }
        assertEquals("1 a day after the switch is back on: the first passes", 4, refused);
      }
    } finally {
      admin.switchRpcThrottle(true);
      admin.setQuota(QuotaSettingsFactory.unthrottleUser("bob", OTHER));
      awaitSnapshot("bob unthrottled", s -> s.user("bob") == null);
    }
  }

  /** Gets (or multi-gets of {@code batch} rows) until the first refusal; how many got through. */
  private static int readsUntilRefused(Table t, int batch, int max) throws IOException {
    int admitted = 0;
    for (int i = 0; i < max; i++) {
      try {
        if (batch == 1) {
          t.get(new Get(Bytes.toBytes(String.format("bbs%05d", (i * 37) % 2000))));
        } else {
          List<Get> gets = new ArrayList<>();
          for (int j = 0; j < batch; j++) {
            gets.add(new Get(Bytes.toBytes(String.format("bbs%05d", (i * 131 + j * 197) % 2000))));
          }
          t.get(gets);
        }
        admitted++;
      } catch (RetriesExhaustedWithDetailsException e) {
        // A multi-get: every refused action carries its own throttling exception.
        for (Throwable cause : e.getCauses()) {
          assertNotNull(cause.toString(), LoadProbe.throttling(cause));
        }
        return admitted;
      } catch (IOException e) {
        assertNotNull(e.toString(), LoadProbe.throttling(e));
        return admitted;
      }
    }
    return admitted;
  }

  /**
   * What upstream's TestBlockBytesScannedQuota checks, on the system clock: a read-size throttle
   * is charged the blocks a read scans, not the few bytes it returns. 2,000 rows of 200 bytes
   * fill several 64 KB blocks; a Get of one small cell scans a whole block. Under a throttle of
   * 10.1 blocks a day, about ten Gets get through before the first refusal (nothing refills
   * during the run), where charging result bytes (~250 B a Get) would admit all 40; a multi-get
   * of 10 rows spread over the blocks scans several blocks, so at most ten do.
   */
  @Test
  public void readSizeThrottleChargesBlockBytesScanned() throws Exception {
    Admin admin = CLUSTER.admin();
    TableName bbs = TableName.valueOf("paced_bbs");
    admin.createTable(TableDescriptorBuilder.newBuilder(bbs)
      .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F)).build());
    int blockSize = admin.getDescriptor(bbs).getColumnFamily(F).getBlocksize();
    try (Table t = CLUSTER.connection().getTable(bbs)) {
      List<Put> puts = new ArrayList<>();
      for (int i = 0; i < 2000; i++) {
        puts.add(new Put(Bytes.toBytes(String.format("bbs%05d", i))).addColumn(F, Q,
          new byte[200]));
      }
      t.put(puts);
    }
    admin.flush(bbs);
    long limit = Math.round(10.1 * blockSize);
    for (String user : new String[] { "gina", "hank" }) {
      admin.setQuota(QuotaSettingsFactory.throttleUser(user, ThrottleType.READ_SIZE, limit,
        TimeUnit.DAYS));
    }
    try (Connection gina = LoadProbe.connect(CLUSTER.conf(), LoadProbe.user(CLUSTER.conf(),
      "gina")); Connection hank = LoadProbe.connect(CLUSTER.conf(),
        LoadProbe.user(CLUSTER.conf(), "hank"))) {
      awaitSnapshot("gina and hank throttled",
        s -> s.user("gina") != null && s.user("hank") != null);
      int gets = readsUntilRefused(gina.getTable(bbs), 1, 40);
      assertTrue("Gets admitted under 10.1 blocks/day: " + gets, gets >= 8 && gets <= 12);
      int multis = readsUntilRefused(hank.getTable(bbs), 10, 40);
      assertTrue("multi-gets of 10 admitted under 10.1 blocks/day: " + multis,
        multis >= 1 && multis <= 10);
    } finally {
      for (String user : new String[] { "gina", "hank" }) {
        admin.setQuota(QuotaSettingsFactory.unthrottleUser(user));
      }
      awaitSnapshot("gina and hank unthrottled",
        s -> s.user("gina") == null && s.user("hank") == null);
    }
  }

  /**
   * {@code getQuota(ugi, table, blockSize)}, what a coprocessor calls, charges the user the
   * request attribute override names, as the request path does (it used to take the caller's
   * own name and miss the override's throttle).
   */
  @Test
  public void getQuotaHonoursTheUserOverride() throws Exception {
    Admin admin = CLUSTER.admin();
    admin.setQuota(QuotaSettingsFactory.throttleUser("svc-override", ThrottleType.REQUEST_NUMBER,
      10_000, TimeUnit.SECONDS));
    try {
      awaitSnapshot("svc-override throttled", s -> s.user("svc-override") != null);
      Get probe = new Get(row(1));
      probe.setAttribute(QuotaProbeObserver.PROBE, new byte[] { 1 });
      try (Table plain = alice.getTable(OTHER)) {
        QuotaProbeObserver.LAST.set(null);
        plain.get(probe);
        assertSame("alice herself is not throttled", FreeOperationQuota.INSTANCE,
          QuotaProbeObserver.LAST.get());
      }
      try (Table overridden = alice.getTableBuilder(OTHER, null)
        .setRequestAttribute(OVERRIDE, Bytes.toBytes("svc-override")).build()) {
        QuotaProbeObserver.LAST.set(null);
        overridden.get(probe);
        OperationQuota q = QuotaProbeObserver.LAST.get();
        assertNotNull("the probe ran", q);
        assertTrue("charged to the override's throttle: " + q, q instanceof PacedOperationQuota);
        assertEquals("user svc-override", ((PacedOperationQuota) q).sets()[0].subject());
      }
    } finally {
      admin.setQuota(QuotaSettingsFactory.unthrottleUser("svc-override"));
      awaitSnapshot("svc-override unthrottled", s -> s.user("svc-override") == null);
    }
  }

  /** A close with no rows is a scan call like any other: charged and refused when out. */
  @Test
  public void closingAScannerIsThrottled() throws Exception {
    Admin admin = CLUSTER.admin();
    TableName closes = TableName.valueOf("paced_close");
    admin.createTable(TableDescriptorBuilder.newBuilder(closes)
      .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F)).build());
    admin.setQuota(QuotaSettingsFactory.throttleTable(closes, ThrottleType.READ_NUMBER, 1,
      TimeUnit.MINUTES));
    try {
      awaitSnapshot("table " + closes + " throttled", s -> s.table(closes) != null);
      Region region = CLUSTER.regionServer(0).getRegions(closes).get(0);
      ClientProtos.ScanRequest close = ClientProtos.ScanRequest.newBuilder().setScannerId(42)
        .setCloseScanner(true).setNumberOfRows(0).build();
      OperationQuota first = manager().checkScanQuota(region, close, Long.MAX_VALUE, 0, 0);
      assertTrue("charged to the table's throttle: " + first,
        first instanceof PacedOperationQuota);
      first.close();
      try {
        manager().checkScanQuota(region, close, Long.MAX_VALUE, 0, 0).close();
        fail("a second close within the minute was admitted under 1 read/min");
      } catch (RpcThrottlingException expected) {
        assertEquals(RpcThrottlingException.Type.NumReadRequestsExceeded, expected.getType());
      }
    } finally {
      admin.setQuota(QuotaSettingsFactory.unthrottleTable(closes));
      awaitSnapshot("no throttle on " + closes, s -> s.table(closes) == null);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Exact counts. The limits below are per day, so what a limiter refills during a case (one unit
  // every hours) cannot change a count: each case asserts exactly how many requests are admitted
  // and which RpcThrottlingException type refuses the next one.

  /** One operation a test repeats. */
  @FunctionalInterface
  private interface Attempt {
    void run(int i) throws IOException;
  }

  /** How a run of attempts ended. */
  private static final class Outcome {
    int admitted;
    RpcThrottlingException refusal;

    RpcThrottlingException.Type type() {
      return refusal == null ? null : refusal.getType();
    }

    @Override
    public String toString() {
      return admitted + " admitted, then " + (refusal == null ? "no refusal" : refusal);
    }
  }

  /** A throttling refusal anywhere in {@code e}, including each action of a failed batch. */
  private static RpcThrottlingException refusalIn(Throwable e) {
    RpcThrottlingException r = LoadProbe.throttling(e);
    if (r == null && e instanceof RetriesExhaustedWithDetailsException) {
      for (Throwable cause : ((RetriesExhaustedWithDetailsException) e).getCauses()) {
        r = LoadProbe.throttling(cause);
        if (r == null) {
          return null;
        }
      }
    }
    return r;
  }

  /** Attempts {@code max} times or until the first throttling refusal. */
  private static Outcome untilRefused(int max, Attempt a) throws IOException {
    Outcome o = new Outcome();
    for (int i = 0; i < max; i++) {
      try {
        a.run(i);
        o.admitted++;
      } catch (IOException e) {
        o.refusal = refusalIn(e);
        if (o.refusal == null) {
          throw e;
        }
        return o;
      }
    }
    return o;
  }

  private static void assertOutcome(String what, int admitted, RpcThrottlingException.Type type,
    Outcome o) {
    assertEquals(what + ": " + o, admitted, o.admitted);
    assertEquals(what + ": " + o, type, o.type());
    if (type != null) {
      assertTrue(what + ": a refusal carries a wait: " + o, o.refusal.getWaitInterval() > 0);
    }
  }

  private static Connection connectAs(String user) throws Exception {
    return LoadProbe.connect(CLUSTER.conf(), LoadProbe.user(CLUSTER.conf(), user));
  }

  private static TableName createLoaded(TableName name) throws IOException {
    CLUSTER.admin().createTable(TableDescriptorBuilder.newBuilder(name)
      .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F)).build());
    try (Table table = CLUSTER.connection().getTable(name)) {
      List<Put> puts = new ArrayList<>();
      for (int i = 0; i < ROWS; i++) {
        puts.add(new Put(row(i)).addColumn(F, Q, new byte[100]));
      }
      table.put(puts);
    }
    return name;
  }

  private static List<Get> gets(int first, int n) {
    List<Get> gets = new ArrayList<>();
    for (int j = 0; j < n; j++) {
      gets.add(new Get(row(first + j)));
    }
    return gets;
  }

  private static List<Put> puts(int first, int n, int valueBytes) {
    List<Put> puts = new ArrayList<>();
    for (int j = 0; j < n; j++) {
      puts.add(new Put(row(first + j)).addColumn(F, Q, new byte[valueBytes]));
    }
    return puts;
  }

  /**
   * A multi-get or batch put counts each of its actions, and is admitted or refused whole: a
   * multi-get of 4 refused against the last 2 reads leaves those 2 for the next requests.
   */
  @Test
  public void batchesCountEveryActionAndAreRefusedWhole() throws Exception {
    Admin admin = CLUSTER.admin();
    admin.setQuota(
      QuotaSettingsFactory.throttleUser("ivan", ThrottleType.READ_NUMBER, 10, TimeUnit.DAYS));
    admin.setQuota(
      QuotaSettingsFactory.throttleUser("ivan", ThrottleType.WRITE_NUMBER, 6, TimeUnit.DAYS));
    try (Connection ivan = connectAs("ivan"); Table t = ivan.getTable(OTHER)) {
      awaitSnapshot("ivan's read and write throttles", s -> s.user("ivan") != null
        && s.user("ivan").global().limit(ThrottleType.WRITE_NUMBER) != null
        && s.user("ivan").global().limit(ThrottleType.READ_NUMBER) != null);
      assertOutcome("multi-gets of 4 under 10 reads", 2,
        RpcThrottlingException.Type.NumReadRequestsExceeded,
        untilRefused(10, i -> t.get(gets(4 * i, 4))));
      assertOutcome("single gets after the refused multi-get", 2,
        RpcThrottlingException.Type.NumReadRequestsExceeded,
        untilRefused(10, i -> t.get(new Get(row(i)))));
      assertOutcome("batch puts of 3 under 6 writes", 2,
        RpcThrottlingException.Type.NumWriteRequestsExceeded,
        untilRefused(10, i -> t.put(puts(3 * i, 3, 10))));
    } finally {
      admin.setQuota(QuotaSettingsFactory.unthrottleUser("ivan"));
      awaitSnapshot("ivan unthrottled", s -> s.user("ivan") == null);
    }
  }

  /**
   * A check-and-mutate reads and writes: it takes a read from a read throttle that plain puts
   * never touch. On HBase 2.6.4 and later it is also the atomic request the ATOMIC_* throttles
   * count, while gets and puts are not.
   */
  @Test
  public void checkAndMutateTakesAReadAndCountsAsAtomic() throws Exception {
    Admin admin = CLUSTER.admin();
    admin.setQuota(
      QuotaSettingsFactory.throttleUser("judy", ThrottleType.READ_NUMBER, 3, TimeUnit.DAYS));
    ThrottleType atomic = ThrottleTypes.type(ThrottleTypes.Kind.ATOMIC_REQUEST_NUMBER);
    if (atomic != null) {
      admin.setQuota(QuotaSettingsFactory.throttleUser("kurt", atomic, 4, TimeUnit.DAYS));
    }
    try (Connection judy = connectAs("judy"); Table t = judy.getTable(WRITES)) {
      awaitSnapshot("judy throttled", s -> s.user("judy") != null
        && (atomic == null || s.user("kurt") != null));
      assertOutcome("plain puts under a read throttle", 10, null,
        untilRefused(10, i -> t.put(new Put(row(i)).addColumn(F, Q, new byte[10]))));
      Attempt cam = i -> t.checkAndMutate(CheckAndMutate.newBuilder(row(i))
        .ifEquals(F, Q, new byte[10]).build(new Put(row(i)).addColumn(F, Q, new byte[10])));
      assertOutcome("check-and-mutates under 3 reads", 3,
        RpcThrottlingException.Type.NumReadRequestsExceeded, untilRefused(10, cam));
      if (atomic == null) {
        LOG.info("HBase {} has no atomic throttle types",
          org.apache.hadoop.hbase.util.VersionInfo.getVersion());
        return;
      }
      try (Connection kurt = connectAs("kurt"); Table k = kurt.getTable(WRITES)) {
        assertOutcome("gets and puts are not atomic", 20, null, untilRefused(20, i -> {
          if (i % 2 == 0) {
            get(k, i);
          } else {
            k.put(new Put(row(i)).addColumn(F, Q, new byte[10]));
          }
        }));
        Attempt kcam = i -> k.checkAndMutate(CheckAndMutate.newBuilder(row(i))
          .ifEquals(F, Q, new byte[10]).build(new Put(row(i)).addColumn(F, Q, new byte[10])));
        Outcome o = untilRefused(10, kcam);
        assertEquals("a check-and-mutate is one read and one write: 2 of 4: " + o, 2, o.admitted);
        assertEquals(o.toString(), "AtomicRequestNumberExceeded", o.type().name());
      }
    } finally {
      admin.setQuota(QuotaSettingsFactory.unthrottleUser("judy"));
      if (atomic != null) {
        admin.setQuota(QuotaSettingsFactory.unthrottleUser("kurt"));
      }
      awaitSnapshot("judy and kurt unthrottled",
        s -> s.user("judy") == null && s.user("kurt") == null);
    }
  }

  /** A user's namespace throttle binds that user in the namespace only. */
  @Test
  public void userOnNamespaceThrottleBindsOnlyThere() throws Exception {
    Admin admin = CLUSTER.admin();
    admin.setQuota(QuotaSettingsFactory.throttleUser("kate", NS, ThrottleType.REQUEST_NUMBER, 3,
      TimeUnit.DAYS));
    try (Connection kate = connectAs("kate"); Table inNs = kate.getTable(IN_NS);
      Table other = kate.getTable(OTHER); Connection lou = connectAs("lou");
      Table louInNs = lou.getTable(IN_NS)) {
      awaitSnapshot("kate throttled in " + NS, s -> s.user("kate") != null);
      assertOutcome("kate in " + NS, 3, RpcThrottlingException.Type.NumRequestsExceeded,
        untilRefused(10, i -> get(inNs, i)));
      assertOutcome("kate elsewhere", 10, null, untilRefused(10, i -> get(other, i)));
      assertOutcome("another user in " + NS, 10, null, untilRefused(10, i -> get(louInNs, i)));
    } finally {
      admin.setQuota(QuotaSettingsFactory.unthrottleUser("kate", NS));
      awaitSnapshot("kate unthrottled", s -> s.user("kate") == null);
    }
  }

  /** bypassGlobals: the user skips table, namespace and server throttles; others do not. */
  @Test
  public void bypassGlobalsSkipsTheTableThrottle() throws Exception {
    Admin admin = CLUSTER.admin();
    TableName bypass = createLoaded(TableName.valueOf("paced_bypass"));
    admin.setQuota(
      QuotaSettingsFactory.throttleTable(bypass, ThrottleType.REQUEST_NUMBER, 2, TimeUnit.DAYS));
    admin.setQuota(QuotaSettingsFactory.bypassGlobals("leo", true));
    try (Connection leo = connectAs("leo"); Table l = leo.getTable(bypass);
      Connection mia = connectAs("mia"); Table m = mia.getTable(bypass)) {
      awaitSnapshot("leo bypasses, table throttled",
        s -> s.user("leo") != null && s.user("leo").bypassGlobals() && s.table(bypass) != null);
      assertOutcome("leo", 10, null, untilRefused(10, i -> get(l, i)));
      assertOutcome("mia", 2, RpcThrottlingException.Type.NumRequestsExceeded,
        untilRefused(10, i -> get(m, i)));
    } finally {
      admin.setQuota(QuotaSettingsFactory.bypassGlobals("leo", false));
      admin.setQuota(QuotaSettingsFactory.unthrottleTable(bypass));
      awaitSnapshot("no bypass, no table throttle", s -> s.table(bypass) == null
        && (s.user("leo") == null || !s.user("leo").bypassGlobals()));
    }
  }

  /**
   * {@code hbase.quota.user.override.key} on the request path: requests carrying the attribute
   * are charged to the user it names, whoever sends them, and share that user's limit.
   */
  @Test
  public void overrideKeyChargesTheNamedUser() throws Exception {
    Admin admin = CLUSTER.admin();
    admin.setQuota(QuotaSettingsFactory.throttleUser("svc-batch", ThrottleType.READ_NUMBER, 3,
      TimeUnit.DAYS));
    try (Table aliceAsSvc = alice.getTableBuilder(OTHER, null)
      .setRequestAttribute(OVERRIDE, Bytes.toBytes("svc-batch")).build();
      Table bobAsSvc = bob.getTableBuilder(OTHER, null)
        .setRequestAttribute(OVERRIDE, Bytes.toBytes("svc-batch")).build();
      Table alicePlain = alice.getTable(OTHER)) {
      awaitSnapshot("svc-batch throttled", s -> s.user("svc-batch") != null);
      assertOutcome("alice as svc-batch", 3, RpcThrottlingException.Type.NumReadRequestsExceeded,
        untilRefused(10, i -> get(aliceAsSvc, i)));
      assertOutcome("bob as svc-batch shares its limit", 0,
        RpcThrottlingException.Type.NumReadRequestsExceeded,
        untilRefused(10, i -> get(bobAsSvc, i)));
      assertOutcome("alice as herself", 10, null, untilRefused(10, i -> get(alicePlain, i)));
    } finally {
      admin.setQuota(QuotaSettingsFactory.unthrottleUser("svc-batch"));
      awaitSnapshot("svc-batch unthrottled", s -> s.user("svc-batch") == null);
    }
  }

  /**
   * REQUEST_SIZE and capacity units, charged the real size: puts of ~3 KB against 10,000 bytes
   * or 10 write capacity units (1 KB each, rounded up: 3 a put) admit exactly three.
   */
  @Test
  public void requestSizeAndCapacityUnitsChargeRealSizes() throws Exception {
    Admin admin = CLUSTER.admin();
    admin.setQuota(QuotaSettingsFactory.throttleUser("nora", ThrottleType.WRITE_CAPACITY_UNIT,
      10, TimeUnit.DAYS));
    admin.setQuota(
      QuotaSettingsFactory.throttleUser("olga", ThrottleType.REQUEST_SIZE, 10_000, TimeUnit.DAYS));
    long cell = new Put(row(0)).addColumn(F, Q, new byte[3000]).getFamilyCellMap().get(F).get(0)
      .getSerializedSize();
    assertTrue("a put is 3 capacity units: " + cell, cell > 2048 && cell <= 3072);
    assertTrue("three puts fit 10,000 bytes, four do not: " + cell,
      3 * cell <= 10_000 && 4 * cell > 10_000);
    try (Connection nora = connectAs("nora"); Table n = nora.getTable(WRITES);
      Connection olga = connectAs("olga"); Table o = olga.getTable(WRITES)) {
      awaitSnapshot("nora and olga throttled",
        s -> s.user("nora") != null && s.user("olga") != null);
      assertOutcome("nora's puts", 3, RpcThrottlingException.Type.WriteCapacityUnitExceeded,
        untilRefused(10, i -> n.put(new Put(row(i)).addColumn(F, Q, new byte[3000]))));
      assertOutcome("olga's puts", 3, RpcThrottlingException.Type.RequestSizeExceeded,
        untilRefused(10, i -> o.put(new Put(row(i)).addColumn(F, Q, new byte[3000]))));
    } finally {
      admin.setQuota(QuotaSettingsFactory.unthrottleUser("nora"));
      admin.setQuota(QuotaSettingsFactory.unthrottleUser("olga"));
      awaitSnapshot("nora and olga unthrottled",
        s -> s.user("nora") == null && s.user("olga") == null);
    }
  }

  /**
   * Exceed-throttle: while the region servers' own limit has room, a user may go past its limit
   * (into debt); switched off, the debt refuses the user at once.
   */
  @Test
  public void exceedThrottleLetsAUserPastItsLimitWhileTheServerHasRoom() throws Exception {
    Admin admin = CLUSTER.admin();
    String rs = QuotaTableUtil.QUOTA_REGION_SERVER_ROW_KEY;
    // HBase takes the switch only with a region-server limit per second.
    admin.setQuota(QuotaSettingsFactory.throttleRegionServer(rs, ThrottleType.REQUEST_NUMBER,
      1_000, TimeUnit.SECONDS));
    admin.setQuota(
      QuotaSettingsFactory.throttleUser("pete", ThrottleType.READ_NUMBER, 2, TimeUnit.DAYS));
    admin.exceedThrottleQuotaSwitch(true);
    try (Connection pete = connectAs("pete"); Table t = pete.getTable(OTHER)) {
      awaitSnapshot("exceed-throttle on, pete throttled",
        s -> s.exceedThrottle() && s.user("pete") != null);
      assertOutcome("pete with exceed-throttle on", 6, null, untilRefused(6, i -> get(t, i)));
      admin.exceedThrottleQuotaSwitch(false);
      awaitSnapshot("exceed-throttle off", s -> !s.exceedThrottle());
      assertOutcome("pete after it, 6 reads into a limit of 2", 0,
        RpcThrottlingException.Type.NumReadRequestsExceeded, untilRefused(6, i -> get(t, i)));
    } finally {
      admin.exceedThrottleQuotaSwitch(false);
      admin.setQuota(QuotaSettingsFactory.unthrottleRegionServer(rs));
      admin.setQuota(QuotaSettingsFactory.unthrottleUser("pete"));
      awaitSnapshot("no server or pete throttle",
        s -> s.regionServers() == null && s.user("pete") == null);
    }
  }

  /**
   * A CLUSTER-scoped limit is shared by the region servers: with a second server up, this one
   * enforces half of 8 a day.
   */
  @Test
  public void clusterScopedLimitIsSharedByTheServers() throws Exception {
    Admin admin = CLUSTER.admin();
    boolean balancer = admin.balancerSwitch(false, true);
    JVMClusterUtil.RegionServerThread second =
      CLUSTER.util().getMiniHBaseCluster().startRegionServer();
    try {
      second.waitForServerOnline();
      admin.setQuota(QuotaSettingsFactory.throttleUser("quinn", ThrottleType.REQUEST_NUMBER, 8,
        TimeUnit.DAYS, QuotaScope.CLUSTER));
      try (Connection quinn = connectAs("quinn"); Table t = quinn.getTable(OTHER)) {
        QuotaSnapshot s = awaitSnapshot("quinn's half of 8", x -> x.user("quinn") != null
          && x.user("quinn").global().limit(ThrottleType.REQUEST_NUMBER).units() == 4);
        assertEquals(4, s.user("quinn").global().limit(ThrottleType.REQUEST_NUMBER).units());
        assertTrue("the table's regions stay on the first server",
          CLUSTER.regionServer(0).getRegions(OTHER).size() == 1);
        assertOutcome("quinn on this server", 4, RpcThrottlingException.Type.NumRequestsExceeded,
          untilRefused(10, i -> get(t, i)));
      }
    } finally {
      admin.setQuota(QuotaSettingsFactory.unthrottleUser("quinn"));
      CLUSTER.util().getMiniHBaseCluster().stopRegionServer(second.getRegionServer()
        .getServerName());
      second.join(120_000);
      admin.balancerSwitch(balancer, true);
      awaitSnapshot("quinn unthrottled", x -> x.user("quinn") == null);
      assertTrue("the second RegionServer's thread ended", !second.isAlive());
    }
  }

  /**
   * All or nothing over three limiters under concurrency: a user's (12 a day), a table's (30) and
   * its namespace's (16). Two users race on the table until the namespace's 16 are gone; then,
   * with the namespace limit removed, the table admits exactly its remaining 14 (nothing was kept
   * from requests the namespace refused), and with the table limit removed as well, the user
   * exactly its remaining share (nothing kept from requests the table or namespace refused).
   */
  @Test
  public void refusalsRefundEveryLimiterUnderConcurrency() throws Exception {
    Admin admin = CLUSTER.admin();
    TableName refund = createLoaded(TableName.valueOf(NS, "refund"));
    admin.setQuota(
      QuotaSettingsFactory.throttleUser("sam", ThrottleType.REQUEST_NUMBER, 12, TimeUnit.DAYS));
    admin.setQuota(
      QuotaSettingsFactory.throttleTable(refund, ThrottleType.REQUEST_NUMBER, 30, TimeUnit.DAYS));
    admin.setQuota(
      QuotaSettingsFactory.throttleNamespace(NS, ThrottleType.REQUEST_NUMBER, 16, TimeUnit.DAYS));
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try (Connection sam = connectAs("sam"); Connection tom = connectAs("tom")) {
      awaitSnapshot("sam, the table and the namespace throttled",
        s -> s.user("sam") != null && s.table(refund) != null && s.namespace(NS) != null);
      List<Future<Outcome>> runs = new ArrayList<>();
      for (Connection c : new Connection[] { sam, sam, tom, tom }) {
        runs.add(pool.submit((Callable<Outcome>) () -> {
          Outcome o = new Outcome();
          try (Table t = c.getTable(refund)) {
            for (int i = 0; i < 25; i++) {
              try {
                get(t, i);
                o.admitted++;
              } catch (IOException e) {
                o.refusal = refusalIn(e);
                if (o.refusal == null) {
                  throw e;
                }
              }
            }
          }
          return o;
        }));
      }
      int samAdmitted = runs.get(0).get(120, TimeUnit.SECONDS).admitted
        + runs.get(1).get(120, TimeUnit.SECONDS).admitted;
      int tomAdmitted = runs.get(2).get(120, TimeUnit.SECONDS).admitted
        + runs.get(3).get(120, TimeUnit.SECONDS).admitted;
      String race = "sam " + samAdmitted + ", tom " + tomAdmitted;
      LOG.info("refund race: {}", race);
      assertEquals("the namespace's 16 in all: " + race, 16, samAdmitted + tomAdmitted);
      assertTrue("sam within his 12: " + race, samAdmitted <= 12);

      admin.setQuota(QuotaSettingsFactory.unthrottleNamespace(NS));
      awaitSnapshot("namespace unthrottled", s -> s.namespace(NS) == null);
      try (Table t = tom.getTable(refund)) {
        assertOutcome("the table's remainder after " + race, 30 - 16,
          RpcThrottlingException.Type.NumRequestsExceeded, untilRefused(40, i -> get(t, i)));
      }
      admin.setQuota(QuotaSettingsFactory.unthrottleTable(refund));
      awaitSnapshot("table unthrottled", s -> s.table(refund) == null);
      try (Table t = sam.getTable(refund)) {
        assertOutcome("sam's remainder after " + race, 12 - samAdmitted,
          RpcThrottlingException.Type.NumRequestsExceeded, untilRefused(40, i -> get(t, i)));
      }
    } finally {
      pool.shutdownNow();
      admin.setQuota(QuotaSettingsFactory.unthrottleUser("sam"));
      admin.setQuota(QuotaSettingsFactory.unthrottleTable(refund));
      admin.setQuota(QuotaSettingsFactory.unthrottleNamespace(NS));
      awaitSnapshot("sam, table and namespace unthrottled", s -> s.user("sam") == null
        && s.table(refund) == null && s.namespace(NS) == null);
    }
  }

  /**
   * HBase 2.6.4's handler-time throttle on a real server: requests are charged the handler time
   * they take, so a user allowed 5 ms a day is refused within a few requests.
   */
  @Test
  public void handlerTimeThrottleIsEnforced() throws Exception {
    ThrottleType handler = ThrottleTypes.type(ThrottleTypes.Kind.REQUEST_HANDLER_USAGE_MS);
    Assume.assumeTrue("HBase " + org.apache.hadoop.hbase.util.VersionInfo.getVersion()
      + " has no handler-time throttle", handler != null);
    Admin admin = CLUSTER.admin();
    admin.setQuota(QuotaSettingsFactory.throttleUser("vera", handler, 5, TimeUnit.DAYS));
    try (Connection vera = connectAs("vera"); Table t = vera.getTable(READS)) {
      awaitSnapshot("vera throttled", s -> s.user("vera") != null);
      Outcome o = untilRefused(200, i -> t.get(gets(i, 20)));
      assertEquals(o.toString(), "RequestHandlerUsageTimeExceeded",
        o.type() == null ? null : o.type().name());
      assertTrue("5 ms of handler time is a few multi-gets: " + o, o.admitted < 200);
    } finally {
      admin.setQuota(QuotaSettingsFactory.unthrottleUser("vera"));
      awaitSnapshot("vera unthrottled", s -> s.user("vera") == null);
    }
  }

  /**
   * HBase 2.6.4's handler time set with {@code Admin.setQuota} at the edges: Long.MAX_VALUE ms is
   * no limit; a value whose microseconds overflow a long is refused on its own (the user stays
   * unthrottled, a warning names it) and does not stop later refreshes: a limit set after it
   * applies and counts exactly.
   */
  @Test
  public void handlerTimeAtTheEdgesNeitherFailsRequestsNorFreezesRefreshes() throws Exception {
    ThrottleType handler = ThrottleTypes.type(ThrottleTypes.Kind.REQUEST_HANDLER_USAGE_MS);
    Assume.assumeTrue("HBase " + org.apache.hadoop.hbase.util.VersionInfo.getVersion()
      + " has no handler-time throttle", handler != null);
    Admin admin = CLUSTER.admin();
    admin.setQuota(
      QuotaSettingsFactory.throttleUser("wes", handler, Long.MAX_VALUE, TimeUnit.SECONDS));
    admin.setQuota(
      QuotaSettingsFactory.throttleUser("yuri", handler, Long.MAX_VALUE - 1, TimeUnit.SECONDS));
    try (Connection wes = connectAs("wes"); Table w = wes.getTable(READS);
      Connection yuri = connectAs("yuri"); Table y = yuri.getTable(READS);
      Connection xena = connectAs("xena"); Table x = xena.getTable(READS)) {
      QuotaSnapshot s = awaitSnapshot("wes without limit, yuri's setting refused",
        v -> v.user("wes") != null && manager().book().lastChanges().refused.stream()
          .anyMatch(m -> m.contains("user yuri") && m.contains(Long.toString(Long.MAX_VALUE - 1))));
      assertEquals(Long.MAX_VALUE, s.user("wes").global().limit(handler).units());
      assertOutcome("wes, no limit", 30, null, untilRefused(30, i -> get(w, i)));
      assertNull("yuri's setting is refused: no throttle", s.user("yuri"));
      assertOutcome("yuri, refused setting", 30, null, untilRefused(30, i -> get(y, i)));
      admin.setQuota(
        QuotaSettingsFactory.throttleUser("xena", ThrottleType.READ_NUMBER, 2, TimeUnit.DAYS));
      awaitSnapshot("a limit set after the refused one", v -> v.user("xena") != null);
      assertOutcome("xena", 2, RpcThrottlingException.Type.NumReadRequestsExceeded,
        untilRefused(10, i -> get(x, i)));
    } finally {
      for (String user : new String[] { "wes", "yuri", "xena" }) {
        admin.setQuota(QuotaSettingsFactory.unthrottleUser(user));
      }
      awaitSnapshot("wes, yuri and xena unthrottled",
        v -> v.user("wes") == null && v.user("yuri") == null && v.user("xena") == null);
    }
  }
}
