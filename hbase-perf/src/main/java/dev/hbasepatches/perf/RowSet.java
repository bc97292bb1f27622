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

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongConsumer;

/** A fixed-size set of row numbers that many client threads add to at once. */
final class RowSet {

  /** Verifying writes keeps one bit per row: 125 MB of heap at this many rows. */
  static final long MAX_ROWS = 1_000_000_000L;

  private final AtomicLongArray words;
  private final long size;

  RowSet(long size) {
    if (size > MAX_ROWS) {
      throw ToolFailure.usage("--verify of writes tracks at most " + MAX_ROWS
        + " rows; lower --rows or nclients");
    }
    this.size = size;
    this.words = new AtomicLongArray((int) ((size + 63) >>> 6));
  }

  void add(long row) {
    int i = (int) (row >>> 6);
    long bit = 1L << (row & 63);
    long w = words.get(i);
    while ((w & bit) == 0 && !words.compareAndSet(i, w, w | bit)) {
      w = words.get(i);
    }
  }

  boolean contains(long row) {
    return (words.get((int) (row >>> 6)) & (1L << (row & 63))) != 0;
  }

  void forEach(LongConsumer action) {
    for (int i = 0; i < words.length(); i++) {
      long w = words.get(i);
      while (w != 0) {
        long row = ((long) i << 6) + Long.numberOfTrailingZeros(w);
        if (row < size) {
          action.accept(row);
        }
        w &= w - 1;
      }
    }
  }

  long count() {
    long n = 0;
    for (int i = 0; i < words.length(); i++) {
      n += Long.bitCount(words.get(i));
    }
    return n;
  }
}
