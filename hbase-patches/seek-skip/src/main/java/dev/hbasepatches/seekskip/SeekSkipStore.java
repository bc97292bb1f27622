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
import java.util.EnumMap;
import java.util.Map;
import java.util.NavigableSet;
import java.util.concurrent.atomic.LongAdder;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.KeyValueScanner;
import org.apache.hadoop.hbase.regionserver.ScanInfo;
import org.apache.yetus.audience.InterfaceAudience;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An HStore whose user scanners take SEEK-vs-SKIP decisions from the configured mode. The mode and
 * skip budget are read once, when the store opens, from the store's configuration (so a column
 * family's own setting wins over the table's and the site's); a bad value fails the open.
 */
@InterfaceAudience.Private
public class SeekSkipStore extends HStore {
  private static final Logger LOG = LoggerFactory.getLogger(SeekSkipStore.class);

  /** Stores opened per effective mode in this JVM: lets a check see the change is installed. */
  private static final Map<SeekSkipMode, LongAdder> OPENED = new EnumMap<>(SeekSkipMode.class);

  static {
    for (SeekSkipMode m : SeekSkipMode.values()) {
      OPENED.put(m, new LongAdder());
    }
  }

  private final SeekSkipMode mode;
  private final int maxSkips;
  private final SeekDecisions decisions = new SeekDecisions();

  protected SeekSkipStore(HRegion region, ColumnFamilyDescriptor family, Configuration conf,
    boolean warmup) throws IOException {
    super(region, family, conf, warmup);
    this.mode = effectiveMode(getReadOnlyConfiguration(), this);
    this.maxSkips = BoundedSkipPolicy.from(getReadOnlyConfiguration()).maxSkips();
    OPENED.get(mode).increment();
  }

  /** How many SeekSkip stores this JVM has opened in {@code mode}. */
  public static long storesOpened(SeekSkipMode mode) {
    return OPENED.get(mode).sum();
  }

  /**
   * The mode a store runs in: the configured one, or UPSTREAM if this HBase build does not expose
   * what the patch needs (logged once per store; reads stay correct either way).
   */
  static SeekSkipMode effectiveMode(Configuration conf, HStore store) {
    SeekSkipMode configured = SeekSkipMode.from(conf);
    String problem = ScannerInternals.problem();
    if (configured == SeekSkipMode.PATCHED && problem != null) {
      LOG.error("{}: {} = PATCHED, but {}; using UPSTREAM", store, SeekSkipMode.MODE_KEY, problem);
      return SeekSkipMode.UPSTREAM;
    }
    return configured;
  }

  /** A new per-scanner policy for the mode, or null for UPSTREAM (the stock scanner decides). */
  static SeekPolicy newPolicy(SeekSkipMode mode, int maxSkips) {
    switch (mode) {
      case BASELINE:
        return new AlwaysSeekPolicy();
      case PATCHED:
        return new BoundedSkipPolicy(maxSkips);
      default:
        return null;
    }
  }

  /**
   * The policy for a compaction's or flush's scanner in {@code store}, or null to leave it to the
   * stock scanner. Stores that are not SeekSkip stores read the mode from their configuration.
   */
  static SeekPolicy policyFor(HStore store) {
    if (store instanceof SeekSkipStore) {
      SeekSkipStore s = (SeekSkipStore) store;
      return newPolicy(s.mode(), s.maxSkips());
    }
    SeekSkipMode mode = effectiveMode(store.getReadOnlyConfiguration(), store);
    return newPolicy(mode, BoundedSkipPolicy.from(store.getReadOnlyConfiguration()).maxSkips());
  }

  /** Where a scanner of {@code store} reports its decisions: the store's own, else fallback. */
  static SeekDecisions decisionsOf(HStore store, SeekDecisions fallback) {
    return store instanceof SeekSkipStore ? ((SeekSkipStore) store).decisions() : fallback;
  }

  public SeekSkipMode mode() {
    return mode;
  }

  int maxSkips() {
    return maxSkips;
  }

  /** Decisions of every closed scanner of this store (user scans and compactions). */
  public SeekDecisions decisions() {
    return decisions;
  }

  @Override
  protected KeyValueScanner createScanner(Scan scan, ScanInfo scanInfo,
    NavigableSet<byte[]> targetCols, long readPt) throws IOException {
    SeekPolicy policy = newPolicy(mode, maxSkips);
    if (policy == null) {
      return super.createScanner(scan, scanInfo, targetCols, readPt);
    }
    return scan.isReversed()
      ? new SeekSkipReversedStoreScanner(this, scanInfo, scan, targetCols, readPt, policy,
        decisions)
      : new SeekSkipStoreScanner(this, scanInfo, scan, targetCols, readPt, policy, decisions);
  }
}
