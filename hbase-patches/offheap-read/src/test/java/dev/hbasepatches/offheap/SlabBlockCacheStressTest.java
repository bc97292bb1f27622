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

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.hbase.io.hfile.BlockCacheKey;
import org.apache.hadoop.hbase.io.hfile.Cacheable;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Readers that hold blocks across a "shipped()" race inserters and evictors on a cache a third
 * the size of the working set, for a fixed number of operations. Every block a reader gets must
 * carry its key's bytes while held; afterwards every idle entry is back at count 1, no evicted
 * slot is still held, used + free = capacity. The seed is printed; rerun one with
 * {@code -Dhbasepatches.offheap.stress.seed=N}.
 */
public class SlabBlockCacheStressTest {
  private static final int FILES = 3;
  private static final int OPS_PER_THREAD = 60_000;
  private static RealBlocks blocks;

  @BeforeClass
  public static void writeBlocks() throws Exception {
    blocks = RealBlocks.write(4096, 6000, 100);
  }

  @Test
  public void readersEvictorsAndInsertersKeepEveryCountRight() throws Exception {
    long seed = Long.getLong("hbasepatches.offheap.stress.seed", System.nanoTime());
    System.out.println("SlabBlockCacheStressTest seed=" + seed);
    int keys = FILES * blocks.size();
    int slab = 64 * 1024;
    long capacity = (long) slab * Math.max(2, keys / 3 / (slab / 5120));
    SlabBlockCache cache = new SlabBlockCache(new OffHeapCacheConfig(capacity, slab,
      new int[] { 5120, 9216 }), false);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    AtomicLong hits = new AtomicLong();
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 2; t++) {
      long s = seed + t;
      threads.add(new Thread(() -> reader(cache, new Random(s), start, hits, failure), "reader"));
    }
    threads.add(new Thread(() -> inserter(cache, new Random(seed + 10), start, failure),
      "inserter"));
    threads.add(new Thread(() -> evictor(cache, new Random(seed + 20), start, failure),
      "evictor"));
    threads.forEach(Thread::start);
    start.countDown();
    for (Thread t : threads) {
      t.join();
    }
    if (failure.get() != null) {
      throw new AssertionError("seed=" + seed, failure.get());
    }
    List<String> problems = cache.invariantViolations(true);
    assertTrue("seed=" + seed + ": " + problems, problems.isEmpty());
    assertTrue("seed=" + seed + ": no hits", hits.get() > 0);
    assertTrue("seed=" + seed + ": no evictions", cache.getStats().getEvictedCount() > 0);
    cache.shutdown();
    assertEquals(0, cache.getBlockCount());
    assertTrue(cache.invariantViolations(true).isEmpty());
    assertEquals(capacity, cache.getFreeSize() + cache.getUsedSize());
  }

  private static BlockCacheKey key(int k) {
    return RealBlocks.key(k / blocks.size(), k % blocks.size());
  }

  private static void reader(SlabBlockCache cache, Random rnd, CountDownLatch start,
    AtomicLong hits, AtomicReference<Throwable> failure) {
    List<Cacheable> held = new ArrayList<>();
    List<Integer> heldIdx = new ArrayList<>();
    int keys = FILES * blocks.size();
    try {
      start.await();
      for (int op = 0; op < OPS_PER_THREAD && failure.get() == null; op++) {
        int k = rnd.nextInt(keys);
        Cacheable b = cache.getBlock(key(k), true, false, true);
        if (b != null) {
          hits.incrementAndGet();
          held.add(b);
          heldIdx.add(k % blocks.size());
        }
        if (held.size() > rnd.nextInt(12)) {
          // shipped(): check what was held across the batch is intact, then let it go.
          for (int i = 0; i < held.size(); i++) {
            assertArrayEquals(blocks.serialized.get(heldIdx.get(i)),
              RealBlocks.serialize(held.get(i)));
            held.get(i).release();
          }
          held.clear();
          heldIdx.clear();
        }
      }
    } catch (Throwable t) {
      failure.compareAndSet(null, t);
    } finally {
      held.forEach(Cacheable::release);
    }
  }

  private static void inserter(SlabBlockCache cache, Random rnd, CountDownLatch start,
    AtomicReference<Throwable> failure) {
    int keys = FILES * blocks.size();
    try {
      start.await();
      for (int op = 0; op < OPS_PER_THREAD && failure.get() == null; op++) {
        int k = rnd.nextInt(keys);
        cache.cacheBlock(key(k), blocks.blocks.get(k % blocks.size()));
      }
    } catch (Throwable t) {
      failure.compareAndSet(null, t);
    }
  }

  private static void evictor(SlabBlockCache cache, Random rnd, CountDownLatch start,
    AtomicReference<Throwable> failure) {
    int keys = FILES * blocks.size();
    try {
      start.await();
      for (int op = 0; op < OPS_PER_THREAD / 4 && failure.get() == null; op++) {
        if (rnd.nextInt(2000) == 0) {
          cache.evictBlocksByHfileName("file" + rnd.nextInt(FILES));
        } else {
          cache.evictBlock(key(rnd.nextInt(keys)));
        }
      }
    } catch (Throwable t) {
      failure.compareAndSet(null, t);
    }
  }
}
