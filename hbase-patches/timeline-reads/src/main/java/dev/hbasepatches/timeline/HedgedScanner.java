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
package dev.hbasepatches.timeline;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.List;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.metrics.ScanMetrics;

/**
 * A streaming TIMELINE scanner made of hedged batches: each batch is a bounded scan of at most
 * {@code rows} whole rows, hedged like a Get ({@link HedgedRead}: primary first, one secondary
 * after the learned delay), and the next batch starts just after the last row handed out. So when
 * one batch comes from a secondary and the next from the primary (or the other way round), no row
 * is returned twice and none is skipped: the switch happens only between rows. Every row is
 * flagged {@link Result#isStale()} exactly when a secondary gave its batch. A batch shorter than
 * asked ends the scan only when the primary gave it; after a short stale batch one more batch is
 * read, and the scan ends when that one is empty.
 * <p>
 * Each batch is one consistent view of one replica; two batches may come from different replicas,
 * so a later row can be older than an earlier one (timeline consistency, per batch). Scans that
 * split rows ({@link Scan#setBatch}, {@link Scan#setAllowPartialResults}) are refused: a batch
 * could end inside a row and a replica switch would lose or repeat its cells.
 */
final class HedgedScanner implements ResultScanner {

  /** Sends one bounded batch scan, hedged; the rows come back stale-flagged. */
  interface BatchReader {
    List<Result> read(Scan batch) throws IOException;
  }

  private final Scan base;
  private final int rows;
  private final BatchReader reader;
  private final ArrayDeque<Result> buffered = new ArrayDeque<>();
  private byte[] lastRow;
  private int remaining; // rows the scan's own limit still allows; -1 = no limit
  private boolean exhausted;
  private boolean closed;
  private int batches;

  HedgedScanner(Scan scan, int defaultRows, BatchReader reader) {
    if (scan.getBatch() > 0 || scan.getAllowPartialResults()) {
      throw new IllegalArgumentException("a hedged TIMELINE scanner returns whole rows: scans with"
        + " setBatch(" + scan.getBatch() + ") or setAllowPartialResults("
        + scan.getAllowPartialResults() + ") are not supported; use a STRONG scan");
    }
    this.base = scan;
    this.rows = scan.getCaching() > 0 ? scan.getCaching() : defaultRows;
    this.reader = reader;
    this.remaining = scan.getLimit() > 0 ? scan.getLimit() : -1;
  }

  /** How many batches were read so far. */
  int batches() {
    return batches;
  }

  @Override
  public Result next() throws IOException {
    if (closed) {
      return null;
    }
    if (buffered.isEmpty() && !exhausted) {
      fill();
    }
    Result r = buffered.poll();
    if (r != null) {
      lastRow = r.getRow();
    }
    return r;
  }

  private void fill() throws IOException {
    int want = remaining < 0 ? rows : Math.min(rows, remaining);
    if (want == 0) {
      exhausted = true;
      return;
    }
    Scan batch = new Scan(base).setLimit(want).setCaching(want);
    if (lastRow != null) {
      batch.withStartRow(lastRow, false); // reversed scans too: the start is where it resumes
    }
    List<Result> got = reader.read(batch);
    batches++;
    // A short batch from the primary ends the scan. A short one from a secondary may only mean
    // that replica lacks rows (a lagging or just-opened secondary): the next batch, planned
    // afresh, confirms the end, and only an empty one ends the scan.
    if (got.isEmpty() || (got.size() < want && !got.get(got.size() - 1).isStale())) {
      exhausted = true;
    }
    if (remaining > 0) {
      remaining -= got.size();
    }
    buffered.addAll(got);
  }

  @Override
  public void close() {
    closed = true;
    buffered.clear();
  }

  @Override
  public boolean renewLease() {
    return !closed; // no server-side scanner outlives a batch
  }

  @Override
  public ScanMetrics getScanMetrics() {
    return null;
  }
}
