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
package dev.hbasepatches.offheap;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import dev.hbasepatches.testkit.MiniCluster;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.io.hfile.BlockCacheFactory;
import org.apache.hadoop.hbase.io.hfile.CombinedBlockCache;
import org.apache.hadoop.hbase.regionserver.HRegionServer;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.JVMClusterUtil;
import org.junit.ClassRule;
import org.junit.Test;

/**
 * A RegionServer started with exactly the keys PATCH.md documents (and hbase-external-blockcache
 * plus spymemcached on the class path, as in {@code lib/}) reads data blocks from our L2; a bad
 * size stops a RegionServer from starting instead of leaving it silently without an L2.
 */
public class OffHeapMiniClusterTest {
  /** The documented keys, verbatim. */
  static final String[][] KEYS = {
    { "hbase.blockcache.use.external", "true" },
    { "hbase.blockcache.external.class", "dev.hbasepatches.offheap.OffHeapBlockCache" },
    { "hfile.block.cache.policy", "IndexOnlyLRU" },
    { "hfile.block.cache.size", "0.1" },
    { "hbasepatches.offheap.size", "64m" },
    { "hbase.coprocessor.regionserver.classes", "dev.hbasepatches.offheap.OffHeapCacheGuard" } };

  @ClassRule
  public static final MiniCluster CLUSTER = cluster();

  private static MiniCluster cluster() {
    MiniCluster.Builder b = MiniCluster.builder();
    for (String[] kv : KEYS) {
      b.conf(kv[0], kv[1]);
    }
    return b.build();
  }

  private static final byte[] FAMILY = Bytes.toBytes("f");

  @Test
  public void getsAndScansAreServedFromOurL2() throws Exception {
    TableName name = TableName.valueOf("offheap");
    CLUSTER.admin().createTable(TableDescriptorBuilder.newBuilder(name)
      .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(FAMILY).build()).build());
    HRegionServer rs = CLUSTER.util().getRSForFirstRegionInTable(name);
    BlockCache cache = rs.getBlockCache().get();
    assertTrue(cache.toString(), cache instanceof CombinedBlockCache);
    BlockCache l2 = ((CombinedBlockCache) cache).getSecondLevelCache();
    assertTrue("L2 is " + l2, l2 instanceof OffHeapBlockCache);
    OffHeapBlockCache ours = (OffHeapBlockCache) l2;
    assertEquals(OffHeapMode.PATCHED, ours.mode());
    assertNotNull(rs.getRegionServerCoprocessorHost()
      .findCoprocessor(OffHeapCacheGuard.class.getName()));
    int rows = 2000;
    byte[] value = new byte[1000];
    try (Table t = CLUSTER.connection().getTable(name)) {
      List<Put> puts = new ArrayList<>();
      for (int i = 0; i < rows; i++) {
        Arrays.fill(value, (byte) i);
        puts.add(new Put(row(i)).addColumn(FAMILY, Bytes.toBytes("q"), value.clone()));
      }
      t.put(puts);
      CLUSTER.admin().flush(name);
      long hitsBefore = ours.getStats().getHitCount();
      for (int round = 0; round < 2; round++) {
        List<Get> gets = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
          gets.add(new Get(row((i * 37) % rows)));
        }
        Result[] results = t.get(gets);
        for (int i = 0; i < 100; i++) {
          byte[] v = results[i].getValue(FAMILY, Bytes.toBytes("q"));
          assertEquals(1000, v.length);
          assertEquals((byte) ((i * 37) % rows), v[0]);
        }
        int n = 0;
        try (ResultScanner s = t.getScanner(new Scan())) {
          for (Result r : s) {
            assertEquals((byte) n, r.getValue(FAMILY, Bytes.toBytes("q"))[999]);
            n++;
          }
        }
        assertEquals(rows, n);
      }
      assertTrue("no L2 hits: " + ours, ours.getStats().getHitCount() > hitsBefore);
      assertTrue("no data blocks in L2", ours.getDataBlockCount() > 0);
      // The leak check on the RPC path: blocks are released after the responses went out, so
      // wait for reads to settle; then every entry is back at the cache's one reference and no
      // evicted block is still held.
      SlabBlockCache slab = (SlabBlockCache) ours.delegate();
      List<String> problems = settled(slab);
      assertTrue("references leaked on the RPC path: " + problems, problems.isEmpty());
      assertEquals(0, slab.getHeldEvictedCount());
      assertEquals(0, slab.getOverReleaseCount());
    }
  }

  @Test
  public void aRegionServerWithABadSizeRefusesToStart() throws Exception {
    // The cluster's own configuration object, which startRegionServer copies.
    Configuration shared = CLUSTER.util().getMiniHBaseCluster().getConf();
    String good = shared.get("hbasepatches.offheap.size");
    JVMClusterUtil.RegionServerThread t;
    shared.set("hbasepatches.offheap.size", "banana");
    try {
      t = CLUSTER.util().getMiniHBaseCluster().startRegionServer();
    } finally {
      shared.set("hbasepatches.offheap.size", good);
    }
    HRegionServer bad = t.getRegionServer();
    long deadline = System.currentTimeMillis() + 60_000;
    while (!bad.isAborted() && !bad.isStopped() && System.currentTimeMillis() < deadline) {
      Thread.sleep(200);
    }
    assertTrue("a RegionServer with hbasepatches.offheap.size=banana kept running: online "
      + bad.isOnline() + ", cps " + (bad.getRegionServerCoprocessorHost() == null ? null
        : bad.getRegionServerCoprocessorHost().getCoprocessors()),
      bad.isAborted() || bad.isStopped());
    t.join(60_000);
    assertFalse("the refused RegionServer's thread ended", t.isAlive());
    assertFalse(bad.isOnline());
  }

  @Test
  public void theFactorySwallowsABadSizeAndTheGuardNamesIt() {
    Configuration conf = HBaseConfiguration.create();
    for (String[] kv : KEYS) {
      conf.set(kv[0], kv[1]);
    }
    conf.set("hbasepatches.offheap.size", "banana");
    BlockCache cache = BlockCacheFactory.createBlockCache(conf);
    assertFalse("HBase built an L2 from a bad size?", cache instanceof CombinedBlockCache);
    try {
      OffHeapCacheGuard.check(conf, cache);
      fail("the guard accepted a RegionServer without our L2");
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("hbasepatches.offheap.size=banana"));
    }
    conf.set("hbasepatches.offheap.size", "64m");
    conf.set("hfile.block.cache.policy", "LRU");
    try {
      OffHeapCacheGuard.check(conf, BlockCacheFactory.createBlockCache(conf));
      fail("the guard accepted an L1 that keeps data blocks");
    } catch (IllegalStateException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("hfile.block.cache.policy=LRU"));
    }
  }

  /**
   * The quiescent invariants once they hold, or the last violations seen: background reads (the
   * master's meta scans) may hold a block for a moment, the test's reads must not keep any.
   */
  private static List<String> settled(SlabBlockCache slab) throws InterruptedException {
    List<String> problems = slab.invariantViolations(true);
    for (int i = 0; i < 600 && !problems.isEmpty(); i++) {
      Thread.sleep(100);
      problems = slab.invariantViolations(true);
    }
    return problems;
  }

  private static byte[] row(int i) {
    return Bytes.toBytes(String.format("row-%06d", i));
  }
}
