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
package org.apache.hadoop.hbase.io.hfile;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import dev.hbasepatches.checksum.ChecksumConfig;
import dev.hbasepatches.checksum.CrcEngine;
import org.apache.hadoop.conf.Configuration;
import org.junit.Test;

/** How the overlay reads its settings (in HBase's package: the method is package-private). */
public class TestChecksumUtilSettings {

  @Test
  public void defaultsRouteThroughTheIntrinsicChecksummer() {
    assertEquals(CrcEngine.INTRINSIC, ChecksumUtil.fromSettings(new Configuration(false)).engine());
  }

  @Test
  public void engineIsConfigurable() {
    Configuration conf = new Configuration(false);
    conf.set(ChecksumConfig.ENGINE_KEY, "pure-java");
    assertEquals(CrcEngine.PURE_JAVA, ChecksumUtil.fromSettings(conf).engine());
  }

  @Test
  public void switchedOffMeansTheStockPath() {
    Configuration conf = new Configuration(false);
    conf.setBoolean(ChecksumConfig.ENABLED_KEY, false);
    assertNull(ChecksumUtil.fromSettings(conf));
  }

  @Test
  public void systemPropertyWinsOverTheFile() {
    Configuration conf = new Configuration(false);
    System.setProperty(ChecksumConfig.ENABLED_KEY, "false");
    try {
      assertNull(ChecksumUtil.fromSettings(conf));
    } finally {
      System.clearProperty(ChecksumConfig.ENABLED_KEY);
    }
  }

  @Test
  public void anEnabledValueThatIsNotABooleanIsRefusedNotReadAsOn() {
    // Hadoop's getBoolean reads "no" as "unset", which used to leave the overlay on.
    for (String bad : new String[] { "no", "off", "0", "ture", "" }) {
      Configuration conf = new Configuration(false);
      conf.set(ChecksumConfig.ENABLED_KEY, bad);
      assertNull(bad, ChecksumUtil.fromSettings(conf));
    }
    Configuration conf = new Configuration(false);
    conf.set(ChecksumConfig.ENABLED_KEY, " TRUE ");
    assertEquals(CrcEngine.INTRINSIC, ChecksumUtil.fromSettings(conf).engine());
  }

  @Test
  public void invalidSettingsFallBackToTheStockPathInsteadOfFailing() {
    Configuration conf = new Configuration(false);
    conf.set(ChecksumConfig.ENGINE_KEY, "no-such-engine");
    assertNull(ChecksumUtil.fromSettings(conf));
  }
}
