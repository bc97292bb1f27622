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

import org.apache.hadoop.conf.Configuration;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * Configuration keys an operator sets for the block checksummer. The checksum type and chunk size
 * stay HBase's own ({@code hbase.hstore.checksum.algorithm},
 * {@code hbase.hstore.bytes.per.checksum}); these keys only choose how the checksums are computed.
 */
@InterfaceAudience.Public
public final class ChecksumConfig {

  /**
   * Whether HBase's block checksum path ({@code ChecksumUtil}) routes through
   * {@link BlockChecksummer}. Off gives back the stock Hadoop {@code DataChecksum} path.
   */
  public static final String ENABLED_KEY = "hbasepatches.checksum.enabled";
  public static final boolean ENABLED_DEFAULT = true;

  /**
   * Which CRC implementation computes each chunk: {@code intrinsic} (java.util.zip, compiled to the
   * CPU's CRC instructions) or {@code pure-java} (Hadoop's PureJavaCrc32C / PureJavaCrc32, the
   * pre-HBASE-11927 code; for comparison and diagnosis only).
   */
  public static final String ENGINE_KEY = "hbasepatches.checksum.engine";
  public static final String ENGINE_DEFAULT = "intrinsic";

  /**
   * Whether a block whose header says checksum type NULL must carry all-zero checksum slots.
   * HBase's writer leaves the slots zeroed for NULL blocks, so a non-zero slot means the type byte
   * itself was damaged (a single bit turns CRC32C=2 or CRC32=1 into NULL=0). Turn off only for
   * files from a writer that fills the slots with something else.
   */
  public static final String NULL_SLOTS_MUST_BE_ZERO_KEY =
    "hbasepatches.checksum.null-slots-must-be-zero";
  public static final boolean NULL_SLOTS_MUST_BE_ZERO_DEFAULT = true;

  private ChecksumConfig() {
  }

  /**
   * Whether HBase's block checksum path should use {@link BlockChecksummer} at all.
   * @throws IllegalArgumentException if the value is neither {@code true} nor {@code false}
   */
  public static boolean enabled(Configuration conf) {
    return strictBoolean(conf, ENABLED_KEY, ENABLED_DEFAULT);
  }

  /**
   * The checksummer these settings describe.
   * @throws IllegalArgumentException if a value is not one this class knows
   */
  public static BlockChecksummer checksummer(Configuration conf) {
    CrcEngine engine = CrcEngine.byName(conf.get(ENGINE_KEY, ENGINE_DEFAULT));
    boolean strictNull =
      strictBoolean(conf, NULL_SLOTS_MUST_BE_ZERO_KEY, NULL_SLOTS_MUST_BE_ZERO_DEFAULT);
    return new BlockChecksummer(engine, strictNull);
  }

  /**
   * {@code true} or {@code false} (any case, blanks around ignored), or the default when unset.
   * Hadoop's {@code getBoolean} returns the default for anything else, so {@code enabled=no}
   * would silently leave the change on: refuse such a value instead.
   */
  static boolean strictBoolean(Configuration conf, String key, boolean dflt) {
    String raw = conf.get(key);
    if (raw == null) {
      return dflt;
    }
    String v = raw.trim();
    if ("true".equalsIgnoreCase(v)) {
      return true;
    }
    if ("false".equalsIgnoreCase(v)) {
      return false;
    }
    throw new IllegalArgumentException(
      key + "='" + raw + "' is not a boolean; expected true or false");
  }
}
