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
package dev.hbasepatches.jmh.series;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.Test;

/**
 * What {@link SeriesToggleBenchmark} compares: each side in its own HBase, SERIES with the
 * series' classes and key, UPSTREAM and PATCHED without them, every side returning the same
 * cells and bytes for the same case, and clear refusals of what it cannot run.
 */
public class SideTest {

  /** Runs {@code ops} operations on both sides and checks each returned the same. */
  private static void sameAnswers(String change, String caseSpec, String a, String b, int ops)
    throws Exception {
    ClassLoader before = Thread.currentThread().getContextClassLoader();
    try (Side sa = Side.open(change, a, caseSpec); Side sb = Side.open(change, b, caseSpec)) {
      assertSame("context loader restored", before, Thread.currentThread().getContextClassLoader());
      for (int i = 0; i < ops; i++) {
        long ra = sa.run();
        assertEquals(change + " " + caseSpec + " op " + i, ra, sb.run());
        assertTrue(change + " " + caseSpec + " op " + i + " returned nothing", ra > 0);
      }
      if (b.equals("SERIES")) {
        assertFalse(sa.describe(), sa.describe().equals(sb.describe()));
      }
    }
    assertSame(before, Thread.currentThread().getContextClassLoader());
  }

  @Test
  public void seekSkipSeriesScansTheSameCellsWithItsBudget() throws Exception {
    sameAnswers("seek-skip", "oneVersionOfTen/4/4000", "UPSTREAM", "SERIES", 3);
    try (Side series = Side.open("seek-skip", "SERIES", "deletedColumns/4/4000")) {
      assertTrue(series.describe(), series.describe().contains("hbase.storescanner.max.skips=12"));
    }
  }

  @Test
  public void seekSkipModuleAgreesWithUpstream() throws Exception {
    sameAnswers("seek-skip", "deletedColumns/4/4000", "UPSTREAM", "PATCHED", 2);
  }

  @Test
  public void rowIndexSeriesReadsTheSameRows() throws Exception {
    sameAnswers("row-index", "randomGet/cached/3000", "UPSTREAM", "SERIES", 200);
    sameAnswers("row-index", "reverseScan100/cached/3000", "UPSTREAM", "SERIES", 50);
  }

  @Test
  public void checksumSeriesReadsTheSameBlocks() throws Exception {
    for (String buffers : List.of("HEAP", "DIRECT", "MULTI")) {
      sameAnswers("checksum", buffers + "/5000", "UPSTREAM", "SERIES", 40);
    }
  }

  @Test
  public void offHeapSeriesServesTheSameBytes() throws Exception {
    sameAnswers("offheap-read", "multiGet", "UPSTREAM", "SERIES", 20);
    sameAnswers("offheap-read", "scan", "UPSTREAM", "PATCHED", 20);
  }

  @Test
  public void seriesJarsHoldTheirPatchedClasses() throws Exception {
    Path dir = Files.createTempDirectory("series-jars");
    assertTrue(SideLoader.seriesClasses("seek-skip", dir)
      .contains("org.apache.hadoop.hbase.regionserver.StoreScanner"));
    assertTrue(SideLoader.seriesClasses("row-index", dir)
      .contains("org.apache.hadoop.hbase.io.encoding.RowIndexSeekerV1"));
    assertTrue(SideLoader.seriesClasses("checksum", dir)
      .contains("org.apache.hadoop.hbase.io.hfile.HFileBlock"));
    assertTrue(SideLoader.seriesClasses("offheap-read", dir)
      .contains("org.apache.hadoop.hbase.io.hfile.bucket.BucketCache"));
  }

  @Test
  public void badSidesChangesAndCasesAreRefusedByName() {
    Exception e = assertThrows(IllegalArgumentException.class,
      () -> Side.open("seek-skip", "NEWEST", "oneVersionOfTen/4"));
    assertTrue(e.getMessage(), e.getMessage().contains("NEWEST"));
    e = assertThrows(Exception.class, () -> Side.open("no-such-change", "UPSTREAM", "x"));
    assertTrue(e.toString(), e.toString().contains("no-such-change"));
    e = assertThrows(Exception.class, () -> Side.open("seek-skip", "UPSTREAM", "oneVersionOfTen"));
    assertTrue(e.toString(), e.toString().contains("shape/files"));
    e = assertThrows(Exception.class, () -> Side.open("checksum", "PATCHED", "HEAP"));
    assertTrue(e.toString(), e.toString().contains("OverlayBlockReadBenchmark"));
  }
}
