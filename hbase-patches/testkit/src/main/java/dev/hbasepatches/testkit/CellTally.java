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
package dev.hbasepatches.testkit;

import org.apache.hadoop.hbase.ByteBufferExtendedCell;
import org.apache.hadoop.hbase.Cell;

/**
 * Counts the cells a scanner handed out in the form it handed them out, before any copy: how
 * many were {@link ByteBufferExtendedCell}s pointing into direct memory (read from an off-heap
 * block, e.g. a BucketCache with ioengine offheap). Lets a fuzzer show that its reads really
 * went through off-heap cells instead of assuming so.
 */
public final class CellTally {

  private long cells;
  private long offHeap;

  /** Counts one cell as the scanner returned it. */
  public void see(Cell c) {
    cells++;
    if (c instanceof ByteBufferExtendedCell) {
      // An encoded block's seeker rebuilds the key on the heap and points the value into the
      // block; an unencoded block's cell points into the block for both.
      ByteBufferExtendedCell b = (ByteBufferExtendedCell) c;
      if (b.getValueByteBuffer().isDirect() || b.getRowByteBuffer().isDirect()) {
        offHeap++;
      }
    }
  }

  /** Adds another tally's counts to this one. */
  public void add(CellTally other) {
    cells += other.cells;
    offHeap += other.offHeap;
  }

  public long cells() {
    return cells;
  }

  /** Cells that were direct-memory {@link ByteBufferExtendedCell}s. */
  public long offHeap() {
    return offHeap;
  }

  @Override
  public String toString() {
    return offHeap + " of " + cells + " cells off-heap";
  }
}
