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
package dev.hbasepatches.seekskip;

import dev.hbasepatches.testkit.Bounded;
import dev.hbasepatches.testkit.CellAssertions;
import dev.hbasepatches.testkit.CellTally;
import dev.hbasepatches.testkit.FuzzCensus;
import dev.hbasepatches.testkit.FuzzSeeds;
import dev.hbasepatches.testkit.LocalRegion;
import dev.hbasepatches.testkit.RandomFamily;
import dev.hbasepatches.testkit.RandomReads;
import dev.hbasepatches.testkit.ReaderSwap;
import java.io.Closeable;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Scan;
import org.junit.Test;

/**
 * Differential fuzzing across the three modes: random tables (deletes of every type, tags,
 * several flushed files, a bulk-loaded file and a memstore; testkit's {@link RandomFamily}:
 * versions, TTL and MIN_VERSIONS, KEEP_DELETED_CELLS FALSE / TRUE / TTL, NEW_VERSION_BEHAVIOR,
 * every data block encoding and bloom type, small blocks; MOB families; half the tables read
 * through an off-heap BucketCache) and random reads (gets with columns, versions and time
 * ranges; scans forward and reversed with ranges, columns, filters, batch, raw, partial results
 * and row limits, run as the RPC layer runs them, sometimes with a flush or a major compaction
 * swapping the scanner's readers mid-scan), compared cell by cell against UPSTREAM. Each table
 * ends with testkit's {@link FuzzCensus}; the run fails if its MOB tables never resolved a
 * reference, its off-heap tables never handed out an off-heap cell or no limited scan ran.
 *
 * <p>{@code mvn verify} runs a fixed list of seeds; {@code -Dhbasepatches.fuzz.seed=N} replays
 * one, {@code -Pfuzz-long} draws random ones ({@link FuzzSeeds});
 * {@code -Dhbasepatches.fuzz.tables=N} and {@code -Dhbasepatches.fuzz.reads=N} make it longer.
 * Every failure message starts with the seed and the table's settings; a table that takes
 * longer than {@link FuzzSeeds#caseLimit()} fails with its seed, table and read. Reads stock
 * HBase never finishes are skipped ({@code RandomFamily.stockLoopsOn}).
 */
public class SeekSkipDifferentialFuzzTest {

  /**
   * The seeds {@code mvn verify} runs: 13394145321746 found the compaction case below;
   * 18061807358039 hung row-index's fuzzer (UPSTREAM loops there: RandomFamily.stockLoopsOn).
   * With {@link #EXTRAS}, 13394145321746's table 1 and 18061807358039's tables 0 and 2 read
   * through an off-heap BucketCache, 18061807358039's table 1 is MOB.
   */
  private static final long[] FIXED_SEEDS = { 13394145321746L, 18061807358039L };

  @Test
  public void everyModeReturnsUpstreamsCells() throws Exception {
    int tables = Integer.getInteger("hbasepatches.fuzz.tables", 3);
    int reads = Integer.getInteger("hbasepatches.fuzz.reads", 80);
    FuzzSeeds.run("SeekSkipDifferentialFuzzTest", FIXED_SEEDS, tables, reads, EXTRAS,
      (seed, t, random, extras, progress, coverage) ->
        fuzzOneTable(seed, t, random, extras, reads, progress, coverage));
  }

  /** Mixed into a table's seed for its {@code extras} stream. */
  private static final long EXTRAS = 0x5eec5a1b0b5L;

