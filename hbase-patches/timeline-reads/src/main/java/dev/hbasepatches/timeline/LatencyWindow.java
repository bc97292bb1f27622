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
 * array writes. The policy's quantile is cached and recomputed every few samples (the hedge delay
 * need not follow each read), and read without a lock.
 */
final class LatencyWindow {

  /** Bucket 0 holds everything below 4 microseconds, then four buckets per power of two. */
  static final int BUCKETS = 1 + 4 * 29;
  private static final int RECOMPUTE_EVERY = 8;

  private final short[] ring;
  private final int[] counts = new int[BUCKETS];
  private final double quantile;
  private int next;
  private int size;
  private int sinceRecompute;
  /** The cached quantile in nanoseconds; -1 while empty, -2 when due for a recompute. */
  private volatile long cached = -1;

  LatencyWindow(int capacity, double quantile) {
    if (capacity < 1) {
      throw new IllegalArgumentException("window needs at least one sample, got " + capacity);
    }
    ring = new short[capacity];
    this.quantile = quantile;
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
    if (++sinceRecompute >= RECOMPUTE_EVERY || cached == -1) {
      cached = -2;
    }
  }

  synchronized int size() {
    return size;
  }

  /** The window's quantile in nanoseconds, cached; -1 while empty. */
  long quantileNanos() {
    long c = cached;
    if (c != -2) {
      return c;
    }
    synchronized (this) {
      if (cached == -2) {
        cached = quantileNanos(quantile);
        sinceRecompute = 0;
      }
      return cached;
    }
  }

  /** The q-quantile in nanoseconds, rounded up to its bucket's edge; -1 while empty. */
  synchronized long quantileNanos(double q) {
    if (size == 0) {
      return -1;
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
    return upperMicros(b) * 1000;
  }

  synchronized void clear() {
    java.util.Arrays.fill(counts, 0);
    next = 0;
    size = 0;
    cached = -1;
  }
}
