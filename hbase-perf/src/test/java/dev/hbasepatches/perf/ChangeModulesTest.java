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

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import dev.hbasepatches.perf.PerfOptions.ChangeMode;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.regionserver.DefaultStoreEngine;
import org.junit.Assume;
import org.junit.Test;

/** The registry of change modules: what each one sets, and what a missing one says. */
public class ChangeModulesTest {

  private static final String QUOTAS_SERVER = "dev.hbasepatches.quotas.ThrottlingRegionServer";

  @Test
  public void quotasRunsTheThrottlingRegionServerWithQuotasOnInEveryMode() {
    ChangeModules.ChangeModule quotas = ChangeModules.byName("quotas").orElseThrow();
    assertEquals(QUOTAS_SERVER, quotas.probeClass());
    for (ChangeMode mode : ChangeMode.values()) {
      Map<String, String> settings = quotas.settings(mode);
      assertEquals(QUOTAS_SERVER, settings.get("hbase.regionserver.impl"));
      assertEquals("true", settings.get("hbase.quota.enabled"));
      assertEquals(mode.name(), settings.get("hbasepatches.quotas.mode"));
    }
  }

  /** Scans, compactions and flushes all go through the patch's scanner, as its PATCH.md says. */
  @Test
  public void seekSkipSetsTheRegionCompactorAndFlusherInEveryMode() {
    ChangeModules.ChangeModule seekSkip = ChangeModules.byName("seek-skip").orElseThrow();
    for (ChangeMode mode : ChangeMode.values()) {
      Map<String, String> settings = seekSkip.settings(mode);
      assertEquals("dev.hbasepatches.seekskip.SeekSkipRegion", settings.get("hbase.hregion.impl"));
      assertEquals("dev.hbasepatches.seekskip.SeekSkipCompactor",
        settings.get(DefaultStoreEngine.DEFAULT_COMPACTOR_CLASS_KEY));
      assertEquals("dev.hbasepatches.seekskip.SeekSkipStoreFlusher",
        settings.get(DefaultStoreEngine.DEFAULT_STORE_FLUSHER_CLASS_KEY));
      assertEquals(mode.name(), settings.get("hbasepatches.seekskip.mode"));
    }
  }

  /** The keys offheap-read's PATCH.md documents, the guard among them, in every mode. */
  @Test
  public void offheapReadIsTheExternalL2WithItsGuardInEveryMode() {
    ChangeModules.ChangeModule offheap = ChangeModules.byName("offheap-read").orElseThrow();
    for (ChangeMode mode : ChangeMode.values()) {
      Map<String, String> settings = offheap.settings(mode);
      assertEquals("true", settings.get("hbase.blockcache.use.external"));
      assertEquals("dev.hbasepatches.offheap.OffHeapBlockCache",
        settings.get("hbase.blockcache.external.class"));
      assertEquals("IndexOnlyLRU", settings.get("hfile.block.cache.policy"));
      assertEquals("dev.hbasepatches.offheap.OffHeapCacheGuard",
        settings.get("hbase.coprocessor.regionserver.classes"));
      assertEquals(mode.name(), settings.get("hbasepatches.offheap.mode"));
    }
  }

  @Test
  public void aModuleMissingFromTheClasspathIsNamedWithItsClass() {
    // hbase-perf's own test classpath has no quotas module on it (offheap-read only).
    ToolFailure e =
      assertThrows(ToolFailure.class, () -> ChangeModules.select(List.of("quotas")));
    assertTrue(e.getMessage(), e.getMessage().contains("quotas (no class " + QUOTAS_SERVER + ")"));
    assertTrue(ChangeModules.names(), ChangeModules.names().contains("quotas"));
  }

