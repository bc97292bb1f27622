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

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class LatencyWindowTest {

  @Test
  public void everyLatencyFallsInsideItsBucket() {
    int last = 0;
    for (long us = 0; us < 5_000_000; us = us < 100 ? us + 1 : us + us / 7) {
      int b = LatencyWindow.bucketOf(us);
      assertTrue("buckets grow with latency at " + us, b >= last);
      last = b;
      assertTrue(us + "us above its bucket's edge " + LatencyWindow.upperMicros(b),
        us < LatencyWindow.upperMicros(b));
      if (b > 0) {
        assertTrue(us + "us not above the previous bucket's edge",
          us >= LatencyWindow.upperMicros(b - 1));
      }
    }
  }

  @Test
  public void bucketsAreAtMostAQuarterOctaveWide() {
    for (int b = 2; b < LatencyWindow.BUCKETS; b++) {
      double ratio = LatencyWindow.upperMicros(b) / (double) LatencyWindow.upperMicros(b - 1);
      assertTrue("bucket " + b + " is " + ratio + " times the one below", ratio <= 1.34);
    }
  }

  @Test
  public void quantileRoundsUpToTheBucketEdge() {
    LatencyWindow w = new LatencyWindow(100, 0.9);
    assertEquals(-1, w.quantileNanos(0.9));
    for (int i = 0; i < 90; i++) {
      w.record(1_000_000); // 1 ms
    }
    for (int i = 0; i < 10; i++) {
      w.record(200_000_000); // 200 ms
    }
    long p90 = w.quantileNanos(0.9);
    assertTrue("p90 " + p90, p90 > 1_000_000 && p90 <= 1_250_000);
    assertEquals("the cached quantile is the window's own", p90, w.quantileNanos());
    long p95 = w.quantileNanos(0.95);
    assertTrue("p95 " + p95, p95 > 200_000_000 && p95 <= 250_000_000);
  }

  @Test
  public void theCachedQuantileFollowsWithinAFewSamples() {
    LatencyWindow w = new LatencyWindow(8, 0.5);
    w.record(1_000_000);
    long first = w.quantileNanos();
    assertTrue(first >= 1_000_000);
    for (int i = 0; i < 8; i++) {
      w.record(5_000_000);
    }
    assertTrue(w.quantileNanos() >= 5_000_000);
  }

  @Test
  public void oldSamplesLeaveTheWindow() {
    LatencyWindow w = new LatencyWindow(16, 0.99);
    for (int i = 0; i < 16; i++) {
      w.record(50_000_000);
    }
    for (int i = 0; i < 16; i++) {
      w.record(500_000);
    }
    assertEquals(16, w.size());
    assertTrue(w.quantileNanos(0.99) < 1_000_000);
    assertTrue(w.quantileNanos() < 1_000_000);
    w.clear();
    assertEquals(0, w.size());
    assertEquals(-1, w.quantileNanos(0.5));
    assertEquals(-1, w.quantileNanos());
  }
}
