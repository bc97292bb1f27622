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
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * What reading back found: rows checked, rows missing, rows with the wrong bytes, plus the first
 * few problems in words. Missing rows are counted whether or not --verify is on; value checks
 * run only with it.
 */
final class VerifyTally {

  private static final int MAX_SAMPLES = 5;

  private final LongAdder checked = new LongAdder();
  private final LongAdder missing = new LongAdder();
  private final LongAdder wrong = new LongAdder();
  private final LongAdder staleMissing = new LongAdder();
  private final List<String> samples = new ArrayList<>();

  void checked(long rows) {
    checked.add(rows);
  }

  void missing(long rows, String why) {
    missing.add(rows);
    sample(why);
  }

  /** A row a TIMELINE read did not find on a replica that said it may be behind: not a loss. */
  void staleMissing(long rows) {
    staleMissing.add(rows);
  }

  void wrong(String why) {
    wrong.increment();
    sample(why);
  }

  private synchronized void sample(String why) {
    if (samples.size() < MAX_SAMPLES) {
      samples.add(why);
    }
  }

  long checked() {
    return checked.sum();
  }

  long missing() {
    return missing.sum();
  }

  long wrong() {
    return wrong.sum();
  }

  long staleMissing() {
    return staleMissing.sum();
  }

  synchronized List<String> samples() {
    return new ArrayList<>(samples);
  }
}
