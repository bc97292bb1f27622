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
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * scan and reverseScan: one scanner over the client's own rows; one operation is one row from
 * {@code next()}, so most operations are served from the scanner's cache and a few pay for the
 * RPC that refills it, as in {@code hbase pe}. As PE's, a forward scan names a start row and no
 * stop row (the server keeps filling the cache past the client's range; the client stops
 * reading there); a reversed scan names both ends. A client stops at the end of its range unless
 * it was asked for more operations than the range has rows (--ops, --duration); then it opens a
 * new scanner and goes round again.
 */
final class FullScanWorkload extends ClientWorkload {

  private final boolean reversed;
  private final long first;
  private final long last;
  /** A forward scan's range ends before the first row that sorts after this key. */
  private final byte[] lastKey;
  private Table table;
  private ResultScanner scanner;
  private long rowsFromScanner;
  private long expected;
  private Result result;

  FullScanWorkload(RunContext ctx, int client) {
    super(ctx, client);
    this.reversed = ctx.command == Command.REVERSE_SCAN;
    this.first = ctx.firstRow(client);
    this.last = first + ctx.options.rows - 1;
    this.lastKey = RowKeys.key(last);
  }

  @Override
  void open() throws IOException {
    if (!ctx.command.isAsync()) {
      table = ctx.readTableFor(client);
    }
  }

  private void openScanner() throws IOException {
    Scan scan = ctx.scan();
    if (reversed) {
      scan.setReversed(true);
      scan.withStartRow(RowKeys.key(last), true).withStopRow(RowKeys.key(first), true);
    } else {
      scan.withStartRow(RowKeys.key(first), true);
    }
    scanner = ctx.command.isAsync()
      ? ctx.asyncConnectionFor(client).getTable(ctx.table).getScanner(scan)
      : table.getScanner(scan);
    rowsFromScanner = 0;
    expected = reversed ? last : first;
  }

  @Override
  int execute(long index) throws IOException {
    if (scanner == null) {
      openScanner();
    }
    Result r = nextInRange();
    if (r == null) {
      boolean again = rowsFromScanner > 0 && ctx.opsPerClient > ctx.options.rows;
      endOfRange();
      if (!again) {
        return EXHAUSTED;
      }
      openScanner();
      r = nextInRange();
      if (r == null) {
        return EXHAUSTED;
      }
    }
    rowsFromScanner++;
    result = r;
    return 1;
  }

  /** The scanner's next row, or null at the end of the table or past the client's range. */
  private Result nextInRange() throws IOException {
    Result r = scanner.next();
    if (r != null && !reversed && Bytes.compareTo(r.getRow(), lastKey) > 0) {
      return null;
    }
    return r;
  }

  /** Rows between the last one seen and the end of the range never came: count them. */
  private void endOfRange() {
    long end = reversed ? first - 1 : last + 1;
    ReadChecks.gap(ctx, expected, end, reversed, false);
    scanner.close();
    scanner = null;
  }

  /** The row of the last row the scanner gave, or -1 before the first (tests). */
  long lastRow() {
    return result == null ? -1 : RowKeys.row(result.getRow());
  }

  @Override
  void checkLast() {
    long row = RowKeys.row(result.getRow());
    if (row < 0) {
      ctx.tally.wrong("a " + ctx.command.cliName() + " met a row key that is not ours");
      return;
    }
    expected = ReadChecks.gap(ctx, expected, row, reversed, result.isStale());
    ReadChecks.checkRow(ctx, result, row);
  }

  @Override
  public void close() throws IOException {
    if (scanner != null) {
      scanner.close();
    }
    if (table != null) {
      table.close();
    }
  }
}
