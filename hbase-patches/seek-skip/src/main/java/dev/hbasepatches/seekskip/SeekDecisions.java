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

import java.util.concurrent.atomic.LongAdder;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * Counts what SEEK requests turned into: skips, seeks, and cells stepped over. A scanner keeps
 * plain counters on its hot path and adds them into a store-wide instance when it closes.
 */
@InterfaceAudience.Private
public final class SeekDecisions {
  private final LongAdder skips = new LongAdder();
  private final LongAdder seeks = new LongAdder();
  private final LongAdder skippedCells = new LongAdder();

  public void add(long skipCount, long seekCount, long cells) {
    skips.add(skipCount);
    seeks.add(seekCount);
    skippedCells.add(cells);
  }

  public void add(SeekDecisions other) {
    add(other.skips(), other.seeks(), other.skippedCells());
  }

  /** Requests met by skipping. */
  public long skips() {
    return skips.sum();
  }

  /**
   * Requests met by seeking: by the whole heap, or, in the per-file pass of forward scans, by at
   * least one file reseeking while the others stepped.
   */
  public long seeks() {
    return seeks.sum();
  }

  /** Cells stepped over by skipping, including those before a give-up seek. */
  public long skippedCells() {
    return skippedCells.sum();
  }

  public void reset() {
    skips.reset();
    seeks.reset();
    skippedCells.reset();
  }

  @Override
  public String toString() {
    return "skips=" + skips() + ", seeks=" + seeks() + ", skippedCells=" + skippedCells();
  }
}
