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

import java.io.Closeable;
import java.io.IOException;

/**
 * What one client thread does for one command. The runner times {@link #execute} only; checking
 * what came back ({@link #checkLast}) happens outside the timed part, so --verify does not
 * change the latencies it is checking.
 */
abstract class ClientWorkload implements Closeable {

  /** {@link #execute} returns this when the client's rows are used up. */
  static final int EXHAUSTED = -1;

  protected final RunContext ctx;
  protected final int client;

  ClientWorkload(RunContext ctx, int client) {
    this.ctx = ctx;
    this.client = client;
  }

  /** Opens tables or scanners; not timed. */
  void open() throws IOException {
  }

  /**
   * Runs operation {@code index}.
   * @return rows the operation covered, or {@link #EXHAUSTED}
   */
  abstract int execute(long index) throws IOException;

  /** The kind of the last operation (read, update, ...) where a workload mixes kinds, else null. */
  String lastOperation() {
    return null;
  }

  /** Checks the last operation's answer; called only when it did not throw. */
  void checkLast() {
  }

  /** Work that belongs to the run's elapsed time but to no single operation (a last flush). */
  void finish() throws IOException {
  }

  @Override
  public void close() throws IOException {
  }

  /** The workload for one client of {@code ctx}'s command. */
  static ClientWorkload create(RunContext ctx, int client) {
    switch (ctx.command) {
      case SEQUENTIAL_WRITE:
      case RANDOM_WRITE:
      case ASYNC_SEQUENTIAL_WRITE:
      case ASYNC_RANDOM_WRITE:
        return new WriteWorkload(ctx, client);
      case SEQUENTIAL_READ:
      case RANDOM_READ:
      case RANDOM_READ_MEM:
      case ASYNC_SEQUENTIAL_READ:
      case ASYNC_RANDOM_READ:
        return new GetWorkload(ctx, client);
      case SCAN:
      case REVERSE_SCAN:
      case ASYNC_SCAN:
        return new FullScanWorkload(ctx, client);
      case SCAN_RANGE_10:
      case SCAN_RANGE_100:
      case SCAN_RANGE_1000:
      case SCAN_RANGE_10000:
      case RANDOM_SEEK_SCAN:
      case FILTER_SCAN:
        return new ShortScanWorkload(ctx, client);
      case SEQUENTIAL_DELETE:
      case RANDOM_DELETE:
        return new WriteWorkload(ctx, client);
      case INCREMENT:
      case APPEND:
      case CHECK_AND_PUT:
      case CHECK_AND_MUTATE:
      case CHECK_AND_DELETE:
        return new MutateWorkload(ctx, client);
      case META_WRITE:
      case META_RANDOM_READ:
      case CLEAN_META:
        return new MetaWorkload(ctx, client);
      case WORKLOAD_A:
      case WORKLOAD_B:
      case WORKLOAD_C:
      case WORKLOAD_D:
      case WORKLOAD_E:
      case WORKLOAD_F:
        return new YcsbWorkload(ctx, client);
      default:
        throw new IllegalArgumentException(ctx.command + " has no workload of its own");
    }
  }
}
