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
package dev.hbasepatches.localindex;

import java.util.Arrays;
import java.util.Locale;
import org.apache.hadoop.hbase.HBaseInterfaceAudience;
import org.apache.yetus.audience.InterfaceAudience;

/** Which regions a LOCAL index query asks, chosen by {@link #MODE_KEY}. */
@InterfaceAudience.LimitedPrivate(HBaseInterfaceAudience.CONFIG)
public enum LocalIndexMode {
  /** Every region of the table: the behaviour before PHOENIX-3941 and PHOENIX-5096. */
  BASELINE,
  /** This module's pruner: binary search per data key range, then Phoenix's own check. */
  PATCHED,
  /** Phoenix 5.2.1 as shipped: its region walk inside {@code BaseResultIterators}. */
  UPSTREAM;

  /** Config key (connection property): BASELINE, PATCHED or UPSTREAM, case-insensitive. */
  public static final String MODE_KEY = "hbasepatches.localindex.mode";
  public static final LocalIndexMode DEFAULT_MODE = PATCHED;

  /** Parses a mode name; empty or missing is {@link #DEFAULT_MODE}, anything else is refused. */
  public static LocalIndexMode parse(String value) {
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
}
