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

import org.apache.hadoop.hbase.client.Result;

/** The checks every read command applies to what it got back. */
final class ReadChecks {

  private ReadChecks() {
  }

  /**
   * Counts {@code r} against the row it should be: a missing row always (a stale replica's
   * miss apart), and its values when --verify is on.
   */
  static void checkRow(RunContext ctx, Result r, long row) {
    boolean stale = r != null && r.isStale();
    if (stale) {
      ctx.staleReads.increment();
    }
    if (r == null || r.isEmpty()) {
      if (stale) {
        ctx.tally.staleMissing(1);
      } else {
        ctx.tally.missing(1, "row " + row + " was not found");
      }
      return;
    }
    if (ctx.verify) {
      ctx.tally.checked(1);
      String problem = ctx.shape.check(r, row);
      if (problem != null) {
        ctx.tally.wrong(problem);
      }
    }
  }

  /**
   * Accounts for rows a scan skipped over: {@code expected} was due next, {@code got} came.
   * @return the row due after {@code got}
   */
  static long gap(RunContext ctx, long expected, long got, boolean reversed, boolean stale) {
    long skipped = reversed ? expected - got : got - expected;
    if (skipped > 0) {
      if (stale) {
        ctx.tally.staleMissing(skipped);
      } else {
        ctx.tally.missing(skipped, skipped + " row(s) from row " + expected + " were not found "
          + "by a " + ctx.command.cliName());
      }
    }
    return reversed ? got - 1 : got + 1;
  }
}
