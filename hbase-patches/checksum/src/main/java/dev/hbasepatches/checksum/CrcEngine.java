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

import java.util.Locale;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.Checksum;
import org.apache.hadoop.hbase.util.ChecksumType;
import org.apache.hadoop.util.PureJavaCrc32;
import org.apache.hadoop.util.PureJavaCrc32C;
import org.apache.yetus.audience.InterfaceAudience;

/** Where a chunk's CRC is computed. */
@InterfaceAudience.Private
public enum CrcEngine {

  /**
   * {@link CRC32C} and {@link CRC32} from java.util.zip. HotSpot compiles their update methods to
   * the CPU's CRC instructions (SSE4.2 crc32, carry-less multiply) for byte arrays and direct
   * buffers alike, so no native library and no copy is needed.
   */
  INTRINSIC {
    @Override
    Checksum newChecksum(ChecksumType type) {
      switch (type) {
        case CRC32C:
          return new CRC32C();
        case CRC32:
          return new CRC32();
        default:
          throw new IllegalArgumentException("no CRC for checksum type " + type);
      }
    }
  },

  /**
   * Hadoop's {@link PureJavaCrc32C} and {@link PureJavaCrc32}, one chunk at a time: the code
   * HBase's {@code ChecksumType} handed {@code ChecksumUtil} before HBASE-11927, so what HBase
   * paid per byte then. The BASELINE of the benchmarks; for comparison and diagnosis only.
   */
  PURE_JAVA {
    @Override
    Checksum newChecksum(ChecksumType type) {
      switch (type) {
        case CRC32C:
          return new PureJavaCrc32C();
        case CRC32:
          return new PureJavaCrc32();
        default:
          throw new IllegalArgumentException("no CRC for checksum type " + type);
      }
    }
  };

  /** A fresh, reset CRC of the given type; only CRC32 and CRC32C have one. */
  abstract Checksum newChecksum(ChecksumType type);

  /** The engine a configuration value names, case-insensitively. */
  public static CrcEngine byName(String name) {
    if (name == null) {
      throw new IllegalArgumentException(
        "checksum engine name is null; expected intrinsic or pure-java");
    }
    switch (name.trim().toLowerCase(Locale.ROOT)) {
      case "intrinsic":
        return INTRINSIC;
      case "pure-java":
        return PURE_JAVA;
      case "table":
        throw new IllegalArgumentException("checksum engine 'table' is gone; 'pure-java'"
          + " (Hadoop's PureJavaCrc32C, the pre-HBASE-11927 code) replaces it");
      default:
        throw new IllegalArgumentException(
          "unknown checksum engine '" + name + "'; expected intrinsic or pure-java");
    }
  }
}
