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

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import dev.hbasepatches.quotas.limit.SmoothRateLimit;
import dev.hbasepatches.quotas.limit.Ticker;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.quotas.OperationQuota;
import org.apache.hadoop.hbase.quotas.QuotaUtil;
import org.apache.hadoop.hbase.quotas.RpcThrottlingException;
import org.apache.hadoop.hbase.shaded.protobuf.generated.QuotaProtos.Quotas;
import org.junit.Test;

public class ThrottleRouterTest {

  private static final TableName T1 = TableName.valueOf("ns1", "t1");
  private static final TableName T2 = TableName.valueOf("ns1", "t2");
  private static final TableName T3 = TableName.valueOf("t3");
  private static final CostModel COSTS = new CostModel(1024, 1024, false);

  private final QuotaBook book = new QuotaBook(CountingLimit::new);

  private QuotaSnapshot snapshot(boolean exceed, QuotaEntry... entries) {
    return book.rebuild(Arrays.asList(entries), exceed, ScopeFactors.WHOLE);
  }

  private static Quotas req(long n) {
    return QuotaBookTest.reqNum(n, TimeUnit.SECONDS);
  }

  private static List<String> subjects(OperationQuota q) {
    List<String> out = new ArrayList<>();
    for (LimitSet s : ((PacedOperationQuota) q).sets()) {
      out.add(s.subject());
    }
    return out;
  }

  @Test
  public void everyApplicableThrottleMostSpecificFirst() {
    QuotaSnapshot s = snapshot(false, QuotaEntry.user("u", req(1)),
      QuotaEntry.userNamespace("u", "ns1", req(2)), QuotaEntry.table(T1, req(3)),
      QuotaEntry.namespace("ns1", req(4)), QuotaEntry.regionServer("all", req(5)));
    ThrottleRouter r = new ThrottleRouter(COSTS, null);
    assertArrayEquals(new String[] { "user u on namespace ns1", "table ns1:t1", "namespace ns1",
      "region servers all" }, subjects(r.route(s, "u", T1, 65536)).toArray());
    assertArrayEquals(new String[] { "user u", "region servers all" },
      subjects(r.route(s, "u", T3, 65536)).toArray());
    assertArrayEquals(new String[] { "namespace ns1", "region servers all" },
      subjects(r.route(s, "other", T2, 65536)).toArray());
  }

  @Test
  public void exceedThrottlePutsTheRegionServersFirst() {
    QuotaSnapshot s = snapshot(true, QuotaEntry.user("u", req(1)),
      QuotaEntry.regionServer("all", req(5)));
    assertArrayEquals(new String[] { "region servers all", "user u" },
      subjects(new ThrottleRouter(COSTS, null).route(s, "u", T3, 65536)).toArray());
  }

  @Test
  public void bypassGlobalsLeavesOnlyTheUsersOwn() {
    Quotas bypass = req(1).toBuilder().setBypassGlobals(true).build();
    QuotaSnapshot s = snapshot(false, QuotaEntry.user("svc", bypass),
      QuotaEntry.user("idle", Quotas.newBuilder().setBypassGlobals(true).build()),
      QuotaEntry.table(T1, req(3)));
    ThrottleRouter r = new ThrottleRouter(COSTS, null);
    assertArrayEquals(new String[] { "user svc" }, subjects(r.route(s, "svc", T1, 1)).toArray());
    assertSame(FreeOperationQuota.INSTANCE, r.route(s, "idle", T1, 1));
  }

  @Test
  public void defaultsOnlyForUsersWithoutAQuotaRow() {
    Configuration conf = new Configuration(false);
    conf.setLong(QuotaUtil.QUOTA_DEFAULT_USER_MACHINE_REQUEST_NUM, 7);
    ThrottleRouter r = new ThrottleRouter(COSTS, DefaultUserLimits.from(conf, CountingLimit::new));
    QuotaSnapshot s = snapshot(false, QuotaEntry.user("known", req(1)));
    assertTrue(r.anyThrottle(QuotaSnapshot.EMPTY));
    assertArrayEquals(new String[] { "user known" },
      subjects(r.route(s, "known", T1, 1)).toArray());
    assertArrayEquals(new String[] { "default limits of user stranger" },
      subjects(r.route(s, "stranger", T1, 1)).toArray());
  }

  /**
   * A limit of zero, stored or a per-user default, refuses every request from the first one on,
   * with the module's real limiter (it used to be raised to one request per period).
   */
  @Test
  public void zeroLimitRefusesTheFirstRequest() throws Exception {
    QuotaBook.LimitFactory real = (units, period) -> new SmoothRateLimit(units, period,
      Ticker.SYSTEM);
    QuotaBook realBook = new QuotaBook(real);
    QuotaSnapshot s = realBook.rebuild(Arrays.asList(QuotaEntry.user("zero", req(0)),
      QuotaEntry.table(T2, req(0))), false, ScopeFactors.WHOLE);
    Configuration conf = new Configuration(false);
    conf.setLong(QuotaUtil.QUOTA_DEFAULT_USER_MACHINE_READ_NUM, 0);
    ThrottleRouter r = new ThrottleRouter(COSTS, DefaultUserLimits.from(conf, real));
    expectRefused("user with a zero limit", r.route(s, "zero", T1, 1));
    expectRefused("table with a zero limit", r.route(s, "known", T2, 1));
    expectRefused("zero default for users", r.route(s, "stranger", T1, 1));
    OperationQuota write = r.route(s, "stranger", T1, 1);
    PacedOperationQuota.checkBatch(write, 1, 0, false);
    write.close();
  }

  private static void expectRefused(String what, OperationQuota q) throws Exception {
    for (int i = 0; i < 3; i++) {
      try {
        PacedOperationQuota.checkBatch(q, 0, 1, false);
        fail(what + ": request " + i + " admitted");
      } catch (RpcThrottlingException expected) {
        assertTrue(what + ": " + expected, expected.getWaitInterval() > 0);
      }
    }
  }

  /**
   * The path of a request no throttle applies to, while other users and tables are throttled:
   * the shared free quota, and no allocation (a million requests may not allocate more than a
   * stray object or two of the measuring itself).
   */
  @Test
  public void unthrottledRequestsTakeTheFreePathWithoutAllocating() {
    QuotaSnapshot s = snapshot(false, QuotaEntry.user("alice", req(20)),
      QuotaEntry.userTable("bob", T1, req(5)), QuotaEntry.table(T1, req(100)),
      QuotaEntry.namespace("ns9", req(100)));
    ThrottleRouter r = new ThrottleRouter(COSTS, null);
    TableName table = TableName.valueOf("ns2", "busy");
    String user = new String("carol".toCharArray());
    for (int i = 0; i < 200_000; i++) {
      assertSame(FreeOperationQuota.INSTANCE, r.route(s, user, table, 65536));
    }
    com.sun.management.ThreadMXBean mx =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long id = Thread.currentThread().getId();
    long before = mx.getThreadAllocatedBytes(id);
    int free = 0;
    for (int i = 0; i < 1_000_000; i++) {
      if (r.route(s, user, table, 65536) == FreeOperationQuota.INSTANCE) {
        free++;
      }
    }
    long allocated = mx.getThreadAllocatedBytes(id) - before;
    assertTrue("every request took the free path", free == 1_000_000);
    assertTrue("allocated " + allocated + " bytes over a million requests", allocated < 16_384);
  }
}
