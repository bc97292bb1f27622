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

import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Rows inserted during a run, after the loaded ones: inserters take the next row number, and
 * readers see only rows up to the last one whose insert, and every insert before it, has
 * finished (YCSB's acknowledged counter), so a read never asks for a row still in flight.
 */
final class InsertedRows {

  private final AtomicLong next;
  private final TreeSet<Long> doneAhead = new TreeSet<>();
  private volatile long limit;

  InsertedRows(long loaded) {
    this.next = new AtomicLong(loaded);
    this.limit = loaded;
  }

  /** The row number the next insert writes. */
  long take() {
    return next.getAndIncrement();
  }

  /** Marks {@code row}'s insert as finished. */
  synchronized void done(long row) {
    doneAhead.add(row);
    while (!doneAhead.isEmpty() && doneAhead.first() == limit) {
      doneAhead.pollFirst();
      limit++;
    }
  }

  /** Rows [0, limit) are all readable. */
  long readable() {
    return limit;
  }
}
