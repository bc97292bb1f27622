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
package dev.hbasepatches.perf;

/**
 * Row keys as {@code hbase pe} writes them: the row number in decimal, zero-padded to 26 bytes,
 * so byte order is number order, a key read back names its row, and tables, splits and key
 * lengths match PE's for the same rows.
 */
final class RowKeys {

  /** Bytes in every key: PE's row length. */
  static final int WIDTH = 26;
  /** Largest key space the tool accepts (the per-row bookkeeping of --verify is sized by it). */
  static final long MAX_ROWS = 9_999_999_999L;

  private RowKeys() {
  }

  static byte[] key(long row) {
    if (row < 0 || row > MAX_ROWS) {
      throw new IllegalArgumentException("row out of the key space: " + row);
    }
    byte[] b = new byte[WIDTH];
    long r = row;
    for (int i = WIDTH - 1; i >= 0; i--) {
      b[i] = (byte) ('0' + (r % 10));
      r /= 10;
    }
    return b;
  }

  /** The row number of a key, or -1 when the key is not one of ours. */
  static long row(byte[] key) {
    if (key == null || key.length != WIDTH) {
      return -1;
    }
    long r = 0;
    for (byte c : key) {
      if (c < '0' || c > '9' || r > MAX_ROWS) {
        return -1;
      }
      r = r * 10 + (c - '0');
    }
    return r <= MAX_ROWS ? r : -1;
  }
  /** Split keys that cut [0, totalRows) into {@code regions} ranges of about equal rows. */
  static byte[][] splits(long totalRows, int regions) {
    if (regions <= 1) {
      return new byte[0][];
    }
    byte[][] splits = new byte[regions - 1][];
    for (int i = 1; i < regions; i++) {
      splits[i - 1] = key(totalRows * i / regions);
    }
    return splits;
  }
}
