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
 * Row keys are row numbers written as fixed-width decimal, so byte order is number order and a
 * key read back names the row it belongs to.
 */
final class RowKeys {

  static final int WIDTH = 10;

  private RowKeys() {
  }

  static byte[] key(long row) {
    if (row < 0 || row > PerfArgsParser.MAX_TOTAL_ROWS) {
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
      if (c < '0' || c > '9') {
        return -1;
      }
      r = r * 10 + (c - '0');
    }
    return r;
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
