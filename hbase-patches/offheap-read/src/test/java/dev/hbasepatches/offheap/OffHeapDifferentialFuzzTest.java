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

import static org.junit.Assert.assertTrue;

import dev.hbasepatches.testkit.Bounded;
import dev.hbasepatches.testkit.CellAssertions;
import dev.hbasepatches.testkit.FuzzCensus;
import dev.hbasepatches.testkit.FuzzSeeds;
import dev.hbasepatches.testkit.LocalRegion;
import dev.hbasepatches.testkit.RandomFamily;
import dev.hbasepatches.testkit.RandomReads;
import dev.hbasepatches.testkit.ScanShape;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.io.hfile.bucket.BucketCache;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.junit.Test;

/**
 * Differential fuzzing of the read path through each mode's block cache: random tables (every
 * encoding and bloom type, TTL / MIN_VERSIONS / KEEP_DELETED_CELLS / NEW_VERSION_BEHAVIOR, tags,
 * values up to 2 KB, several flushed HFiles, a bulk-loaded HFile, a memstore, cache-on-write and
 * evict-on-close) are loaded into four real regions: one with no block cache (the reference)
 * and one reading through each mode's cache as {@link OffHeapCaches} builds it (BASELINE: our
 * L2 copying every hit to the heap; PATCHED: our L2; UPSTREAM: HBase's CombinedBlockCache with an
 * off-heap BucketCache), small enough that blocks are evicted and read back all the time. Random
 * gets and scans (forward and reversed, columns, versions, time ranges, filters, batch, raw,
 * partial results, row limits) run as the RPC layer runs them (copy each part, then ship) and
 * must return the reference's cells, tags included; some families are MOB, and each table ends
 * with testkit's {@link FuzzCensus}. A churn runs between reads (evicting whole files' blocks,
 * flushing new data, major compactions) and inside scans, while a part's cells still point into
 * cached blocks. After every read our L2's invariants must hold with nothing left held. A seed
 * must compare cells, hits and evictions unless each of its tables reads empty by design (its
 * TTL expires every cell it can hold: {@code RandomFamily.expiresEveryCell}); a table that does
 * must return no cell.
 *
 * <p>{@code mvn verify} runs a fixed list of seeds; {@code -Dhbasepatches.fuzz.seed=N} replays
 * one, {@code -Pfuzz-long} draws random ones ({@link FuzzSeeds});
 * {@code -Dhbasepatches.fuzz.tables=N} and {@code -Dhbasepatches.fuzz.reads=N} make it longer.
 * The seed is printed and starts every failure message; a table that takes longer than
 * {@link FuzzSeeds#caseLimit()} fails with its seed, table and read. Reads stock HBase never
 * finishes are skipped ({@code RandomFamily.stockLoopsOn}).
 */
public class OffHeapDifferentialFuzzTest {

  private static final long L1_BYTES = 4L << 20;

  /**
   * The seeds {@code mvn verify} runs: 13394145321746 showed BucketCache counting no evictions by
   * file; 18061807358039 hung row-index's fuzzer (stock HBase loops: RandomFamily.stockLoopsOn).
   * 13394145321746's table 0 reads empty by design (its TTL expires every cell); with
   * {@link #EXTRAS} its table 1 is MOB.
   */
  private static final long[] FIXED_SEEDS = { 13394145321746L, 18061807358039L };

  /** Mixed into a table's seed for its {@code extras} stream. */
  private static final long EXTRAS = 0x0ffeccL;

  @Test
  public void everyModeReturnsTheReferenceCells() throws Exception {
    int tables = Integer.getInteger("hbasepatches.fuzz.tables", 2);
    int reads = Integer.getInteger("hbasepatches.fuzz.reads", 25);
    FuzzCensus.Coverage coverage = new FuzzCensus.Coverage();
    for (long seed : FuzzSeeds.seeds(FIXED_SEEDS)) {
      fuzzOneSeed(seed, tables, reads, coverage);
    }
    System.out.println("OffHeapDifferentialFuzzTest coverage: " + coverage);
    coverage.assertReal("OffHeapDifferentialFuzzTest", reads >= 20);
  }

