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
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import org.apache.hadoop.conf.Configuration;
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
}
