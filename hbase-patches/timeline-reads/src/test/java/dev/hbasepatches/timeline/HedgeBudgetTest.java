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

import org.junit.Test;

public class HedgeBudgetTest {

  @Test
  public void grantsAtMostRatioTimesReadsPlusBurst() {
    HedgeBudget b = new HedgeBudget(0.05, 10);
    int granted = 0;
    int reads = 10_000;
    for (int i = 0; i < reads; i++) {
      b.earn();
      // a sick cluster: every read wants a hedge
      if (b.tryAcquire()) {
        granted++;
      }
    }
    assertTrue("granted " + granted, granted <= 0.05 * reads + 10);
    assertTrue("granted " + granted, granted >= 0.05 * reads);
  }

  @Test
  public void burstIsAvailableAtOnceAndThenRunsOut() {
    HedgeBudget b = new HedgeBudget(0.0, 3);
    assertTrue(b.tryAcquire());
    assertTrue(b.tryAcquire());
    assertTrue(b.tryAcquire());
    assertFalse(b.tryAcquire());
    b.earn();
    assertFalse(b.tryAcquire());
  }

  @Test
  public void neverHoldsMoreThanTheBurst() {
    HedgeBudget b = new HedgeBudget(0.5, 2);
    for (int i = 0; i < 100; i++) {
      b.earn();
    }
    assertEquals(2.0, b.available(), 1e-9);
  }

  @Test(expected = IllegalArgumentException.class)
  public void refusesARatioOfOne() {
    new HedgeBudget(1.0, 10);
  }
}
