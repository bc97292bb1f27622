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
package dev.hbasepatches.seekskip;

import dev.hbasepatches.seekskip.SeekPolicy.Target;
import java.io.IOException;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.PrivateCellUtil;
import org.apache.hadoop.hbase.regionserver.KeyValueHeap;
import org.apache.hadoop.hbase.regionserver.KeyValueScanner;
import org.apache.hadoop.hbase.regionserver.StoreScanner;
import org.apache.hadoop.hbase.regionserver.querymatcher.ColumnTracker;
import org.apache.hadoop.hbase.regionserver.querymatcher.ScanQueryMatcher;
import org.apache.hadoop.hbase.regionserver.querymatcher.ScanWildcardColumnTracker;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * Carries out a SEEK request by skipping, within the budget a {@link SeekPolicy} grants, and
 * reports {@code false} when the scanner should seek instead. Shared by the forward and reversed
 * scanners; one instance per scanner.
 * <p>
 * Skipping stops exactly where the seek would have landed: at the first cell at or past the seek
 * key the matcher would have built, or in another row. So the matcher never sees a cell the seek
 * would have passed over (HBASE-17958), and for an explicit column list the skip runs straight to
 * the next wanted column without a matcher round trip per unwanted column.
 * <p>
 * The first step is taken without asking the block index: one step can never pass the target, and
 * on a one-cell-per-column request (time-range misses, deleted cells) it is the whole job, so the
 * compare with the next indexed key that upstream makes on every request is saved. From the second
 * step on, the HBASE-13109 rule applies: if the target lies beyond the current block's next indexed
 * key, seek. That compare is made once per distinct indexed key and request, not once per step:
 * when versions or rows interleave over several files the heap's top alternates between them, so
 * the keys already cleared for this request are remembered by identity (upstream remembers one and
 * compares again on every switch).
 * <p>
 * With a {@link SkippingKeyValueHeap} (forward scans) the request is carried out file by file
 * instead of cell by cell through the heap; this class then serves as the pass's
 * {@link SkippingKeyValueHeap.Target}. Reversed scans keep upstream's reversed heap and step
 * through it.
 */
@InterfaceAudience.Private
final class BlockSkipper implements SkippingKeyValueHeap.Target {
  private static final byte FAKE_TYPE = KeyValue.Type.Minimum.getCode();

  private final StoreScanner owner;
  private final SeekPolicy policy;
  private final CellComparator comparator;
  /** The scanner reseeks lazily (explicit columns, lazy seek on): see {@link #lazySeek()}. */
  private final boolean lazySeek;
  private final boolean useRowColBloom;
  private ScanQueryMatcher matcher;
  private ColumnTracker columns;
  private boolean hintingColumns;
  /** Next indexed keys already known to lie past the current request's target. */
  private final Cell[] cleared = new Cell[4];
  private int clearedCount;
  private int clearedNext;
  /** The current request's seek key form; see {@link #prepareSeekKey}. */
  private boolean rowRequest;
  private Cell exactKey;
  private boolean hinted;
  /** The current request's cell and, once a scanner needed it, its full seek key. */
  private Cell request;
  private Cell seekKey;

  BlockSkipper(StoreScanner owner, SeekPolicy policy, CellComparator comparator) {
    this.owner = owner;
    this.policy = policy;
    this.comparator = comparator;
    this.lazySeek = ScannerInternals.lazySeek(owner);
    this.useRowColBloom = lazySeek && ScannerInternals.useRowColBloom(owner);
  }

  SeekPolicy policy() {
    return policy;
  }

  /**
   * Lazy-seek fakes (type Minimum, e.g. the last-on-row-col key a ROWCOL bloom miss leaves on a
   * file scanner that never really sought, HBASE-19863) must not be stepped from: that scanner's
   * reader is not positioned, so only a real seek is safe.
   */
  private static boolean isFake(Cell cell) {
    return cell.getTypeByte() == FAKE_TYPE;
  }

  private static boolean indexed(Cell nextIndexedKey) {
    return nextIndexedKey != null && nextIndexedKey != KeyValueScanner.NO_NEXT_INDEXED_KEY;
  }

  private boolean isCleared(Cell nextIndexedKey) {
    for (int i = 0; i < clearedCount; i++) {
      if (cleared[i] == nextIndexedKey) {
        return true;
      }
    }
    return false;
  }

  private void markCleared(Cell nextIndexedKey) {
    if (clearedCount < cleared.length) {
      cleared[clearedCount++] = nextIndexedKey;
    } else {
      cleared[clearedNext] = nextIndexedKey;
      clearedNext = (clearedNext + 1) % cleared.length;
    }
  }

  boolean toNextRow(KeyValueHeap heap, Cell cell) throws IOException {
    return skip(heap, cell, Target.NEXT_ROW);
  }

  boolean toNextColumn(KeyValueHeap heap, Cell cell) throws IOException {
    return skip(heap, cell, Target.NEXT_COLUMN);
  }

