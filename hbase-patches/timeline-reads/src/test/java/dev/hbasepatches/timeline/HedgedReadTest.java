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

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ServerName;
import org.junit.Test;

/**
 * {@link HedgedRead} against scripted replies and a hand-driven clock and timer: when each replica
 * is asked, how many budget tokens that costs, and what is left running after the read ends.
 */
public class HedgedReadTest {

  private static final long MS = 1_000_000L;
  private static final ServerName A = ServerName.valueOf("a.example", 16020, 1);
  private static final ServerName B = ServerName.valueOf("b.example", 16020, 1);
  private static final ServerName C = ServerName.valueOf("c.example", 16020, 1);

  /** A clock and a timer that move only when the test says so. */
  static final class ManualTimer implements HedgedRead.Scheduler {
    long now;
    private long seq;
    private final PriorityQueue<Task> queue = new PriorityQueue<>();

    final class Task implements Future<Object>, Comparable<Task> {
      final long due;
      final long order = seq++;
      final Runnable body;
      boolean cancelled;
      boolean ran;

      Task(long due, Runnable body) {
        this.due = due;
        this.body = body;
      }

      @Override
      public int compareTo(Task o) {
        return due != o.due ? Long.compare(due, o.due) : Long.compare(order, o.order);
      }

      @Override
      public boolean cancel(boolean mayInterrupt) {
        if (ran || cancelled) {
          return false;
        }
        cancelled = true;
        queue.remove(this);
        return true;
      }

      @Override
      public boolean isCancelled() {
        return cancelled;
      }

      @Override
      public boolean isDone() {
        return cancelled || ran;
      }

      @Override
      public Object get() {
        throw new UnsupportedOperationException();
      }

      @Override
      public Object get(long timeout, TimeUnit unit) {
        throw new UnsupportedOperationException();
      }
    }

    @Override
    public Future<?> schedule(Runnable task, long delayNanos) {
      Task t = new Task(now + delayNanos, task);
      queue.add(t);
      return t;
    }

    /** Runs every task due up to {@code time}, in order, the clock set to each one's time. */
    void advanceTo(long time) {
      while (!queue.isEmpty() && queue.peek().due <= time) {
        Task t = queue.poll();
        now = Math.max(now, t.due);
        t.ran = true;
        t.body.run();
      }
      now = Math.max(now, time);
    }

    /** Timers armed and neither fired nor cancelled. */
    int live() {
      return queue.size();
    }
  }

  /** One request a read sent: which replica, when, and its reply the test completes. */
  static final class Sent {
    final int replica;
    final long at;
    final CompletableFuture<String> reply = new CompletableFuture<>();

    Sent(int replica, long at) {
      this.replica = replica;
      this.at = at;
    }
  }

  private final ManualTimer timer = new ManualTimer();
  private final List<Sent> sent = new ArrayList<>();
  private final TimelineStats stats = new TimelineStats();
  private HedgePolicy policy = new HedgePolicy(TimelineSettings.defaults());

  private CompletableFuture<String> read(ServerName... servers) {
    return read(timer, servers);
  }

  private CompletableFuture<String> read(HedgedRead.Scheduler scheduler, ServerName... servers) {
    ReadPlan plan = policy.plan(servers, timer.now);
    ReplicaLocations.Entry entry = new ReplicaLocations.Entry(new byte[0], new byte[0], servers,
      timer.now);
    return new HedgedRead<String>(plan, entry, replica -> {
      Sent s = new Sent(replica, timer.now);
      sent.add(s);
      return s.reply;
    }, (v, stale) -> v + (stale ? " (stale)" : ""), String::isEmpty, policy,
      new ReplicaLocations(null, MS), scheduler, () -> timer.now, stats).start();
  }

  private double tokensSpent() {
    return TimelineSettings.defaults().budgetBurst - policy.budgetAvailable();
  }

  private String sentLog() {
    StringBuilder b = new StringBuilder();
    for (Sent s : sent) {
      b.append(" r").append(s.replica).append('@').append(s.at / (double) MS).append("ms");
    }
    return b.toString();
  }

  /**
   * Three replicas, nothing known (the delay is its 10 ms maximum), the primary failing at 2 ms:
   * replica 1 is asked at once in its place, without a token, and replica 2 one delay later, at
   * 12 ms, on one token. The timer armed at the start must not fire at 10 ms as well, and no
   * timer may take a token once no replica is left to ask.
   */
  @Test
  public void aFailoverReplacesTheHedgeTimerAndSpendsOneToken() {
    CompletableFuture<String> result = read(A, B, C);
    assertEquals(1, sent.size());
    timer.advanceTo(2 * MS);
    sent.get(0).reply.completeExceptionally(new IOException("primary failed"));
    assertEquals("asked at once in the failed primary's place:" + sentLog(), 2, sent.size());
    assertEquals(2 * MS, sent.get(1).at);
    assertEquals("a failover takes no token", 0.0, tokensSpent(), 1e-9);

    timer.advanceTo(11 * MS);
    assertEquals("nothing more before one delay after the failover:" + sentLog(), 2,
      sent.size());
    assertEquals("no token before the hedge", 0.0, tokensSpent(), 1e-9);

    timer.advanceTo(12 * MS);
    assertEquals("replica 2 one delay after the failover:" + sentLog(), 3, sent.size());
    assertEquals(2, sent.get(2).replica);
    assertEquals(12 * MS, sent.get(2).at);

    timer.advanceTo(200 * MS);
    assertEquals("one hedge, one token:" + sentLog(), 1.0, tokensSpent(), 1e-9);
    assertEquals(1, stats.hedges());
    assertEquals("no timer left with every replica asked", 0, timer.live());
    assertFalse(result.isDone());
    sent.get(2).reply.complete("v2");
    assertEquals("v2 (stale)", result.join());
    assertTrue("the loser is cancelled", sent.get(1).reply.isCancelled());
    assertEquals(0, stats.inFlight());
  }

