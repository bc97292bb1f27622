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
import java.util.List;
import java.util.NavigableSet;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.KeyValueHeap;
import org.apache.hadoop.hbase.regionserver.KeyValueScanner;
import org.apache.hadoop.hbase.regionserver.ScanInfo;
import org.apache.hadoop.hbase.regionserver.ScanType;
import org.apache.hadoop.hbase.regionserver.StoreScanner;
import org.apache.yetus.audience.InterfaceAudience;

/** A forward store scanner whose SEEK-vs-SKIP choices come from a {@link SeekPolicy}. */
@InterfaceAudience.Private
public class SeekSkipStoreScanner extends StoreScanner {
  private final BlockSkipper skipper;
  private final SeekDecisions sink;
  /**
   * A Get of explicit columns with lazy seek on takes upstream's decisions: there lazy seek
   * (HBASE-4465) and the ROWCOL bloom keep files from being read at all, and the blocks a point
   * Get reads are exactly upstream's (TestBlocksRead). Skipping only pays over many cells.
   */
  private final boolean upstreamRule;

  /** A user scan. */
  public SeekSkipStoreScanner(HStore store, ScanInfo scanInfo, Scan scan,
    NavigableSet<byte[]> columns, long readPt, SeekPolicy policy, SeekDecisions sink)
    throws IOException {
    super(store, scanInfo, scan, columns, readPt);
    this.skipper = new BlockSkipper(this, policy, scanInfo.getComparator());
    this.sink = sink;
    // BASELINE (always seek) stays itself.
    this.upstreamRule =
      scan.isGetScan() && skipper.lazySeek() && !(policy instanceof AlwaysSeekPolicy);
  }

  /** A compaction that keeps or drops deletes according to {@code scanType}. */
  public SeekSkipStoreScanner(HStore store, ScanInfo scanInfo,
    List<? extends KeyValueScanner> scanners, ScanType scanType, long smallestReadPoint,
    long earliestPutTs, SeekPolicy policy, SeekDecisions sink) throws IOException {
    super(store, scanInfo, scanners, scanType, smallestReadPoint, earliestPutTs);
    this.skipper = new BlockSkipper(this, policy, scanInfo.getComparator());
    this.sink = sink;
    this.upstreamRule = false;
  }

  /** A compaction that drops deletes only between two rows. */
  public SeekSkipStoreScanner(HStore store, ScanInfo scanInfo,
    List<? extends KeyValueScanner> scanners, long smallestReadPoint, long earliestPutTs,
    byte[] dropDeletesFromRow, byte[] dropDeletesToRow, SeekPolicy policy, SeekDecisions sink)
    throws IOException {
    super(store, scanInfo, scanners, smallestReadPoint, earliestPutTs, dropDeletesFromRow,
      dropDeletesToRow);
    this.skipper = new BlockSkipper(this, policy, scanInfo.getComparator());
    this.sink = sink;
    this.upstreamRule = false;
  }

  /**
   * A heap that can carry out a skip file by file (see {@link SkippingKeyValueHeap}). Called from
   * StoreScanner's constructor and after flushes, so it must not use this class's fields. In
   * BASELINE mode nothing ever asks it to skip and it behaves as upstream's heap.
   */
  @Override
  protected KeyValueHeap newKVHeap(List<? extends KeyValueScanner> scanners,
    CellComparator comparator) throws IOException {
    return new SkippingKeyValueHeap(scanners, comparator);
  }

  KeyValueHeap heapForTesting() {
    return heap;
  }

  @Override
  protected boolean trySkipToNextRow(Cell cell) throws IOException {
    if (upstreamRule) {
      return super.trySkipToNextRow(cell);
    }
    return skipper.toNextRow(heap, cell);
  }

  @Override
  protected boolean trySkipToNextColumn(Cell cell) throws IOException {
    if (upstreamRule) {
      return super.trySkipToNextColumn(cell);
    }
    return skipper.toNextColumn(heap, cell);
  }

  @Override
  public void close() {
    try {
      super.close();
    } finally {
      skipper.policy().drainTo(sink);
    }
  }
}
