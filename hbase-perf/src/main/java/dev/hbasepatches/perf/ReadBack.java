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
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The checks --verify makes after a write command has finished: every row written is read back
 * from its primary region and compared, and every counter must have risen by exactly the
 * increments that succeeded.
 */
final class ReadBack {

  private static final int BATCH = 500;

  private ReadBack() {
  }

  /** Reads back every row in {@code ctx.written}; counts each one missing or wrong. */
  static void writtenRows(RunContext ctx) throws IOException {
    try (Table table = ctx.connection.getTable(ctx.table)) {
      List<Long> rows = new ArrayList<>(BATCH);
      IOException[] failure = new IOException[1];
      ctx.written.forEach(row -> {
        if (failure[0] != null) {
          return;
        }
        rows.add(row);
        if (rows.size() == BATCH) {
          failure[0] = checkBatch(ctx, table, rows);
          rows.clear();
        }
      });
      if (failure[0] == null && !rows.isEmpty()) {
        failure[0] = checkBatch(ctx, table, rows);
      }
      if (failure[0] != null) {
        throw failure[0];
      }
    }
  }

  private static IOException checkBatch(RunContext ctx, Table table, List<Long> rows) {
    List<Get> gets = new ArrayList<>(rows.size());
    for (long row : rows) {
      Get g = new Get(RowKeys.key(row));
      for (byte[] f : ctx.shape.families()) {
        g.addFamily(f);
      }
      gets.add(g);
    }
    Result[] results;
    try {
      results = table.get(gets);
    } catch (IOException e) {
      return e;
    }
    for (int i = 0; i < results.length; i++) {
      long row = rows.get(i);
      if (results[i] == null || results[i].isEmpty()) {
        ctx.tally.missing(1, "row " + row + " was written but is not in the table");
        continue;
      }
      ctx.tally.checked(1);
      String problem = ctx.shape.check(results[i], row);
      if (problem != null) {
        ctx.tally.wrong(problem);
      }
    }
    return null;
  }

  /** Every row's counter value, 0 where it has none. */
  static long[] counters(RunContext ctx) throws IOException {
    long[] values = new long[(int) ctx.options.totalRows()];
    Scan scan = new Scan().addColumn(ctx.shape.firstFamily(), RowShape.COUNTER).setCaching(1000);
    try (Table table = ctx.connection.getTable(ctx.table);
      ResultScanner scanner = table.getScanner(scan)) {
      for (Result r : scanner) {
        long row = RowKeys.row(r.getRow());
        Cell c = r.getColumnLatestCell(ctx.shape.firstFamily(), RowShape.COUNTER);
        boolean counter = c != null && c.getValueLength() == Bytes.SIZEOF_LONG;
        if (row >= 0 && row < values.length && counter) {
          values[(int) row] = Bytes.toLong(CellUtil.cloneValue(c));
        }
      }
    }
    return values;
  }

  /** Compares each counter's rise since {@code before} with the increments that succeeded. */
  static void increments(RunContext ctx, long[] before) throws IOException {
    long[] after = counters(ctx);
    for (int row = 0; row < after.length; row++) {
      long rose = after[row] - before[row];
      long made = ctx.increments.get(row);
      if (made == 0 && rose == 0) {
        continue;
      }
      ctx.tally.checked(1);
      if (rose != made) {
        ctx.tally.wrong("row " + row + ": counter rose by " + rose + " but " + made
          + " increments succeeded");
      }
    }
  }
}