  /** Steps toward the request's seek key within the budget; false means "seek instead". */
  private boolean skip(KeyValueHeap heap, Cell cell, Target target) throws IOException {
    int budget = isFake(cell) ? 0 : policy.skipBudget(target);
    if (budget == 0) {
      policy.sought(target, 0, false);
      return false;
    }
    prepareSeekKey(cell, target);
    if (lazySeek && !topMayStep(heap.getNextIndexedKey(), cell)) {
      exactKey = null;
      policy.sought(target, 0, false);
      return false;
    }
    if (heap instanceof SkippingKeyValueHeap) {
      return skipPerFile((SkippingKeyValueHeap) heap, cell, target, budget);
    }
    int skipped = 0;
    clearedCount = 0;
    Cell top;
    try {
      do {
        if (skipped > 0) {
          if (skipped >= budget) {
            policy.sought(target, skipped, true);
            return false;
          }
          Cell nextIndexed = heap.getNextIndexedKey();
          if (indexed(nextIndexed) && !isCleared(nextIndexed)) {
            if (!beforeKey(nextIndexed, cell)) {
              policy.sought(target, skipped, false);
              return false;
            }
            markCleared(nextIndexed);
          }
        }
        heap.next();
        skipped++;
      } while ((top = heap.peek()) != null && !reached(top, cell));
    } finally {
      exactKey = null;
    }
    policy.skipped(target, skipped);
    return true;
  }

  /**
   * One pass over the files: always completes the request. A request where some file had to
   * reseek (budget spent, or its index put the target beyond its block) counts as a seek, so the
   * policy learns from give-ups exactly as with stepping through the heap.
   */
  private boolean skipPerFile(SkippingKeyValueHeap heap, Cell cell, Target target, int budget)
    throws IOException {
    request = cell;
    try {
      heap.skipPast(this, budget);
    } finally {
      request = null;
      seekKey = null;
      exactKey = null;
    }
    int steps = heap.steps();
    if (heap.budgetReseeks() > 0) {
      policy.sought(target, steps, true);
    } else if (heap.indexReseeks() > 0) {
      policy.sought(target, steps, false);
    } else {
      policy.skipped(target, steps);
    }
    return true;
  }

  /**
   * With lazy seek the reseek is lazy and may read no block at all (a newer file answers first,
   * or a ROWCOL bloom rules the file out, HBASE-4465), so stepping must never read a block that
   * reseek would not. Step only where upstream's rule would: the top file's next indexed key is
   * known and not before the seek key, or there is no next block. An unknown key (memstore, or a
   * file whose lazy seek was just carried out) means seek.
   */
  private boolean topMayStep(Cell nextIndexedKey, Cell cell) {
    if (nextIndexedKey == null) {
      return false;
    }
    return nextIndexedKey == KeyValueScanner.NO_NEXT_INDEXED_KEY || beforeKey(nextIndexedKey, cell);
  }

  @Override
  public boolean lazySeek() {
    return lazySeek;
  }

  @Override
  public boolean useRowColBloom() {
    return useRowColBloom;
  }

  @Override
  public boolean reached(Cell cell) {
    return reached(cell, request);
  }

  @Override
  public boolean notBeyond(Cell nextIndexedKey) {
    return beforeKey(nextIndexedKey, request);
  }

  @Override
  public Cell seekKey() {
    if (seekKey == null) {
      // The keys StoreScanner would reseek to for this request.
      seekKey = rowRequest
        ? PrivateCellUtil.createLastOnRow(request)
        : exactKey != null ? exactKey : matcher.getKeyForNextColumn(request);
    }
    return seekKey;
  }

  /**
   * Works out which form of seek key this request has, as the scanner would build it: the end of
   * the row; for columns, an exact key for empty qualifiers (family delete markers may follow,
   * HBASE-18471), the next wanted column for explicit column lists, else the end of the column.
   */
  private void prepareSeekKey(Cell cell, Target target) {
    rowRequest = target == Target.NEXT_ROW;
    exactKey = null;
    hinted = false;
    if (rowRequest) {
      return;
    }
    if (matcher == null) {
      matcher = ScannerInternals.matcher(owner);
      columns = ScannerInternals.columns(matcher);
      // A wildcard tracker never has a hint; don't ask it on every request.
      hintingColumns = !(columns instanceof ScanWildcardColumnTracker);
    }
    if (cell.getQualifierLength() == 0) {
      exactKey = matcher.getKeyForNextColumn(cell);
    } else {
      hinted = hintingColumns && columns.getColumnHint() != null;
    }
  }

  /** Whether the seek key for {@code cell} sorts at or before {@code bound}. */
  private boolean beforeKey(Cell bound, Cell cell) {
    if (rowRequest) {
      // The row ends before bound only if bound is in a later row.
      return comparator.compareRows(bound, cell) > 0;
    }
    if (exactKey != null) {
      return comparator.compare(bound, exactKey) >= 0;
    }
    if (hinted) {
      return matcher.compareKeyForNextColumn(bound, cell) >= 0;
    }
    // Seek key is the end of cell's column; bound sorts after cell, so it is past that end
    // unless it is still in cell's column.
    return !CellUtil.matchingRowColumn(cell, bound);
  }

  /** Whether {@code top} is where the seek would have landed (another row counts, both ways). */
  private boolean reached(Cell top, Cell cell) {
    if (!CellUtil.matchingRows(cell, top)) {
      return true;
    }
    if (rowRequest) {
      return false;
    }
    if (exactKey != null) {
      return comparator.compare(top, exactKey) >= 0;
    }
    if (hinted) {
      return matcher.compareKeyForNextColumn(top, cell) >= 0;
    }
    return !CellUtil.matchingColumn(cell, top);
  }
}
