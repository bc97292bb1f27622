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

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.Random;
import org.junit.Test;

public class PrimaryHealthTest {

  private static final long MS = 1_000_000L;

  @Test
  public void aPrimaryThatAlwaysLosesIsDemotedAfterTheMinimumReads() {
    PrimaryHealth h = new PrimaryHealth(20, 0.5, 20, 5000 * MS);
    for (int i = 0; i < 19; i++) {
      h.record(true, true, false, i * MS);
      assertFalse("demoted after " + (i + 1) + " reads", h.isDemoted(i * MS));
    }
    h.record(true, true, false, 19 * MS);
    assertTrue(h.isDemoted(19 * MS));
  }

  @Test
  public void aServerThatStopsAnsweringIsDemotedWithinTheWindowEvenAfterALongHealthyRun() {
    PrimaryHealth h = new PrimaryHealth(20, 0.5, 20, 5000 * MS);
    for (int i = 0; i < 1000; i++) {
      h.record(false, false, false, i * MS);
    }
    for (int i = 0; i < 9; i++) {
      h.record(true, true, false, 1000 * MS);
      assertFalse(h.isDemoted(1000 * MS));
    }
    h.record(true, true, false, 1000 * MS);
    assertTrue(h.isDemoted(1000 * MS));
  }

  @Test
  public void aRunOfLossesDemotesAtOnceButAnInterruptedOneDoesNot() {
    PrimaryHealth h = new PrimaryHealth(20, 0.5, 3, 5000 * MS);
    for (int i = 0; i < 1000; i++) {
      h.record(i % 5 == 0, i % 5 == 0, false, i * MS); // a loss every fifth read: 20% lost
    }
    assertFalse(h.isDemoted(1000 * MS));
    h.record(true, true, false, 1001 * MS);
    h.record(true, true, false, 1001 * MS);
    h.record(false, false, false, 1001 * MS);
    h.record(true, true, false, 1002 * MS);
    h.record(true, true, false, 1002 * MS);
    assertFalse("two in a row, twice", h.isDemoted(1002 * MS));
    h.record(true, true, false, 1002 * MS);
    assertTrue("three in a row", h.isDemoted(1002 * MS));
    assertFalse(h.isDemoted(6002 * MS));
    h.record(true, true, false, 6003 * MS); // the streak starts again after the demotion
    h.record(true, true, false, 6003 * MS);
    assertFalse(h.isDemoted(6003 * MS));
  }

  @Test
  public void lateAnswersDemoteOnlyAPrimarySlowerThanTheClamp() {
    PrimaryHealth busy = new PrimaryHealth(20, 0.5, 20, 5000 * MS);
    PrimaryHealth slow = new PrimaryHealth(20, 0.5, 20, 5000 * MS);
    for (int i = 0; i < 20; i++) {
      busy.record(false, true, false, i * MS); // late, but so is everything on a busy machine
      slow.record(false, true, true, i * MS); // late, and its quantile is above the clamp
    }
    assertFalse(busy.isDemoted(20 * MS));
    assertTrue(slow.isDemoted(20 * MS));
  }

  @Test
  public void occasionalPausesDoNotDemote() {
    PrimaryHealth h = new PrimaryHealth(20, 0.5, 20, 5000 * MS);
    Random rnd = new Random(42);
    for (int i = 0; i < 10_000; i++) {
      boolean paused = rnd.nextDouble() < 0.03;
      h.record(paused, paused, true, i * MS);
      assertFalse("demoted at read " + i + " (seed 42)", h.isDemoted(i * MS));
    }
  }

  @Test
  public void demotionEndsAfterItsPeriodWithACleanRecord() {
    PrimaryHealth h = new PrimaryHealth(10, 0.5, 10, 100 * MS);
    for (int i = 0; i < 10; i++) {
      h.record(true, true, false, 0);
    }
    assertTrue(h.isDemoted(99 * MS));
    assertFalse(h.isDemoted(100 * MS));
    // the old losses are forgotten: it takes minReads again
    for (int i = 0; i < 9; i++) {
      h.record(true, true, false, 101 * MS);
    }
    assertFalse(h.isDemoted(101 * MS));
    h.record(true, true, false, 101 * MS);
    assertTrue(h.isDemoted(101 * MS));
  }
}
