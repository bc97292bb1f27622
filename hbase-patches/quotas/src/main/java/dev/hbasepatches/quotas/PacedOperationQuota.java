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

import dev.hbasepatches.quotas.limit.RateLimit;
import dev.hbasepatches.quotas.limit.Ticker;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.ipc.RpcCall;
import org.apache.hadoop.hbase.ipc.RpcServer;
import org.apache.hadoop.hbase.quotas.OperationQuota;
import org.apache.hadoop.hbase.quotas.QuotaUtil;
import org.apache.hadoop.hbase.quotas.RpcThrottlingException;
import org.apache.hadoop.hbase.quotas.ThrottleType;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The quota of one throttled request. Admission asks every applicable limit in turn and is all
 * or nothing: when one refuses, the ones already taken are refunded and the request fails with
 * the refusing limiter's own wait. After the operation, {@link #close()} charges or refunds the
 * difference between the estimated and the real size, and feeds the real size back into the
 * subject's history so the next estimate is closer.
 * <p>
 * Each request asks a limiter for at most one full period's worth, so a request larger than the
 * whole limit is admitted when the limiter is full and the rest is charged as debt afterwards.
 * <p>
 * What each limiter gave at admission is recorded, and a refund or the settlement in
 * {@link #close()} starts from that record, never from the limiter's current rate: a refresh of
 * {@code hbase:quota} re-rates limiters in place while requests are in flight, and a request
 * admitted under one rate and closed under another still pays exactly its real cost. A limiter
 * that was unlimited at admission gave nothing and is not settled.
 */
final class PacedOperationQuota implements OperationQuota {

  private static final Logger LOG = LoggerFactory.getLogger(PacedOperationQuota.class);

  /** Write size assumed per mutation before a subject has any history (HBase assumes 100). */
  static final long FIRST_WRITE_ESTIMATE = 100;
  /** Handler time assumed per call before a subject has any history: one millisecond. */
  static final long FIRST_HANDLER_MICROS = 1000;

  private final LimitSet[] sets;
  private final boolean mayExceed;
  private final CostModel costs;
  private final long blockSize;
  private final SizeHistory history;
  private final Ticker clock;
  /**
   * What each limiter gave this request at admission, by position over {@code sets} and their
   * present types in order; {@link #NOT_TAKEN} where nothing was taken (not reached, unlimited at
   * admission). Made at the first admission.
   */
  private long[] taken;

  /** A {@link #taken} entry of a limiter this request took nothing from. */
  private static final long NOT_TAKEN = -1;

  private long writes;
  private long reads;
  private long estimatedWrite;
  private long estimatedRead;
  private long estimatedMicros;
  private long admittedAtNanos;
  private boolean atomic;
  private boolean scanCall;
  private boolean admitted;
  private long resultBytes;
  private long mutationBytes;

  /**
   * @param sets      the limits that apply, most specific first
   * @param mayExceed when true, {@code sets[0]} is the region-server throttle and only it may
   *                  refuse; the others are charged even when they are out (into debt)
   */
  PacedOperationQuota(LimitSet[] sets, boolean mayExceed, CostModel costs, long blockSize) {
    this(sets, mayExceed, costs, blockSize, Ticker.SYSTEM);
  }

  /** @param clock measures the handler time a request takes (tests drive a fake one) */
  PacedOperationQuota(LimitSet[] sets, boolean mayExceed, CostModel costs, long blockSize,
    Ticker clock) {
    this.sets = sets;
    this.clock = clock;
    this.mayExceed = mayExceed;
    this.costs = costs;
    this.blockSize = blockSize;
    SizeHistory h = null;
    for (LimitSet s : sets) {
      if (s.sized()) {
        h = s.history();
        break;
      }
    }
    this.history = h;
  }

  /** The limits this request is checked against, in order (for tests). */
  LimitSet[] sets() {
    return sets.clone();
  }

  private boolean sized() {
    return history != null;
  }

  /**
   * Checks a batch on either kind of quota this module hands out, on any HBase 2.6 release
   * ({@code OperationQuota.checkBatchQuota} gained an {@code isAtomic} parameter in 2.6.4).
   */
  static void checkBatch(OperationQuota quota, int numWrites, int numReads, boolean isAtomic)
    throws RpcThrottlingException {
    if (quota instanceof PacedOperationQuota) {
      ((PacedOperationQuota) quota).checkBatchQuota(numWrites, numReads, isAtomic);
    } else if (!(quota instanceof FreeOperationQuota)) {
      throw new IllegalArgumentException("not a quota of this module: " + quota);
    }
  }

  /**
   * HBase 2.6.4's form (no {@code @Override}: 2.6.1 has no such method). An atomic request
   * (check-and-mutate, or a batch holding one) is also charged to the atomic throttles.
   */
  public void checkBatchQuota(int numWrites, int numReads, boolean isAtomic)
    throws RpcThrottlingException {
    writes = numWrites;
    reads = numReads;
    atomic = isAtomic;
    if (sized()) {
      estimatedWrite = numWrites * history.perWrite(FIRST_WRITE_ESTIMATE);
      estimatedRead = numReads * history.perRead(blockSize);
      estimatedMicros = history.perCallMicros(FIRST_HANDLER_MICROS);
    }
    admit();
  }

  /** HBase 2.6.1's form (no {@code @Override}: 2.6.4 replaced it with the one above). */
  public void checkBatchQuota(int numWrites, int numReads) throws RpcThrottlingException {
    checkBatchQuota(numWrites, numReads, false);
  }

  @Override
  public void checkScanQuota(ClientProtos.ScanRequest request, long maxScannerResultSize,
    long maxBlockBytesScanned, long prevBlockBytesScannedDifference)
    throws RpcThrottlingException {
    writes = 0;
    reads = 1;
    scanCall = true;
    if (sized()) {
      // A scanner that already ran is its own best estimate; a new one is estimated from the
      // subject's recent scan calls rather than from one block (HBASE-28385).
      estimatedRead = request.getNextCallSeq() > 0 && maxBlockBytesScanned > 0
        ? maxBlockBytesScanned
        : history.perScanCall(blockSize);
      estimatedMicros = history.perCallMicros(FIRST_HANDLER_MICROS);
    }
    admit();
  }

  /** What this request costs against one throttle type, before the cap of one period. */
  private long estimate(int ordinal) {
    return costs.cost(ThrottleTypes.kind(ordinal), writes, reads, estimatedWrite, estimatedRead,
      atomic, estimatedMicros);
  }

  private int slots() {
    int n = 0;
    for (LimitSet set : sets) {
      n += set.present().length;
    }
    return n;
  }

  private void admit() throws RpcThrottlingException {
    admittedAtNanos = clock.nanoTime();
    if (taken == null) {
      taken = new long[slots()];
    }
    Arrays.fill(taken, NOT_TAKEN);
    int slot = 0;
    for (int i = 0; i < sets.length; i++) {
      int[] present = sets[i].present();
      for (int k = 0; k < present.length; k++, slot++) {
        RateLimit limit = sets[i].limit(present[k]);
        // One read of the rate decides both the cap and whether anything is taken at all.
        long units = limit.units();
        if (units == Long.MAX_VALUE) {
          continue; // unlimited: admits everything and keeps no account, as HBase's bypass
        }
        long cost = Math.min(estimate(present[k]), Math.max(1, units));
        if (cost <= 0) {
          taken[slot] = 0; // nothing to ask now; the real cost is still settled in close()
          continue;
        }
        long wait = limit.tryAcquire(cost);
        if (wait > 0) {
          if (mayExceed && i > 0) {
            limit.charge(cost);
            taken[slot] = cost;
            continue;
          }
          giveBack(slot);
          refuse(sets[i], present[k], wait);
        }
        taken[slot] = cost;
      }
    }
    admitted = true;
  }

  /** Refunds exactly what was taken from the limiters before position {@code upToSlot}. */
  private void giveBack(int upToSlot) {
    int slot = 0;
    for (int i = 0; i < sets.length && slot < upToSlot; i++) {
      int[] present = sets[i].present();
      for (int k = 0; k < present.length && slot < upToSlot; k++, slot++) {
        if (taken[slot] > 0) {
          sets[i].limit(present[k]).refund(taken[slot]);
        }
        taken[slot] = NOT_TAKEN;
      }
    }
  }

  private static void refuse(LimitSet set, int ordinal, long waitNanos)
    throws RpcThrottlingException {
    long waitMs = Math.max(1, (waitNanos + 999_999) / 1_000_000);
    if (LOG.isDebugEnabled()) {
      LOG.debug("Throttled by {} {}: retry in {} ms", set.subject(), LimitSet.type(ordinal),
        waitMs);
    }
    ThrottleTypes.refuse(ThrottleTypes.kind(ordinal), waitMs);
  }

  @Override
  public void close() {
    if (!admitted) {
      return;
    }
    admitted = false;
    long actualWrite = estimatedWrite;
    long actualRead = estimatedRead;
    long actualMicros = estimatedMicros;
    if (sized()) {
      actualMicros = Math.max(0, clock.nanoTime() - admittedAtNanos) / 1000;
      actualWrite = writes > 0 ? mutationBytes : 0;
      actualRead = 0;
      if (reads > 0) {
        long blockBytes = 0;
        RpcCall call = RpcServer.getCurrentCall().orElse(null);
        if (call != null) {
          blockBytes = call.getBlockBytesScanned();
        }
        actualRead = costs.readBytes(resultBytes, blockBytes);
      }
      learn(actualWrite, actualRead, actualMicros);
    }
    // Settle against what each limiter gave at admission, whatever its rate is now.
    int slot = 0;
    for (LimitSet set : sets) {
      int[] present = set.present();
      for (int k = 0; k < present.length; k++, slot++) {
        long given = taken[slot];
        if (given == NOT_TAKEN) {
          continue;
        }
        RateLimit limit = set.limit(present[k]);
        long real = costs.cost(ThrottleTypes.kind(present[k]), writes, reads, actualWrite,
          actualRead, atomic, actualMicros);
        if (real > given) {
          limit.charge(real - given);
        } else if (real < given) {
          limit.refund(given - real);
        }
      }
    }
  }

  private void learn(long actualWrite, long actualRead, long actualMicros) {
    for (LimitSet set : sets) {
      if (!set.sized()) {
        continue;
      }
      SizeHistory h = set.history();
      h.observeCallMicros(actualMicros);
      if (reads > 0) {
        if (scanCall) {
          h.observeScanCall(actualRead);
        } else {
          h.observeRead(actualRead / reads);
        }
      }
      if (writes > 0) {
        h.observeWrite(actualWrite / writes);
      }
    }
  }

  @Override
  public void addGetResult(Result result) {
    if (sized() && result != null) {
      resultBytes += QuotaUtil.calculateResultSize(result);
    }
  }

  @Override
  public void addScanResult(List<Result> results) {
    if (sized()) {
      resultBytes += QuotaUtil.calculateResultSize(results);
    }
  }

  @Override
  public void addScanResultCells(List<Cell> cells) {
    if (sized()) {
      resultBytes += QuotaUtil.calculateCellsSize(cells);
    }
  }

  @Override
  public void addMutation(Mutation mutation) {
    if (sized()) {
      mutationBytes += QuotaUtil.calculateMutationSize(mutation);
    }
  }

  /**
   * The most one call may read: one period's worth of the tightest read-side byte limit, so a
   * scan call returns no more than the throttle could pass in one period.
   */
  @Override
  public long getReadAvailable() {
    if (!sized()) {
      return Long.MAX_VALUE;
    }
    long most = Long.MAX_VALUE;
    for (LimitSet set : sets) {
      most = Math.min(most, bytesOf(set.limit(ThrottleType.READ_SIZE), 1));
      most = Math.min(most, bytesOf(set.limit(ThrottleType.REQUEST_SIZE), 1));
      most = Math.min(most, bytesOf(set.limit(ThrottleType.READ_CAPACITY_UNIT), costs.readUnit()));
      most =
        Math.min(most, bytesOf(set.limit(ThrottleType.REQUEST_CAPACITY_UNIT), costs.readUnit()));
    }
    return most;
  }

  private static long bytesOf(RateLimit limit, long unit) {
    if (limit == null) {
      return Long.MAX_VALUE;
    }
    long u = limit.units();
    return u > Long.MAX_VALUE / unit ? Long.MAX_VALUE : u * unit;
  }

  @Override
  public long getReadConsumed() {
    return estimatedRead;
  }
}
