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
package dev.hbasepatches.quotas.limit;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.Random;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.Test;

/**
 * Many handler threads on one limit, over a clock the test moves. While the clock stands still the
 * outcome cannot depend on how the threads interleave, so the totals are compared exactly with a
 * single-threaded run of the same steps.
 */
public class SmoothRateLimitConcurrencyTest {

  private static final long SEC = TimeUnit.SECONDS.toNanos(1);
  private static final long SEED = 20260117L;

  /** Runs {@code phases} rounds: move the clock, then every thread takes until refused. */
  private static long[] runPhases(int threads, SmoothRateLimit limit, FakeTicker clock,
    long[] steps, long[] rateChanges, long cost) throws Exception {
    long[] admittedPerPhase = new long[steps.length];
    AtomicLong phaseTotal = new AtomicLong();
    CyclicBarrier start = new CyclicBarrier(threads + 1);
    CyclicBarrier done = new CyclicBarrier(threads + 1);
    AtomicBoolean failed = new AtomicBoolean();
    Thread[] workers = new Thread[threads];
    for (int w = 0; w < threads; w++) {
      workers[w] = new Thread(() -> {
        try {
          for (int p = 0; p < steps.length; p++) {
            start.await();
            while (limit.tryAcquire(cost) == 0) {
              phaseTotal.incrementAndGet();
            }
            done.await();
          }
        } catch (Exception e) {
          failed.set(true);
        }
      });
      workers[w].start();
    }
    for (int p = 0; p < steps.length; p++) {
      clock.advance(steps[p]);
      if (rateChanges != null && rateChanges[p] > 0) {
        limit.setRate(rateChanges[p], SEC);
      }
      phaseTotal.set(0);
      start.await(1, TimeUnit.MINUTES);
      done.await(1, TimeUnit.MINUTES);
      admittedPerPhase[p] = phaseTotal.get();
    }
    for (Thread w : workers) {
      w.join();
    }
    assertTrue("a worker failed", !failed.get());
    return admittedPerPhase;
  }

  private static long[] sequential(SmoothRateLimit limit, FakeTicker clock, long[] steps,
    long[] rateChanges, long cost) {
    long[] admitted = new long[steps.length];
    for (int p = 0; p < steps.length; p++) {
      clock.advance(steps[p]);
      if (rateChanges != null && rateChanges[p] > 0) {
        limit.setRate(rateChanges[p], SEC);
      }
      while (limit.tryAcquire(cost) == 0) {
        admitted[p]++;
      }
    }
    return admitted;
  }

  @Test
  public void threadsAdmitExactlyWhatTheRateAllows() throws Exception {
    for (int threads : new int[] { 2, 4, 8 }) {
      for (long units : new long[] { 1000, 10_000 }) {
        Random rnd = new Random(SEED + threads * 31 + units);
        long[] steps = new long[40];
        for (int i = 1; i < steps.length; i++) {
          steps[i] = 1 + rnd.nextInt((int) (SEC / 4));
        }
        FakeTicker clock = new FakeTicker(5);
        SmoothRateLimit limit = new SmoothRateLimit(units, SEC, clock);
        long[] got = runPhases(threads, limit, clock, steps, null, 1);
        FakeTicker refClock = new FakeTicker(5);
        long[] want = sequential(new SmoothRateLimit(units, SEC, refClock), refClock, steps, null,
          1);
        String what = "seed " + SEED + ", threads " + threads + ", units " + units;
        long total = 0;
        long elapsed = 0;
        for (int p = 0; p < steps.length; p++) {
          assertEquals(what + ", phase " + p, want[p], got[p]);
          total += got[p];
          elapsed += steps[p];
          // Never more than the burst plus the refill of the time elapsed.
          assertTrue(what, total <= units + elapsed * units / SEC);
        }
        assertEquals(what, units, got[0]);
      }
    }
  }

