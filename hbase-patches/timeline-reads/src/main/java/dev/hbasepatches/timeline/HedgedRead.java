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

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Future;
import java.util.function.BiFunction;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;
import org.apache.hadoop.hbase.ServerName;

/**
 * One TIMELINE read carried out to its {@link ReadPlan}: the first replica now, the next after the
 * plan's delay if the budget allows (or past the cap regardless), one at a time. The first answer
 * wins and the others are cancelled, which also stops the connection's retries for them. A
 * replica that fails hands over to the next one at once, without a token: that request replaces
 * one, it does not add one. So does a secondary's empty answer, which is returned only if no
 * other replica has anything.
 *
 * @param <T> what the read returns (a Result, or a scan's list of them)
 */
final class HedgedRead<T> {

  /** Runs a task after a delay: the reader's timer, or a hand-driven one in tests. */
  interface Scheduler {
    Future<?> schedule(Runnable task, long delayNanos);
  }

  private final ReadPlan plan;
  private final ServerName[] servers;
  private final ReplicaLocations.Entry entry;
  private final IntFunction<CompletableFuture<T>> send;
  private final BiFunction<T, Boolean, T> markStale;
  private final HedgePolicy policy;
  private final ReplicaLocations locations;
  private final byte[] row;
  private final Scheduler timer;
  private final LongSupplier clock;
  private final TimelineStats stats;
  private final CompletableFuture<T> result = new CompletableFuture<>();
  private final CompletableFuture<?>[] inFlight;
  private final long[] sentAt;
  private final long start;
  private final java.util.function.Predicate<T> weak;
  private int sent;
  private int failed;
  private T fallback;
  private int fallbackIndex;
  private Throwable firstError;
  private Future<?> pending;

  HedgedRead(ReadPlan plan, ReplicaLocations.Entry entry, byte[] row,
    IntFunction<CompletableFuture<T>> send, BiFunction<T, Boolean, T> markStale,
    java.util.function.Predicate<T> weak, HedgePolicy policy, ReplicaLocations locations,
    Scheduler timer, LongSupplier clock, TimelineStats stats) {
    this.plan = plan;
    this.entry = entry;
    this.servers = entry == null ? new ServerName[plan.order.length] : entry.servers;
    this.row = row;
    this.send = send;
    this.markStale = markStale;
    this.weak = weak;
    this.policy = policy;
    this.locations = locations;
    this.timer = timer;
    this.clock = clock;
    this.stats = stats;
    this.inFlight = new CompletableFuture<?>[plan.order.length];
    this.sentAt = new long[plan.order.length];
    this.start = clock.getAsLong();
  }

  CompletableFuture<T> start() {
    stats.reads.increment();
    if (plan.reroute == ReadPlan.DEMOTED) {
      stats.demotedReads.increment();
    } else if (plan.reroute == ReadPlan.PRIMARY_UNKNOWN) {
      stats.unlocatedPrimaryReads.increment();
    }
    sendNext();
    scheduleHedge(plan.delayNanos);
    return result;
  }

  private void scheduleHedge(long delayNanos) {
    synchronized (this) {
      if (sent >= plan.order.length || result.isDone()) {
        return;
      }
      pending = timer.schedule(this::onTimer, delayNanos);
    }
  }

  private void onTimer() {
    if (result.isDone()) {
      return;
    }
    long waited = clock.getAsLong() - start;
    if (policy.admitHedge(waited)) {
      stats.hedges.increment();
      if (waited >= policy.capNanos()) {
        stats.hedgesPastCap.increment();
      }
      sendNext();
      scheduleHedge(plan.delayNanos);
    } else {
      stats.budgetRefusals.increment();
      scheduleHedge(Math.max(0, policy.capNanos() - waited));
    }
  }

  private void sendNext() {
    int i;
    synchronized (this) {
      if (sent >= plan.order.length || result.isDone()) {
        return;
      }
      i = sent++;
      sentAt[i] = clock.getAsLong();
    }
    stats.rpcs.increment();
    stats.inFlight.increment();
    CompletableFuture<T> f;
    try {
      f = send.apply(plan.order[i]);
    } catch (RuntimeException e) {
      f = new CompletableFuture<>();
      f.completeExceptionally(e);
    }
    inFlight[i] = f;
    f.whenComplete((v, e) -> stats.inFlight.decrement());
    if (result.isDone()) {
      f.cancel(false);
      return;
    }
    final int index = i;
    f.whenComplete((v, e) -> onDone(index, v, e));
  }

  private void onDone(int index, T value, Throwable error) {
    int replica = plan.order[index];
    Throwable cause = null;
    if (error == null) {
      if (replica == 0 || !weak.test(value)) {
        win(index, replica, value);
        return;
      }
      // an empty answer from a secondary may only mean it has not caught up (a replica just
      // opened elsewhere serves nothing until it sees the primary's files): keep it as the
      // answer of last resort and ask the next replica at once
      synchronized (this) {
        if (fallback == null) {
          fallback = value;
          fallbackIndex = index;
        }
      }
    } else {
      cause = error instanceof CompletionException && error.getCause() != null
        ? error.getCause() : error;
      if (cause instanceof CancellationException) {
        return;
      }
      if (replica == 0) {
        locations.primaryUnknown(row);
      }
    }
    boolean last;
    boolean idle;
    T lastResort;
    int lastResortIndex;
    synchronized (this) {
      failed++;
      last = failed == plan.order.length;
      idle = failed == sent;
      lastResort = fallback;
      lastResortIndex = fallbackIndex;
      if (cause != null && firstError == null) {
        firstError = cause;
      }
    }
    if (last && lastResort != null) {
      win(lastResortIndex, plan.order[lastResortIndex], lastResort);
    } else if (last) {
      stats.failures.increment();
      result.completeExceptionally(firstError);
    } else if (idle) {
      // nothing else in flight: ask the next replica now, in place of the failed one
      sendNext();
      scheduleHedge(plan.delayNanos);
    }
  }

  private void win(int index, int replica, T value) {
    long now = clock.getAsLong();
    boolean stale = replica != 0;
    if (!result.complete(markStale.apply(value, stale))) {
      return;
    }
    Future<?> p;
    int sentCount;
    synchronized (this) {
      p = pending;
      sentCount = sent;
    }
    if (p != null) {
      p.cancel(false);
    }
    if (stale) {
      stats.staleAnswers.increment();
    }
    policy.answered(servers[replica], replica, now - sentAt[index]);
    for (int j = 0; j < sentCount; j++) {
      if (j == index) {
        continue;
      }
      CompletableFuture<?> f = inFlight[j];
      if (f != null) {
        f.cancel(false);
      }
      if (plan.order[j] == 0) {
        policy.primaryOutcome(servers[0], true, now - sentAt[j], now, false);
        locations.primaryLost(entry);
      }
    }
    if (replica == 0 && index == 0) {
      // a primary that answers only after the hedge delay is late even when no hedge went out
      // (the budget held it back): a uniformly slow primary must still get demoted
      long took = now - sentAt[0];
      policy.primaryOutcome(servers[0], took > plan.delayNanos, took, now, true);
    }
  }
}
