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

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Drains a {@link Recorder} the clients write to into a running total, so the progress line can
 * show the last interval while the report gets every operation exactly once.
 */
final class LatencyTotals {

  private final Recorder recorder;
  private final Histogram total = new Histogram(3);
  private Histogram recycle;

  LatencyTotals(Recorder recorder) {
    this.recorder = recorder;
  }

  /** Moves what was recorded since the last call into the total; returns just that part. */
  synchronized Histogram drainInterval() {
    Histogram interval = recorder.getIntervalHistogram(recycle);
    total.add(interval);
    recycle = interval;
    return interval.copy();
  }

  synchronized Histogram total() {
    return total.copy();
  }
}
