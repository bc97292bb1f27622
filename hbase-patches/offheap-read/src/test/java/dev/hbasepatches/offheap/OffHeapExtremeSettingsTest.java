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
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import org.apache.hadoop.conf.Configuration;
import org.junit.Test;

/**
 * Zero, negative and int / long edge values of the size keys ({@code hbasepatches.offheap.size},
 * {@code .slab.size}, {@code .size.classes}): each is refused at start with a message naming the
 * key, the value and the limit, never cast or rounded into a cache that caches nothing.
 */
public class OffHeapExtremeSettingsTest {
  private static final String SIZE = OffHeapCacheConfig.SIZE_KEY;
  private static final String SLAB = OffHeapCacheConfig.SLAB_SIZE_KEY;
  private static final String CLASSES = OffHeapCacheConfig.SIZE_CLASSES_KEY;
  private static final String INT_MAX = Integer.toString(Integer.MAX_VALUE);

  private static Configuration conf(String... kv) {
    Configuration c = new Configuration(false);
    for (int i = 0; i < kv.length; i += 2) {
      c.set(kv[i], kv[i + 1]);
    }
    return c;
  }

  private static String refused(Configuration conf, String... expected) {
    OffHeapCacheConfig accepted;
    try {
      accepted = OffHeapCacheConfig.from(conf);
    } catch (IllegalArgumentException e) {
      for (String s : expected) {
        assertTrue("'" + e.getMessage() + "' does not name " + s, e.getMessage().contains(s));
      }
      return e.getMessage();
    }
    fail("accepted " + accepted + " (" + accepted.slabCount() + " slabs)");
    return null;
  }

  @Test
  public void zeroAndNegativeSizesAreRefused() {
    refused(conf(SIZE, "0"), SIZE + "=0", "8388608");
    refused(conf(SIZE, "-1"), SIZE + "=-1", "8388608");
    refused(conf(SIZE, "-9223372036854775808"), SIZE + "=-9223372036854775808", "8388608");
    refused(conf(SIZE, "64m", SLAB, "0"), SLAB + "=0", "256", INT_MAX);
    refused(conf(SIZE, "64m", SLAB, "-1"), SLAB + "=-1", "256", INT_MAX);
    refused(conf(SIZE, "64m", CLASSES, "0"), CLASSES + "=0", "256");
    refused(conf(SIZE, "64m", CLASSES, "5k,-1"), CLASSES + "=5k,-1", "256");
    refused(conf(SIZE, "64m", CLASSES, "5k,,9k"), CLASSES + "=5k,,9k");
  }

  @Test
  public void longEdgesAreRefused() {
    refused(conf(SIZE, "8e"), SIZE + "=8e", "9223372036854775807");
    refused(conf(SIZE, "9223372036854775808"), SIZE + "=9223372036854775808",
      "9223372036854775807");
    // Long.MAX_VALUE bytes of 8 MB slabs: 2^40 slabs.
    refused(conf(SIZE, "9223372036854775807"), SIZE + "=9223372036854775807", INT_MAX);
    refused(conf(SIZE, "7e"), SIZE + "=8070450532247928832", INT_MAX);
    refused(conf(SIZE, "64m", SLAB, "9223372036854775807"), SLAB + "=9223372036854775807",
      INT_MAX);
    refused(conf(SIZE, "64m", CLASSES, "5k,9223372036854775807"),
      CLASSES + "=5k,9223372036854775807", INT_MAX);
  }

