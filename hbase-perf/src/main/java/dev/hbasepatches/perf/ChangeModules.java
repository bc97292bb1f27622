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
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.regionserver.DefaultStoreEngine;

/**
 * This project's change modules as the tool turns them on: by configuration keys and class names
 * given as strings, so hbase-perf never compiles against them and runs fine when they are not on
 * the classpath. A module whose class is missing is reported, not guessed at.
 * <p>
 * A module joins by adding one {@link ChangeModule} to {@link #KNOWN}: the class that proves it
 * is on the classpath, the settings that turn it on, and the key its mode goes in. A server-side
 * module's settings go to the embedded cluster's RegionServers; a client-side one's
 * ({@link ChangeModule#clientSide}) to the configuration the tool's clients connect with.
 * Changes hbase-perf cannot drive at all are in {@link #ELSEWHERE}, with where they are measured.
 */
public final class ChangeModules {

  /** One change module and how a RegionServer, or the tool's client, picks it up. */
  public static final class ChangeModule {
    private final String name;
    private final String probeClass;
    private final Map<String, String> settings;
    private final String modeKey;
    private Set<ChangeMode> modes = EnumSet.allOf(ChangeMode.class);
    private Function<ChangeMode, Map<String, String>> systemProperties = m -> Map.of();
    private String blockEncoding;
    private Supplier<String> notInEffect = () -> null;
    private boolean clientSide;

    ChangeModule(String name, String probeClass, Map<String, String> settings, String modeKey) {
      this.name = name;
      this.probeClass = probeClass;
      this.settings = settings;
      this.modeKey = modeKey;
    }

    /** The modes the module has; others are refused. */
    ChangeModule modes(ChangeMode... supported) {
      this.modes = EnumSet.copyOf(Arrays.asList(supported));
      return this;
    }

    /** JVM system properties per mode, for code that reads them once at class load. */
    ChangeModule systemProperties(Function<ChangeMode, Map<String, String>> props) {
      this.systemProperties = props;
      return this;
    }

    /** The data block encoding the change works through; the table is created with it. */
    ChangeModule blockEncoding(String encoding) {
      this.blockEncoding = encoding;
      return this;
    }

    /** Why the module, though present, cannot take effect in this JVM, or null when it can. */
    ChangeModule notInEffect(Supplier<String> check) {
      this.notInEffect = check;
      return this;
    }

    /** The module works in the client: its settings go to the clients' configuration. */
    ChangeModule clientSide() {
      this.clientSide = true;
      return this;
    }

    public boolean isClientSide() {
      return clientSide;
    }

    public boolean supports(ChangeMode mode) {
      return modes.contains(mode);
    }

    public Set<ChangeMode> modes() {
      return modes;
    }

    public Map<String, String> systemProperties(ChangeMode mode) {
      return systemProperties.apply(mode);
    }

    public String blockEncoding() {
      return blockEncoding;
    }

    public String notInEffect() {
      return notInEffect.get();
    }

    public String name() {
      return name;
    }

    public String probeClass() {
      return probeClass;
    }

    /** The server settings that turn the module on in the given mode (none for a client one). */
    public Map<String, String> settings(ChangeMode mode) {
      return clientSide ? Map.of() : ownSettings(mode);
    }

    /** The client settings that turn the module on in the given mode (none for a server one). */
    public Map<String, String> clientSettings(ChangeMode mode) {
      return clientSide ? ownSettings(mode) : Map.of();
    }

