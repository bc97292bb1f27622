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
package dev.hbasepatches.testkit;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

public class BoundedTest {

  private static final String[] KEYS =
    { FuzzSeeds.SEED, FuzzSeeds.RANDOM, FuzzSeeds.RUNS, FuzzSeeds.CASE_SECONDS };
  private final Map<String, String> saved = new HashMap<>();

  /** The run's own settings (a replayed seed, the long profile) must not change these tests. */
  @Before
  public void clearProperties() {
    for (String k : KEYS) {
      saved.put(k, System.getProperty(k));
      System.clearProperty(k);
    }
  }

  @After
  public void restoreProperties() {
    for (String k : KEYS) {
      if (saved.get(k) == null) {
        System.clearProperty(k);
      } else {
        System.setProperty(k, saved.get(k));
      }
    }
  }

  @Test(timeout = 60_000)
  public void workThatEndsReturnsItsAnswer() throws Exception {
    assertEquals("done", Bounded.call("quick", Duration.ofSeconds(30), () -> "done"));
  }

  @Test(timeout = 60_000)
  public void whatTheWorkThrowsIsRethrownAsItIs() throws Exception {
    IOException thrown = new IOException("boom");
    try {
      Bounded.call("throws", Duration.ofSeconds(30), () -> {
        throw thrown;
      });
      fail("no exception");
    } catch (IOException e) {
      assertSame(thrown, e);
    }
  }

  @Test(timeout = 60_000)
  public void aLoopTimesOutNamingTheWorkItsProgressAndWhereItSpun() throws Exception {
    AtomicLong spins = new AtomicLong();
    AtomicBoolean ended = new AtomicBoolean();
    try {
      Bounded.call("spinner seed=7 table=2", Duration.ofMillis(300), progress -> {
        progress.at("read=5");
        try {
          while (true) {
            spinOnce(spins);
          }
        } finally {
          ended.set(true);
        }
      });
      fail("an endless loop finished");
    } catch (Bounded.TimedOut e) {
      assertTrue(e.getMessage(), e.getMessage().startsWith("spinner seed=7 table=2 did not"));
      assertTrue(e.getMessage(), e.getMessage().contains("last at: read=5"));
      // Where it spun: the loop's own frame (spinOnce itself may be inlined by the JIT).
      assertTrue(e.getMessage(), e.getMessage().contains("BoundedTest.lambda$"));
      assertTrue(e.getMessage(), e.getMessage().contains("within 300 ms"));
      assertEquals("read=5", e.lastProgress());
    }
    // On JDKs that still stop threads, the loop is ended (its finally runs).
    if (Runtime.version().feature() < 20) {
      long deadline = System.nanoTime() + 30_000_000_000L;
      while (!ended.get() && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertTrue("the spinning thread was not stopped", ended.get());
    }
  }

  private static void spinOnce(AtomicLong spins) {
    spins.incrementAndGet();
  }

  @Test
  public void aLimitMustBePositive() throws Exception {
    try {
      Bounded.call("x", Duration.ZERO, () -> null);
      fail("accepted a zero limit");
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("positive"));
    }
  }

  @Test
  public void seedsAreTheFixedListUnlessOneIsReplayedOrClockSeedsAsked() {
    assertArrayEquals(new long[] { 3, 5 }, FuzzSeeds.seeds(3, 5));
    System.setProperty(FuzzSeeds.SEED, " 42 ");
    assertArrayEquals(new long[] { 42 }, FuzzSeeds.seeds(3, 5));
    System.setProperty(FuzzSeeds.RANDOM, "true");
    assertArrayEquals("a replayed seed wins", new long[] { 42 }, FuzzSeeds.seeds(3, 5));
    System.clearProperty(FuzzSeeds.SEED);
    System.setProperty(FuzzSeeds.RUNS, "4");
    long[] clock = FuzzSeeds.seeds(3, 5);
    assertEquals(4, clock.length);
    for (long s : clock) {
      assertTrue(s >= 0);
      assertFalse(s == 3 || s == 5);
    }
  }

  @Test
  public void badSettingsAreRefusedByName() {
    System.setProperty(FuzzSeeds.SEED, "abc");
    try {
      FuzzSeeds.seeds(1);
      fail("accepted seed abc");
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().contains(FuzzSeeds.SEED));
    }
    System.clearProperty(FuzzSeeds.SEED);
    System.setProperty(FuzzSeeds.CASE_SECONDS, "0");
    try {
      FuzzSeeds.caseLimit();
      fail("accepted 0 s");
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().contains(FuzzSeeds.CASE_SECONDS));
    }
    System.clearProperty(FuzzSeeds.CASE_SECONDS);
    assertEquals(Duration.ofSeconds(300), FuzzSeeds.caseLimit());
  }
}
