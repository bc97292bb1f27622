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
package dev.hbasepatches.perf;

import dev.hbasepatches.perf.PerfOptions.ChangeMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.hadoop.hbase.regionserver.DefaultStoreEngine;

/**
 * This project's change modules as the embedded cluster turns them on: by configuration keys and
 * class names given as strings, so hbase-perf never compiles against them and runs fine when
 * they are not on the classpath. A module whose class is missing is reported, not guessed at.
 * <p>
 * A module joins by adding one {@link ChangeModule} to {@link #KNOWN}: the class that proves it
 * is on the classpath, the settings that turn it on, and the key its mode goes in.
 */
public final class ChangeModules {

  /** One change module and how a RegionServer picks it up. */
  public static final class ChangeModule {
    private final String name;
    private final String probeClass;
    private final Map<String, String> settings;
    private final String modeKey;

    ChangeModule(String name, String probeClass, Map<String, String> settings, String modeKey) {
      this.name = name;
      this.probeClass = probeClass;
      this.settings = settings;
      this.modeKey = modeKey;
    }

    public String name() {
      return name;
    }

    public String probeClass() {
      return probeClass;
    }

    /** The server settings that turn the module on in the given mode. */
    public Map<String, String> settings(ChangeMode mode) {
      Map<String, String> all = new TreeMap<>(settings);
      all.put(modeKey, mode.name());
      return all;
    }

    public boolean onClasspath() {
      try {
        Class.forName(probeClass, false, ChangeModules.class.getClassLoader());
        return true;
      } catch (ClassNotFoundException | LinkageError e) {
        return false;
      }
    }
  }

  static final List<ChangeModule> KNOWN = List.of(
    new ChangeModule("seek-skip", "dev.hbasepatches.seekskip.SeekSkipRegion",
      Map.of("hbase.hregion.impl", "dev.hbasepatches.seekskip.SeekSkipRegion",
        DefaultStoreEngine.DEFAULT_COMPACTOR_CLASS_KEY,
        "dev.hbasepatches.seekskip.SeekSkipCompactor",
        DefaultStoreEngine.DEFAULT_STORE_FLUSHER_CLASS_KEY,
        "dev.hbasepatches.seekskip.SeekSkipStoreFlusher"),
      "hbasepatches.seekskip.mode"),
    // The RegionServer class: the embedded cluster's servers are built from the same key.
    new ChangeModule("quotas", "dev.hbasepatches.quotas.ThrottlingRegionServer",
      Map.of("hbase.regionserver.impl", "dev.hbasepatches.quotas.ThrottlingRegionServer",
        "hbase.quota.enabled", "true"),
      "hbasepatches.quotas.mode"),
    // The L2 block cache, with exactly the keys its PATCH.md documents: data blocks are served
    // from it (IndexOnlyLRU keeps the heap L1 to index and bloom blocks) and the guard refuses to
    // start a RegionServer without it. The mode picks PATCHED (ours), BASELINE (the same cache,
    // copy on read) or UPSTREAM (HBase's off-heap BucketCache of the same size). The size holds
    // the tool's default data (2 x 100,000 rows of 1 KB) with room; -D overrides it.
    new ChangeModule("offheap-read", "dev.hbasepatches.offheap.OffHeapBlockCache",
      Map.of("hbase.blockcache.use.external", "true",
        "hbase.blockcache.external.class", "dev.hbasepatches.offheap.OffHeapBlockCache",
        "hfile.block.cache.policy", "IndexOnlyLRU",
        "hfile.block.cache.size", "0.1",
        "hbasepatches.offheap.size", "512m",
        "hbase.coprocessor.regionserver.classes", "dev.hbasepatches.offheap.OffHeapCacheGuard"),
      "hbasepatches.offheap.mode"));

  private ChangeModules() {
  }

  public static Optional<ChangeModule> byName(String name) {
    return KNOWN.stream().filter(m -> m.name().equals(name)).findFirst();
  }

  public static String names() {
    return KNOWN.stream().map(ChangeModule::name).collect(Collectors.joining(", "));
  }

  /** What --changes asked for, split into the modules found and those missing. */
  public static final class Selection {
    final List<ChangeModule> present = new ArrayList<>();
    final List<ChangeModule> missing = new ArrayList<>();

    public List<ChangeModule> present() {
      return present;
    }

    public List<ChangeModule> missing() {
      return missing;
    }
  }

  /**
   * Resolves --changes. Named modules must be on the classpath; with {@code all}, the ones that
   * are present are used and the others listed, unless none is present at all.
   */
  public static Selection select(List<String> requested) {
    Selection s = new Selection();
    boolean all = requested.contains("all");
    for (ChangeModule m : KNOWN) {
      if (all || requested.contains(m.name())) {
        (m.onClasspath() ? s.present : s.missing).add(m);
      }
    }
    if (!s.missing.isEmpty() && (!all || s.present.isEmpty())) {
      throw ToolFailure.usage("change module(s) not on the classpath: " + describeMissing(s.missing)
        + "\nbuild them (mvn -B package -DskipTests -pl hbase-patches/<module> -am) and put "
        + "their jars on HBASE_PERF_CLASSPATH; dev-support/hbase-perf.sh adds built ones itself");
    }
    return s;
  }

  static String describeMissing(List<ChangeModule> missing) {
    return missing.stream().map(m -> m.name() + " (no class " + m.probeClass() + ")")
      .collect(Collectors.joining(", "));
  }
}
