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
import java.util.NavigableSet;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.ReversedStoreScanner;
import org.apache.hadoop.hbase.regionserver.ScanInfo;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * A reversed store scanner whose SEEK-vs-SKIP choices come from a {@link SeekPolicy}. Within a row
 * a reversed scan still moves forward, and stepping off a row's last cell moves the heap to the
 * previous row, which is where the backward seek would have gone too.
 */
@InterfaceAudience.Private
public class SeekSkipReversedStoreScanner extends ReversedStoreScanner {
  private final BlockSkipper skipper;
  private final SeekDecisions sink;

  public SeekSkipReversedStoreScanner(HStore store, ScanInfo scanInfo, Scan scan,
    NavigableSet<byte[]> columns, long readPt, SeekPolicy policy, SeekDecisions sink)
    throws IOException {
    super(store, scanInfo, scan, columns, readPt);
    this.skipper = new BlockSkipper(this, policy, scanInfo.getComparator());
    this.sink = sink;
  }

  @Override
  protected boolean trySkipToNextRow(Cell cell) throws IOException {
    return skipper.toNextRow(heap, cell);
  }

  @Override
  protected boolean trySkipToNextColumn(Cell cell) throws IOException {
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
