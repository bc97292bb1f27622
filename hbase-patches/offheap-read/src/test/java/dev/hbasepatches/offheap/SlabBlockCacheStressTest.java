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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.hbase.io.hfile.BlockCacheKey;
import org.apache.hadoop.hbase.io.hfile.Cacheable;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Inserts of every size class, evictions by key and by file, and readers that hold blocks across
 * a "shipped()" race on a cache a third the size of the working set, so size classes give slabs
 * back, borrow slots of larger sizes and evict under their clocks while readers pin slots. The
 * inserter's favourite size moves every few thousand inserts, and the files of the size it leaves
 * are evicted (closed by a compaction), so the slabs move too. Every block
 * a reader gets must carry its key's bytes while held; afterwards every idle entry is back at
 * count 1, no evicted slot is still held, used + free = capacity.
 * <p>
 * Seeded ({@code -Dhbasepatches.offheap.stress.seed=N}, printed) and bounded: it runs for
 * {@code hbasepatches.offheap.stress.seconds} (a few seconds in {@code mvn verify}; the
 * {@code stress} profile runs minutes), and past that until the inserter has done
 * {@link #MIN_INSERTS}, so a slow machine still covers every path.
 */
public class SlabBlockCacheStressTest {
  /** Slot sizes, and for each the HFile block size whose blocks land in it. */
  private static final int[] CLASSES = { 5120, 9216, 17408, 33792 };
  private static final int[] BLOCK_SIZES = { 4096, 8000, 16000, 30000 };
  private static final int FILES_PER_CLASS = 2;
  private static final int FILES = CLASSES.length * FILES_PER_CLASS;
  private static final int SLAB = 128 * 1024;
  private static final int MIN_INSERTS = 40_000;
  private static final int PHASE = 3_000;
  private static final long DEFAULT_SEED = 20261128L;
  private static final RealBlocks[] BLOCKS = new RealBlocks[CLASSES.length];

  @BeforeClass
  public static void writeBlocks() throws Exception {
    for (int c = 0; c < CLASSES.length; c++) {
      // About 40 blocks per file of ~140-byte cells.
      BLOCKS[c] = RealBlocks.write(BLOCK_SIZES[c], BLOCK_SIZES[c] * 40 / 140, 100);
    }
  }

  private static RealBlocks blocksOf(int file) {
    return BLOCKS[file % CLASSES.length];
  }

  @Test
  public void everySizeClassRacesEvictionsByFileAndHeldBlocks() throws Exception {
    long seed = Long.getLong("hbasepatches.offheap.stress.seed", DEFAULT_SEED);
    long seconds = Long.getLong("hbasepatches.offheap.stress.seconds", 4);
    System.out.println("SlabBlockCacheStressTest seed=" + seed + " seconds=" + seconds);
    long workingSet = 0;
    for (int f = 0; f < FILES; f++) {
      for (byte[] b : blocksOf(f).serialized) {
        workingSet += b.length;
      }
    }
    long capacity = Math.max(4L * SLAB, workingSet / 3 / SLAB * SLAB);
    SlabBlockCache cache =
      new SlabBlockCache(new OffHeapCacheConfig(capacity, SLAB, CLASSES.clone()), false);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLongArray hitsPerClass = new AtomicLongArray(CLASSES.length);
    AtomicLong inserts = new AtomicLong();
    AtomicLong evictedByFile = new AtomicLong();
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 2; t++) {
      Random rnd = new Random(seed + t);
      threads.add(new Thread(() -> reader(cache, rnd, start, stop, hitsPerClass, failure),
        "reader-" + t));
    }
    Random insertRnd = new Random(seed + 10);
    threads.add(new Thread(
      () -> inserter(cache, insertRnd, start, stop, inserts, evictedByFile, failure), "inserter"));
    Random evictRnd = new Random(seed + 20);
    threads.add(new Thread(() -> evictor(cache, evictRnd, start, stop, evictedByFile, failure),
      "evictor"));
    threads.forEach(Thread::start);
    start.countDown();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (failure.get() == null
      && (System.nanoTime() < deadline || inserts.get() < MIN_INSERTS)) {
      Thread.sleep(50);
    }
    stop.set(true);
    for (Thread t : threads) {
      t.join();
    }
    if (failure.get() != null) {
      throw new AssertionError("seed=" + seed, failure.get());
    }
    String run = "seed=" + seed + ", " + inserts.get() + " inserts, hits per size "
      + hitsPerClass + ", " + evictedByFile.get() + " evicted by file, "
      + cache.getReclaimedSlabCount() + " slabs given back, " + cache.getBorrowedSlotCount()
      + " slots borrowed, " + cache.getStats().getEvictedCount() + " evicted, "
      + cache.getStats().getFailedInserts() + " failed inserts: " + cache;
    System.out.println("SlabBlockCacheStressTest " + run);
    List<String> problems = cache.invariantViolations(true);
    assertTrue(run + ": " + problems, problems.isEmpty());
    for (int c = 0; c < CLASSES.length; c++) {
      assertTrue(run + ": no hits on size " + CLASSES[c], hitsPerClass.get(c) > 0);
    }
    assertTrue(run + ": nothing evicted by file", evictedByFile.get() > 0);
    assertTrue(run + ": no slab changed size", cache.getReclaimedSlabCount() > 0);
    assertTrue(run + ": the clocks never evicted", cache.getStats().getEvictedCount() > 0);
    cache.shutdown();
    assertEquals(0, cache.getBlockCount());
    assertTrue(cache.invariantViolations(true).isEmpty());
    assertEquals(capacity, cache.getFreeSize() + cache.getUsedSize());
  }

  private static BlockCacheKey key(int file, int block) {
    return RealBlocks.key(file, block);
  }

  private static void reader(SlabBlockCache cache, Random rnd, CountDownLatch start,
    AtomicBoolean stop, AtomicLongArray hitsPerClass, AtomicReference<Throwable> failure) {
    List<Cacheable> held = new ArrayList<>();
    List<byte[]> expected = new ArrayList<>();
    try {
      start.await();
      while (!stop.get() && failure.get() == null) {
        int file = rnd.nextInt(FILES);
        RealBlocks rb = blocksOf(file);
        int block = rnd.nextInt(rb.size());
        Cacheable b = cache.getBlock(key(file, block), true, false, true);
        if (b != null) {
          hitsPerClass.incrementAndGet(file % CLASSES.length);
          held.add(b);
          expected.add(rb.serialized.get(block));
        }
        if (held.size() > rnd.nextInt(12)) {
          // shipped(): what was held across the batch is intact; then let it go.
          for (int i = 0; i < held.size(); i++) {
            assertArrayEquals(expected.get(i), RealBlocks.serialize(held.get(i)));
            held.get(i).release();
          }
          held.clear();
          expected.clear();
        }
      }
    } catch (Throwable t) {
      failure.compareAndSet(null, t);
    } finally {
      held.forEach(Cacheable::release);
    }
  }

  private static void inserter(SlabBlockCache cache, Random rnd, CountDownLatch start,
    AtomicBoolean stop, AtomicLong inserts, AtomicLong evictedByFile,
    AtomicReference<Throwable> failure) {
    try {
      start.await();
      for (long op = 0; !stop.get() && failure.get() == null; op++) {
        if (op > 0 && op % PHASE == 0) {
          // The phase's files are closed (a compaction): its size empties and gives slabs back.
          int ended = (int) ((op / PHASE - 1) % CLASSES.length);
          for (int f = ended; f < FILES; f += CLASSES.length) {
            evictedByFile.addAndGet(cache.evictBlocksByHfileName("file" + f));
          }
        }
        // Mostly the phase's size, so each size in turn wants slabs the others hold.
        int sizeIndex = rnd.nextInt(10) < 7 ? (int) ((op / PHASE) % CLASSES.length)
          : rnd.nextInt(CLASSES.length);
        int file = sizeIndex + CLASSES.length * rnd.nextInt(FILES_PER_CLASS);
        RealBlocks rb = blocksOf(file);
        int block = rnd.nextInt(rb.size());
        cache.cacheBlock(key(file, block), rb.blocks.get(block));
        inserts.incrementAndGet();
      }
    } catch (Throwable t) {
      failure.compareAndSet(null, t);
    }
  }

  private static void evictor(SlabBlockCache cache, Random rnd, CountDownLatch start,
    AtomicBoolean stop, AtomicLong evictedByFile, AtomicReference<Throwable> failure) {
    try {
      start.await();
      while (!stop.get() && failure.get() == null) {
        if (rnd.nextInt(200) == 0) {
          evictedByFile.addAndGet(cache.evictBlocksByHfileName("file" + rnd.nextInt(FILES)));
        } else {
          int file = rnd.nextInt(FILES);
          cache.evictBlock(key(file, rnd.nextInt(blocksOf(file).size())));
        }
        if (rnd.nextInt(4) == 0) {
          Thread.yield();
        }
      }
    } catch (Throwable t) {
      failure.compareAndSet(null, t);
    }
  }

}
