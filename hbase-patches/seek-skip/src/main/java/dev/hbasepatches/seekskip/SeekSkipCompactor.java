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
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseInterfaceAudience;
import org.apache.hadoop.hbase.regionserver.DefaultStoreEngine;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.InternalScanner;
import org.apache.hadoop.hbase.regionserver.ScanInfo;
import org.apache.hadoop.hbase.regionserver.ScanType;
import org.apache.hadoop.hbase.regionserver.StoreFileScanner;
import org.apache.hadoop.hbase.regionserver.compactions.DefaultCompactor;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * Compactions with the same SEEK-vs-SKIP decisions as user scans: set
 * {@link DefaultStoreEngine#DEFAULT_COMPACTOR_CLASS_KEY} to this class. Compactions drop versions and
 * deleted cells with SEEK_NEXT_COL / SEEK_NEXT_ROW requests, so they gain where scans do.
 */
@InterfaceAudience.LimitedPrivate(HBaseInterfaceAudience.CONFIG)
public class SeekSkipCompactor extends DefaultCompactor {
  private final SeekDecisions ownDecisions = new SeekDecisions();

  public SeekSkipCompactor(Configuration conf, HStore store) {
    // The store engine builds its compactor inside HStore's constructor, before a SeekSkipStore
    // has read its settings, so the mode is looked up per compaction, not here.
    super(conf, store);
  }

  /** Decisions of this compactor's scanners when the store is not a SeekSkipStore. */
  public SeekDecisions decisions() {
    return ownDecisions;
  }

  @Override
  protected InternalScanner createScanner(HStore store, ScanInfo scanInfo,
    List<StoreFileScanner> scanners, ScanType scanType, long smallestReadPoint, long earliestPutTs)
    throws IOException {
    SeekPolicy policy = SeekSkipStore.policyFor(store);
    if (policy == null) {
      return super.createScanner(store, scanInfo, scanners, scanType, smallestReadPoint,
        earliestPutTs);
    }
    return new SeekSkipStoreScanner(store, scanInfo, scanners, scanType, smallestReadPoint,
      earliestPutTs, policy, SeekSkipStore.decisionsOf(store, ownDecisions));
  }

  @Override
  protected InternalScanner createScanner(HStore store, ScanInfo scanInfo,
    List<StoreFileScanner> scanners, long smallestReadPoint, long earliestPutTs,
    byte[] dropDeletesFromRow, byte[] dropDeletesToRow) throws IOException {
    SeekPolicy policy = SeekSkipStore.policyFor(store);
    if (policy == null) {
      return super.createScanner(store, scanInfo, scanners, smallestReadPoint, earliestPutTs,
        dropDeletesFromRow, dropDeletesToRow);
    }
    return new SeekSkipStoreScanner(store, scanInfo, scanners, smallestReadPoint, earliestPutTs,
      dropDeletesFromRow, dropDeletesToRow, policy,
      SeekSkipStore.decisionsOf(store, ownDecisions));
  }
}
