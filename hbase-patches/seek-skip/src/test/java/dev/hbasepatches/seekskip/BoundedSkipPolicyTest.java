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
package dev.hbasepatches.seekskip;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import dev.hbasepatches.seekskip.SeekPolicy.Target;
import org.apache.hadoop.conf.Configuration;
import org.junit.Test;

public class BoundedSkipPolicyTest {

  @Test
  public void grantsFullBudgetWhileRequestsAreMet() {
    BoundedSkipPolicy p = new BoundedSkipPolicy(4);
    for (int i = 0; i < 100; i++) {
      assertEquals(4, p.skipBudget(Target.NEXT_COLUMN));
      p.skipped(Target.NEXT_COLUMN, 1);
    }
    SeekDecisions d = new SeekDecisions();
    p.drainTo(d);
    assertEquals(100, d.skips());
    assertEquals(0, d.seeks());
    assertEquals(100, d.skippedCells());
  }

  @Test
  public void repeatedGiveUpsTurnToImmediateSeeksWithPeriodicProbes() {
    BoundedSkipPolicy p = new BoundedSkipPolicy(4);
    // Two give-ups take the credit below zero.
    p.skipBudget(Target.NEXT_ROW);
    p.sought(Target.NEXT_ROW, 4, true);
    int granted = 0;
    int asked = 0;
    for (int i = 0; i < 10 * BoundedSkipPolicy.PROBE_INTERVAL; i++) {
      asked++;
      int budget = p.skipBudget(Target.NEXT_ROW);
      if (budget > 0) {
        granted++;
        p.sought(Target.NEXT_ROW, budget, true);
      } else {
        p.sought(Target.NEXT_ROW, 0, false);
      }
    }
    assertEquals("one probe per interval", asked / BoundedSkipPolicy.PROBE_INTERVAL, granted);
  }

  @Test
  public void aSuccessfulProbeRestoresSkipping() {
    BoundedSkipPolicy p = new BoundedSkipPolicy(4);
    p.sought(Target.NEXT_ROW, 4, true);
    int i = 0;
    while (p.skipBudget(Target.NEXT_ROW) == 0) {
      p.sought(Target.NEXT_ROW, 0, false);
      assertTrue("a probe must come within one interval", ++i <= BoundedSkipPolicy.PROBE_INTERVAL);
    }
    p.skipped(Target.NEXT_ROW, 2);
    p.skipped(Target.NEXT_ROW, 2);
    assertEquals(4, p.skipBudget(Target.NEXT_ROW));
  }

  @Test
  public void rowsAndColumnsLearnApart() {
    BoundedSkipPolicy p = new BoundedSkipPolicy(3);
    for (int i = 0; i < 5; i++) {
      p.sought(Target.NEXT_ROW, 3, true);
    }
    assertEquals(3, p.skipBudget(Target.NEXT_COLUMN));
    assertEquals(0, p.skipBudget(Target.NEXT_ROW));
  }

  @Test
  public void indexDrivenSeeksDoNotCountAgainstSkipping() {
    BoundedSkipPolicy p = new BoundedSkipPolicy(4);
    for (int i = 0; i < 50; i++) {
      p.sought(Target.NEXT_COLUMN, 1, false);
    }
    assertEquals(4, p.skipBudget(Target.NEXT_COLUMN));
  }

  @Test
  public void zeroBudgetMeansAlwaysSeek() {
    BoundedSkipPolicy p = new BoundedSkipPolicy(0);
    assertEquals(0, p.skipBudget(Target.NEXT_ROW));
    assertEquals(0, p.skipBudget(Target.NEXT_COLUMN));
  }

  @Test
  public void badConfigurationIsRefusedWithTheKeyNamed() {
    Configuration conf = new Configuration(false);
    conf.set(BoundedSkipPolicy.MAX_SKIPS_KEY, "lots");
    IllegalArgumentException e =
      assertThrows(IllegalArgumentException.class, () -> BoundedSkipPolicy.from(conf));
    assertTrue(e.getMessage(), e.getMessage().contains(BoundedSkipPolicy.MAX_SKIPS_KEY));
    conf.set(BoundedSkipPolicy.MAX_SKIPS_KEY, "-1");
    e = assertThrows(IllegalArgumentException.class, () -> BoundedSkipPolicy.from(conf));
    assertTrue(e.getMessage(), e.getMessage().contains(">= 0"));
    conf.set(BoundedSkipPolicy.MAX_SKIPS_KEY, " 7 ");
    assertEquals(7, BoundedSkipPolicy.from(conf).maxSkips());
  }

  @Test
  public void modeParsingIsStrictAndNamesTheChoices() {
    assertEquals(SeekSkipMode.PATCHED, SeekSkipMode.parse(null));
    assertEquals(SeekSkipMode.BASELINE, SeekSkipMode.parse(" baseline "));
    IllegalArgumentException e =
      assertThrows(IllegalArgumentException.class, () -> SeekSkipMode.parse("PATCH"));
    assertTrue(e.getMessage(), e.getMessage().contains(SeekSkipMode.MODE_KEY));
    assertTrue(e.getMessage(), e.getMessage().contains("UPSTREAM"));
  }

  @Test
  public void alwaysSeekNeverGrantsASkip() {
    AlwaysSeekPolicy p = new AlwaysSeekPolicy();
    assertEquals(0, p.skipBudget(Target.NEXT_ROW));
    p.sought(Target.NEXT_ROW, 0, false);
    p.sought(Target.NEXT_COLUMN, 0, false);
    SeekDecisions d = new SeekDecisions();
    p.drainTo(d);
    assertEquals(2, d.seeks());
    assertEquals(0, d.skips());
    assertThrows(IllegalStateException.class, () -> p.skipped(Target.NEXT_ROW, 1));
  }
}
