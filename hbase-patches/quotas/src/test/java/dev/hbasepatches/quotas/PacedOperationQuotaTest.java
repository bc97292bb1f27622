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
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import dev.hbasepatches.quotas.limit.RateLimit;
import dev.hbasepatches.quotas.limit.SmoothRateLimit;
import java.util.Collections;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.quotas.RpcThrottlingException;
import org.apache.hadoop.hbase.quotas.ThrottleType;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.Assume;
import org.junit.Test;

/** Admission, rollback and size correction of one request, on limits without a clock. */
public class PacedOperationQuotaTest {

  private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
  private static final CostModel COSTS = new CostModel(1024, 1024, false);
  private static final int BLOCK = 65536;

  private static LimitSet set(String subject, ThrottleType type, RateLimit limit) {
    RateLimit[] byType = new RateLimit[ThrottleType.values().length];
    byType[type.ordinal()] = limit;
    return new LimitSet(subject, byType, new SizeHistory());
  }

  private static PacedOperationQuota quota(boolean mayExceed, LimitSet... sets) {
    return new PacedOperationQuota(sets, mayExceed, COSTS, BLOCK);
  }

  private static Result resultOf(int valueBytes) {
    return Result.create(Collections.singletonList(new KeyValue(Bytes.toBytes("row"),
      Bytes.toBytes("f"), Bytes.toBytes("q"), new byte[valueBytes])));
  }

  @Test
  public void refusalRefundsTheLimitsAlreadyTakenAndCarriesTheWait() throws Exception {
    CountingLimit user = new CountingLimit(10, SECOND);
    CountingLimit table = new CountingLimit(1, SECOND, 2_500_001L);
    LimitSet u = set("user", ThrottleType.REQUEST_NUMBER, user);
    LimitSet t = set("table", ThrottleType.REQUEST_NUMBER, table);
    quota(false, u, t).checkBatchQuota(0, 1);
    assertEquals(1, user.used);
    assertEquals(1, table.used);
    try {
      quota(false, u, t).checkBatchQuota(0, 1);
      fail("the table limit is spent");
    } catch (RpcThrottlingException e) {
      assertEquals(RpcThrottlingException.Type.NumRequestsExceeded, e.getType());
      assertEquals("2.5 ms rounds up", 3, e.getWaitInterval());
    }
    assertEquals("the user limit got its unit back", 1, user.used);
    assertEquals(1, user.refunded);
  }

  /**
   * What upstream's TestAtomicReadQuota "...OmittedFromReadCapacity" cases check (run here, not
   * there: see BUILDING.md): writes that read nothing, single or batched, never touch a read
   * throttle, even a spent one; a read (e.g. a check-and-mutate, counted as one by the manager
   * through HBase's own QuotaUtil.getQuotaOperationType) does.
   */
  @Test
  public void writesThatReadNothingLeaveReadThrottlesAlone() throws Exception {
    CountingLimit reads = new CountingLimit(1, SECOND);
    LimitSet u = set("user", ThrottleType.READ_NUMBER, reads);
    for (int i = 0; i < 100; i++) {
      PacedOperationQuota q = quota(false, u);
      q.checkBatchQuota(i % 2 == 0 ? 1 : 2, 0);
      q.close();
    }
    assertEquals(0, reads.acquired);
    quota(false, u).checkBatchQuota(1, 1);
    assertEquals(1, reads.used);
    try {
      quota(false, u).checkBatchQuota(1, 1);
      fail("the read limit is spent");
    } catch (RpcThrottlingException e) {
      assertEquals(RpcThrottlingException.Type.NumReadRequestsExceeded, e.getType());
    }
    PacedOperationQuota put = quota(false, u);
    put.checkBatchQuota(2, 0);
    put.close();
  }

  @Test
  public void eachTypeRefusesWithItsOwnExceptionType() throws Exception {
    CountingLimit writes = new CountingLimit(0, SECOND);
    try {
      quota(false, set("u", ThrottleType.WRITE_NUMBER, writes)).checkBatchQuota(1, 0);
      fail();
    } catch (RpcThrottlingException e) {
      assertEquals(RpcThrottlingException.Type.NumWriteRequestsExceeded, e.getType());
    }
    // A read-only request does not touch a write throttle.
    quota(false, set("u", ThrottleType.WRITE_NUMBER, writes)).checkBatchQuota(0, 1);
    try {
      quota(false, set("u", ThrottleType.READ_NUMBER, new CountingLimit(0, SECOND)))
        .checkBatchQuota(0, 1);
      fail();
    } catch (RpcThrottlingException e) {
      assertEquals(RpcThrottlingException.Type.NumReadRequestsExceeded, e.getType());
    }
  }

