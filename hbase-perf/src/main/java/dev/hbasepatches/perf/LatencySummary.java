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

import java.util.LinkedHashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;

/** The latency figures the report shows, in microseconds, from a histogram of nanoseconds. */
final class LatencySummary {

  final long count;
  final double mean;
  final double p50;
  final double p95;
  final double p99;
  final double p999;
  final double max;

  LatencySummary(Histogram nanos) {
    count = nanos.getTotalCount();
    boolean empty = count == 0;
    mean = empty ? 0 : nanos.getMean() / 1e3;
    p50 = empty ? 0 : nanos.getValueAtPercentile(50) / 1e3;
    p95 = empty ? 0 : nanos.getValueAtPercentile(95) / 1e3;
    p99 = empty ? 0 : nanos.getValueAtPercentile(99) / 1e3;
    p999 = empty ? 0 : nanos.getValueAtPercentile(99.9) / 1e3;
    max = empty ? 0 : nanos.getMaxValue() / 1e3;
  }

  Map<String, Object> asMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("mean", round(mean));
    m.put("p50", round(p50));
    m.put("p95", round(p95));
    m.put("p99", round(p99));
    m.put("p999", round(p999));
    m.put("max", round(max));
    return m;
  }

  static double round(double v) {
    return Math.round(v * 1000) / 1000.0;
  }
}
