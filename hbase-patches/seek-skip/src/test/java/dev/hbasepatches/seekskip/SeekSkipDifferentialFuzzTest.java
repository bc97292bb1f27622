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

import dev.hbasepatches.testkit.CellAssertions;
import dev.hbasepatches.testkit.LocalRegion;
import dev.hbasepatches.testkit.RandomReads;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.KeepDeletedCells;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.junit.Test;

/**
 * Differential fuzzing across the three modes: random tables (versions, deletes of every type,
 * several flushed files plus a memstore, every bloom type and several encodings, small blocks)
 * and random reads (gets with columns, versions and time ranges; scans forward and reversed with
 * ranges, columns, filters, batch and raw), compared cell by cell against UPSTREAM.
 *
 * <p>{@code -Dhbasepatches.fuzz.seed=N} replays one run, {@code -Dhbasepatches.fuzz.tables=N}
 * and {@code -Dhbasepatches.fuzz.reads=N} make it longer (the defaults keep {@code mvn verify}
 * to a few seconds). Every failure message starts with the seed and the table's settings.
 */
public class SeekSkipDifferentialFuzzTest {

  static final DataBlockEncoding[] ENCODINGS = { DataBlockEncoding.NONE,
    DataBlockEncoding.PREFIX, DataBlockEncoding.FAST_DIFF, DataBlockEncoding.ROW_INDEX_V1 };

  @Test
  public void everyModeReturnsUpstreamsCells() throws IOException {
    long seed = Long.getLong("hbasepatches.fuzz.seed", System.nanoTime());
    int tables = Integer.getInteger("hbasepatches.fuzz.tables", 3);
    int reads = Integer.getInteger("hbasepatches.fuzz.reads", 120);
    System.out.println("SeekSkipDifferentialFuzzTest seed=" + seed + " tables=" + tables
      + " reads=" + reads + " (replay: -Dhbasepatches.fuzz.seed=" + seed + ")");
    Random random = new Random(seed);
    for (int t = 0; t < tables; t++) {
      fuzzOneTable(seed, t, new Random(random.nextLong()), reads);
    }
  }

  private static void fuzzOneTable(long seed, int t, Random random, int reads)
    throws IOException {
    int versions = 1 + random.nextInt(4);
    BloomType bloom = BloomType.values()[random.nextInt(3)]; // NONE, ROW, ROWCOL
    DataBlockEncoding encoding = ENCODINGS[random.nextInt(ENCODINGS.length)];
    KeepDeletedCells keep = random.nextInt(4) == 0 ? KeepDeletedCells.TRUE : KeepDeletedCells.FALSE;
    int rows = 5 + random.nextInt(60);
    int cols = 1 + random.nextInt(10);
    int maxTs = 1 + random.nextInt(8);
    int files = 1 + random.nextInt(5);
    String context = "seed=" + seed + " table=" + t + " versions=" + versions + " bloom=" + bloom
      + " encoding=" + encoding + " keepDeleted=" + keep + " rows=" + rows + " cols=" + cols
      + " maxTs=" + maxTs + " files=" + files;
    List<List<Mutation>> flushed = new ArrayList<>();
    for (int f = 0; f < files; f++) {
      flushed.add(RandomReads.mutations(random, rows, cols, maxTs, 20 + random.nextInt(200)));
    }
    List<Mutation> memstore =
      RandomReads.mutations(random, rows, cols, maxTs, random.nextInt(60));
    Map<SeekSkipMode, LocalRegion> regions = new EnumMap<>(SeekSkipMode.class);
    LocalRegion stock = null;
    try {
      long settingsSeed = random.nextLong();
      for (SeekSkipMode mode : SeekSkipMode.values()) {
        // Every mode's builder draws the same block size from a fresh, equally seeded Random.
        Random same = new Random(settingsSeed);
        LocalRegion r = ModeRegions.open("fuzz" + t, mode, b -> b.family("f")
          .blockSize(256 + same.nextInt(2048)).maxVersions(versions).bloomType(bloom)
          .encoding(encoding).familyTweak(f -> f.setKeepDeletedCells(keep)));
        regions.put(mode, r);
        r.load(flushed, memstore);
      }
      if (Boolean.getBoolean("hbasepatches.fuzz.stock")) {
        Random same = new Random(settingsSeed);
        stock = LocalRegion.builder("stock" + t).family("f").blockSize(256 + same.nextInt(2048))
          .maxVersions(versions).bloomType(bloom).encoding(encoding)
          .familyTweak(f -> f.setKeepDeletedCells(keep)).build();
        stock.load(flushed, memstore);
      }
      for (int i = 0; i < reads; i++) {
        if (random.nextInt(3) == 0) {
          Get get = RandomReads.get(random, rows, cols, maxTs, versions);
          List<Cell> expected =
            RandomReads.getCells(regions.get(SeekSkipMode.UPSTREAM).region(), get);
          for (SeekSkipMode mode : SeekSkipMode.values()) {
            CellAssertions.assertSameCells(context + " read=" + i + " " + get + " " + mode,
              expected, RandomReads.getCells(regions.get(mode).region(), get));
          }
        } else {
          long scanSeed = random.nextLong();
          Scan probe = RandomReads.scan(new Random(scanSeed), rows, cols, maxTs, versions);
          String where = context + " read=" + i + " " + probe;
          if (stock != null) {
            scanAll(where + " stock HRegion", stock,
              RandomReads.scan(new Random(scanSeed), rows, cols, maxTs, versions));
          }
          List<Cell> expected;
          try {
            expected = regions.get(SeekSkipMode.UPSTREAM)
              .scanAll(RandomReads.scan(new Random(scanSeed), rows, cols, maxTs, versions));
          } catch (AssertionError e) {
            if (!RandomReads.isUpstreamScanOrderCheck(e)) {
              throw new AssertionError(where + " UPSTREAM: " + e, e);
            }
            // Stock HBase's own scan-order check fails on this read (UpstreamScanOrderTest):
            // there is no reference to compare with.
            System.out.println("skipped, upstream's scan-order check fails: " + where);
            continue;
          }
          for (SeekSkipMode mode : SeekSkipMode.values()) {
            // Filters are stateful: each mode gets its own scan, drawn from the same seed.
            Scan scan = RandomReads.scan(new Random(scanSeed), rows, cols, maxTs, versions);
            CellAssertions.assertSameCells(where + " " + mode, expected,
              scanAll(where + " " + mode, regions.get(mode), scan));
          }
        }
      }
    } finally {
      for (LocalRegion r : regions.values()) {
        r.close();
      }
      if (stock != null) {
        stock.close();
      }
    }
  }

  /** The scan's cells; a failure inside the region names the case it happened on. */
  private static List<Cell> scanAll(String where, LocalRegion region, Scan scan) {
    try {
      return region.scanAll(scan);
    } catch (IOException | RuntimeException | AssertionError e) {
      throw new AssertionError(where + ": " + e, e);
    }
  }
}
