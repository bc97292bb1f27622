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
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.regionserver.StoreEngine;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.Test;

public class SeekSkipFlushTest {

  /** Three versions of each column where the family keeps two, and some deletes: a flush drops. */
  private static List<Mutation> memstore() {
    List<Mutation> m = new ArrayList<>();
    for (int r = 0; r < 400; r++) {
      for (long ts = 100; ts < 103; ts++) {
        Put p = new Put(row(r));
        for (int c = 0; c < 5; c++) {
          p.addColumn(FAMILY, qualifier(c), ts, Bytes.toBytes("v" + r + "/" + c + "/" + ts));
        }
        m.add(p);
      }
      if (r % 3 == 0) {
        m.add(new Delete(row(r)).addColumns(FAMILY, qualifier(1), 101));
      }
      if (r % 11 == 0) {
        m.add(new Delete(row(r)).addFamily(FAMILY, 100));
      }
    }
    return m;
  }

  @Test
  public void flushWritesTheSameCellsInEveryModeThroughOurScanner() throws IOException {
    Map<SeekSkipMode, List<Cell>> flushed = new EnumMap<>(SeekSkipMode.class);
    for (SeekSkipMode mode : SeekSkipMode.values()) {
      // ModeRegions sets the flusher key, as every region of this module's tests has it.
      try (LocalRegion r = ModeRegions.open("flush", mode,
        b -> b.family("f").maxVersions(2).blockSize(1024))) {
        SeekSkipStore store = ModeRegions.store(r);
        Object flusher = storeFlusher(store);
        assertTrue("flusher in use: " + flusher.getClass(),
          flusher instanceof SeekSkipStoreFlusher);
        store.decisions().reset();
        List<List<Mutation>> oneFile = new ArrayList<>();
        oneFile.add(memstore());
        r.load(oneFile, new ArrayList<>());
        assertEquals(mode + ": one flushed file", 1, r.storeFileCount(FAMILY));
        // The flush drops each column's oldest version with a SEEK_NEXT_COL request: only a
        // scanner of ours reports it to the store's decisions.
        switch (mode) {
          case PATCHED:
            assertTrue("PATCHED flush skipped: " + store.decisions(),
              store.decisions().skips() > 0);
            break;
          case BASELINE:
            assertTrue("BASELINE flush sought: " + store.decisions(),
              store.decisions().seeks() > 0 && store.decisions().skips() == 0);
            break;
          default:
            assertEquals("UPSTREAM flushes with the stock scanner: " + store.decisions(), 0,
              store.decisions().skips() + store.decisions().seeks());
        }
        flushed.put(mode, r.scanAll(new Scan().setRaw(true).readAllVersions()));
      }
    }
    List<Cell> expected = flushed.get(SeekSkipMode.UPSTREAM);
    assertTrue("two versions of most columns kept", expected.size() > 400 * 5);
    for (SeekSkipMode mode : SeekSkipMode.values()) {
      CellAssertions.assertSameCells("flushed " + mode, expected, flushed.get(mode));
    }
  }

  /**
   * The store engine's flusher. StoreFlusher is package-private in HBase, and so is
   * StoreEngine.getStoreFlusher() in 2.6.4 (public in 2.6.1): reach it by reflection so this
   * test builds against both (BUILDING.md, "Drift to newer 2.6 releases").
   */
  private static Object storeFlusher(SeekSkipStore store) throws IOException {
    try {
      Method getter = StoreEngine.class.getDeclaredMethod("getStoreFlusher");
      getter.setAccessible(true);
      return getter.invoke(store.getStoreEngine());
    } catch (ReflectiveOperationException e) {
      throw new IOException("cannot read the store engine's flusher", e);
    }
  }
}
