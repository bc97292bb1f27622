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
package dev.hbasepatches.testkit;

import static dev.hbasepatches.testkit.ScanShape.FAMILY;
import static dev.hbasepatches.testkit.ScanShape.qualifier;
import static dev.hbasepatches.testkit.ScanShape.row;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.junit.Test;

/**
 * The fuzzers' coverage helpers on real regions: the row limit counts rows as the RPC layer
 * does, a MOB family's references are resolved and counted, an off-heap BucketCache hands out
 * direct-memory cells (and the census fails when it promised them and none came), and
 * {@link RandomFamily#expiresEveryCell()} says exactly when a table reads empty by design.
 */
public class FuzzCensusTest {

  private static List<Mutation> rows(int rows, int cols, int valueBytes) {
    List<Mutation> out = new ArrayList<>();
    for (int r = 0; r < rows; r++) {
      Put p = new Put(row(r));
      for (int c = 0; c < cols; c++) {
        p.addColumn(FAMILY, qualifier(c), 1 + c % 3, new byte[valueBytes]);
      }
      out.add(p);
    }
    return out;
  }

  @Test(timeout = 120_000)
  public void aRowLimitReturnsTheFirstRowsWithBatchAndPartialResults() throws IOException {
    try (LocalRegion r = LocalRegion.builder("limit").family("f").build()) {
      r.writeAndFlush(rows(10, 5, 20));
      List<Cell> whole = RandomReads.scanLikeRpc(r.region(), new Scan(), 0, null);
      assertEquals(50, whole.size());
      for (boolean reversed : new boolean[] { false, true }) {
        List<Cell> all = RandomReads.scanLikeRpc(r.region(), new Scan().setReversed(reversed), 0,
          null);
        for (int limit : new int[] { 1, 3, 10, 12 }) {
          for (int batch : new int[] { 0, 2, 5 }) {
            for (long bytes : new long[] { 0, 1, 90 }) {
              Scan s = new Scan().setReversed(reversed).setLimit(limit);
              if (batch > 0) {
                s.setBatch(batch);
              }
              List<Cell> got = RandomReads.scanLikeRpc(r.region(), s, bytes, null);
              CellAssertions.assertSameCells("limit=" + limit + " batch=" + batch + " bytes="
                + bytes + " reversed=" + reversed, RandomReads.firstRows(all, limit), got);
            }
          }
        }
      }
    }
  }

  @Test(timeout = 120_000)
  public void theCensusResolvesEveryMobReferenceAndSeesOffHeapCells() throws IOException {
    RandomFamily mob = null;
    for (int i = 0; mob == null; i++) {
      RandomFamily f = RandomFamily.draw(new Random(i), 3, DataBlockEncoding.FAST_DIFF)
        .withMobDrawn(new Random(i), 1);
      if (!f.hasTtl()) {
        mob = f;
      }
    }
    RandomFamily family = mob;
    try (LocalRegion r = family.applyTo(LocalRegion.builder("mob").family("f"))
      .offHeapBucketCache(2L << 20, 8).build()) {
      // Values of 60 bytes: over every MOB threshold withMobDrawn picks.
      r.writeAndFlush(rows(20, 3, 60));
      r.write(rows(5, 1, 0));
      FuzzCensus.prepare(r);
      FuzzCensus.Reading reading = FuzzCensus.read("mob", r, true);
      assertTrue(reading.toString(), reading.mobReferences > 0);
      assertEquals(reading.mobReferences, reading.mobResolved);
      assertTrue(reading.tally.toString(), reading.tally.offHeap() > 0);
      FuzzCensus.Coverage coverage = new FuzzCensus.Coverage();
      coverage.table(family, true, List.of(reading));
      coverage.assertReal("mob", false);
    }
    // A region with an on-heap cache only: promised off-heap cells never come, and it says so.
    try (LocalRegion r = LocalRegion.builder("heap").family("f").build()) {
      r.writeAndFlush(rows(5, 2, 10));
      FuzzCensus.prepare(r);
      AssertionError e =
        assertThrows(AssertionError.class, () -> FuzzCensus.read("heap", r, true));
      assertTrue(e.getMessage(), e.getMessage().contains("off-heap"));
      FuzzCensus.Reading reading = FuzzCensus.read("heap", r, false);
      FuzzCensus.Coverage coverage = new FuzzCensus.Coverage();
      coverage.table(RandomFamily.draw(new Random(1), 3, DataBlockEncoding.NONE), true,
        List.of(reading));
      assertThrows(AssertionError.class, () -> coverage.assertReal("heap", false));
    }
  }

  @Test(timeout = 180_000)
  public void aTableReadsEmptyExactlyWhenItsTtlExpiresEveryCell() throws IOException {
    int expired = 0;
    int live = 0;
    for (int i = 0; expired < 2 || live < 2; i++) {
      int maxTs = 1 + i % 6;
      RandomFamily family = RandomFamily.draw(new Random(i), maxTs, DataBlockEncoding.NONE);
      if (!family.hasTtl() || (family.expiresEveryCell() ? expired >= 2 : live >= 2)) {
        continue;
      }
      List<Mutation> data = new ArrayList<>();
      for (int ts = 1; ts <= maxTs; ts++) {
        data.add(new Put(row(ts)).addColumn(FAMILY, qualifier(0), ts, new byte[] { 1 }));
      }
      try (Closeable clock = family.freezeClock();
        LocalRegion r = family.applyTo(LocalRegion.builder("ttl" + i).family("f")).build()) {
        r.writeAndFlush(data.subList(0, data.size() / 2));
        r.write(data.subList(data.size() / 2, data.size()));
        int cells = r.scanAll(new Scan().readAllVersions()).size();
        if (family.expiresEveryCell()) {
          expired++;
          assertEquals(family + " maxTs=" + maxTs, 0, cells);
        } else {
          live++;
          assertTrue(family + " maxTs=" + maxTs, cells > 0);
        }
      }
    }
  }
}
