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
package dev.hbasepatches.rowindex;

import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.yetus.audience.InterfaceAudience;

/** Configuration keys of the row-index change, and how their values are read. */
@InterfaceAudience.Public
public final class RowIndexConfig {

  /**
   * Which implementation serves {@code DataBlockEncoding.ROW_INDEX_V1} once
   * {@link RowIndexRegionServerCoprocessor} runs: {@code PATCHED} (this module's encoder, the
   * default) or {@code UPSTREAM} (HBase's own {@code RowIndexCodecV1}).
   */
  public static final String MODE_KEY = "hbasepatches.rowindex.mode";

  public static final Mode DEFAULT_MODE = Mode.PATCHED;

  /** The two implementations that can sit behind encoding id 7; both write the same bytes. */
  public enum Mode {
    PATCHED,
    UPSTREAM
  }

  private RowIndexConfig() {
  }

  /** The configured mode; a value that names no mode fails with the key, value and choices. */
  public static Mode mode(Configuration conf) {
    String raw = conf.get(MODE_KEY);
    if (raw == null || raw.trim().isEmpty()) {
      return DEFAULT_MODE;
    }
    try {
      return Mode.valueOf(raw.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(MODE_KEY + " is '" + raw + "'; expected one of "
        + java.util.Arrays.toString(Mode.values()), e);
    }
  }
}