  private static void fuzzOneSeed(long seed, int tables, int reads, FuzzCensus.Coverage coverage)
    throws Exception {
    System.out.println("OffHeapDifferentialFuzzTest seed=" + seed + " tables=" + tables
      + " reads=" + reads + " (replay: -Dhbasepatches.fuzz.seed=" + seed + ")");
    Totals totals = new Totals();
    FuzzSeeds.forEachTable("OffHeapDifferentialFuzzTest", seed, tables, EXTRAS,
      (t, random, extras, progress) ->
        fuzzOneTable(seed, t, random, extras, reads, totals, progress, coverage));
    System.out.println("OffHeapDifferentialFuzzTest seed=" + seed + ": " + totals);
    // The run must have exercised what it claims to: reads compared; cells compared, every cache
    // hit and churned, unless every table's TTL expires every cell it can hold (by design: the
    // family's own options say so, RandomFamily.expiresEveryCell), and then no cell came back.
    assertTrue("seed=" + seed + " compared no reads: " + totals, totals.reads > 0);
    assertTrue("seed=" + seed + " tables whose TTL expires every cell returned cells: " + totals,
      totals.expiredCells == 0);
    if (totals.liveTables == 0) {
      System.out.println("OffHeapDifferentialFuzzTest seed=" + seed + ": every table's TTL"
        + " expires every cell (by design), so no cell, hit or eviction is required");
      return;
    }
    assertTrue("seed=" + seed + " compared no cells: " + totals, totals.cells > 0);
    for (OffHeapMode mode : OffHeapMode.values()) {
      assertTrue("seed=" + seed + " " + mode + " served no hits: " + totals,
        totals.hits.getOrDefault(mode, 0L) > 0);
      assertTrue("seed=" + seed + " " + mode + " evicted nothing: " + totals,
        totals.evictions.getOrDefault(mode, 0L) > 0);
    }
  }

  private static final class Totals {
    /** Cells compared per mode, from tables that can hold a live cell. */
    long cells;
    /** Reads compared (not skipped), from every table. */
    long reads;
    int liveTables;
    int expiredTables;
    /** Cells compared from tables whose TTL expires every cell: must stay 0. */
    long expiredCells;
    final Map<OffHeapMode, Long> hits = new EnumMap<>(OffHeapMode.class);
    final Map<OffHeapMode, Long> evictions = new EnumMap<>(OffHeapMode.class);

    @Override
    public String toString() {
      return "reads compared " + reads + ", tables live " + liveTables + " / every cell expired "
        + expiredTables + " (cells from those " + expiredCells + "), cells compared per mode "
        + cells + ", L2 hits " + hits
        + ", blocks evicted (for space, and by file here) " + evictions;
    }
  }

  /** One region per mode plus the reference, all loaded and changed alike. */
  private static final class Regions implements Closeable {
    final LocalRegion reference;
    final Map<OffHeapMode, LocalRegion> byMode = new EnumMap<>(OffHeapMode.class);
    final Map<OffHeapMode, BlockCache> caches = new EnumMap<>(OffHeapMode.class);

    Regions(LocalRegion reference) {
      this.reference = reference;
    }

    List<LocalRegion> all() {
      List<LocalRegion> out = new ArrayList<>();
      out.add(reference);
      out.addAll(byMode.values());
      return out;
    }

    @Override
    public void close() throws IOException {
      for (LocalRegion r : all()) {
        r.close();
      }
      for (BlockCache c : caches.values()) {
        c.shutdown();
      }
    }
  }