  @Test
  public void rowIndexAndChecksumAreSwitchedPerMode() {
    ChangeModules.ChangeModule rowIndex = ChangeModules.byName("row-index").orElseThrow();
    assertTrue(rowIndex.supports(ChangeMode.PATCHED));
    assertTrue(rowIndex.supports(ChangeMode.UPSTREAM));
    assertFalse(rowIndex.supports(ChangeMode.BASELINE));
    assertEquals("ROW_INDEX_V1", rowIndex.blockEncoding());
    assertEquals("UPSTREAM", rowIndex.settings(ChangeMode.UPSTREAM)
      .get("hbasepatches.rowindex.mode"));
    assertEquals("dev.hbasepatches.rowindex.RowIndexRegionServerCoprocessor",
      rowIndex.settings(ChangeMode.PATCHED).get("hbase.coprocessor.regionserver.classes"));

    ChangeModules.ChangeModule checksum = ChangeModules.byName("checksum").orElseThrow();
    assertEquals("intrinsic", checksum.systemProperties(ChangeMode.PATCHED)
      .get("hbasepatches.checksum.engine"));
    assertEquals("pure-java", checksum.systemProperties(ChangeMode.BASELINE)
      .get("hbasepatches.checksum.engine"));
    assertEquals("false", checksum.systemProperties(ChangeMode.UPSTREAM)
      .get("hbasepatches.checksum.enabled"));
    // The tests' classpath has hbase-server's own ChecksumUtil: the overlay cannot take effect.
    assertTrue(String.valueOf(ChangeModules.checksumOverlayNotFirst()),
      ChangeModules.checksumOverlayNotFirst().contains("not the overlay's"));
  }

  @Test
  public void peStyleChangeAndModeNamesWork() {
    PerfOptions o = PerfArgsParser.parse("--change=row-index", "--mode=upstream", "scan");
    assertEquals(List.of("row-index"), o.changes);
    assertEquals(ChangeMode.UPSTREAM, o.changeMode);
    assertEquals("the family gets the change's encoding", "ROW_INDEX_V1", o.blockEncoding);
    ToolFailure e = assertThrows(ToolFailure.class, () -> PerfArgsParser.parse(
      "--change=row-index", "--blockEncoding=FAST_DIFF", "scan"));
    assertEquals(ToolFailure.EXIT_USAGE, e.exitCode());
  }

  /** A client-side change: its mode goes to the clients, the servers (and cluster) stay as-is. */
  @Test
  public void timelineReadsSetsItsModeInTheClientsConfigurationOnly() {
    ChangeModules.ChangeModule timeline = ChangeModules.byName("timeline-reads").orElseThrow();
    assertTrue(timeline.isClientSide());
    assertTrue(timeline.onClasspath());
    for (ChangeMode mode : ChangeMode.values()) {
      assertEquals(Map.of(), timeline.settings(mode));
      assertEquals(Map.of(TimelineReads.MODE_KEY, mode.name()), timeline.clientSettings(mode));
    }
    PerfOptions with = PerfArgsParser.parse("--regionServers=2", "--replicas=2",
      "--change=timeline-reads", "--mode=upstream", "randomRead");
    PerfOptions without = PerfArgsParser.parse("--regionServers=2", "--replicas=2",
      "randomRead");
    assertEquals("the embedded cluster is the same one with or without it",
      EmbeddedCluster.settings(without, null),
      EmbeddedCluster.settings(with, ChangeModules.select(with.changes, with.changeMode)));
    Configuration base = new Configuration(false);
    Configuration clients = ChangeModules.clientConfiguration(with, base);
    assertEquals("UPSTREAM", clients.get(TimelineReads.MODE_KEY));
    assertNull("the run's own configuration is left alone", base.get(TimelineReads.MODE_KEY));
    assertSame(base, ChangeModules.clientConfiguration(without, base));
    // all (--patched) means the embedded cluster's modules; the reader is on only when named.
    ChangeModules.Selection all = ChangeModules.select(List.of("all"));
    assertFalse(all.present().contains(timeline));
    assertTrue(all.skipped.toString(), all.skipped.stream()
      .anyMatch(s -> s.startsWith("timeline-reads: client side")));
    assertTrue(ChangeModules.select(List.of("all", "timeline-reads")).present()
      .contains(timeline));
    assertSame(base, ChangeModules.clientConfiguration(PerfArgsParser.parse("--patched",
      "randomRead"), base));
    // Server modules are still refused on a real cluster; a client-side one is not.
    assertEquals(List.of("timeline-reads"), PerfArgsParser.parse("--zk=localhost",
      "--change=timeline-reads", "randomRead").changes);
    ToolFailure e = assertThrows(ToolFailure.class, () -> PerfArgsParser.parse("--zk=localhost",
      "--change=quotas", "randomRead"));
    assertTrue(e.getMessage(), e.getMessage().contains("embedded cluster only"));
    e = assertThrows(ToolFailure.class, () -> PerfArgsParser.parse("--change=timeline-reads",
      "replicaFailover"));
    assertTrue(e.getMessage(), e.getMessage().contains("--failoverModes"));
  }