  @Test
  public void rateChangedWhileThreadsAreWaiting() throws Exception {
    int threads = 4;
    long[] steps = { 0, SEC / 10, SEC / 10, SEC / 2, SEC, SEC / 3, 2 * SEC, SEC / 7 };
    long[] rates = { 0, 5000, 0, 200, 0, 20_000, 0, 1000 };
    FakeTicker clock = new FakeTicker(-77);
    long[] got = runPhases(threads, new SmoothRateLimit(1000, SEC, clock), clock, steps, rates, 1);
    FakeTicker refClock = new FakeTicker(-77);
    long[] want =
      sequential(new SmoothRateLimit(1000, SEC, refClock), refClock, steps, rates, 1);
    for (int p = 0; p < steps.length; p++) {
      assertEquals("phase " + p, want[p], got[p]);
    }
    assertEquals(1000, got[0]);
    // 900 units still owed after 0.1s, now at 5000/s: 4100 of the new burst of 5000 are left.
    assertEquals(4100, got[1]);
  }

  /**
   * The clock moves while the threads take (costs of 1 and, after a refusal, 3), in seeded steps
   * of up to 50 ms. It moves only once every thread has been refused since the last step: each
   * thread provably ran in every step, and the limit was full at each step, so no refill was
   * lost to an idle moment. Then the total admitted is exactly the burst plus the refill of the
   * time elapsed: no more (the limit holds under contention), and no less (nothing was lost to
   * a race), with nothing left to drain afterwards.
   */
  @Test(timeout = 120_000)
  public void clockMovingUnderRacingThreadsAdmitsExactlyTheRate() throws Exception {
    int threads = 4;
    int steps = 300;
    long units = 2000; // 0.5 ms a unit, exactly
    FakeTicker clock = new FakeTicker(1);
    SmoothRateLimit limit = new SmoothRateLimit(units, SEC, clock);
    AtomicLong epoch = new AtomicLong();
    AtomicLongArray refusedIn = new AtomicLongArray(threads);
    AtomicLongArray stepsSeen = new AtomicLongArray(threads);
    for (int w = 0; w < threads; w++) {
      refusedIn.set(w, -1);
    }
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong admitted = new AtomicLong();
    Thread[] workers = new Thread[threads];
    for (int w = 0; w < threads; w++) {
      int me = w;
      workers[w] = new Thread(() -> {
        while (!stop.get()) {
          long e = epoch.get(); // read before asking: a refusal is then at this step's time
          if (limit.tryAcquire(1) == 0) {
            admitted.incrementAndGet();
          } else if (limit.tryAcquire(3) == 0) {
            admitted.addAndGet(3);
          } else {
            if (refusedIn.get(me) != e) {
              refusedIn.set(me, e);
              stepsSeen.incrementAndGet(me);
            }
            Thread.yield();
          }
        }
      });
      workers[w].start();
    }
    Random rnd = new Random(SEED);
    long elapsed = 0;
    for (int i = 0; i <= steps; i++) {
      awaitEveryoneRefusedIn(epoch.get(), refusedIn, workers);
      if (i == steps) {
        break;
      }
      long step = 1 + rnd.nextInt(50_000_000);
      clock.advance(step);
      elapsed += step;
      epoch.incrementAndGet();
    }
    stop.set(true);
    for (Thread w : workers) {
      w.join(60_000);
      assertTrue("a worker did not stop", !w.isAlive());
    }
    long exact = units + elapsed * units / SEC;
    String what = "seed " + SEED + ": admitted " + admitted.get() + " over " + elapsed + " ns";
    assertEquals(what, exact, admitted.get());
    assertTrue("nothing left once every thread was refused", limit.tryAcquire(1) > 0);
    for (int w = 0; w < threads; w++) {
      assertEquals("worker " + w + " ran in every step", steps + 1, stepsSeen.get(w));
    }
    assertTrue(limit.backlogNanos() <= limit.toleranceNanos());
  }

  private static void awaitEveryoneRefusedIn(long e, AtomicLongArray refusedIn,
    Thread[] workers) {
    for (int w = 0; w < refusedIn.length(); w++) {
      while (refusedIn.get(w) != e) {
        assertTrue("worker " + w + " died", workers[w].isAlive());
        Thread.yield();
      }
    }
  }
}
