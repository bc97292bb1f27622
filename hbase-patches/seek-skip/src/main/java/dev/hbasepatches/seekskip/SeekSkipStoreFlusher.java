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
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseInterfaceAudience;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.monitoring.MonitoredTask;
import org.apache.hadoop.hbase.regionserver.DefaultStoreEngine;
import org.apache.hadoop.hbase.regionserver.DefaultStoreFlusher;
import org.apache.hadoop.hbase.regionserver.FlushLifeCycleTracker;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.InternalScanner;
import org.apache.hadoop.hbase.regionserver.MemStoreSnapshot;
import org.apache.hadoop.hbase.regionserver.ScanInfo;
import org.apache.hadoop.hbase.regionserver.ScanType;
import org.apache.hadoop.hbase.regionserver.StoreFileWriter;
import org.apache.hadoop.hbase.regionserver.throttle.ThroughputController;
import org.apache.yetus.audience.InterfaceAudience;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Flushes through {@link SeekSkipStoreScanner}: set
 * {@link DefaultStoreEngine#DEFAULT_STORE_FLUSHER_CLASS_KEY} to this class. With it
 * every store scanner of a SeekSkip store (user scans,
 * compactions, flushes) is of one class, as in a stock store, so the JIT's profile of
 * {@code StoreScanner.next} is not split between two scanner classes (see PATCH.md). Stores in
 * UPSTREAM mode flush with the stock scanner.
 */
@InterfaceAudience.LimitedPrivate(HBaseInterfaceAudience.CONFIG)
public class SeekSkipStoreFlusher extends DefaultStoreFlusher {
  private static final Logger LOG = LoggerFactory.getLogger(SeekSkipStoreFlusher.class);

  private final SeekDecisions ownDecisions = new SeekDecisions();
  /** One flush of this store at a time, as the stock flusher's own lock keeps it. */
  private final Object flushLock = new Object();

  public SeekSkipStoreFlusher(Configuration conf, HStore store) {
    super(conf, store);
  }

  /** Decisions of this flusher's scanners when the store is not a SeekSkip store. */
  public SeekDecisions decisions() {
    return ownDecisions;
  }

  @Override
  public List<Path> flushSnapshot(MemStoreSnapshot snapshot, long cacheFlushId,
    MonitoredTask status, ThroughputController throughputController, FlushLifeCycleTracker tracker,
    Consumer<Path> writerCreationTracker) throws IOException {
    SeekPolicy policy = SeekSkipStore.policyFor(store);
    if (policy == null) {
      return super.flushSnapshot(snapshot, cacheFlushId, status, throughputController, tracker,
        writerCreationTracker);
    }
    List<Path> written = new ArrayList<>(1);
    if (snapshot.getCellsCount() == 0) {
      return written;
    }
    InternalScanner scanner = openScanner(snapshot, tracker, policy);
    StoreFileWriter writer;
    try {
      synchronized (flushLock) {
        status.setStatus("Flushing " + store + ": creating writer");
        writer = createWriter(snapshot, false, writerCreationTracker);
        boolean done = false;
        try {
          performFlush(scanner, writer, throughputController);
          done = true;
        } finally {
          if (done) {
            finalizeWriter(writer, cacheFlushId, status);
          } else {
            writer.close();
          }
        }
      }
    } finally {
      scanner.close();
    }
    LOG.info("Flushed {} cells of {} at sequence id {} to {}", snapshot.getCellsCount(), store,
      cacheFlushId, writer.getPath());
    written.add(writer.getPath());
    return written;
  }

  /** The flush scanner, with the coprocessor hooks the stock flusher calls around it. */
  private InternalScanner openScanner(MemStoreSnapshot snapshot, FlushLifeCycleTracker tracker,
    SeekPolicy policy) throws IOException {
    boolean hooks = store.getCoprocessorHost() != null;
    ScanInfo scanInfo =
      hooks ? store.getCoprocessorHost().preFlushScannerOpen(store, tracker) : store.getScanInfo();
    SeekDecisions sink = SeekSkipStore.decisionsOf(store, ownDecisions);
    InternalScanner scanner = new SeekSkipStoreScanner(store, scanInfo, snapshot.getScanners(),
      ScanType.COMPACT_RETAIN_DELETES, store.getSmallestReadPoint(), HConstants.OLDEST_TIMESTAMP,
      policy, sink);
    if (!hooks) {
      return scanner;
    }
    InternalScanner wrapped;
    try {
      wrapped = store.getCoprocessorHost().preFlush(store, scanner, tracker);
    } catch (IOException | RuntimeException e) {
      scanner.close();
      throw e;
    }
    if (wrapped == null) {
      // Writing nothing would drop the snapshot; fail the flush so it is kept and retried.
      scanner.close();
      throw new IOException("a coprocessor's preFlush returned no scanner for " + store
        + "; the flush is abandoned and the memstore snapshot kept");
    }
    return wrapped;
  }
}
