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
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.quotas.QuotaUtil;
import org.junit.Test;

public class QuotaModeTest {

  @Test
  public void parsesEveryModeInAnyCase() {
    assertEquals(QuotaMode.BASELINE, QuotaMode.parse("baseline"));
    assertEquals(QuotaMode.PATCHED, QuotaMode.parse(" Patched "));
    assertEquals(QuotaMode.UPSTREAM, QuotaMode.parse("UPSTREAM"));
  }

  @Test
  public void missingOrEmptyMeansPatched() {
    assertEquals(QuotaMode.PATCHED, QuotaMode.parse(null));
    assertEquals(QuotaMode.PATCHED, QuotaMode.parse("  "));
    assertEquals(QuotaMode.PATCHED, QuotaMode.from(new Configuration(false)));
  }

  @Test
  public void readsTheKeyFromTheConfiguration() {
    Configuration conf = new Configuration(false);
    conf.set("hbasepatches.quotas.mode", "upstream");
    assertEquals(QuotaMode.UPSTREAM, QuotaMode.from(conf));
  }

  @Test
  public void badValueNamesTheKeyTheValueAndTheChoices() {
    try {
      QuotaMode.parse("fast");
      fail("a bad mode must be refused");
    } catch (IllegalArgumentException e) {
      String m = e.getMessage();
      assertTrue(m, m.contains("hbasepatches.quotas.mode"));
      assertTrue(m, m.contains("'fast'"));
      assertTrue(m, m.contains("BASELINE") && m.contains("PATCHED") && m.contains("UPSTREAM"));
    }
  }

  private static String startFailure(Configuration conf) {
    try {
      new ThrottlingRegionServer(conf);
      fail("the server must not start with " + conf.get(QuotaUtil.READ_CAPACITY_UNIT_CONF_KEY)
        + " / " + conf.get(QuotaUtil.WRITE_CAPACITY_UNIT_CONF_KEY));
      return null;
    } catch (IllegalArgumentException e) {
      return e.getMessage();
    } catch (Exception e) {
      throw new AssertionError("not the clear configuration error expected", e);
    }
  }

  /**
   * A capacity unit that is not a positive number of bytes stops the RegionServer at start,
   * naming the key and the value, before it binds a port or reaches ZooKeeper (HBase's own
   * manager would fail every request with a division by zero instead). Only with quotas on:
   * with them off the keys are not used.
   */
  @Test(timeout = 60_000)
  public void badCapacityUnitStopsTheServerNamingTheKey() throws Exception {
    for (String mode : new String[] { "PATCHED", "UPSTREAM" }) {
      Configuration conf = HBaseConfiguration.create();
      conf.setBoolean(QuotaUtil.QUOTA_CONF_KEY, true);
      conf.set(QuotaMode.MODE_KEY, mode);
      conf.set(QuotaUtil.READ_CAPACITY_UNIT_CONF_KEY, "0");
      String m = startFailure(conf);
      assertTrue(m, m.contains(QuotaUtil.READ_CAPACITY_UNIT_CONF_KEY) && m.contains("0"));

      conf.unset(QuotaUtil.READ_CAPACITY_UNIT_CONF_KEY);
      conf.set(QuotaUtil.WRITE_CAPACITY_UNIT_CONF_KEY, "1kb");
      m = startFailure(conf);
      assertTrue(m, m.contains(QuotaUtil.WRITE_CAPACITY_UNIT_CONF_KEY) && m.contains("'1kb'"));
    }
    Configuration off = HBaseConfiguration.create();
    off.setBoolean(QuotaUtil.QUOTA_CONF_KEY, false);
    off.set(QuotaUtil.READ_CAPACITY_UNIT_CONF_KEY, "0");
    assertSame(off, ThrottlingRegionServer.checkedBeforeStart(off));
  }

  /** A mode that is not one stops the RegionServer at start, quotas on or off, naming it. */
  @Test
  public void aBadModeStopsTheServerNamingKeyAndValue() throws Exception {
    for (boolean quotas : new boolean[] { true, false }) {
      Configuration conf = HBaseConfiguration.create();
      conf.setBoolean(QuotaUtil.QUOTA_CONF_KEY, quotas);
      conf.set(QuotaMode.MODE_KEY, "fastest");
      String m = startFailure(conf);
      assertTrue(m, m.contains(QuotaMode.MODE_KEY) && m.contains("'fastest'")
        && m.contains("PATCHED"));
    }
  }
}
