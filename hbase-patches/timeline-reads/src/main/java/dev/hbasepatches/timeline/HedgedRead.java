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
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BiFunction;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.apache.hadoop.hbase.ServerName;

/**
 * One TIMELINE read carried out to its {@link ReadPlan}: the first replica now, the next after the
 * plan's delay if the budget allows (or past the cap regardless), one at a time. The first answer
 * wins and the others are cancelled, which also stops the connection's retries for them. A
 * replica that fails hands over to the next one at once, without a token: that request replaces
 * one, it does not add one, and the hedge timer starts again from it. So does a secondary's empty
 * answer, which is returned only if no other replica has anything.
 * <p>
 * A read has at most one hedge timer armed, and a token is taken only for a request that is then
 * sent. The returned future owns the read: completing or cancelling it (by an answer, a failure,
 * or the caller) cancels the timer and every request still out.
 *
 * @param <T> what the read returns (a Result, or a scan's list of them)
 */
final class HedgedRead<T> {

  /** Runs a task after a delay: the reader's timer, or a hand-driven one in tests. */
  interface Scheduler {
    /** @throws RejectedExecutionException when the timer no longer takes tasks */
    Future<?> schedule(Runnable task, long delayNanos);
  }

  private final ReadPlan plan;
  private final int replicas;
  private final ServerName[] servers;
  private final ReplicaLocations.Entry entry;
  private final IntFunction<CompletableFuture<T>> send;
  private final BiFunction<T, Boolean, T> markStale;
  private final Predicate<T> weak;
  private final HedgePolicy policy;
  private final ReplicaLocations locations;
  private final Scheduler timer;
  private final LongSupplier clock;
  private final TimelineStats stats;
  private final CompletableFuture<T> result = new CompletableFuture<>();
  private final long start;

  // guarded by this
  private final CompletableFuture<?>[] inFlight;
  private final long[] sentAt;
  private int sent;
  private int failed;
  private T fallback;
  private int fallbackIndex;
  private Throwable firstError;
  private Future<?> pending;
  private long timerGeneration;

  HedgedRead(ReadPlan plan, ReplicaLocations.Entry entry,
    IntFunction<CompletableFuture<T>> send, BiFunction<T, Boolean, T> markStale,
    Predicate<T> weak, HedgePolicy policy, ReplicaLocations locations, Scheduler timer,
    LongSupplier clock, TimelineStats stats) {
    this.plan = plan;
    this.replicas = plan.order.length;
    this.entry = entry;
    this.servers = entry == null ? new ServerName[replicas] : entry.servers;
    this.send = send;
    this.markStale = markStale;
    this.weak = weak;
    this.policy = policy;
    this.locations = locations;
    this.timer = timer;
    this.clock = clock;
    this.stats = stats;
    this.inFlight = new CompletableFuture<?>[replicas];
    this.sentAt = new long[replicas];
    this.start = clock.getAsLong();
  }

  CompletableFuture<T> start() {
    stats.reads.increment();
    if (plan.reroute == ReadPlan.DEMOTED) {
      stats.demotedReads.increment();
    } else if (plan.reroute == ReadPlan.PRIMARY_UNKNOWN) {
      stats.unlocatedPrimaryReads.increment();
    }
    // however the read ends (an answer, every replica failed, the caller cancelled it), nothing
    // of it may keep running: no timer, no request
    result.whenComplete((v, e) -> stopAll());
    int first;
    synchronized (this) {
      first = reserve();
    }
    dispatch(first);
    arm(plan.delayNanos);
    return result;
  }

  /** The next replica's index in the plan, counted as sent; -1 when none is left or it ended. */
  private int reserve() {
    if (sent >= replicas || result.isDone()) {
      return -1;
    }
    int i = sent++;
    sentAt[i] = clock.getAsLong();
    return i;
  }

  /**
   * Arms the one hedge timer {@code delayNanos} from now, replacing the one armed before; none
   * when every replica has been asked or the read has ended.
   */
  private void arm(long delayNanos) {
    Future<?> old;
    synchronized (this) {
      old = pending;
      pending = null;
      long generation = ++timerGeneration;
      if (sent < replicas && !result.isDone()) {
        try {
          pending = timer.schedule(() -> onTimer(generation), delayNanos);
        } catch (RejectedExecutionException e) {
          // the reader's timer has stopped: the read goes on with the requests it has out,
          // failing over on errors, without timed hedges
        }
      }
    }
    if (old != null) {
      old.cancel(false);
    }
  }