  private static void fuzzOneTable(long seed, int t, Random random, Random extras, int reads,
    Bounded.Progress progress, FuzzCensus.Coverage coverage) throws IOException {
    int rows = 5 + random.nextInt(60);
    int cols = 1 + random.nextInt(10);
    int maxTs = 1 + random.nextInt(8);
    int files = 1 + random.nextInt(5);
    RandomFamily family = RandomFamily.draw(random, maxTs, RandomFamily.allEncodings())
      .withMobDrawn(extras, 3);
    boolean offHeap = extras.nextBoolean();
    boolean tags = random.nextBoolean();
    int versions = family.versions();
    String context = "seed=" + seed + " table=" + t + " " + family + " tags=" + tags + " rows="
      + rows + " cols=" + cols + " maxTs=" + maxTs + " files=" + files
      + (offHeap ? " offHeapBucketCache" : "");
    List<List<Mutation>> flushed = new ArrayList<>();
    for (int f = 0; f < files; f++) {
      flushed.add(RandomReads.mutations(random, rows, cols, maxTs, 20 + random.nextInt(200),
        tags));
    }
    List<Mutation> bulk = random.nextInt(3) == 0
      ? RandomReads.mutations(random, rows, cols, maxTs, 10 + random.nextInt(100), tags)
      : null;
    if (bulk != null) {
      context += "+bulk";
    }
    List<Mutation> memstore =
      RandomReads.mutations(random, rows, cols, maxTs, random.nextInt(60), tags);
    System.out.println(context);
    Map<SeekSkipMode, LocalRegion> regions = new EnumMap<>(SeekSkipMode.class);
    LocalRegion stock = null;
    try (Closeable clock = family.freezeClock()) {
      for (SeekSkipMode mode : SeekSkipMode.values()) {
        LocalRegion r = ModeRegions.open("fuzz" + t, mode, b -> {
          family.applyTo(b.family("f"));
          if (offHeap) {
            b.offHeapBucketCache(2L << 20, 8);
          }
        });
        regions.put(mode, r);
      }
      if (Boolean.getBoolean("hbasepatches.fuzz.stock")) {
        stock = family.applyTo(LocalRegion.builder("stock" + t).family("f")).build();
      }
      for (LocalRegion r : all(regions, stock)) {
        for (List<Mutation> file : flushed) {
          r.writeAndFlush(file);
        }
        if (bulk != null) {
          r.bulkLoad(bulk);
        }
        r.write(memstore);
        if (offHeap) {
          // Data blocks into the BucketCache and written out, so reads hit direct memory.
          r.warm();
          r.awaitCacheWrites(Duration.ofSeconds(30));
        }
      }
      CellTally tally = new CellTally();
      for (int i = 0; i < FuzzCensus.readsFor(family, reads); i++) {
        if (random.nextInt(3) == 0) {
          Get get = RandomReads.get(random, rows, cols, maxTs, versions);
          if (family.stockLoopsOn(get)) {
            // Stock HBase never finishes this read (row-index's UpstreamNewVersionRowColLoopTest).
            System.out.println("skipped, stock HBase loops on it: " + context + " read=" + i);
            continue;
          }
          progress.at(context + " read=" + i + " " + get);
          List<Cell> expected =
            RandomReads.getCells(regions.get(SeekSkipMode.UPSTREAM).region(), get);
          for (SeekSkipMode mode : SeekSkipMode.values()) {
            CellAssertions.assertSameCells(context + " read=" + i + " " + get + " " + mode,
              expected, RandomReads.getCells(regions.get(mode).region(), get));
          }
        } else {
          long scanSeed = random.nextLong();
          int limit = RandomReads.limit(extras, rows);
          long maxResultBytes = random.nextInt(3) == 0 ? 1 + random.nextInt(400) : 0;
          // A flush or a compaction inside the scan in one read of ten.
          ReaderSwap swap = ReaderSwap.draw(random, 20, rows, cols, maxTs, tags,
            RandomReads.SMALL_VALUE, family);
          Scan probe = scan(scanSeed, limit, rows, cols, maxTs, versions);
          String where = context + " read=" + i + " " + probe + " limit=" + limit
            + " maxResultBytes=" + maxResultBytes + " swap=" + swap;
          if (family.stockLoopsOn(probe)) {
            // Stock HBase never finishes this read (row-index's UpstreamNewVersionRowColLoopTest);
            // the regions still get the same data.
            System.out.println("skipped, stock HBase loops on it: " + where);
            for (LocalRegion r : all(regions, stock)) {
              swap.apply(r);
            }
            continue;
          }
          progress.at(where);
          if (stock != null) {
            scanAll(where + " stock HRegion", stock, swap, maxResultBytes,
              scan(scanSeed, limit, rows, cols, maxTs, versions), null);
          }
          List<Cell> expected;
          try {
            expected = swap.scan(regions.get(SeekSkipMode.UPSTREAM),
              scan(scanSeed, limit, rows, cols, maxTs, versions), maxResultBytes, tally);
          } catch (AssertionError e) {
            if (!RandomReads.isUpstreamScanOrderCheck(e)) {
              throw new AssertionError(where + " UPSTREAM: " + e, e);
            }
            // Stock HBase's own scan-order check fails on this read (UpstreamScanOrderTest):
            // there is no reference to compare with. The regions still get the same data.
            System.out.println("skipped, upstream's scan-order check fails: " + where);
            for (LocalRegion r : all(regions, stock)) {
              swap.apply(r);
            }
            continue;
          }
          for (SeekSkipMode mode : SeekSkipMode.values()) {
            if (swap.kind() != ReaderSwap.Kind.NONE && mode == SeekSkipMode.UPSTREAM) {
              // UPSTREAM has had its swap: a major compaction lets a memstore put that a
              // compacted-away delete marker had masked show again (HBase's "deletes mask puts"),
              // so a second read of it is no longer comparable with the others' first.
              continue;
            }
            // Filters are stateful: each mode gets its own scan, drawn from the same seed.
            Scan scan = scan(scanSeed, limit, rows, cols, maxTs, versions);
            CellAssertions.assertSameCells(where + " " + mode, expected,
              scanAll(where + " " + mode, regions.get(mode), swap, maxResultBytes, scan, tally));
          }
          if (limit > 0) {
            coverage.limitedScan(expected.size());
            if (swap.kind() == ReaderSwap.Kind.NONE) {
              // The limit itself: the first rows of the same scan without one.
              List<Cell> whole = scanAll(where + " UPSTREAM unlimited",
                regions.get(SeekSkipMode.UPSTREAM), swap, maxResultBytes,
                scan(scanSeed, 0, rows, cols, maxTs, versions), null);
              CellAssertions.assertSameCells(where + " UPSTREAM: the first " + limit + " rows",
                RandomReads.firstRows(whole, limit), expected);
            }
          }
        }
      }
      coverage.reads(tally);
      census(context, regions, stock, family, offHeap, coverage);
    } finally {
      for (LocalRegion r : all(regions, stock)) {
        r.close();
      }
    }
  }

