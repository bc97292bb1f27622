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

import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.yetus.audience.InterfaceAudience;

/** How a {@link TimelineReader} serves reads that ask for {@code Consistency.TIMELINE}. */
@InterfaceAudience.Public
public enum TimelineMode {
  /** Every read goes to the primary replica, as STRONG: the world before region replicas. */
  BASELINE,
  /** HBase 2.6.1's own TIMELINE read: fixed primary timeout, then every secondary at once. */
  UPSTREAM,
  /** This module: an adaptive delay, one secondary at a time, on a budget. */
  PATCHED;

  /** Which mode the reader runs in; PATCHED when unset. */
  public static final String KEY = "hbasepatches.timeline.mode";

  /** Reads {@link #KEY}, refusing anything but the three names (case-insensitive). */
  public static TimelineMode from(Configuration conf) {
    String raw = conf.get(KEY);
    if (raw == null || raw.trim().isEmpty()) {
      return PATCHED;
    }
    try {
      return valueOf(raw.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
        KEY + "=" + raw + " is not a mode; use BASELINE, UPSTREAM or PATCHED", e);
    }
  }
}
