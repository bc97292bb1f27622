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
package dev.hbasepatches.checksum;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import org.apache.hadoop.conf.Configuration;
import org.junit.Test;

/** The module's keys are read strictly: a value Hadoop's getBoolean cannot parse is refused. */
public class TestChecksumConfig {

  private static Configuration with(String key, String value) {
    Configuration conf = new Configuration(false);
    conf.set(key, value);
    return conf;
  }

  @Test
  public void enabledDefaultsToOnAndReadsTrueAndFalseInAnyCase() {
    assertTrue(ChecksumConfig.enabled(new Configuration(false)));
    assertTrue(ChecksumConfig.enabled(with(ChecksumConfig.ENABLED_KEY, "True")));
    assertFalse(ChecksumConfig.enabled(with(ChecksumConfig.ENABLED_KEY, " false ")));
  }

  @Test
  public void enabledRefusesWhatIsNotABooleanAndNamesKeyAndValue() {
    for (String bad : new String[] { "no", "yes", "off", "0", "1", "" }) {
      IllegalArgumentException e = assertThrows(bad, IllegalArgumentException.class,
        () -> ChecksumConfig.enabled(with(ChecksumConfig.ENABLED_KEY, bad)));
      assertTrue(e.getMessage(), e.getMessage().contains(ChecksumConfig.ENABLED_KEY));
      assertTrue(e.getMessage(), e.getMessage().contains("'" + bad + "'"));
    }
  }

  @Test
  public void strictNullSlotsKeyIsReadStrictlyToo() {
    assertThrows(IllegalArgumentException.class, () -> ChecksumConfig
      .checksummer(with(ChecksumConfig.NULL_SLOTS_MUST_BE_ZERO_KEY, "no")));
    assertEquals(CrcEngine.INTRINSIC, ChecksumConfig
      .checksummer(with(ChecksumConfig.NULL_SLOTS_MUST_BE_ZERO_KEY, "false")).engine());
  }
}
