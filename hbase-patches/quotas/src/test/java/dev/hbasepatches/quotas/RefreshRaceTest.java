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
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.hbase.quotas.ThrottleType;
import org.junit.Test;

/**
 * Quota refreshes that land while requests are in flight (admitted, not yet closed): raised,
 * lowered, zeroed, dropped and re-added limits, refused rows, exceed-throttle switched. Each case
 * ends with the module's invariants checked: every limiter charged exactly the real cost of what
 * it admitted, nothing for refusals, and the snapshot in place holding the last settings.
 */
public class RefreshRaceTest {

  private static final long SEED = 0x5eed_2026_1128L;

  /**
   * One thread, many interleavings: each round refreshes to random settings, admits a few new
   * requests and closes a random few of those in flight, so most requests see one or more
   * refreshes between their admission and their close.
   */
  @Test
  public void refreshesBetweenAdmissionAndClose() throws Exception {
    for (long seed = SEED; seed < SEED + 5; seed++) {
      Random rnd = new Random(seed);
      QuotaLedger ledger = new QuotaLedger();
      List<QuotaLedger.Request> inFlight = new ArrayList<>();
      List<QuotaEntry> last = null;
      for (int round = 0; round < 300; round++) {
        last = QuotaLedger.randomSettings(rnd, true);
        List<QuotaEntry> settings = last;
        ledger.book.refresh(() -> new QuotaTableReader.Contents(settings, rnd.nextInt(4) == 0));
        for (int i = rnd.nextInt(6); i > 0; i--) {
          QuotaLedger.Request r = ledger.new Request(rnd);
          if (r.admit(QuotaLedger.USERS[rnd.nextInt(QuotaLedger.USERS.length)],
            rnd.nextBoolean() ? QuotaLedger.T0 : QuotaLedger.T1)) {
            inFlight.add(r);
          }
        }
        for (int i = rnd.nextInt(6); i > 0 && !inFlight.isEmpty(); i--) {
          inFlight.remove(rnd.nextInt(inFlight.size())).close();
        }
      }
      for (QuotaLedger.Request r : inFlight) {
        r.close();
      }
      String what = "seed " + seed + ": " + ledger.admitted + " admitted, " + ledger.refused
        + " refused";
      assertTrue(what, ledger.admitted > 100 && ledger.refused > 100);
      ledger.checkAccounts();
      ledger.checkBook(last);
    }
  }

  /**
   * Two threads, the refresh exactly between one request's admission and its close: a 100-read
   * multi-get admitted under 10 reads a second, re-rated to 1000 by a refresh on another thread,
   * then closed, pays 100; one admitted under 1000 and lowered to 10 pays 100 too; one whose
   * limit the refresh removes settles with the limiter it took from, and the limit set again
   * afterwards starts fresh.
   */
  @Test(timeout = 60_000)
  public void refreshOnAnotherThreadWhileARequestRuns() throws Exception {
    QuotaLedger ledger = new QuotaLedger();
    ledger.book.refresh(() -> contents(QuotaEntry.user("u0", QuotaBookTest.reqNum(10,
      TimeUnit.SECONDS)), QuotaEntry.user("u1", QuotaBookTest.reqNum(1000, TimeUnit.SECONDS)),
      QuotaEntry.user("u2", QuotaBookTest.reqNum(1000, TimeUnit.SECONDS))));
    CountingLimit u0 = limit(ledger, "u0");
    CountingLimit u1 = limit(ledger, "u1");
    CountingLimit u2 = limit(ledger, "u2");
    PacedOperationQuota raised = admitReads(ledger, "u0", 100);
    PacedOperationQuota lowered = admitReads(ledger, "u1", 100);
    PacedOperationQuota dropped = admitReads(ledger, "u2", 100);
    assertEquals(10, u0.used);
    assertEquals(100, u1.used);

    CountDownLatch refreshed = new CountDownLatch(1);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread refresher = new Thread(() -> {
      try {
        ledger.book.refresh(() -> contents(
          QuotaEntry.user("u0", QuotaBookTest.reqNum(1000, TimeUnit.SECONDS)),
          QuotaEntry.user("u1", QuotaBookTest.reqNum(10, TimeUnit.SECONDS))));
      } catch (Throwable t) {
        failure.set(t);
      } finally {
        refreshed.countDown();
      }
    });
    refresher.start();
    assertTrue(refreshed.await(30, TimeUnit.SECONDS));
    refresher.join(30_000);
    assertFalse("the refresher ended", refresher.isAlive());
    assertNull(failure.get());
    assertEquals(1000, u0.units());
    assertEquals(10, u1.units());
    assertNull("u2's limit is gone", ledger.book.current().user("u2"));

    raised.close();
    lowered.close();
    dropped.close();
    assertEquals("raised in flight: pays its 100", 100, u0.used);
    assertEquals("lowered in flight: pays its 100, not 190", 100, u1.used);
    assertEquals("dropped in flight: settled with the limiter it took from", 100, u2.used);

    ledger.book.refresh(() -> contents(
      QuotaEntry.user("u2", QuotaBookTest.reqNum(1000, TimeUnit.SECONDS))));
    CountingLimit again = limit(ledger, "u2");
    assertEquals("set again: a fresh limiter", 0, again.used);
    assertFalse(again == u2);
  }

  private static PacedOperationQuota admitReads(QuotaLedger ledger, String user, int reads)
    throws Exception {
    PacedOperationQuota q = (PacedOperationQuota) ledger.router.route(ledger.book.current(), user,
      QuotaLedger.T1, QuotaLedger.BLOCK);
    q.checkBatchQuota(0, reads, false);
    return q;
  }

  private static CountingLimit limit(QuotaLedger ledger, String user) {
    return (CountingLimit) ledger.book.current().user(user).global()
      .limit(ThrottleType.REQUEST_NUMBER);
  }

  private static QuotaTableReader.Contents contents(QuotaEntry... e) {
    return new QuotaTableReader.Contents(Arrays.asList(e), false);
  }
}