  private static List<LocalRegion> all(Map<SeekSkipMode, LocalRegion> regions,
    LocalRegion stock) {
    List<LocalRegion> out = new ArrayList<>(regions.values());
    if (stock != null) {
      out.add(stock);
    }
    return out;
  }

  /** The drawn scan with the drawn row limit (0: none). */
  private static Scan scan(long scanSeed, int limit, int rows, int cols, int maxTs, int versions)
    throws IOException {
    Scan s = RandomReads.scan(new Random(scanSeed), rows, cols, maxTs, versions);
    return limit > 0 ? s.setLimit(limit) : s;
  }

  /**
   * The census ({@link FuzzCensus}) of every region, compared with UPSTREAM's: MOB references
   * all resolved, off-heap cells seen where the regions read through an off-heap BucketCache.
   */
  private static void census(String context, Map<SeekSkipMode, LocalRegion> regions,
    LocalRegion stock, RandomFamily family, boolean offHeap, FuzzCensus.Coverage coverage)
    throws IOException {
    for (LocalRegion r : all(regions, stock)) {
      FuzzCensus.prepare(r);
    }
    List<FuzzCensus.Reading> readings = new ArrayList<>();
    FuzzCensus.Reading expected =
      FuzzCensus.read(context + " census UPSTREAM", regions.get(SeekSkipMode.UPSTREAM), offHeap);
    readings.add(expected);
    for (SeekSkipMode mode : SeekSkipMode.values()) {
      if (mode != SeekSkipMode.UPSTREAM) {
        FuzzCensus.Reading r =
          FuzzCensus.read(context + " census " + mode, regions.get(mode), offHeap);
        CellAssertions.assertSameCells(context + " census " + mode, expected.cells, r.cells);
        readings.add(r);
      }
    }
    coverage.table(family, offHeap, readings);
  }

  /** The scan's cells; a failure inside the region names the case it happened on. */
  private static List<Cell> scanAll(String where, LocalRegion region, ReaderSwap swap,
    long maxResultBytes, Scan scan, CellTally tally) {
    try {
      return swap.scan(region, scan, maxResultBytes, tally);
    } catch (IOException | RuntimeException | AssertionError e) {
      throw new AssertionError(where + ": " + e, e);
    }
  }
}
