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

import java.util.Arrays;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * Which SEEK-vs-SKIP behaviour a store scanner uses. Read from {@link #MODE_KEY}, which a column
 * family can override in its own configuration (the store's configuration already layers family
 * over table over site).
 */
@InterfaceAudience.LimitedPrivate(org.apache.hadoop.hbase.HBaseInterfaceAudience.CONFIG)
public enum SeekSkipMode {
  /** Always act on the SEEK the query matcher asks for: HBase before HBASE-13109. */
  BASELINE,
  /** This module's bounded, adaptive skipping. */
  PATCHED,
  /** The stock StoreScanner heuristic HBase 2.6 ships, untouched. */
  UPSTREAM;

  /** Config key: BASELINE, PATCHED or UPSTREAM (case-insensitive). */
  public static final String MODE_KEY = "hbasepatches.seekskip.mode";
  public static final SeekSkipMode DEFAULT_MODE = PATCHED;

  /**
   * Parses a mode name. Refuses anything else with a message that names the key, the bad value
   * and the choices, so a typo in hbase-site.xml fails the region open instead of silently
   * changing behaviour.
   */
  public static SeekSkipMode parse(String value) {
    if (value == null || value.trim().isEmpty()) {
      return DEFAULT_MODE;
    }
    try {
      return valueOf(value.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Bad value '" + value + "' for " + MODE_KEY
        + "; expected one of " + Arrays.toString(values()), e);
    }
  }

  public static SeekSkipMode from(Configuration conf) {
    return parse(conf.get(MODE_KEY));
  }
}
