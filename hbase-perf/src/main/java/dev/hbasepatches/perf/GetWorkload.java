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

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.hadoop.hbase.client.AsyncTable;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;

/**
 * sequentialRead, randomRead and randomReadMem: one Get per operation, or --multiGet Gets in one
 * call. Sequential reads with --sampleRate below 1 skip rows at random but keep key order.
 */
final class GetWorkload extends ClientWorkload {

  private final boolean random;
  private final SequentialCursor cursor;
  private final KeyChooser keys;
  private final SplittableRandom sampler;
  private final long[] rows;
  private Result[] results;
  private Table table;
  /** The async* commands' table: each Get is sent and waited for, as hbase pe does. */
  private AsyncTable<?> asyncTable;

  GetWorkload(RunContext ctx, int client) {
    super(ctx, client);
    this.random = ctx.command != Command.SEQUENTIAL_READ
      && ctx.command != Command.ASYNC_SEQUENTIAL_READ;
    this.cursor = new SequentialCursor(ctx.firstRow(client), ctx.options.rows);
    this.keys = ctx.keyChooser(client);
    this.sampler = new SplittableRandom(RowShape.mix(ctx.options.seed + client + 1));
    this.rows = new long[Math.max(1, ctx.options.multiGet)];
  }

  @Override
  void open() throws IOException {
    if (ctx.command.isAsync()) {
      asyncTable = ctx.asyncConnectionFor(client).getTable(ctx.table);
    } else {
      table = ctx.readTableFor(client);
    }
  }

  private long nextRow() {
    if (random) {
      return keys.next();
    }
    long row = cursor.next();
    if (ctx.options.sampleRate < 1.0) {
      // Bounded so a tiny rate cannot spin for long; the op count already carries the rate.
      for (int skipped = 0; skipped < 1_000_000
        && sampler.nextDouble() >= ctx.options.sampleRate; skipped++) {
        row = cursor.next();
      }
    }
    return row;
  }

  @Override
  int execute(long index) throws IOException {
    for (int k = 0; k < rows.length; k++) {
      rows[k] = nextRow();
    }
    if (asyncTable != null) {
      if (rows.length == 1) {
        results = new Result[] { AsyncCalls.await(asyncTable.get(ctx.get(rows[0]))) };
      } else {
        List<Get> gets = new ArrayList<>(rows.length);
        for (long row : rows) {
          gets.add(ctx.get(row));
        }
        results = AsyncCalls.await(asyncTable.getAll(gets)).toArray(new Result[0]);
      }
    } else if (rows.length == 1) {
      results = new Result[] { table.get(ctx.get(rows[0])) };
    } else {
      List<Get> gets = new ArrayList<>(rows.length);
      for (long row : rows) {
        gets.add(ctx.get(row));
      }
      results = table.get(gets);
    }
    return rows.length;
  }

  @Override
  void checkLast() {
    for (int k = 0; k < rows.length; k++) {
      ReadChecks.checkRow(ctx, results[k], rows[k]);
    }
  }

  @Override
  public void close() throws IOException {
    if (table != null) {
      table.close();
    }
  }
}