  /** The same with two replicas: after the failover nobody is left, so no timer, no token. */
  @Test
  public void noTokenIsTakenWhenNoReplicaIsLeftToAsk() {
    CompletableFuture<String> result = read(A, B);
    timer.advanceTo(2 * MS);
    sent.get(0).reply.completeExceptionally(new IOException("primary failed"));
    assertEquals(2, sent.size());
    timer.advanceTo(500 * MS);
    assertEquals(2, sent.size());
    assertEquals("tokens spent with nobody left to ask", 0.0, tokensSpent(), 1e-9);
    assertEquals(0, stats.hedges());
    assertEquals(0, stats.budgetRefusals());
    assertEquals(0, timer.live());
    sent.get(1).reply.complete("v1");
    assertEquals("v1 (stale)", result.join());
  }

  /** The plain hedge: replica order by plan, one token per request after the first. */
  @Test
  public void aSlowPrimaryIsHedgedOneReplicaAtATime() {
    CompletableFuture<String> result = read(A, B, C);
    timer.advanceTo(9 * MS);
    assertEquals(1, sent.size());
    timer.advanceTo(10 * MS);
    assertEquals(2, sent.size());
    timer.advanceTo(20 * MS);
    assertEquals(3, sent.size());
    assertEquals(2.0, tokensSpent(), 1e-9);
    timer.advanceTo(100 * MS);
    assertEquals(2.0, tokensSpent(), 1e-9);
    sent.get(0).reply.complete("v0");
    assertEquals("v0", result.join());
    assertTrue(sent.get(1).reply.isCancelled() && sent.get(2).reply.isCancelled());
    assertEquals(0, timer.live());
  }

  /** With the budget spent a hedge waits for the cap, and then goes anyway. */
  @Test
  public void anEmptyBudgetWaitsForTheCap() {
    Configuration conf = new Configuration(false);
    conf.set(TimelineSettings.BUDGET_RATIO, "0");
    conf.set(TimelineSettings.BUDGET_BURST, "1");
    policy = new HedgePolicy(TimelineSettings.from(conf));
    assertTrue(policy.admitHedge(0)); // the one token
    CompletableFuture<String> result = read(A, B, C);
    timer.advanceTo(49 * MS);
    assertEquals("held back by the budget:" + sentLog(), 1, sent.size());
    assertEquals(1, stats.budgetRefusals());
    timer.advanceTo(50 * MS);
    assertEquals("past the cap:" + sentLog(), 2, sent.size());
    assertEquals(1, stats.hedgesPastCap());
    sent.get(1).reply.complete("v1");
    assertEquals("v1 (stale)", result.join());
    assertEquals(0, timer.live());
  }

  /** Cancelling the read cancels every request it has out and its timer. */
  @Test
  public void cancellingTheReadCancelsItsRequestsAndItsTimer() {
    CompletableFuture<String> result = read(A, B, C);
    timer.advanceTo(10 * MS);
    assertEquals(2, sent.size());
    assertEquals(2, stats.inFlight());
    assertTrue(result.cancel(true));
    assertTrue("the primary's request is cancelled", sent.get(0).reply.isCancelled());
    assertTrue("the hedge is cancelled", sent.get(1).reply.isCancelled());
    assertEquals("requests left running", 0, stats.inFlight());
    assertEquals("timers left armed", 0, timer.live());
    timer.advanceTo(500 * MS);
    assertEquals("nothing sent after the cancel", 2, sent.size());
  }

  /** A read that cannot arm its timer (the reader is closing) still ends with its answer. */
  @Test
  public void aTimerThatRefusesDoesNotLoseTheRequestAlreadySent() throws Exception {
    CompletableFuture<String> result = read((task, delay) -> {
      throw new RejectedExecutionException("timer shut down");
    }, A, B, C);
    assertEquals(1, sent.size());
    sent.get(0).reply.complete("v0");
    assertEquals("v0", result.get());
    assertEquals(0, stats.inFlight());
  }

  /** A secondary's empty answer is the answer of last resort, after every other replica. */
  @Test
  public void anEmptySecondaryAnswerIsKeptForLast() throws ExecutionException,
    InterruptedException {
    policy.primaryOutcome(A, true, 0, 0, false); // three losses in a row demote the primary
    policy.primaryOutcome(A, true, 0, 0, false);
    policy.primaryOutcome(A, true, 0, 0, false);
    CompletableFuture<String> result = read(A, B, C);
    assertEquals("the demoted primary is asked second", 1, sent.get(0).replica);
    sent.get(0).reply.complete("");
    assertEquals("asked at once after an empty secondary:" + sentLog(), 2, sent.size());
    assertEquals(0, sent.get(1).replica);
    sent.get(1).reply.completeExceptionally(new IOException("primary failed"));
    assertEquals(3, sent.size());
    sent.get(2).reply.completeExceptionally(new IOException("replica 2 failed"));
    assertEquals("the empty answer, from replica 1", " (stale)", result.get());
    assertEquals(0.0, tokensSpent(), 1e-9);
    assertEquals(0, timer.live());
  }
}
