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

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.regionserver.KeyValueHeap;
import org.apache.hadoop.hbase.regionserver.KeyValueScanner;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * A forward {@link KeyValueHeap} that can carry out a SEEK request file by file. Skipping through
 * the heap costs a re-sort per cell whenever the top alternates between files (versions spread
 * over flushes do that on every cell); here each scanner behind the target is moved past it on
 * its own, and the heap is put back together once.
 * <p>
 * For every scanner that stands before the target, the scanner decides for itself: it steps while
 * its own loaded block holds the target (its next indexed key, the HBASE-13109 rule per file) and
 * the request's step budget lasts, else it reseeks to the seek key, which only that scanner pays
 * for. Scanners already at or past the target are not touched, as in a heap reseek. The result is
 * the state a reseek to the seek key leaves: every scanner at its first cell at or past the key.
 * <p>
 * Lazy-seek fakes are never stepped from (HBASE-19863): a scanner that has not done its real seek
 * does it first ({@code enforceSeek}, as {@code pollRealKV} would once it reached the top), and a
 * bloom-miss fake (type Minimum, the scanner's reader is not positioned there) is compared with
 * the real seek key and reseeked if it lies before it, else left for the matcher, as a heap
 * reseek leaves it.
 */
@InterfaceAudience.Private
final class SkippingKeyValueHeap extends KeyValueHeap {
  private static final byte FAKE_TYPE = KeyValue.Type.Minimum.getCode();

  /** Where one SEEK request would land; supplied by the scanner's {@link BlockSkipper}. */
  interface Target {
    /** Whether a real cell is at or past the seek key (a later row counts). */
    boolean reached(Cell cell);

    /** Whether the seek key sorts at or before {@code nextIndexedKey}: stepping may go on. */
    boolean notBeyond(Cell nextIndexedKey);

    /** The seek key itself, for scanners that must reseek. */
    Cell seekKey();

    /**
     * Whether the scanner reseeks lazily ({@code KeyValueHeap.requestSeek}): then the other
     * files are not stepped but asked for a lazy seek, as a reseek would, so a file a newer one
     * answers for, or a ROWCOL bloom rules out, is never read (HBASE-4465).
     */
    boolean lazySeek();

    /** Whether those lazy seeks consult ROWCOL bloom filters. */
    boolean useRowColBloom();
  }

  /** Scanners taken off the heap during one pass; reused to keep the pass allocation free. */
  private final List<KeyValueScanner> moved = new ArrayList<>(8);
  private final CellComparator cellComparator;
  private int steps;
  private int budgetReseeks;
  private int indexReseeks;
  /** Lifetime counts, for tests: passes, scanners moved, lazy seeks enforced, fakes reseeked. */
  private long passes;
  private long movedScanners;
  private long enforcedSeeks;
  private long fakeReseeks;
  private long lazyRequests;

  SkippingKeyValueHeap(List<? extends KeyValueScanner> scanners, CellComparator comparator)
    throws IOException {
    super(scanners, comparator);
    this.cellComparator = comparator;
  }

  /** Cells stepped over by the last {@link #skipPast} pass, over all scanners. */
  int steps() {
    return steps;
  }

  /** Scanners the last pass reseeked because the step budget ran out. */
  int budgetReseeks() {
    return budgetReseeks;
  }

  /** Scanners the last pass reseeked because their block index put the target further on. */
  int indexReseeks() {
    return indexReseeks;
  }

  long passes() {
    return passes;
  }

  long movedScanners() {
    return movedScanners;
  }

  long enforcedSeeks() {
    return enforcedSeeks;
  }

  long fakeReseeks() {
    return fakeReseeks;
  }

  long lazyRequests() {
    return lazyRequests;
  }

  /**
   * Moves every scanner that stands before {@code target} to its first cell at or past it, then
   * re-heaps once. {@code budget} is the number of steps the whole pass may take; a scanner still
   * short of the target when it runs out reseeks.
   */
  void skipPast(Target target, int budget) throws IOException {
    steps = 0;
    budgetReseeks = 0;
    indexReseeks = 0;
    KeyValueScanner top = current;
    if (top == null) {
      return;
    }
    passes++;
    // The top file holds the request's cell: real (the heap's invariant) and before the target.
    // It stays current while it steps, so close() still finds it if a step fails.
    walk(top, target, budget);
    Cell topCell = top.peek();
    KeyValueScanner second = heap.peek();
    if (topCell != null && (second == null || comparator.compare(topCell, second.peek()) < 0)) {
      // topCell is at or past the target and sorts before every other file (a lazy file's fake
      // sorts at or before its real cell), so no other file stands before the target: done, as
      // KeyValueHeap.next is when the top file keeps the lead. Rows or row ranges per file, and
      // one file, always end here.
      movedScanners++;
      return;
    }
    current = null;
    moved.clear();
    moved.add(top);
    try {
      // The other files in heap order, stopping at the first one already at or past the target,
      // as a heap reseek stops.
      KeyValueScanner scanner;
      while ((scanner = heap.peek()) != null && !atOrPast(scanner, target)) {
        moved.add(heap.poll());
        advance(scanner, target, budget);
      }
    } catch (IOException | RuntimeException e) {
      // Leave nothing unclosed: close() closes the delayed list and what is still in the heap.
      scannersForDelayedClose.addAll(moved);
      moved.clear();
      throw e;
    }
    movedScanners += moved.size();
    for (int i = 0, n = moved.size(); i < n; i++) {
      KeyValueScanner s = moved.get(i);
      if (s.peek() == null) {
        scannersForDelayedClose.add(s);
      } else {
        heap.add(s);
      }
    }
    moved.clear();
    current = pollRealKV();
  }

  private static boolean isFake(Cell cell) {
    return cell.getTypeByte() == FAKE_TYPE;
  }

  private static boolean indexed(Cell nextIndexedKey) {
    return nextIndexedKey != null && nextIndexedKey != KeyValueScanner.NO_NEXT_INDEXED_KEY;
  }

  /**
   * Whether a scanner may be left where it is. A fake from a lazy seek that is not done yet sorts
   * at or before the scanner's real next cell, so if the fake is past the target the real cell is
   * too; a bloom-miss fake is compared with the real seek key.
   */
  private boolean atOrPast(KeyValueScanner scanner, Target target) {
    Cell top = scanner.peek();
    if (top == null) {
      return true;
    }
    if (isFake(top) && scanner.realSeekDone()) {
      return cellComparator.compare(top, target.seekKey()) >= 0;
    }
    return target.reached(top);
  }

  private void advance(KeyValueScanner scanner, Target target, int budget) throws IOException {
    if (atOrPast(scanner, target)) {
      return;
    }
    if (target.lazySeek()) {
      // What the heap's lazy reseek does with a file behind the key; the final pollRealKV
      // carries out the seeks that turn out to matter, as KeyValueHeap.requestSeek's does.
      scanner.requestSeek(target.seekKey(), true, target.useRowColBloom());
      indexReseeks++;
      lazyRequests++;
      return;
    }
    if (!scanner.realSeekDone()) {
      scanner.enforceSeek();
      enforcedSeeks++;
      if (atOrPast(scanner, target)) {
        return;
      }
    }
    if (isFake(scanner.peek())) {
      // Before the target, and the reader is not positioned at the fake: only a seek is safe.
      scanner.reseek(target.seekKey());
      indexReseeks++;
      fakeReseeks++;
      return;
    }
    walk(scanner, target, budget);
  }

  /** Steps a real scanner standing before the target up to it, or reseeks it (see class doc). */
  private void walk(KeyValueScanner scanner, Target target, int budget) throws IOException {
    Cell top;
    Cell cleared = null;
    boolean first = true;
    do {
      if (steps >= budget) {
        scanner.reseek(target.seekKey());
        budgetReseeks++;
        return;
      }
      // A first step can never pass the target, so it needs no index compare.
      if (!first) {
        Cell nextIndexed = scanner.getNextIndexedKey();
        if (nextIndexed != cleared && indexed(nextIndexed)) {
          if (!target.notBeyond(nextIndexed)) {
            scanner.reseek(target.seekKey());
            indexReseeks++;
            return;
          }
          cleared = nextIndexed;
        }
      }
      first = false;
      scanner.next();
      steps++;
    } while ((top = scanner.peek()) != null && !target.reached(top));
  }
}
