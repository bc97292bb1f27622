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

  /** Reads back every row in {@code ctx.written} after a delete command: none may be left. */
  static void deletedRows(RunContext ctx) throws IOException {
    try (Table table = ctx.connection.getTable(ctx.table)) {
      List<Long> rows = new ArrayList<>();
      ctx.written.forEach(rows::add);
      for (int from = 0; from < rows.size(); from += BATCH) {
        List<Long> batch = rows.subList(from, Math.min(rows.size(), from + BATCH));
        List<Get> gets = new ArrayList<>(batch.size());
        batch.forEach(r -> gets.add(new Get(RowKeys.key(r))));
        Result[] results = table.get(gets);
        for (int i = 0; i < results.length; i++) {
          ctx.tally.checked(1);
          if (results[i] != null && !results[i].isEmpty()) {
            ctx.tally.wrong("row " + batch.get(i) + " was deleted but is still in the table");
          }
        }
      }
    }
  }

  /**
   * The mutate command's column ({@link MutateWorkload#qualifier}) of rows [0, --rows), per
   * family: {@code [row][family]}, null where a row has none.
   */
  static byte[][][] mutatedColumns(RunContext ctx) throws IOException {
    byte[] q = MutateWorkload.qualifier(ctx.command);
    byte[][] families = ctx.shape.families();
    byte[][][] values = new byte[(int) ctx.options.rows][families.length][];
    Scan scan = new Scan().setCaching(1000);
    for (byte[] f : families) {
      scan.addColumn(f, q);
    }
    try (Table table = ctx.connection.getTable(ctx.table);
      ResultScanner scanner = table.getScanner(scan)) {
      for (Result r : scanner) {
        long row = RowKeys.row(r.getRow());
        if (row < 0 || row >= values.length) {
          continue;
        }
        for (int f = 0; f < families.length; f++) {
          Cell c = r.getColumnLatestCell(families[f], q);
          values[(int) row][f] = c == null ? null : CellUtil.cloneValue(c);
        }
      }
    }
    return values;
  }

  /**
   * Compares each touched row's column after the run with what its successful operations must
   * have left: a counter risen by their number, a value grown by that many keys, the
   * replacement value, or no value at all after conditional deletes.
   */
  static void mutations(RunContext ctx, byte[][][] before) throws IOException {
    byte[][][] after = mutatedColumns(ctx);
    Command c = ctx.command;
    for (int row = 0; row < after.length; row++) {
      long made = ctx.increments.get(row);
      if (made == 0) {
        continue;
      }
      ctx.tally.checked(1);
      byte[] key = RowKeys.key(row);
      for (int f = 0; f < after[row].length; f++) {
        String problem = mutationProblem(c, key, made, before[row][f], after[row][f]);
        if (problem != null) {
          ctx.tally.wrong("row " + row + " " + Bytes.toString(ctx.shape.family(f)) + ": "
            + problem);
          break;
        }
        if (c != Command.INCREMENT && c != Command.APPEND) {
          break;
        }
      }
    }
  }

  static String mutationProblem(Command c, byte[] key, long made, byte[] before, byte[] after) {
    switch (c) {
      case INCREMENT: {
        long was = before == null ? 0 : Bytes.toLong(before);
        long now = after == null ? 0 : Bytes.toLong(after);
        return now - was == made ? null
          : "counter rose by " + (now - was) + " but " + made + " increments succeeded";
      }
      case APPEND: {
        int was = before == null ? 0 : before.length;
        int now = after == null ? 0 : after.length;
        if (now - was != made * key.length) {
          return "value grew by " + (now - was) + " bytes but " + made + " appends of "
            + key.length + " succeeded";
        }
        for (int at = was; at < now; at += key.length) {
          if (!Bytes.equals(after, at, key.length, key, 0, key.length)) {
            return "appended bytes at " + at + " are not the row key";
          }
        }
        return null;
      }
      case CHECK_AND_DELETE:
        return after == null ? null : "the conditional delete left a value";
      default:
        return Bytes.equals(after, MutateWorkload.replaced(key)) ? null
          : "holds " + (after == null ? "nothing" : Bytes.toStringBinary(after))
            + " instead of the conditional put's value";
    }
  }
}
