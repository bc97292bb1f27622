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

import org.apache.yetus.audience.InterfaceAudience;

/**
 * Decides how a store scanner honours a SEEK request from the query matcher: by stepping through
 * the loaded block (SKIP) or by repositioning the file scanners (SEEK).
 * <p>
 * The scanner asks for a <em>skip budget</em> before each request: the number of cells it may
 * step over before it gives up and seeks. 0 means seek now. After the request it reports how it
 * ended, so a policy can learn the data's shape. Independently of the budget, the scanner also
 * seeks when the block index says the target lies beyond the current block (the HBASE-13109
 * rule), since skipping would have to load the next block anyway.
 * <p>
 * One instance serves one scanner, on one thread at a time; implementations need no locking.
 */
@InterfaceAudience.Private
public interface SeekPolicy {

  /** What a SEEK request asks for. */
  enum Target {
    /** The first cell of the next row (SEEK_NEXT_ROW). */
    NEXT_ROW,
    /** The next column the matcher wants in this row (SEEK_NEXT_COL). */
    NEXT_COLUMN
  }

  /** How many cells the scanner may skip for this request before it seeks; 0 = seek now. */
  int skipBudget(Target target);

  /** The request was met by skipping {@code cells} cells. */
  void skipped(Target target, int cells);

  /**
   * The request was met by a seek after skipping {@code cellsFirst} cells (0 when the budget was
   * 0 or the index ruled skipping out at once); {@code budgetSpent} tells whether it was the
   * budget, rather than the block index, that ended the skipping.
   */
  void sought(Target target, int cellsFirst, boolean budgetSpent);

  /** Adds this policy's decision counts to {@code sink} and zeroes its own. */
  void drainTo(SeekDecisions sink);
}