  @Test
  public void readEstimateIsCorrectedAfterTheGetAndLearned() throws Exception {
    CountingLimit bytes = new CountingLimit(1_000_000, SECOND);
    LimitSet u = set("user", ThrottleType.READ_SIZE, bytes);
    PacedOperationQuota q = quota(false, u);
    q.checkBatchQuota(0, 1);
    assertEquals("no history yet: one block", BLOCK, bytes.used);
    Result r = resultOf(1000);
    long size = r.rawCells()[0].getSerializedSize();
    q.addGetResult(r);
    q.close();
    assertEquals(size, bytes.used);
    assertEquals(BLOCK - size, bytes.refunded);

    PacedOperationQuota next = quota(false, u);
    next.checkBatchQuota(0, 2);
    assertEquals("two reads at the learned size", size + 2 * size, bytes.used);
    next.addGetResult(resultOf(1000));
    next.addGetResult(resultOf(1000));
    next.close();
    assertEquals(3 * size, bytes.used);
  }

  @Test
  public void requestLargerThanTheLimitTakesOnePeriodAndOwesTheRest() throws Exception {
    CountingLimit bytes = new CountingLimit(500, SECOND);
    LimitSet u = set("user", ThrottleType.WRITE_SIZE, bytes);
    PacedOperationQuota q = quota(false, u);
    q.checkBatchQuota(1, 0);
    assertEquals(PacedOperationQuota.FIRST_WRITE_ESTIMATE, bytes.used);
    Put p = new Put(Bytes.toBytes("row")).addColumn(Bytes.toBytes("f"), Bytes.toBytes("q"),
      new byte[2000]);
    q.addMutation(p);
    q.close();
    long size = p.getFamilyCellMap().values().iterator().next().get(0).getSerializedSize();
    assertEquals("charged into debt", size, bytes.used);

    // The next write is estimated at the learned size, capped at one period's worth.
    bytes.used = 0;
    PacedOperationQuota q2 = quota(false, u);
    q2.checkBatchQuota(1, 0);
    assertEquals(500, bytes.used);
  }

  @Test
  public void scansEstimateFromTheScannerThenFromTheSubject() throws Exception {
    CountingLimit bytes = new CountingLimit(10_000_000, SECOND);
    LimitSet u = set("user", ThrottleType.READ_SIZE, bytes);
    ClientProtos.ScanRequest first = ClientProtos.ScanRequest.newBuilder().build();
    PacedOperationQuota q = quota(false, u);
    q.checkScanQuota(first, Long.MAX_VALUE, 0, 0);
    assertEquals(BLOCK, q.getReadConsumed());
    q.addScanResult(Collections.nCopies(100, resultOf(1000)));
    q.close();
    long call = 100 * resultOf(1000).rawCells()[0].getSerializedSize();

    PacedOperationQuota again = quota(false, u);
    again.checkScanQuota(first, Long.MAX_VALUE, 0, 0);
    assertEquals("a new scanner is estimated from the subject's scan calls", call,
      again.getReadConsumed());
    again.close();

    ClientProtos.ScanRequest later =
      ClientProtos.ScanRequest.newBuilder().setScannerId(7).setNextCallSeq(3).build();
    PacedOperationQuota cont = quota(false, u);
    cont.checkScanQuota(later, Long.MAX_VALUE, 777_777, 0);
    assertEquals("a running scanner is estimated from its own calls", 777_777,
      cont.getReadConsumed());
  }

  @Test
  public void readAvailableIsOnePeriodOfTheTightestReadLimit() throws Exception {
    RateLimit[] byType = new RateLimit[ThrottleType.values().length];
    byType[ThrottleType.READ_SIZE.ordinal()] = new CountingLimit(1_000_000, SECOND);
    byType[ThrottleType.READ_CAPACITY_UNIT.ordinal()] = new CountingLimit(100, SECOND);
    PacedOperationQuota q =
      quota(false, new LimitSet("u", byType, new SizeHistory()));
    assertEquals(100 * 1024, q.getReadAvailable());
    assertEquals(Long.MAX_VALUE,
      quota(false, set("u", ThrottleType.REQUEST_NUMBER, new CountingLimit(1, SECOND)))
        .getReadAvailable());
  }

  @Test
  public void exceedThrottleLetsUserLimitsGoIntoDebtWhileTheServerHasRoom() throws Exception {
    CountingLimit server = new CountingLimit(2, SECOND);
    CountingLimit user = new CountingLimit(1, SECOND);
    LimitSet rs = set("region servers all", ThrottleType.REQUEST_NUMBER, server);
    LimitSet u = set("user", ThrottleType.REQUEST_NUMBER, user);
    quota(true, rs, u).checkBatchQuota(0, 1);
    quota(true, rs, u).checkBatchQuota(0, 1);
    assertEquals(2, user.used);
    assertEquals(1, user.charged);
    try {
      quota(true, rs, u).checkBatchQuota(0, 1);
      fail("the region-server limit is spent");
    } catch (RpcThrottlingException e) {
      assertTrue(e.getWaitInterval() > 0);
    }
    assertEquals("nothing taken from the user on refusal", 2, user.used);
  }