  private static void fuzzOneTable(long seed, int t, Random random, Random extras, int reads,
    Totals totals, Bounded.Progress progress, FuzzCensus.Coverage coverage) throws IOException {
    int rows = 5 + random.nextInt(80);
    int cols = 1 + random.nextInt(8);
    int maxTs = 1 + random.nextInt(6);
    RandomFamily family = RandomFamily.draw(random, maxTs, RandomFamily.allEncodings())
      .withMobDrawn(extras, 3);
    boolean expired = family.expiresEveryCell();
    if (expired) {
      totals.expiredTables++;
    } else {
      totals.liveTables++;
    }
    int maxValue = random.nextBoolean() ? RandomReads.SMALL_VALUE : 2048;
    boolean tags = random.nextBoolean();
    boolean cacheOnWrite = random.nextInt(3) == 0;
    boolean evictOnClose = random.nextInt(3) == 0;
    int files = 1 + random.nextInt(4);
    List<List<Mutation>> flushed = new ArrayList<>();
    for (int f = 0; f < files; f++) {
      flushed.add(RandomReads.mutations(random, rows, cols, maxTs, 20 + random.nextInt(250), tags,
        maxValue));
    }
    List<Mutation> bulk = random.nextInt(3) == 0
      ? RandomReads.mutations(random, rows, cols, maxTs, 20 + random.nextInt(100), tags, maxValue)
      : null;
    List<Mutation> memstore =
      RandomReads.mutations(random, rows, cols, maxTs, random.nextInt(60), tags, maxValue);
    String context = "seed=" + seed + " table=" + t + " " + family + " rows=" + rows + " cols="
      + cols + " maxTs=" + maxTs + " files=" + files + (bulk != null ? "+bulk" : "")
      + " maxValue=" + maxValue + " tags=" + tags + " cacheOnWrite=" + cacheOnWrite
      + " evictOnClose=" + evictOnClose + (expired ? " (TTL expires every cell)" : "");
    System.out.println(context);
    try (Closeable clock = family.freezeClock();
      Regions regions = new Regions(open("ref" + t, family, cacheOnWrite, evictOnClose, null))) {
      for (OffHeapMode mode : OffHeapMode.values()) {
        // BucketCache refuses less than 1 MB (hbase.bucketcache.size is in MB).
        long l2 = mode == OffHeapMode.UPSTREAM ? 1L << 20 : 512L << 10;
        BlockCache cache = OffHeapCaches.create(ReadPathEquivalenceTest.smallCacheConf(), mode,
          L1_BYTES, l2);
        regions.caches.put(mode, cache);
        regions.byMode.put(mode,
          open(mode.name().toLowerCase() + t, family, cacheOnWrite, evictOnClose, cache));
      }
      for (LocalRegion r : regions.all()) {
        for (List<Mutation> file : flushed) {
          r.writeAndFlush(file);
        }
        if (bulk != null) {
          r.bulkLoad(bulk);
        }
        r.write(memstore);
      }
      for (int i = 0; i < FuzzCensus.readsFor(family, reads); i++) {
        churnBetweenReads(random, regions, family, rows, cols, maxTs, tags, maxValue);
        String where = context + " read=" + i;
        if (random.nextInt(3) == 0) {
          List<Get> gets = new ArrayList<>();
          int n = 1 + random.nextInt(5);
          for (int g = 0; g < n; g++) {
            gets.add(RandomReads.get(random, rows, cols, maxTs, family.versions()));
          }
          if (gets.stream().anyMatch(family::stockLoopsOn)) {
            // Stock HBase never finishes such a read (row-index's
            // UpstreamNewVersionRowColLoopTest): no reference answer.
            System.out.println("skipped, stock HBase loops on it: " + where + " " + gets);
            continue;
          }
          progress.at(where + " " + gets);
          List<Cell> expected = gets(regions.reference, gets);
          for (OffHeapMode mode : OffHeapMode.values()) {
            List<Cell> actual = gets(regions.byMode.get(mode), gets);
            CellAssertions.assertSameCells(where + " " + gets + " " + mode, expected, actual);
          }
          count(totals, expired, expected.size());
        } else {
          long scanSeed = random.nextLong();
          int limit = RandomReads.limit(extras, rows);
          Scan probe = RandomReads.scan(new Random(scanSeed), rows, cols, maxTs,
            family.versions());
          long maxResultBytes = random.nextBoolean() ? 0 : 1 + random.nextInt(3000);
          MidScan mid = new MidScan(random, rows, cols, maxTs, tags, maxValue, family);
          where += " " + probe + " limit=" + limit + " maxResultBytes=" + maxResultBytes
            + " midScan=" + mid;
          if (family.stockLoopsOn(probe)) {
            // Stock HBase never finishes this read (row-index's UpstreamNewVersionRowColLoopTest).
            System.out.println("skipped, stock HBase loops on it: " + where);
            for (LocalRegion r : regions.all()) {
              mid.catchUp(r, null);
            }
            continue;
          }
          progress.at(where);
          List<Cell> expected;
          try {
            expected = scan(regions.reference, null, scanSeed, limit, rows, cols, maxTs,
              family.versions(), maxResultBytes, mid);
          } catch (AssertionError e) {
            if (!RandomReads.isUpstreamScanOrderCheck(e)) {
              throw new AssertionError(where + " reference: " + e, e);
            }
            // Stock StoreScanner's own scan-order check (seek-skip's UpstreamScanOrderTest):
            // no reference answer for this read. Keep the regions' data alike all the same.
            System.out.println("skipped, upstream's scan-order check fails: " + where);
            for (LocalRegion r : regions.all()) {
              mid.catchUp(r, null);
            }
            continue;
          }
          for (OffHeapMode mode : OffHeapMode.values()) {
            List<Cell> actual;
            try {
              actual = scan(regions.byMode.get(mode), regions.caches.get(mode), scanSeed, limit,
                rows, cols, maxTs, family.versions(), maxResultBytes, mid);
            } catch (IOException | RuntimeException | AssertionError e) {
              throw new AssertionError(where + " " + mode + ": " + e, e);
            }
            CellAssertions.assertSameCells(where + " " + mode, expected, actual);
          }
          if (limit > 0) {
            coverage.limitedScan(expected.size());
          }
          count(totals, expired, expected.size());
        }
        for (OffHeapMode mode : OffHeapMode.values()) {
          SlabBlockCache slab = OffHeapCaches.slabCache(regions.caches.get(mode));
          if (slab != null) {
            List<String> problems = slab.invariantViolations(true);
            assertTrue(where + " " + mode + " after the read: " + problems, problems.isEmpty());
          }
        }
      }
      census(context, regions, family, coverage);
      for (OffHeapMode mode : OffHeapMode.values()) {
        BlockCache l2 = l2(regions.caches.get(mode));
        totals.hits.merge(mode, l2.getStats().getHitCount(), Long::sum);
        BlockCache cache = regions.caches.get(mode);
        totals.evictions.merge(mode,
          l2.getStats().getEvictedCount() + EVICTED_BY_FILE.getOrDefault(cache, 0L), Long::sum);
        EVICTED_BY_FILE.remove(cache);
      }
    }
  }

