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

import static dev.hbasepatches.testkit.ScanShape.FAMILY;
import static dev.hbasepatches.testkit.ScanShape.qualifier;
import static dev.hbasepatches.testkit.ScanShape.row;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import dev.hbasepatches.testkit.CellAssertions;
import dev.hbasepatches.testkit.LocalRegion;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.regionserver.compactions.Compactor;
import org.junit.Test;

/**
 * Major compactions through {@link SeekSkipCompactor} drop surplus versions and deleted cells with
 * SEEK requests. Every mode must write the same cells, and PATCHED's decisions must show up.
 */
public class SeekSkipCompactionTest {

  private static List<List<Mutation>> data() {
    Random random = new Random(11927L);
    List<List<Mutation>> files = new ArrayList<>();
    for (int f = 0; f < 4; f++) {
      List<Mutation> file = new ArrayList<>();
      for (int r = 0; r < 300; r++) {
        Put p = new Put(row(r));
        for (int c = 0; c < 6; c++) {
          byte[] v = new byte[40];
          random.nextBytes(v);
          p.addColumn(FAMILY, qualifier(c), 100 + f, v); // a newer version per file
        }
        file.add(p);
        if (f == 3 && r % 4 == 0) {
          file.add(new Delete(row(r)).addColumns(FAMILY, qualifier(2), 102));
        }
        if (f == 2 && r % 9 == 0) {
          file.add(new Delete(row(r)).addFamily(FAMILY, 101));
        }
      }
      files.add(file);
    }
    return files;
  }

  @Test
  public void majorCompactionWritesTheSameCellsInEveryMode() throws IOException {
    Map<SeekSkipMode, List<Cell>> after = new EnumMap<>(SeekSkipMode.class);
    for (SeekSkipMode mode : SeekSkipMode.values()) {
      try (LocalRegion r = ModeRegions.open("compact", mode,
        b -> b.family("f").maxVersions(2).blockSize(1024))) {
        r.load(data(), new ArrayList<>());
        assertEquals(4, r.storeFileCount(FAMILY));
        SeekSkipStore store = ModeRegions.store(r);
        Compactor<?> compactor = store.getStoreEngine().getCompactor();
        assertTrue("compactor in use: " + compactor.getClass(),
          compactor instanceof SeekSkipCompactor);
        store.decisions().reset();
        r.region().compact(true);
        assertEquals(mode + ": one file after a major compaction", 1, r.storeFileCount(FAMILY));
        if (mode == SeekSkipMode.PATCHED) {
          assertTrue("PATCHED compaction skipped: " + store.decisions(),
            store.decisions().skips() > 0);
        } else if (mode == SeekSkipMode.BASELINE) {
          assertEquals("BASELINE compaction never skips: " + store.decisions(), 0,
            store.decisions().skips());
        }
        after.put(mode, r.scanAll(new Scan().setRaw(true).readAllVersions()));
      }
    }
    List<Cell> expected = after.get(SeekSkipMode.UPSTREAM);
    assertTrue("two versions of 6 columns kept for most rows", expected.size() > 300 * 6);
    for (SeekSkipMode mode : SeekSkipMode.values()) {
      CellAssertions.assertSameCells("compacted " + mode, expected, after.get(mode));
    }
  }
}