  /**
   * A 100-read multi-get admitted under 10 reads a second takes the whole period (10) and owes
   * 90; a refresh raises the limit to 1000 while it runs. It must still pay 100 in all, not 10
   * (the settlement must not recompute what was taken from the limit at close).
   */
  @Test
  public void settlementUsesWhatWasTakenWhenTheLimitIsRaisedInFlight() throws Exception {
    CountingLimit reads = new CountingLimit(10, SECOND);
    PacedOperationQuota q = quota(false, set("user", ThrottleType.READ_NUMBER, reads));
    q.checkBatchQuota(0, 100);
    assertEquals("one period's worth taken at admission", 10, reads.used);
    reads.setRate(1000, SECOND); // a refresh re-rates the limiter in place
    q.close();
    assertEquals("the request pays its 100 reads", 100, reads.used);
    assertEquals(90, reads.charged);
  }

  /** The same request under 1000 a second, lowered to 10 while it runs: 100 in all, not 190. */
  @Test
  public void settlementUsesWhatWasTakenWhenTheLimitIsLoweredInFlight() throws Exception {
    CountingLimit reads = new CountingLimit(1000, SECOND);
    PacedOperationQuota q = quota(false, set("user", ThrottleType.READ_NUMBER, reads));
    q.checkBatchQuota(0, 100);
    assertEquals(100, reads.used);
    reads.setRate(10, SECOND);
    q.close();
    assertEquals("the request pays its 100 reads, no more", 100, reads.used);
    assertEquals(0, reads.charged);
    assertEquals(0, reads.refunded);
  }

  /**
   * A refusal refunds what the earlier limits gave, even when one of them was re-rated between
   * its admission and the refusal (here by the refusing limiter itself, standing for a refresh
   * that lands in that instant).
   */
  @Test
  public void refusalRefundsWhatWasTakenEvenWhenReratedMeanwhile() throws Exception {
    CountingLimit user = new CountingLimit(10, SECOND);
    RateLimit refusing = new CountingLimit(0, SECOND) {
      @Override
      public synchronized long tryAcquire(long cost) {
        user.setRate(1000, SECOND);
        return super.tryAcquire(cost);
      }
    };
    try {
      quota(false, set("user", ThrottleType.READ_NUMBER, user),
        set("table", ThrottleType.READ_NUMBER, refusing)).checkBatchQuota(0, 100);
      fail("the table limit is closed");
    } catch (RpcThrottlingException expected) {
      assertEquals(RpcThrottlingException.Type.NumReadRequestsExceeded, expected.getType());
    }
    assertEquals("the user limit got back exactly the 10 it gave", 0, user.used);
    assertEquals(10, user.refunded);
  }

  /**
   * The same on the real limiter and a manual clock: a 100-read multi-get admitted under 10 a
   * second, the limit raised to 1000 a second in flight. After the close the limit owes exactly
   * 100 reads at the new rate (0.1 s), as if the request had come after the raise.
   */
  @Test
  public void realLimiterOwesTheWholeRequestAfterARaiseInFlight() throws Exception {
    AtomicLong now = new AtomicLong(1_000_000_000L);
    SmoothRateLimit reads = new SmoothRateLimit(10, SECOND, now::get);
    PacedOperationQuota q = quota(false, set("user", ThrottleType.READ_NUMBER, reads));
    q.checkBatchQuota(0, 100);
    reads.setRate(1000, SECOND);
    q.close();
    assertEquals(TimeUnit.MILLISECONDS.toNanos(100), reads.backlogNanos());
  }

  @Test
  public void capacityUnitsRoundUp() {
    assertEquals(2, COSTS.cost(ThrottleType.READ_CAPACITY_UNIT, 0, 1, 0, 1025));
    assertEquals(1, COSTS.cost(ThrottleType.WRITE_CAPACITY_UNIT, 1, 0, 10, 0));
    assertEquals(3, COSTS.cost(ThrottleType.REQUEST_CAPACITY_UNIT, 1, 1, 10, 1025));
    assertEquals(0, COSTS.cost(ThrottleType.READ_SIZE, 1, 0, 10, 0));
    assertEquals(2, COSTS.cost(ThrottleType.REQUEST_NUMBER, 1, 1, 0, 0));
  }

