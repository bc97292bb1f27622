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
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
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
import org.apache.hadoop.hbase.quotas.QuotaSettingsFactory;
import org.apache.hadoop.hbase.quotas.QuotaUtil;
import org.apache.hadoop.hbase.quotas.RpcThrottlingException;
import org.apache.hadoop.hbase.quotas.ThrottleType;
import org.apache.hadoop.hbase.regionserver.Region;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * PATCHED throttling on a real RegionServer: quotas are set with {@code Admin.setQuota} exactly
 * as an operator would, reach the server through its refresh of {@code hbase:quota}, and are
 * observed from real clients running as different users.
 * <p>
 * Rate bounds are computed, not tuned: a throttle of R per second over a run of T seconds admits
 * at most its burst (one period's worth) plus R per second, and, because refused clients sleep
 * the advertised wait and retry, at least half of R*T even on a busy two-core machine.
 */
public class PacedQuotaMiniClusterTest {

  private static final Logger LOG = LoggerFactory.getLogger(PacedQuotaMiniClusterTest.class);

  private static final int REFRESH_MS = 500;

  @ClassRule
  public static final MiniCluster CLUSTER = MiniCluster.builder()
    .conf(HConstants.REGION_SERVER_IMPL, ThrottlingRegionServer.class)
    .conf(QuotaUtil.QUOTA_CONF_KEY, "true")
    .conf(QuotaCache.REFRESH_CONF_KEY, String.valueOf(REFRESH_MS))
    .conf(QuotaMode.MODE_KEY, QuotaMode.PATCHED.name())
    .conf(QuotaCache.QUOTA_USER_REQUEST_ATTRIBUTE_OVERRIDE_KEY, PacedQuotaMiniClusterTest.OVERRIDE)
    .conf(CoprocessorHost.REGION_COPROCESSOR_CONF_KEY, QuotaProbeObserver.class.getName())
    .build();

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

  private static void assertRate(String who, LoadProbe.Tally t, double perSecond,
    double burst) {
    double most = burst + perSecond * t.seconds() * 1.1 + 4;
    double least = perSecond * t.seconds() * 0.5;
    String msg = who + ": " + t + "; expected between " + (long) least + " and " + (long) most;
    LOG.info(msg);
    assertTrue(msg, t.failures.isEmpty());
    assertTrue(msg, t.admitted.get() <= most);
    assertTrue(msg, t.admitted.get() >= least);
    assertTrue(msg, t.throttled.get() > 0);
    assertTrue(msg, t.minWaitMs.get() > 0);
    assertTrue("a wait is never longer than one period: " + msg, t.maxWaitMs.get() <= 1000);
  }

  @Test
  public void throttledUserHoldsItsRateAndTheOtherUserIsUntouched() throws Exception {
    Admin admin = CLUSTER.admin();
    int rate = 20;
    admin.setQuota(
      QuotaSettingsFactory.throttleUser("alice", ThrottleType.REQUEST_NUMBER, rate,
        TimeUnit.SECONDS));
    try {
      awaitSnapshot("alice throttled", s -> s.user("alice") != null);
      LoadProbe.Tally[] tallies = new LoadProbe.Tally[2];
      Thread bobLoad = new Thread(() -> {
        try {
          tallies[1] = LoadProbe.run(bob, READS, 2, 4000, PacedQuotaMiniClusterTest::get);
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      bobLoad.start();
      tallies[0] = LoadProbe.run(alice, READS, 2, 4000, PacedQuotaMiniClusterTest::get);
      bobLoad.join();
      assertRate("alice", tallies[0], rate, rate);
      LoadProbe.Tally b = tallies[1];
      assertTrue("bob is never throttled: " + b, b.throttled.get() == 0 && b.failures.isEmpty());
      assertTrue("bob is not held to alice's rate: " + b + " vs alice " + tallies[0],
        b.admitted.get() > tallies[0].admitted.get());
    } finally {
      admin.setQuota(QuotaSettingsFactory.unthrottleUser("alice"));
      awaitSnapshot("alice unthrottled", s -> s.user("alice") == null);
    }
  }

  @Test
  public void changingAndRemovingAThrottleTakesEffectWithoutRestart() throws Exception {
    Admin admin = CLUSTER.admin();
    admin.setQuota(QuotaSettingsFactory.throttleUser("alice", READS, ThrottleType.READ_NUMBER,
      2, TimeUnit.SECONDS));
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
      assertTrue("10 quick reads against 2/sec: " + refused + " refused", refused >= 5);

      admin.setQuota(QuotaSettingsFactory.throttleUser("alice", READS,
        ThrottleType.READ_NUMBER, 10_000, TimeUnit.SECONDS));
      s = awaitSnapshot("alice at 10000/s",
        x -> x.user("alice") != null && x.user("alice").forTable(READS)
          .limit(ThrottleType.READ_NUMBER).units() == 10_000);
      assertSame("the limiter is re-rated in place, not replaced", limit,
        s.user("alice").forTable(READS).limit(ThrottleType.READ_NUMBER));
      Thread.sleep(600); // let the debt of the 2/sec period run off
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

  @Test
  public void tableAndNamespaceThrottlesBindEveryUser() throws Exception {
    Admin admin = CLUSTER.admin();
    int rate = 10;
    admin.setQuota(
      QuotaSettingsFactory.throttleTable(READS, ThrottleType.REQUEST_NUMBER, rate,
        TimeUnit.SECONDS));
    admin.setQuota(QuotaSettingsFactory.throttleNamespace(NS, ThrottleType.REQUEST_NUMBER, rate,
      TimeUnit.SECONDS));
    try {
      awaitSnapshot("table and namespace throttles",
        s -> s.table(READS) != null && s.namespace(NS) != null);
      LoadProbe.Tally[] t = new LoadProbe.Tally[3];
      Thread ns = new Thread(() -> {
        try {
          t[1] = LoadProbe.run(carol, IN_NS, 2, 3000, PacedQuotaMiniClusterTest::get);
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      Thread free = new Thread(() -> {
        try {
          t[2] = LoadProbe.run(carol, OTHER, 1, 3000, PacedQuotaMiniClusterTest::get);
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      ns.start();
      free.start();
      t[0] = LoadProbe.run(bob, READS, 2, 3000, PacedQuotaMiniClusterTest::get);
      ns.join();
      free.join();
      assertRate("bob on the throttled table", t[0], rate, rate);
      assertRate("carol in the throttled namespace", t[1], rate, rate);
      assertEquals("an unthrottled table stays free: " + t[2], 0, t[2].throttled.get());
    } finally {
      admin.setQuota(QuotaSettingsFactory.unthrottleTable(READS));
      admin.setQuota(QuotaSettingsFactory.unthrottleNamespace(NS));
      awaitSnapshot("no table or namespace throttles",
        s -> s.table(READS) == null && s.namespace(NS) == null);
    }
  }

  @Test
  public void writeSizeThrottleHoldsBytesPerSecond() throws Exception {
    Admin admin = CLUSTER.admin();
    long bytesPerSecond = 10 * 1024;
    admin.setQuota(QuotaSettingsFactory.throttleUser("carol", ThrottleType.WRITE_SIZE,
      bytesPerSecond, TimeUnit.SECONDS));
    try {
      awaitSnapshot("carol write-size throttle", s -> s.user("carol") != null);
      long cell = new Put(row(0)).addColumn(F, Q, new byte[1000]).getFamilyCellMap().get(F).get(0)
        .getSerializedSize();
      LoadProbe.Tally t = LoadProbe.run(carol, WRITES, 2, 3000,
        (table, i) -> table.put(new Put(row(i)).addColumn(F, Q, new byte[1000])));
      double bytes = t.admitted.get() * (double) cell;
      double most = bytesPerSecond * (t.seconds() * 1.1 + 1) + 4 * cell;
      double least = bytesPerSecond * t.seconds() * 0.5;
      String msg = t + ", " + (long) bytes + " bytes admitted, expected between " + (long) least
        + " and " + (long) most;
      LOG.info("carol writing: {}", msg);
      assertTrue(msg, t.failures.isEmpty());
      assertTrue(msg, bytes <= most && bytes >= least);
      assertTrue(msg, t.throttled.get() > 0 && t.minWaitMs.get() > 0);
      assertTrue(msg, t.maxWaitMs.get() <= 1000);
      // Reads are not writes.
      try (Table table = carol.getTable(READS)) {
        for (int i = 0; i < 20; i++) {
          get(table, i);
        }
      }
    } finally {
      admin.setQuota(QuotaSettingsFactory.unthrottleUser("carol"));
      awaitSnapshot("carol unthrottled", s -> s.user("carol") == null);
    }
  }

  @Test
  public void scanReadSizeThrottleAdvertisesWaitsThatWork() throws Exception {
    Admin admin = CLUSTER.admin();
    long bytesPerSecond = 200 * 1024;
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
      long start = System.nanoTime();
      long end = start + TimeUnit.SECONDS.toNanos(3);
      while (System.nanoTime() < end) {
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
          Thread.sleep(r.getWaitInterval());
        }
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      double most = bytesPerSecond * (seconds * 1.1 + 1) + 2 * ROWS * 1100;
      double least = bytesPerSecond * seconds * 0.4;
      String msg = scans + " full scans, " + bytes + " bytes in " + String.format("%.2f s", seconds)
        + "; expected between " + (long) least + " and " + (long) most + "; after sleeping the"
        + " advertised wait " + retriesAdmitted + " retries were admitted, " + retriesRefused
        + " refused again";
      LOG.info("frank scanning: {}", msg);
      assertTrue(msg, bytes <= most && bytes >= least);
      assertTrue(msg, retriesAdmitted + retriesRefused > 0);
      assertTrue(msg, retriesAdmitted >= 2 * retriesRefused);
    } finally {
      admin.setQuota(QuotaSettingsFactory.unthrottleUser("frank"));
      awaitSnapshot("frank unthrottled", s -> s.user("frank") == null);
    }
  }

  @Test
  public void rpcThrottleSwitchTurnsEnforcementOffAndOn() throws Exception {
    Admin admin = CLUSTER.admin();
    admin.setQuota(QuotaSettingsFactory.throttleUser("bob", OTHER, ThrottleType.REQUEST_NUMBER,
      1, TimeUnit.MINUTES));
    try {
      awaitSnapshot("bob throttled on " + OTHER, s -> s.user("bob") != null);
      assertTrue(admin.switchRpcThrottle(false));
      try (Table t = bob.getTable(OTHER)) {
        for (int i = 0; i < 10; i++) {
          get(t, i);
        }
        admin.switchRpcThrottle(true);
        int refused = 0;
        for (int i = 0; i < 5; i++) {
          try {
            get(t, i);
          } catch (IOException e) {
            assertNotNull(e.toString(), LoadProbe.throttling(e));
            refused++;
          }
        }
        assertTrue("1/min after the switch is back on: " + refused, refused >= 3);
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
   * 10.1 blocks a minute, about ten Gets get through before the first refusal (refill over the
   * run is a fraction of a block), where charging result bytes (~250 B a Get) would admit all 40;
   * a multi-get of 10 rows spread over the blocks scans several blocks, so at most ten do.
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
        TimeUnit.MINUTES));
    }
    try (Connection gina = LoadProbe.connect(CLUSTER.conf(), LoadProbe.user(CLUSTER.conf(),
      "gina")); Connection hank = LoadProbe.connect(CLUSTER.conf(),
        LoadProbe.user(CLUSTER.conf(), "hank"))) {
      awaitSnapshot("gina and hank throttled",
        s -> s.user("gina") != null && s.user("hank") != null);
      int gets = readsUntilRefused(gina.getTable(bbs), 1, 40);
      assertTrue("Gets admitted under 10.1 blocks/min: " + gets, gets >= 8 && gets <= 12);
      int multis = readsUntilRefused(hank.getTable(bbs), 10, 40);
      assertTrue("multi-gets of 10 admitted under 10.1 blocks/min: " + multis,
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
}
