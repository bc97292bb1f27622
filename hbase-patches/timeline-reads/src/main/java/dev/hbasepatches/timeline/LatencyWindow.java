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

/**
 * The last N latencies of one server in one role, as counts in quarter-octave buckets (each about
 * 19% wide), so a quantile is a walk over about a hundred counters and a new sample costs two
 * array writes. The quantile is cached and recomputed every few samples: the hedge delay does
 * not need to follow each read.
 */
final class LatencyWindow {

  /** Bucket 0 holds everything below 4 microseconds, then four buckets per power of two. */
  static final int BUCKETS = 1 + 4 * 29;
  private static final int RECOMPUTE_EVERY = 8;

  private final short[] ring;
  private final int[] counts = new int[BUCKETS];
  private int next;
  private int size;
  private int sinceRecompute;
  private double cachedFor = Double.NaN;
  private long cachedNanos;

  LatencyWindow(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("window needs at least one sample, got " + capacity);
    }
    ring = new short[capacity];
  }

  /** The bucket of a latency in microseconds. */
  static int bucketOf(long micros) {
    if (micros < 4) {
      return 0;
    }
    int octave = 63 - Long.numberOfLeadingZeros(micros);
    int quarter = (int) ((micros >>> (octave - 2)) & 3);
    return Math.min(BUCKETS - 1, (octave - 2) * 4 + quarter + 1);
  }

  /** The upper edge of a bucket in microseconds: quantiles round up, never down. */
  static long upperMicros(int bucket) {
    if (bucket == 0) {
      return 4;
    }
    int octave = (bucket - 1) / 4 + 2;
    int quarter = (bucket - 1) % 4;
    long base = 1L << octave;
    return base + (quarter + 1) * (base / 4);
  }

  synchronized void record(long nanos) {
    int b = bucketOf(Math.max(0, nanos) / 1000);
    if (size == ring.length) {
      counts[ring[next]]--;
    } else {
      size++;
    }
    ring[next] = (short) b;
    counts[b]++;
    next = next + 1 == ring.length ? 0 : next + 1;
    sinceRecompute++;
  }

  synchronized int size() {
    return size;
  }

  /** The q-quantile in nanoseconds, rounded up to its bucket's edge; -1 while empty. */
  synchronized long quantileNanos(double q) {
    if (size == 0) {
      return -1;
    }
    if (q == cachedFor && sinceRecompute < RECOMPUTE_EVERY) {
      return cachedNanos;
    }
    long rank = (long) Math.ceil(q * size);
    long seen = 0;
    int b = 0;
    for (; b < BUCKETS - 1; b++) {
      seen += counts[b];
      if (seen >= rank) {
        break;
      }
    }
    cachedFor = q;
    cachedNanos = upperMicros(b) * 1000;
    sinceRecompute = 0;
    return cachedNanos;
  }

  synchronized void clear() {
    java.util.Arrays.fill(counts, 0);
    next = 0;
    size = 0;
    cachedFor = Double.NaN;
  }
}