  @Test
  public void slabAndSlotCountsAboveAnIntAreRefusedNotTruncated() {
    // 1 TiB of 256-byte slabs is 2^32 slabs: an int cast made it 0 (a cache that caches nothing).
    refused(conf(SIZE, "1t", SLAB, "256", CLASSES, "256"), SIZE + "=1099511627776",
      SLAB + "=256", INT_MAX);
    // 2^39 bytes of 256-byte slabs is 2^31 slabs: an int cast made it negative.
    refused(conf(SIZE, Long.toString(1L << 39), SLAB, "256", CLASSES, "256"),
      SIZE + "=549755813888", INT_MAX);
    // One slab past the int edge, and the same through the constructor.
    long justOver = (Integer.MAX_VALUE + 1L) * 256;
    try {
      new OffHeapCacheConfig(justOver, 256, new int[] { 256 });
      fail("accepted " + justOver + " bytes of 256-byte slabs");
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().contains(SIZE + "=" + justOver));
      assertTrue(e.getMessage(), e.getMessage().contains(INT_MAX));
    }
  }

  @Test
  public void intEdgesOfSlabAndClassSizesAreRefused() {
    refused(conf(SIZE, "64m", SLAB, "2g"), SLAB + "=2g", INT_MAX);
    refused(conf(SIZE, "64m", SLAB, "2147483648"), SLAB + "=2147483648", INT_MAX);
    refused(conf(SIZE, "64m", SLAB, "255", CLASSES, "256"), SLAB + "=255", "256");
    refused(conf(SIZE, "64m", CLASSES, "5k,2147483648"), CLASSES + "=5k,2147483648", INT_MAX);
    refused(conf(SIZE, "64m", CLASSES, "255"), CLASSES + "=255", "256");
    // A class larger than a slab can never be carved from one.
    refused(conf(SIZE, "64m", SLAB, "1m", CLASSES, "5k,2m"), CLASSES, SLAB + "=1048576");
  }

  @Test
  public void theIntAndDirectMemoryEdgesThemselvesAreAccepted() {
    // The most slots a size can index, with direct memory not the limit: accepted, nothing
    // allocated until used.
    long mostSlots = (long) OffHeapCacheConfig.MAX_SLOTS * 256;
    OffHeapCacheConfig edge =
      new OffHeapCacheConfig(mostSlots, 256, new int[] { 256 }, Long.MAX_VALUE);
    assertEquals(OffHeapCacheConfig.MAX_SLOTS, edge.slabCount());
    refusedByConstructor(mostSlots + 256, 256, new int[] { 256 }, Long.MAX_VALUE,
      SIZE + "=" + (mostSlots + 256), Integer.toString(OffHeapCacheConfig.MAX_SLOTS));
    // 1 TiB of the default 8 MB slabs fits an int easily.
    assertEquals(131072, OffHeapCacheConfig.from(conf(SIZE, "1t"), Long.MAX_VALUE).slabCount());
    // Exactly the JVM's direct memory is accepted; one slab more is refused naming both numbers.
    long direct = 64L << 20;
    assertEquals(direct, OffHeapCacheConfig.from(conf(SIZE, "64m"), direct).capacity());
    refusedByConstructor(direct + (8 << 20), 8 << 20, new int[] { 5120 }, direct,
      SIZE + "=" + (direct + (8 << 20)), Long.toString(direct), "MaxDirectMemorySize");
    // A size with a partial slab is checked after rounding down to whole slabs.
    assertEquals(direct, new OffHeapCacheConfig(direct + 100, 8 << 20, new int[] { 5120 }, direct)
      .capacity());
  }

  private static void refusedByConstructor(long capacity, int slab, int[] classes,
    long maxDirect, String... expected) {
    try {
      OffHeapCacheConfig c = new OffHeapCacheConfig(capacity, slab, classes, maxDirect);
      fail("accepted " + c);
    } catch (IllegalArgumentException e) {
      for (String s : expected) {
        assertTrue("'" + e.getMessage() + "' does not name " + s, e.getMessage().contains(s));
      }
    }
  }

  @Test
  public void smallestAcceptedSettingsMakeAWorkingCache() {
    OffHeapCacheConfig one =
      OffHeapCacheConfig.from(conf(SIZE, "256", SLAB, "256", CLASSES, "256"));
    assertEquals(256, one.capacity());
    assertEquals(1, one.slabCount());
    // A size that is not a whole number of slabs is rounded down to whole slabs.
    OffHeapCacheConfig rounded = OffHeapCacheConfig.from(conf(SIZE, "1023", SLAB, "512",
      CLASSES, "256"));
    assertEquals(1024 - 512, rounded.capacity());
    assertEquals(1, rounded.slabCount());
    // The one-slot cache starts empty with its whole capacity free.
    SlabBlockCache tiny = new SlabBlockCache(one, false);
    assertEquals(256, tiny.getMaxSize());
    assertEquals(256, tiny.getFreeSize());
    assertTrue(tiny.invariantViolations(true).isEmpty());
    tiny.shutdown();
  }

  /**
   * The guard names every switch a RegionServer needs for the cache, one missing at a time: the
   * external-L2 switch, the external class, the L1 policy and a block cache at all.
   */
  @Test
  public void theGuardNamesEachMissingSwitch() {
    String[][] wrong = { { "hbase.blockcache.use.external", "false" },
      { "hbase.blockcache.external.class", "org.example.OtherCache" },
      { "hfile.block.cache.policy", "LRU" } };
    for (String[] kv : wrong) {
      Configuration c = new Configuration(false);
      for (String[] ok : OffHeapMiniClusterTest.KEYS) {
        c.set(ok[0], ok[1]);
      }
      c.set(SIZE, "16m");
      c.set(kv[0], kv[1]);
      try {
        OffHeapCacheGuard.check(c, null);
        fail("the guard accepted " + kv[0] + "=" + kv[1]);
      } catch (IllegalStateException e) {
        assertTrue(e.getMessage(), e.getMessage().contains(kv[0]));
        assertTrue(e.getMessage(), kv[1].equals("false") || e.getMessage().contains(kv[1]));
      }
    }
    Configuration c = new Configuration(false);
    for (String[] ok : OffHeapMiniClusterTest.KEYS) {
      c.set(ok[0], ok[1]);
    }
    c.set(SIZE, "16m");
    try {
      OffHeapCacheGuard.check(c, null);
      fail("the guard accepted a RegionServer without a block cache");
    } catch (IllegalStateException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("hfile.block.cache.size"));
    }
  }
}
