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

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Failed operations of one command: how many, and the first few distinct reasons with how often
 * each came up, so one bad region does not flood the report.
 */
final class ErrorTally {

  private static final int MAX_KINDS = 5;

  private final LongAdder count = new LongAdder();
  private final LongAdder late = new LongAdder();
  private final Map<String, Long> kinds = new LinkedHashMap<>();
  private long otherKinds;

  void record(Throwable t) {
    record(ToolFailure.describe(t), 1);
  }

  /**
   * An operation that was counted as done when handed to a write buffer and failed later; the
   * runner takes these back out of the operation count.
   */
  void recordLate(Throwable t) {
    late.increment();
    record(t);
  }

  long lateFailures() {
    return late.sum();
  }

  synchronized void record(String reason, long times) {
    count.add(times);
    if (kinds.containsKey(reason) || kinds.size() < MAX_KINDS) {
      kinds.merge(reason, times, Long::sum);
    } else {
      otherKinds += times;
    }
  }

  long count() {
    return count.sum();
  }

  /** "3 x IOException: ..." lines, most frequent first. */
  synchronized List<String> samples() {
    List<Map.Entry<String, Long>> entries = new ArrayList<>(kinds.entrySet());
    entries.sort((a, b) -> Long.compare(b.getValue(), a.getValue()));
    List<String> lines = new ArrayList<>();
    for (Map.Entry<String, Long> e : entries) {
      lines.add(e.getValue() + " x " + e.getKey());
    }
    if (otherKinds > 0) {
      lines.add(otherKinds + " x other errors");
    }
    return lines;
  }
}