  @Test
  public void localIndexPruningIsRefusedWithWhereItsExperimentRuns() throws Exception {
    File json = new File(System.getProperty("java.io.tmpdir"), "hbase-perf-lip-"
      + System.nanoTime() + ".json");
    ToolRun r = ToolRun.plain("--change=local-index-pruning", "--mode=patched",
      "--json=" + json.getPath(), "--rows=10", "randomRead");
    assertEquals(r.toString(), ToolFailure.EXIT_USAGE, r.exitCode);
    for (String part : new String[] { "--changes=local-index-pruning is not run by hbase-perf",
      "Phoenix change", "hbasepatches.localindex.mode", "has no Phoenix", "LocalIndexPlanBenchmark",
      "LocalIndexClusterScenario", "phoenix-patches/local-index-pruning/PATCH.md" }) {
      assertTrue(part + " in\n" + r, r.err.contains(part));
    }
    assertFalse(r.toString(), r.err.contains("unknown change module"));
    assertFalse("nothing written", json.exists());
    r.assertNoStackTrace();
    // A typo still gets the list of the modules there are.
    r = ToolRun.plain("--change=timeline-read", "randomRead");
    assertEquals(r.toString(), ToolFailure.EXIT_USAGE, r.exitCode);
    assertTrue(r.err, r.err.contains("unknown change module 'timeline-read'; known: all, "));
    assertTrue(r.err, r.err.contains("timeline-reads"));
  }

  /**
   * The tool in a class loader of its own whose classpath lacks the timeline-reads module, as a
   * user's without its jar: the run is refused before anything starts or is written.
   */
  @Test(timeout = 60_000)
  public void timelineReadsMissingFromTheClasspathIsRefusedBeforeAnythingRuns() throws Exception {
    List<URL> urls = new ArrayList<>();
    boolean dropped = false;
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      if (entry.contains("timeline-reads")) {
        dropped = true;
      } else if (!entry.isEmpty()) {
        urls.add(new File(entry).toURI().toURL());
      }
    }
    Assume.assumeTrue("the module is not a separate classpath entry here", dropped);
    File json = new File(System.getProperty("java.io.tmpdir"), "hbase-perf-tl-"
      + System.nanoTime() + ".json");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code;
    try (URLClassLoader loader = new URLClassLoader(urls.toArray(new URL[0]),
      ClassLoader.getPlatformClassLoader());
      PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
      PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      Thread self = Thread.currentThread();
      ClassLoader before = self.getContextClassLoader();
      self.setContextClassLoader(loader);
      try {
        Class<?> tool = Class.forName(PerfTool.class.getName(), true, loader);
        assertFalse(tool == PerfTool.class);
        code = (Integer) tool.getMethod("run", String[].class, PrintStream.class,
          PrintStream.class).invoke(null, new String[] { "--change=timeline-reads",
            "--replicas=2", "--json=" + json.getPath(), "--rows=10", "randomRead" }, o, e);
      } finally {
        self.setContextClassLoader(before);
      }
    }
    String text = err.toString(StandardCharsets.UTF_8);
    assertEquals(text, ToolFailure.EXIT_USAGE, code);
    assertTrue(text, text.contains("timeline-reads (no class " + TimelineReads.READER_CLASS
      + ")"));
    assertFalse(text, text.contains("starting embedded minicluster"));
    assertFalse("nothing written", json.exists());
  }
}
