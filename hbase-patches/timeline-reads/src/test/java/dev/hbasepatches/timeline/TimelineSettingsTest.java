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
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import org.apache.hadoop.conf.Configuration;
import org.junit.Test;

public class TimelineSettingsTest {

  private static void refused(String key, String value, String expectedWords) {
    Configuration conf = new Configuration(false);
    conf.set(key, value);
    try {
      if (key.equals(TimelineMode.KEY)) {
        TimelineMode.from(conf);
      } else {
        TimelineSettings.from(conf);
      }
      fail(key + "=" + value + " was accepted");
    } catch (IllegalArgumentException e) {
      String m = e.getMessage();
      assertTrue(m, m.contains(key) && m.contains(value) && m.contains(expectedWords));
    }
  }

  @Test
  public void badValuesAreRefusedNamingKeyAndValue() {
    refused(TimelineMode.KEY, "FAST", "BASELINE, UPSTREAM or PATCHED");
    refused(TimelineSettings.HEDGE_QUANTILE, "1.5", "fraction");
    refused(TimelineSettings.HEDGE_QUANTILE, "0", "fraction");
    refused(TimelineSettings.HEDGE_QUANTILE, "p99", "not a number");
    refused(TimelineSettings.DELAY_MIN_MS, "-1", "above 0");
    refused(TimelineSettings.DELAY_MIN_MS, "20", "is above " + TimelineSettings.DELAY_MAX_MS);
    refused(TimelineSettings.DELAY_MAX_MS, "NaN", "not a number");
    refused(TimelineSettings.HEDGE_CAP_MS, "5", "is below " + TimelineSettings.DELAY_MAX_MS);
    refused(TimelineSettings.BUDGET_RATIO, "1", "fraction");
    refused(TimelineSettings.BUDGET_BURST, "0.5", "at least 1");
    refused(TimelineSettings.BUDGET_BURST, "1e300", "at most 1000000");
    refused(TimelineSettings.BUDGET_BURST, "-1", "above 0");
    refused(TimelineSettings.BUDGET_RATIO, "-0.1", "fraction");
    refused(TimelineSettings.HEDGE_CAP_MS, "3600001", "over an hour");
    refused(TimelineSettings.WINDOW, "65537", "[8, 65536]");
    refused(TimelineSettings.WINDOW, "9223372036854775807", "whole number");
    refused(TimelineSettings.SCAN_ROWS, "-1", "[1, 1000000]");
    refused(TimelineSettings.DEMOTE_LOSS_RATIO, "1", "fraction");
    refused(TimelineSettings.WINDOW, "4", "[8, 65536]");
    refused(TimelineSettings.WINDOW, "1e3", "whole number");
    refused(TimelineSettings.DEMOTE_MIN_READS, "1000", "[1, 128]");
    refused(TimelineSettings.DEMOTE_STREAK, "0", "[1, 128]");
    refused(TimelineSettings.DEMOTE_PERIOD_MS, "0", "above 0");
    refused(TimelineSettings.RELOCATE_MS, "99999999", "over an hour");
    refused(TimelineSettings.SECONDARY_PAUSE_MS, "0", "above 0");
    refused(TimelineSettings.SECONDARY_PAUSE_MS, "5ms", "not a number");
    refused(TimelineSettings.SCAN_ROWS, "0", "[1, 1000000]");
  }

  @Test
  public void defaultsAreTheDocumentedOnes() {
    TimelineSettings s = TimelineSettings.defaults();
    assertEquals(0.99, s.quantile, 0);
    assertEquals(1_000_000L, s.delayMinNanos);
    assertEquals(10_000_000L, s.delayMaxNanos);
    assertEquals(50_000_000L, s.capNanos);
    assertEquals(0.05, s.budgetRatio, 0);
    assertEquals(10.0, s.budgetBurst, 0);
    assertEquals(3, s.demoteStreak);
    assertEquals(100, s.scanRows);
    assertEquals(5_000_000L, s.secondaryPauseNanos);
    assertEquals(TimelineMode.PATCHED, TimelineMode.from(new Configuration(false)));
  }

  @Test
  public void modeNamesAreCaseInsensitive() {
    Configuration conf = new Configuration(false);
    conf.set(TimelineMode.KEY, " upstream ");
    assertEquals(TimelineMode.UPSTREAM, TimelineMode.from(conf));
  }

  /** The largest values accepted still make a working policy: no overflow at the edges. */
  @Test
  public void theLargestAcceptedValuesStillWork() {
    Configuration conf = new Configuration(false);
    conf.set(TimelineSettings.BUDGET_BURST, "1000000");
    conf.set(TimelineSettings.BUDGET_RATIO, "0.999999");
    conf.set(TimelineSettings.DELAY_MAX_MS, "3600000");
    conf.set(TimelineSettings.HEDGE_CAP_MS, "3600000");
    conf.set(TimelineSettings.DEMOTE_PERIOD_MS, "3600000");
    conf.set(TimelineSettings.WINDOW, "65536");
    conf.set(TimelineSettings.DEMOTE_MIN_READS, "65536");
    conf.set(TimelineSettings.DEMOTE_STREAK, "65536");
    conf.set(TimelineSettings.SCAN_ROWS, "1000000");
    HedgePolicy p = new HedgePolicy(TimelineSettings.from(conf));
    org.apache.hadoop.hbase.ServerName[] servers = {
      org.apache.hadoop.hbase.ServerName.valueOf("a.example", 16020, 1),
      org.apache.hadoop.hbase.ServerName.valueOf("b.example", 16020, 1) };
    for (int i = 0; i < 3; i++) {
      assertTrue(p.admitHedge(0));
      p.plan(servers, i);
    }
    assertEquals(1_000_000.0, p.budgetAvailable(), 1e-3);
    assertEquals(3_600_000_000_000L, p.plan(servers, 4).delayNanos);

    conf.set(TimelineSettings.BUDGET_RATIO, "0.03"); // earnings that do not divide a token
    p = new HedgePolicy(TimelineSettings.from(conf));
    assertTrue(p.admitHedge(0));
    for (int i = 0; i < 100; i++) {
      p.plan(servers, i);
      assertTrue("tokens " + p.budgetAvailable(), p.budgetAvailable() <= 1_000_000.0);
      assertTrue("tokens " + p.budgetAvailable(), p.budgetAvailable() >= 999_999.0);
    }
  }
}
