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

import java.util.Arrays;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseInterfaceAudience;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * Which request throttling a {@link ThrottlingRegionServer} enforces. Read once, when the server
 * is built, from {@link #MODE_KEY}.
 */
@InterfaceAudience.LimitedPrivate(HBaseInterfaceAudience.CONFIG)
public enum QuotaMode {
  /** No request throttling at all, whatever {@code hbase:quota} holds. */
  BASELINE,
  /** This module's limiters ({@link PacedRpcQuotaManager}). */
  PATCHED,
  /**
   * HBase's own {@code RegionServerRpcQuotaManager}, untouched; its limiter class comes from
   * {@code hbase.quota.rate.limiter} (average-interval by default, or fixed-interval).
   */
  UPSTREAM;

  /** Config key: BASELINE, PATCHED or UPSTREAM (case-insensitive). */
  public static final String MODE_KEY = "hbasepatches.quotas.mode";
  public static final QuotaMode DEFAULT_MODE = PATCHED;

  /**
   * Parses a mode name; empty or missing means {@link #DEFAULT_MODE}. Anything else is refused
   * with a message naming the key, the bad value and the choices, so a typo fails the server at
   * start instead of silently dropping every throttle.
   */
  public static QuotaMode parse(String value) {
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

  public static QuotaMode from(Configuration conf) {
    return parse(conf.get(MODE_KEY));
  }
}
