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
package dev.hbasepatches.offheap;

import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.yetus.audience.InterfaceAudience;

/** Which read path the off-heap cache module runs; read from {@link #KEY}. */
@InterfaceAudience.LimitedPrivate("Configuration")
public enum OffHeapMode {
  /** The same off-heap cache, but every data-block hit is copied to a heap block (pre-HBASE-11425). */
  BASELINE,
  /** Blocks served straight from direct memory, reference counted, nothing allocated per hit. */
  PATCHED,
  /** HBase 2.6.1's own off-heap BucketCache behind the same plug-in. */
  UPSTREAM;

  public static final String KEY = "hbasepatches.offheap.mode";
  public static final OffHeapMode DEFAULT = PATCHED;

  /** The configured mode; an unknown value is refused with the key and value in the message. */
  public static OffHeapMode from(Configuration conf) {
    return parse(conf.get(KEY));
  }

  public static OffHeapMode parse(String value) {
    if (value == null || value.trim().isEmpty()) {
      return DEFAULT;
    }
    try {
      return valueOf(value.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(KEY + "=" + value + " is not a mode; use one of "
        + java.util.Arrays.toString(values()), e);
    }
  }
}
