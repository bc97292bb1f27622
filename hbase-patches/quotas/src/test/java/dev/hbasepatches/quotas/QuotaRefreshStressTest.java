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

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Refresh while throttling, seeded: worker threads admit, hold and close requests of every shape
 * (gets, multi-gets, puts, batches, check-and-mutates, each with its handler time) against user,
 * user-on-table, user-on-namespace, table, namespace and region-server limits of every throttle
 * type, while a refresher thread and the workers themselves rebuild the settings at random
 * (raised, lowered, zero, one, dropped, re-added, refused rows, exceed-throttle on and off). Ends
 * with every thread stopped and the accounting and book invariants checked.
 * <p>
 * Bounded by operations, not time: {@code hbasepatches.quotas.stress.ops} per worker (default
 * 20,000, a few seconds) and {@code hbasepatches.quotas.stress.seeds} seeds (default 2). The
 * module's {@code stress} profile runs 1,000,000 operations per worker over 5 seeds;
 * {@code hbasepatches.quotas.stress.seed} replays one seed.
 */
public class QuotaRefreshStressTest {

  private static final Logger LOG = LoggerFactory.getLogger(QuotaRefreshStressTest.class);

  private static final int WORKERS = 4;
  private static final long FIRST_SEED = 0x51E55L;

  @Test(timeout = 3_600_000)
  public void refreshWhileThrottling() throws Exception {
    int ops = Integer.getInteger("hbasepatches.quotas.stress.ops", 20_000);
    int seeds = Integer.getInteger("hbasepatches.quotas.stress.seeds", 2);
    Long one = Long.getLong("hbasepatches.quotas.stress.seed");
    for (int i = 0; i < (one != null ? 1 : seeds); i++) {
      run(one != null ? one : FIRST_SEED + i, ops);
    }
  }

  private static void run(long seed, int ops) throws Exception {
    QuotaLedger ledger = new QuotaLedger();
    AtomicReference<List<QuotaEntry>> last = new AtomicReference<>();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    AtomicLong refreshes = new AtomicLong();
    AtomicLong opsDone = new AtomicLong();
    AtomicBoolean done = new AtomicBoolean();
    Object settingsLock = new Object();
    Random seeds = new Random(seed);
    refresh(ledger, new Random(seeds.nextLong()), last, refreshes, settingsLock);

    CyclicBarrier start = new CyclicBarrier(WORKERS + 1);
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < WORKERS; w++) {
      long workerSeed = seeds.nextLong();
      threads.add(new Thread(() -> {
        try {
          start.await();
          work(ledger, new Random(workerSeed), ops, last, refreshes, settingsLock);
          opsDone.addAndGet(ops);
        } catch (Throwable t) {
          failure.compareAndSet(null, t);
        }
      }, "stress-worker-" + w));
    }
    long refresherSeed = seeds.nextLong();
    Thread refresher = new Thread(() -> {
      Random rnd = new Random(refresherSeed);
      try {
        start.await();
        while (!done.get()) {
          refresh(ledger, rnd, last, refreshes, settingsLock);
          Thread.yield();
        }
      } catch (Throwable t) {
        failure.compareAndSet(null, t);
      }
    }, "stress-refresher");
    for (Thread t : threads) {
      t.start();
    }
    refresher.start();
    for (Thread t : threads) {
      t.join(TimeUnit.MINUTES.toMillis(50));
      assertFalse(t.getName() + " ended", t.isAlive());
    }
    done.set(true);
    refresher.join(TimeUnit.MINUTES.toMillis(1));
    assertFalse("the refresher ended", refresher.isAlive());
    assertNull("seed " + seed + ": " + failure.get(), failure.get());

    String what = "seed " + seed + ": " + ledger.admitted + " admitted, " + ledger.refused
      + " refused, " + refreshes.get() + " refreshes";
    LOG.info("Quota refresh stress, {}", what);
    // Behaviour, not speed: the workers ran every operation, and refreshes did land among them.
    assertTrue(what + ", operations " + opsDone.get(), opsDone.get() == (long) WORKERS * ops);
    assertTrue(what, ledger.admitted > 0 && ledger.refused > 0);
    assertTrue(what, refreshes.get() >= (long) WORKERS * ops / 100);
    ledger.checkAccounts();
    ledger.checkBook(last.get());
  }

  private static void refresh(QuotaLedger ledger, Random rnd,
    AtomicReference<List<QuotaEntry>> last, AtomicLong refreshes, Object settingsLock)
    throws Exception {
    List<QuotaEntry> settings = QuotaLedger.randomSettings(rnd, true);
    boolean exceed = rnd.nextInt(4) == 0;
    // The book serializes refreshes itself; the lock only keeps "last" the one published last.
    synchronized (settingsLock) {
      ledger.book.refresh(() -> new QuotaTableReader.Contents(settings, exceed));
      last.set(settings);
    }
    refreshes.incrementAndGet();
  }

  /**
   * One worker: {@code ops} operations, each admitting a new request or closing one in flight
   * (up to 8 held at once, so refreshes land between admissions and closes), and every 50th a
   * refresh of its own.
   */
  private static void work(QuotaLedger ledger, Random rnd, int ops,
    AtomicReference<List<QuotaEntry>> last, AtomicLong refreshes, Object settingsLock)
    throws Exception {
    List<QuotaLedger.Request> inFlight = new ArrayList<>();
    for (int op = 0; op < ops; op++) {
      if (op % 50 == 49) {
        refresh(ledger, rnd, last, refreshes, settingsLock);
      }
      if (inFlight.size() < 8 && (inFlight.isEmpty() || rnd.nextBoolean())) {
        QuotaLedger.Request r = ledger.new Request(rnd);
        if (r.admit(QuotaLedger.USERS[rnd.nextInt(QuotaLedger.USERS.length)],
          rnd.nextBoolean() ? QuotaLedger.T0 : QuotaLedger.T1)) {
          inFlight.add(r);
        }
      } else {
        inFlight.remove(rnd.nextInt(inFlight.size())).close();
      }
    }
    for (QuotaLedger.Request r : inFlight) {
      r.close();
    }
  }
}