    private Map<String, String> ownSettings(ChangeMode mode) {
      Map<String, String> all = new TreeMap<>(settings);
      if (modeKey != null) {
        all.put(modeKey, mode.name());
      }
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

  /** The key several modules add a RegionServer coprocessor to; their values are joined. */
  static final String COPROCESSORS_KEY = "hbase.coprocessor.regionserver.classes";

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
        COPROCESSORS_KEY, "dev.hbasepatches.offheap.OffHeapCacheGuard"),
      "hbasepatches.offheap.mode"),
    // The encoder behind ROW_INDEX_V1, installed by a RegionServer coprocessor; the table is
    // created with that encoding. UPSTREAM leaves HBase's RowIndexCodecV1; there is no BASELINE.
    new ChangeModule("row-index", "dev.hbasepatches.rowindex.RowIndexRegionServerCoprocessor",
      Map.of(COPROCESSORS_KEY, "dev.hbasepatches.rowindex.RowIndexRegionServerCoprocessor"),
      "hbasepatches.rowindex.mode").modes(ChangeMode.PATCHED, ChangeMode.UPSTREAM)
        .blockEncoding("ROW_INDEX_V1"),
    // HBase's own ChecksumUtil replaced by the overlay's, which must come before hbase-server on
    // the classpath (dev-support/hbase-perf.sh puts it there when --change=checksum is given).
    // Its keys are read once when the class loads, from hbase-site.xml or system properties, so
    // they go in as system properties before the cluster starts: PATCHED = intrinsic CRCs,
    // BASELINE = Hadoop's pure-Java CRCs per chunk, UPSTREAM = the stock path (the overlay's own
    // rewrite of it: for HBase's very class, run without --change=checksum).
    new ChangeModule("checksum", "dev.hbasepatches.checksum.overlay.StockChecksumPath", Map.of(),
      null).systemProperties(ChangeModules::checksumProperties)
        .notInEffect(ChangeModules::checksumOverlayNotFirst),
    // Client side: the read commands' Gets, multi-gets and scanners go through the module's
    // TimelineReader (TimelineReads), in the mode the clients' configuration names; nothing
    // changes on the RegionServers. PATCHED = its hedged reads, UPSTREAM = HBase's own TIMELINE
    // read, BASELINE = STRONG reads from the primary.
    new ChangeModule("timeline-reads", TimelineReads.READER_CLASS, Map.of(),
      TimelineReads.MODE_KEY).clientSide());

  /**
   * Change modules of this project that hbase-perf does not drive, with why and where their
   * experiment runs instead: --changes names them with that, not as unknown.
   */
  static final Map<String, String> ELSEWHERE = Map.of(
    "local-index-pruning", "local-index-pruning is a Phoenix change (client-side query planning, "
      + "switched by the JDBC connection property hbasepatches.localindex.mode and used through "
      + "its LocalIndexQueryExecutor); hbase-perf drives HBase's own client and has no Phoenix, "
      + "so it cannot turn it on. Its experiment runs in the module itself: the JMH benchmark "
      + "LocalIndexPlanBenchmark (jmh-benchmarks) for region selection, LocalIndexClusterScenario "
      + "(a minicluster main in the module's tests) for regions scanned, RPCs and latency, and "
      + "LocalIndexModesClusterTest for the rows per mode; see "
      + "phoenix-patches/local-index-pruning/PATCH.md");

  static Map<String, String> checksumProperties(ChangeMode mode) {
    switch (mode) {
      case BASELINE:
        return Map.of("hbasepatches.checksum.enabled", "true", "hbasepatches.checksum.engine",
          "pure-java");
      case UPSTREAM:
        return Map.of("hbasepatches.checksum.enabled", "false");
      default:
        return Map.of("hbasepatches.checksum.enabled", "true", "hbasepatches.checksum.engine",
          "intrinsic");
    }
  }

  /** Null when the ChecksumUtil this JVM loads is the overlay's, else what is wrong. */
  static String checksumOverlayNotFirst() {
    String where;
    try {
      Class<?> c = Class.forName("org.apache.hadoop.hbase.io.hfile.ChecksumUtil", false,
        ChangeModules.class.getClassLoader());
      java.security.CodeSource src = c.getProtectionDomain().getCodeSource();
      where = src == null || src.getLocation() == null ? "?" : src.getLocation().toString();
    } catch (ClassNotFoundException | LinkageError e) {
      return "no ChecksumUtil on the classpath";
    }
    return where.contains("checksum-overlay") ? null
      : "HBase's own ChecksumUtil was loaded (from " + where + "), not the overlay's: put "
        + "hbasepatches-checksum-overlay-*.jar before the tool's jar (dev-support/hbase-perf.sh "
        + "does when --change=checksum is given)";
  }

  private ChangeModules() {
  }

  public static Optional<ChangeModule> byName(String name) {
    return KNOWN.stream().filter(m -> m.name().equals(name)).findFirst();
  }

  public static String names() {
    return KNOWN.stream().map(ChangeModule::name).collect(Collectors.joining(", "));
  }

  /** Why hbase-perf cannot turn on a change of this project it does not drive, if it is one. */
  public static Optional<String> elsewhere(String name) {
    return Optional.ofNullable(ELSEWHERE.get(name));
  }

  /** The client-side modules --changes turns on in --changeMode, e.g. timeline-reads. */
  public static List<ChangeModule> clientSide(PerfOptions o) {
    if (o.changes.isEmpty()) {
      return List.of();
    }
    return select(o.changes, o.changeMode).present().stream().filter(ChangeModule::isClientSide)
      .collect(Collectors.toList());
  }

  /**
   * The configuration the clients connect with: {@code base} itself when no client-side change
   * is on, else a copy with those changes' settings (timeline-reads: its mode key).
   */
  static Configuration clientConfiguration(PerfOptions options, Configuration base) {
    List<ChangeModule> modules = clientSide(options);
    if (modules.isEmpty()) {
      return base;
    }
    Configuration conf = new Configuration(base);
    for (ChangeModule m : modules) {
      m.clientSettings(options.changeMode).forEach(conf::set);
    }
    return conf;
  }

  /** What --changes asked for, split into the modules found and those missing. */
  public static final class Selection {
    final List<ChangeModule> present = new ArrayList<>();
    final List<ChangeModule> missing = new ArrayList<>();
    /** Modules present but left out under {@code all}, with why. */
    final List<String> skipped = new ArrayList<>();

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
    return select(requested, ChangeMode.PATCHED);
  }

  /**
   * Resolves --changes for a mode. Named modules must be on the classpath, have the mode and be
   * able to take effect; with {@code all}, the server-side ones that can are used and the others
   * listed, unless none can.
   */
  public static Selection select(List<String> requested, ChangeMode mode) {
    Selection s = new Selection();
    boolean all = requested.contains("all");
    List<String> refused = new ArrayList<>();
    for (ChangeModule m : KNOWN) {
      if (!all && !requested.contains(m.name())) {
        continue;
      }
      if (m.isClientSide() && !requested.contains(m.name())) {
        // all = the modules of the embedded cluster; a client-side one changes how the tool
        // itself reads, so it is on only when named.
        s.skipped.add(m.name() + ": client side, on only when named (--changes=all,"
          + m.name() + ")");
        continue;
      }
      if (!m.onClasspath()) {
        s.missing.add(m);
      } else if (!m.supports(mode)) {
        refused.add(m.name() + " has no " + mode + " mode (it has " + m.modes() + ")");
        s.skipped.add(m.name() + ": no " + mode + " mode");
      } else if (m.notInEffect() != null) {
        refused.add(m.name() + ": " + m.notInEffect());
        s.skipped.add(m.name() + ": " + m.notInEffect());
      } else {
        s.present.add(m);
      }
    }
    if (!s.missing.isEmpty() && (!all || s.present.isEmpty())) {
      throw ToolFailure.usage("change module(s) not on the classpath: " + describeMissing(s.missing)
        + "\nbuild them (mvn -B package -DskipTests -pl hbase-patches/<module> -am) and put "
        + "their jars on HBASE_PERF_CLASSPATH; dev-support/hbase-perf.sh adds built ones itself");
    }
    if (!refused.isEmpty() && (!all || s.present.isEmpty())) {
      throw ToolFailure.usage("--changes: " + String.join("; ", refused));
    }
    return s;
  }

  static String describeMissing(List<ChangeModule> missing) {
    return missing.stream().map(m -> m.name() + " (no class " + m.probeClass() + ")")
      .collect(Collectors.joining(", "));
  }
}
