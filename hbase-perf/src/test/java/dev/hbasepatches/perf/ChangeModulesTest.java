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
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import dev.hbasepatches.perf.PerfOptions.ChangeMode;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.regionserver.DefaultStoreEngine;
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
}
