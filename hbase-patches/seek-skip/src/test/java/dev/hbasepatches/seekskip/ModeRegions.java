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

import dev.hbasepatches.testkit.LocalRegion;
import dev.hbasepatches.testkit.ScanShape;
import java.io.IOException;
import java.util.function.Consumer;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.regionserver.DefaultStoreEngine;
import org.apache.hadoop.hbase.regionserver.HStore;

/** Opens a local {@link SeekSkipRegion} in a given mode; the rest of the settings come from tests. */
final class ModeRegions {
  private ModeRegions() {
  }

  static LocalRegion open(String name, SeekSkipMode mode, Consumer<LocalRegion.Builder> settings)
    throws IOException {
    return open(name, mode, null, settings);
  }

  static LocalRegion open(String name, SeekSkipMode mode, Integer maxSkips,
    Consumer<LocalRegion.Builder> settings) throws IOException {
    LocalRegion.Builder b = LocalRegion.builder(name).regionClass(SeekSkipRegion.class)
      .conf(SeekSkipMode.MODE_KEY, mode.name())
      .conf(DefaultStoreEngine.DEFAULT_COMPACTOR_CLASS_KEY, SeekSkipCompactor.class.getName())
      .conf(DefaultStoreEngine.DEFAULT_STORE_FLUSHER_CLASS_KEY, SeekSkipStoreFlusher.class.getName());
    if (maxSkips != null) {
      b.conf(BoundedSkipPolicy.MAX_SKIPS_KEY, Integer.toString(maxSkips));
    }
    settings.accept(b);
    return b.build();
  }

  static SeekSkipStore store(LocalRegion region) {
    HStore s = region.store(ScanShape.FAMILY);
    if (!(s instanceof SeekSkipStore)) {
      throw new AssertionError("expected a SeekSkipStore but the region opened " + s.getClass());
    }
    return (SeekSkipStore) s;
  }

  /** A scan over {@code [min, max)}; the checked exception cannot happen for min <= max. */
  static Scan timeRange(long min, long max) {
    try {
      return new Scan().setTimeRange(min, max);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