  private static void count(Totals totals, boolean expired, int cells) {
    totals.reads++;
    if (expired) {
      totals.expiredCells += cells;
    } else {
      totals.cells += cells;
    }
  }

  /**
   * The census ({@link FuzzCensus}) of every region, compared with the reference: a flushed
   * table read raw, every version, through each mode's cache; every MOB reference resolved.
   */
  private static void census(String context, Regions regions, RandomFamily family,
    FuzzCensus.Coverage coverage) throws IOException {
    List<FuzzCensus.Reading> readings = new ArrayList<>();
    FuzzCensus.prepare(regions.reference);
    FuzzCensus.Reading expected =
      FuzzCensus.read(context + " census reference", regions.reference, false);
    readings.add(expected);
    for (OffHeapMode mode : OffHeapMode.values()) {
      LocalRegion r = regions.byMode.get(mode);
      FuzzCensus.prepare(r);
      // Only where a mode's blocks sit in its cache for sure is an off-heap cell required; this
      // fuzzer's caches are small on purpose and evict, so none is.
      FuzzCensus.Reading actual = FuzzCensus.read(context + " census " + mode, r, false);
      CellAssertions.assertSameCells(context + " census " + mode, expected.cells, actual.cells);
      readings.add(actual);
    }
    coverage.table(family, false, readings);
  }

  private static LocalRegion open(String name, RandomFamily family, boolean cacheOnWrite,
    boolean evictOnClose, BlockCache cache) throws IOException {
    LocalRegion.Builder b = family.applyTo(LocalRegion.builder(name).family("f"))
      .familyTweak(cf -> cf.setCacheDataOnWrite(cacheOnWrite).setEvictBlocksOnClose(evictOnClose));
    return cache == null ? b.blockCacheBytes(0).build() : b.blockCache(cache).build();
  }

  /** The data-block cache inside a mode's cache: our slab cache, or UPSTREAM's BucketCache. */
  private static BlockCache l2(BlockCache cache) {
    SlabBlockCache slab = OffHeapCaches.slabCache(cache);
    if (slab != null) {
      return slab;
    }
    for (BlockCache c : cache.getBlockCaches()) {
      if (c instanceof BucketCache) {
        return c;
      }
    }
    throw new AssertionError("no L2 in " + cache);
  }

  /** Gets as a multi-get runs them: one after another, each result copied by the region. */
  private static List<Cell> gets(LocalRegion region, List<Get> gets) throws IOException {
    List<Cell> out = new ArrayList<>();
    for (Get g : gets) {
      out.addAll(RandomReads.getCells(region.region(), g));
    }
    return out;
  }

