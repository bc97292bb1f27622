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
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.PageFilter;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.filter.WhileMatchFilter;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Commands whose every operation opens, reads and closes a scanner of its own, as in
 * {@code hbase pe}: scanRangeN (N rows from a random row), randomSeekScan (from a random row,
 * a page filter of {@link Command#SEEK_SCAN_ROWS} rows: that many rows, or a few more when the
 * scan crosses a region, since each region pages on its own) and filterScan (the whole table,
 * which a server-side value filter narrows to the one row holding a random row's value).
 */
final class ShortScanWorkload extends ClientWorkload {

  private final KeyChooser keys;
  private final long totalRows;
  private Table table;
  private final List<Result> results = new ArrayList<>();
  private long start;
  private long end;
  private long target;

  ShortScanWorkload(RunContext ctx, int client) {
    super(ctx, client);
    this.keys = ctx.keyChooser(client);
    this.totalRows = ctx.options.totalRows();
  }

  @Override
  void open() throws IOException {
    table = ctx.readTableFor(client);
  }

  @Override
  int execute(long index) throws IOException {
    Scan scan = ctx.scan();
    if (ctx.command == Command.RANDOM_SEEK_SCAN) {
      start = keys.next();
      end = Math.min(start + Command.SEEK_SCAN_ROWS, totalRows);
      scan.withStartRow(RowKeys.key(start))
        .setFilter(new WhileMatchFilter(new PageFilter(Command.SEEK_SCAN_ROWS)));
    } else if (ctx.command == Command.FILTER_SCAN) {
      start = 0;
      end = totalRows;
      target = keys.uniform(totalRows);
      SingleColumnValueFilter filter = new SingleColumnValueFilter(ctx.shape.firstFamily(),
        ctx.shape.firstQualifier(), CompareOperator.EQUAL, ctx.shape.value(target, 0, 0));
      filter.setFilterIfMissing(true);
      scan.setFilter(filter);
    } else {
      start = keys.next();
      end = Math.min(start + ctx.command.scanRangeRows(), totalRows);
      scan.withStartRow(RowKeys.key(start)).withStopRow(RowKeys.key(end));
    }
    results.clear();
    try (ResultScanner scanner = table.getScanner(scan)) {
      for (Result r = scanner.next(); r != null; r = scanner.next()) {
        results.add(r);
      }
    }
    return results.size();
  }

  @Override
  void checkLast() {
    if (ctx.command == Command.FILTER_SCAN) {
      checkFiltered();
      return;
    }
    long expected = start;
    for (Result r : results) {
      long row = RowKeys.row(r.getRow());
      if (row >= end) {
        // randomSeekScan, which has no stop row: a page from the next region.
        break;
      }
      if (row < start) {
        ctx.tally.wrong("a " + ctx.command.cliName() + " from row " + start + " returned key "
          + Bytes.toStringBinary(r.getRow()));
        continue;
      }
      expected = ReadChecks.gap(ctx, expected, row, false, r.isStale());
      ReadChecks.checkRow(ctx, r, row);
    }
    boolean stale = !results.isEmpty() && results.get(results.size() - 1).isStale();
    ReadChecks.gap(ctx, expected, end, false, stale);
  }

  private void checkFiltered() {
    boolean found = false;
    for (Result r : results) {
      long row = RowKeys.row(r.getRow());
      found |= row == target;
      ReadChecks.checkRow(ctx, r, row);
    }
    if (!found) {
      boolean stale = results.stream().anyMatch(Result::isStale);
      if (stale) {
        ctx.tally.staleMissing(1);
      } else {
        ctx.tally.missing(1, "filterScan of the table did not return row " + target
          + " whose value it filtered for");
      }
    }
  }

  @Override
  public void close() throws IOException {
    if (table != null) {
      table.close();
    }
  }
}