  private void onTimer(long generation) {
    int next;
    long waited;
    synchronized (this) {
      if (generation != timerGeneration || sent >= replicas || result.isDone()) {
        return; // replaced, nobody left to ask, or answered: no token
      }
      pending = null;
      waited = clock.getAsLong() - start;
      if (!policy.admitHedge(waited)) {
        next = -2;
      } else {
        next = reserve();
      }
    }
    if (next == -2) {
      stats.budgetRefusals.increment();
      arm(Math.max(0, policy.capNanos() - waited));
      return;
    }
    stats.hedges.increment();
    if (waited >= policy.capNanos()) {
      stats.hedgesPastCap.increment();
    }
    dispatch(next);
    arm(plan.delayNanos);
  }

  private void dispatch(int i) {
    if (i < 0) {
      return;
    }
    stats.rpcs.increment();
    CompletableFuture<T> f;
    try {
      f = send.apply(plan.order[i]);
    } catch (RuntimeException e) {
      f = new CompletableFuture<>();
      f.completeExceptionally(e);
    }
    boolean ended;
    synchronized (this) {
      inFlight[i] = f;
      ended = result.isDone();
    }
    // counted once stopAll can see it: a read that shows n requests out cancels all n
    stats.inFlight.increment();
    f.whenComplete((v, e) -> {
      stats.inFlight.decrement();
      onDone(i, v, e);
    });
    if (ended) {
      f.cancel(false);
    }
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
    } else {
      cause = error instanceof CompletionException && error.getCause() != null
        ? error.getCause() : error;
      if (cause instanceof CancellationException) {
        return; // cancelled by this read, which has ended
      }
      if (replica == 0) {
        locations.primaryUnknown(entry);
      }
    }
    boolean last;
    int next = -1;
    T lastResort;
    int lastResortIndex;
    Throwable failure;
    synchronized (this) {
      if (error == null && fallback == null) {
        fallback = value;
        fallbackIndex = index;
      }
      if (cause != null && firstError == null) {
        firstError = cause;
      }
      failed++;
      last = failed == replicas;
      if (!last && failed == sent) {
        // nothing else in flight: ask the next replica now, in place of the failed one
        next = reserve();
      }
      lastResort = fallback;
      lastResortIndex = fallbackIndex;
      failure = firstError;
    }
    if (last && lastResort != null) {
      win(lastResortIndex, plan.order[lastResortIndex], lastResort);
    } else if (last) {
      if (result.completeExceptionally(failure)) {
        stats.failures.increment();
      }
    } else if (next >= 0) {
      dispatch(next);
      arm(plan.delayNanos); // the delay counts from the request that replaced the failed one
    }
  }

  /** Cancels the timer and every request still out; the read has ended. */
  private void stopAll() {
    Future<?> p;
    CompletableFuture<?>[] out;
    synchronized (this) {
      p = pending;
      pending = null;
      timerGeneration++;
      out = inFlight.clone();
    }
    if (p != null) {
      p.cancel(false);
    }
    for (CompletableFuture<?> f : out) {
      if (f != null) {
        f.cancel(false);
      }
    }
  }

  private void win(int index, int replica, T value) {
    long now = clock.getAsLong();
    boolean stale = replica != 0;
    if (!result.complete(markStale.apply(value, stale))) {
      return;
    }
    // stopAll has run: the timer and the losers are cancelled
    int sentCount;
    long[] times;
    synchronized (this) {
      sentCount = sent;
      times = sentAt.clone();
    }
    if (stale) {
      stats.staleAnswers.increment();
    }
    policy.answered(servers[replica], replica, now - times[index]);
    for (int j = 0; j < sentCount; j++) {
      if (j != index && plan.order[j] == 0) {
        policy.primaryOutcome(servers[0], true, now - times[j], now, false);
        locations.primaryLost(entry);
      }
    }
    if (replica == 0 && index == 0) {
      // a primary that answers only after the hedge delay is late even when no hedge went out
      // (the budget held it back): a uniformly slow primary must still get demoted
      long took = now - times[0];
      policy.primaryOutcome(servers[0], took > plan.delayNanos, took, now, true);
    }
  }
}