  private static List<Cell> scan(LocalRegion region, BlockCache cache, long scanSeed, int limit,
    int rows, int cols, int maxTs, int versions, long maxResultBytes, MidScan mid)
    throws IOException {
    // Filters are stateful: every region gets its own scan, drawn from the same seed.
    Scan scan = RandomReads.scan(new Random(scanSeed), rows, cols, maxTs, versions);
    if (limit > 0) {
      scan.setLimit(limit);
    }
    List<Cell> cells = RandomReads.scanLikeRpc(region.region(), scan, maxResultBytes, part -> {
      if (part == mid.atPart) {
        mid.run(region, cache);
      }
    });
    // The scan may have ended in fewer parts (parts follow cells' heap sizes, which differ
    // between heap and off-heap cells): then the change happens now, so that every region
    // holds the same data.
    mid.catchUp(region, cache);
    return cells;
  }

  /**
   * What happens inside a scan after one of its parts is read and before its cells are copied:
   * nothing, every cached block of the region's files evicted, new data flushed (the scanner
   * swaps its memstore for the new file) or a major compaction. A scan's read point hides the
   * new data, so the answer stays the reference's wherever in the scan it happens.
   */
  private static final class MidScan {
    final int kind;
    final int atPart;
    final List<Mutation> data;
    final Set<LocalRegion> applied = new HashSet<>();
    final RandomFamily family;

    MidScan(Random random, int rows, int cols, int maxTs, boolean tags, int maxValue,
      RandomFamily family) {
      this.family = family;
      int k = random.nextInt(20);
      kind = k < 12 ? 0 : k < 18 ? 1 : k < 19 ? 2 : 3;
      atPart = random.nextInt(6);
      data = kind == 2
        ? RandomReads.mutations(random, rows, cols, maxTs, 1 + random.nextInt(30), tags, maxValue)
        : null;
    }

    void run(LocalRegion region, BlockCache cache) throws IOException {
      applied.add(region);
      switch (kind) {
        case 1:
          if (cache != null) {
            evictFiles(region, cache);
          }
          break;
        case 2:
          region.writeAndFlush(data);
          break;
        case 3:
          family.majorCompact(region);
          break;
        default:
          break;
      }
    }

    void catchUp(LocalRegion region, BlockCache cache) throws IOException {
      if (kind >= 2 && !applied.contains(region)) {
        run(region, cache);
      }
    }

    @Override
    public String toString() {
      String[] names = { "none", "evict", "flush", "compact" };
      return kind == 0 ? "none" : names[kind] + "@part" + atPart;
    }
  }

  private static void evictFiles(LocalRegion region, BlockCache cache) {
    for (HStoreFile f : region.store(ScanShape.FAMILY).getStorefiles()) {
      evict(cache, f);
    }
  }

  /**
   * Blocks this test evicted from each cache by file. BucketCache's statistics count only the
   * evictions it makes for space, so the churn is counted here.
   */
  private static final Map<BlockCache, Long> EVICTED_BY_FILE = new IdentityHashMap<>();

  private static void evict(BlockCache cache, HStoreFile f) {
    EVICTED_BY_FILE.merge(cache, (long) cache.evictBlocksByHfileName(f.getPath().getName()),
      Long::sum);
  }

  /** Between reads: evict one file's or every file's blocks, flush new data, compact. */
  private static void churnBetweenReads(Random random, Regions regions, RandomFamily family,
    int rows, int cols, int maxTs, boolean tags, int maxValue) throws IOException {
    int k = random.nextInt(40);
    if (k < 6) {
      // Evict one file's blocks (the same file in every region: files sort by sequence id).
      int pick = random.nextInt(8);
      for (OffHeapMode mode : OffHeapMode.values()) {
        List<HStoreFile> files =
          new ArrayList<>(regions.byMode.get(mode).store(ScanShape.FAMILY).getStorefiles());
        if (!files.isEmpty()) {
          evict(regions.caches.get(mode), files.get(pick % files.size()));
        }
      }
    } else if (k < 10) {
      for (OffHeapMode mode : OffHeapMode.values()) {
        evictFiles(regions.byMode.get(mode), regions.caches.get(mode));
      }
    } else if (k < 11) {
      List<Mutation> data =
        RandomReads.mutations(random, rows, cols, maxTs, 1 + random.nextInt(40), tags, maxValue);
      for (LocalRegion r : regions.all()) {
        r.writeAndFlush(data);
      }
    } else if (k < 12) {
      for (LocalRegion r : regions.all()) {
        family.majorCompact(r);
      }
    }
  }
}
