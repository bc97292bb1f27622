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
package dev.hbasepatches.quotas.limit;

import java.util.concurrent.atomic.AtomicLong;

/** A clock that only moves when a test moves it. Starts far from zero to catch origin bugs. */
final class FakeTicker implements Ticker {

  private final AtomicLong now;

  FakeTicker() {
    this(-123_456_789_012_345L);
  }

  FakeTicker(long start) {
    now = new AtomicLong(start);
  }

  @Override
  public long nanoTime() {
    return now.get();
  }

  void advance(long nanos) {
    now.addAndGet(nanos);
  }
}