  /**
   * Every refusal reads back on the client as the same type and wait: a client rebuilds the
   * exception from its message alone, including for the types newer than 2.6.1.
   */
  @Test
  public void everyRefusalParsesBackToItsTypeAndWait() {
    for (ThrottleType type : ThrottleType.values()) {
      try {
        ThrottleTypes.refuse(ThrottleTypes.kind(type), 61_234);
        fail(type.name());
      } catch (RpcThrottlingException e) {
        RpcThrottlingException parsed = new RpcThrottlingException(e.getMessage());
        assertEquals(type.name(), e.getType(), parsed.getType());
        assertEquals(type.name(), 61_234, parsed.getWaitInterval());
        assertEquals(type.name(), 61_234, e.getWaitInterval());
      }
    }
  }

  private static ThrottleType newer(ThrottleTypes.Kind kind) {
    ThrottleType t = ThrottleTypes.type(kind);
    Assume.assumeTrue("HBase " + org.apache.hadoop.hbase.util.VersionInfo.getVersion()
      + " has no " + kind + " throttle", t != null);
    return t;
  }

  /** HBase 2.6.4's atomic throttles bind atomic requests only; non-atomic ones pass free. */
  @Test
  public void atomicThrottlesChargeOnlyAtomicRequests() throws Exception {
    ThrottleType atomicReqs = newer(ThrottleTypes.Kind.ATOMIC_REQUEST_NUMBER);
    CountingLimit limit = new CountingLimit(2, SECOND);
    LimitSet u = set("user", atomicReqs, limit);
    for (int i = 0; i < 10; i++) {
      PacedOperationQuota q = quota(false, u);
      q.checkBatchQuota(1, 1, false);
      q.close();
    }
    assertEquals("non-atomic requests are not counted", 0, limit.acquired);
    quota(false, u).checkBatchQuota(1, 1, true);
    assertEquals("a check-and-mutate counts its read and its write", 2, limit.used);
    try {
      quota(false, u).checkBatchQuota(1, 1, true);
      fail("the atomic request limit is spent");
    } catch (RpcThrottlingException e) {
      assertEquals("AtomicRequestNumberExceeded", e.getType().name());
    }

    ThrottleType atomicWrites = newer(ThrottleTypes.Kind.ATOMIC_WRITE_SIZE);
    CountingLimit bytes = new CountingLimit(10_000, SECOND);
    LimitSet w = set("user", atomicWrites, bytes);
    PacedOperationQuota plain = quota(false, w);
    plain.checkBatchQuota(1, 0, false);
    plain.addMutation(new Put(Bytes.toBytes("r")).addColumn(Bytes.toBytes("f"),
      Bytes.toBytes("q"), new byte[3000]));
    plain.close();
    assertEquals("a plain put is not an atomic write", 0, bytes.used);
    PacedOperationQuota atomic = quota(false, w);
    atomic.checkBatchQuota(1, 1, true);
    Put put = new Put(Bytes.toBytes("r")).addColumn(Bytes.toBytes("f"), Bytes.toBytes("q"),
      new byte[3000]);
    atomic.addMutation(put);
    atomic.close();
    assertTrue("the atomic write is charged its real size: " + bytes.used,
      bytes.used >= 3000 && bytes.used < 3200);
  }

  /**
   * Handler time: estimated before, charged as measured after (on a manual clock: exactly the
   * 20 ms the request held its handler), refused when spent.
   */
  @Test
  public void handlerTimeIsChargedAsMeasured() throws Exception {
    ThrottleType handler = newer(ThrottleTypes.Kind.REQUEST_HANDLER_USAGE_MS);
    CountingLimit micros = new CountingLimit(5_000, SECOND); // 5 ms a second
    LimitSet u = set("user", handler, micros);
    AtomicLong now = new AtomicLong(-5_000_000_000L);
    PacedOperationQuota q =
      new PacedOperationQuota(new LimitSet[] { u }, false, COSTS, BLOCK, now::get);
    q.checkBatchQuota(0, 1, false);
    assertEquals("one millisecond estimated before any history",
      PacedOperationQuota.FIRST_HANDLER_MICROS, micros.used);
    now.addAndGet(TimeUnit.MILLISECONDS.toNanos(20));
    q.close();
    assertEquals("charged the 20 ms the request held", 20_000, micros.used);
    try {
      new PacedOperationQuota(new LimitSet[] { u }, false, COSTS, BLOCK, now::get)
        .checkBatchQuota(0, 1, false);
      fail("5 ms a second, 20 ms used");
    } catch (RpcThrottlingException e) {
      assertEquals("RequestHandlerUsageTimeExceeded", e.getType().name());
    }
  }
}
