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
import static org.junit.Assert.assertTrue;

import dev.hbasepatches.offheap.OffHeapBlockCache;
import dev.hbasepatches.offheap.OffHeapMode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.io.hfile.CombinedBlockCache;
import org.apache.hadoop.hbase.regionserver.HRegionServer;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;
import org.junit.AfterClass;
import org.junit.Test;

/**
 * cachedReads with {@code --changes=offheap-read}: the embedded RegionServer really runs the
 * module's L2 in the asked mode, the reads are served from it, and the report carries the GC and
 * allocation counts per command.
 */
public class CachedReadsOffHeapTest {

  private static final String[] ARGS = { "--progress=0", "--changes=offheap-read",
    "--changeMode=patched", "-Dhbasepatches.offheap.size=64m", "--rows=600", "--table=cached",
    "--verify", "cachedReads", "2" };

  /** The very cluster the tool builds for these arguments (shared per JVM by its settings). */
  private static LocalMiniCluster cluster() {
    PerfOptions o = PerfArgsParser.parse(ARGS);
    return EmbeddedCluster.miniCluster(o, ChangeModules.select(o.changes));
  }

  @AfterClass
  public static void stopCluster() {
    cluster().stop();
  }

  @Test
  public void readsAreServedFromTheModulesL2InPatchedMode() throws Exception {
    ToolRun r = ToolRun.withJson(ARGS);
    assertEquals(r.toString(), 0, r.exitCode);
    r.assertNoStackTrace();

    Map<String, JsonObject> byName = new HashMap<>();
    for (JsonObject m : r.measured()) {
      byName.put(m.get("name").getAsString(), m);
      assertEquals(r.toString(), 0, m.getAsJsonObject("verify").get("missing").getAsLong());
      assertEquals(r.toString(), 0, m.getAsJsonObject("verify").get("wrong").getAsLong());
      JsonObject jvm = m.getAsJsonObject("jvm");
      assertTrue(r.toString(), jvm.get("allocatedBytesPerOp").getAsLong() > 0);
      // GC time is a difference of two readings: never negative, and none without a collection.
      long gcMillis = jvm.get("gcMillis").getAsLong();
      long gcCollections = jvm.get("gcCollections").getAsLong();
      assertTrue(r.toString(), gcCollections >= 0 && gcMillis >= 0);
      assertTrue(r.toString(), gcCollections > 0 || gcMillis == 0);
      // The L2's counts while this command ran: every row read at least one hit on our cache.
      JsonObject l2 = m.getAsJsonArray("l2During").get(0).getAsJsonObject();
      assertEquals(r.toString(), "OffHeapBlockCache", l2.get("l2").getAsString());
      assertTrue(r.toString(), l2.get("l2Hits").getAsLong() >= m.get("rows").getAsLong());
    }
    assertEquals(r.toString(), List.of("multiGet100", "randomRead"),
      new ArrayList<>(new TreeSet<>(byName.keySet())));
    // 2 x 600 rows: single gets one row per operation, multi-gets 100 rows per operation.
    assertEquals(1200, byName.get("randomRead").get("rows").getAsLong());
    assertEquals(12, byName.get("multiGet100").get("operations").getAsLong());
    assertEquals(1200, byName.get("multiGet100").get("rows").getAsLong());
    // The warm-up scan cached every data block; the first Gets may look up a block no scan
    // reads (the row bloom's chunk, possibly by both clients at once: 1-2 L2 misses here);
    // after that nothing misses.
    assertTrue(r.toString(), l2Misses(byName.get("randomRead")) <= 1200 / 100);
    assertEquals(r.toString(), 0, l2Misses(byName.get("multiGet100")));
    assertTrue(r.err, r.err.contains("L2 OffHeapBlockCache{mode=PATCHED"));

    HRegionServer rs = cluster().regionServer(0);
    BlockCache cache = rs.getBlockCache().get();
    assertTrue(cache.toString(), cache instanceof CombinedBlockCache);
    BlockCache l2 = ((CombinedBlockCache) cache).getSecondLevelCache();
    assertTrue("L2 is " + l2, l2 instanceof OffHeapBlockCache);
    OffHeapBlockCache ours = (OffHeapBlockCache) l2;
    assertEquals(OffHeapMode.PATCHED, ours.mode());
    assertTrue("no data blocks in the L2: " + ours, ours.getDataBlockCount() > 0);

    // Fully cached: reading every row again hits the L2 and misses nothing.
    long hits = ours.getStats().getHitCount();
    long misses = ours.getStats().getMissCount();
    try (Table t = cluster().connection().getTable(TableName.valueOf("cached"))) {
      for (long row = 0; row < 1200; row += 7) {
        Result res = t.get(new Get(RowKeys.key(row)));
        assertTrue("row " + row, !res.isEmpty());
      }
    }
    assertTrue(ours.toString(), ours.getStats().getHitCount() > hits);
    assertEquals(ours.toString(), misses, ours.getStats().getMissCount());
  }

  private static long l2Misses(JsonObject command) {
    return command.getAsJsonArray("l2During").get(0).getAsJsonObject().get("l2Misses")
      .getAsLong();
  }
}
