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

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import org.apache.hadoop.hbase.regionserver.StoreScanner;
import org.apache.hadoop.hbase.regionserver.querymatcher.ColumnTracker;
import org.apache.hadoop.hbase.regionserver.querymatcher.ScanQueryMatcher;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * The two pieces of StoreScanner state the skip logic needs and HBase keeps private: the
 * scanner's query matcher and that matcher's column tracker. Looked up once; if a different HBase
 * build lacks them, {@link #problem()} says why and the store falls back to the stock scanner
 * rather than failing reads.
 */
@InterfaceAudience.Private
final class ScannerInternals {
  private static final MethodHandle MATCHER;
  private static final MethodHandle COLUMNS;
  private static final MethodHandle EXPLICIT_COLUMNS;
  private static final MethodHandle ROWCOL_BLOOM;
  private static final MethodHandle LAZY_SEEK;
  private static final String PROBLEM;

  static {
    MethodHandle matcher = null;
    MethodHandle columns = null;
    MethodHandle explicitColumns = null;
    MethodHandle rowColBloom = null;
    MethodHandle lazySeek = null;
    String problem = null;
    try {
      MethodHandles.Lookup scanner =
        MethodHandles.privateLookupIn(StoreScanner.class, MethodHandles.lookup());
      matcher = scanner.findGetter(StoreScanner.class, "matcher", ScanQueryMatcher.class);
      explicitColumns = scanner.findGetter(StoreScanner.class, "explicitColumnQuery",
        boolean.class);
      rowColBloom = scanner.findGetter(StoreScanner.class, "useRowColBloom", boolean.class);
      lazySeek = scanner.findStaticGetter(StoreScanner.class, "lazySeekEnabledGlobally",
        boolean.class);
      columns = MethodHandles.privateLookupIn(ScanQueryMatcher.class, MethodHandles.lookup())
        .findGetter(ScanQueryMatcher.class, "columns", ColumnTracker.class);
    } catch (ReflectiveOperationException | RuntimeException e) {
      problem = "this HBase build's StoreScanner/ScanQueryMatcher do not expose the fields the "
        + "seek-skip patch reads (" + e + ")";
    }
    MATCHER = matcher;
    COLUMNS = columns;
    EXPLICIT_COLUMNS = explicitColumns;
    ROWCOL_BLOOM = rowColBloom;
    LAZY_SEEK = lazySeek;
    PROBLEM = problem;
  }

  private ScannerInternals() {
  }

  /** Null when the patch can run on this HBase build, else the reason it cannot. */
  static String problem() {
    return PROBLEM;
  }

  static ScanQueryMatcher matcher(StoreScanner scanner) {
    try {
      return (ScanQueryMatcher) MATCHER.invokeExact(scanner);
    } catch (Throwable t) {
      throw new IllegalStateException("cannot read the scanner's query matcher", t);
    }
  }

  /**
   * Whether the scanner seeks lazily (HBASE-4465): an explicit column list with lazy seek on, the
   * case where StoreScanner reseeks through {@code KeyValueHeap.requestSeek}.
   */
  static boolean lazySeek(StoreScanner scanner) {
    try {
      return (boolean) EXPLICIT_COLUMNS.invokeExact(scanner) && (boolean) LAZY_SEEK.invokeExact();
    } catch (Throwable t) {
      throw new IllegalStateException("cannot read the scanner's lazy seek setting", t);
    }
  }

  /** Whether the scanner's lazy seeks consult ROWCOL bloom filters. */
  static boolean useRowColBloom(StoreScanner scanner) {
    try {
      return (boolean) ROWCOL_BLOOM.invokeExact(scanner);
    } catch (Throwable t) {
      throw new IllegalStateException("cannot read the scanner's bloom setting", t);
    }
  }

  static ColumnTracker columns(ScanQueryMatcher matcher) {
    try {
      return (ColumnTracker) COLUMNS.invokeExact(matcher);
    } catch (Throwable t) {
      throw new IllegalStateException("cannot read the matcher's column tracker", t);
    }
  }
}
