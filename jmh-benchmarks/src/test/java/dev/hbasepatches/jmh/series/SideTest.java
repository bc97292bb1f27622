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

  /**
   * The checksum change as a RegionServer installs it: PATCHED resolves ChecksumUtil from the
   * overlay jar and verifies every block it reads through it, UPSTREAM and SERIES run HBase's
   * own; all three read the same blocks (the whole file's content hash) into heap, pooled direct
   * and pooled multi-segment buffers.
   */
  @Test
  public void checksumOverlayReadsTheSameBlocksAndVerifiesEveryOne() throws Exception {
    for (String buffers : List.of("HEAP", "DIRECT", "MULTI")) {
      String caseSpec = buffers + "/5000";
      sameAnswers("checksum", caseSpec, "UPSTREAM", "PATCHED", 40);
      try (Side upstream = Side.open("checksum", "UPSTREAM", caseSpec);
        Side series = Side.open("checksum", "SERIES", caseSpec);
        Side patched = Side.open("checksum", "PATCHED", caseSpec)) {
        String hash = field(upstream.describe(), "content crc32");
        assertEquals(buffers, hash, field(series.describe(), "content crc32"));
        assertEquals(buffers, hash, field(patched.describe(), "content crc32"));
        assertEquals(upstream.describe(), "-1", field(upstream.describe(), "overlay verified"));
        assertEquals(series.describe(), "-1", field(series.describe(), "overlay verified"));
        assertTrue(patched.describe(), patched.describe()
          .contains("ChecksumUtil from " + SideLoader.CHECKSUM_OVERLAY_RESOURCE));
        assertFalse(upstream.describe(), upstream.describe()
          .contains(SideLoader.CHECKSUM_OVERLAY_RESOURCE));
        int blocks = Integer.parseInt(field(patched.describe(), "blocks"));
        assertTrue(patched.describe() + ": a file of several blocks", blocks > 10);
        long verified = Long.parseLong(field(patched.describe(), "overlay verified"));
        // The opening reads: the writer's index walk and the content hash.
        assertTrue(patched.describe(), verified >= blocks);
        long bytes = 0;
        for (int i = 0; i < blocks; i++) {
          bytes += patched.run();
        }
        assertTrue(buffers + ": 64 KB blocks, " + bytes + " bytes",
          bytes >= 64L * 1024 * (blocks - 1));
        assertEquals("every block read verified by the overlay", verified + blocks,
          Long.parseLong(field(patched.describe(), "overlay verified")));
      }
    }
  }

  /** A PATCHED side whose overlay is switched off would measure HBase's path: it must not open. */
  @Test
  public void checksumPatchedRefusesAnOverlaySwitchedOff() {
    ClassLoader before = Thread.currentThread().getContextClassLoader();
    System.setProperty("hbasepatches.checksum.enabled", "false");
    try {
      Exception e =
        assertThrows(Exception.class, () -> Side.open("checksum", "PATCHED", "HEAP/5000"));
      assertTrue(e.toString(), e.toString().contains("switched off"));
      assertSame("context loader restored", before,
        Thread.currentThread().getContextClassLoader());
    } finally {
      System.clearProperty("hbasepatches.checksum.enabled");
    }
  }

  /** The value after {@code name=} in a side's description, up to the next space. */
  private static String field(String description, String name) {
    int at = description.indexOf(" " + name + "=");
    assertTrue(description + " has no " + name, at >= 0);
    int start = at + name.length() + 2;
    int end = description.indexOf(' ', start);
    return end < 0 ? description.substring(start) : description.substring(start, end);
  }

  @Test
  public void offHeapSeriesServesTheSameBytes() throws Exception {
    sameAnswers("offheap-read", "multiGet", "UPSTREAM", "SERIES", 20);
    sameAnswers("offheap-read", "scan", "UPSTREAM", "PATCHED", 20);
  }

  @Test
  public void quotaSidesAdmitTheSameRequestsWithTheirOwnLimiters() throws Exception {
    sameAnswers("quotas", "notBiting/500", "UPSTREAM", "SERIES", 3);
    sameAnswers("quotas", "notBiting/500", "UPSTREAM", "PATCHED", 3);
    sameAnswers("quotas", "notBiting/500", "BASELINE", "PATCHED", 3);
    try (Side upstream = Side.open("quotas", "UPSTREAM", "notBiting");
      Side series = Side.open("quotas", "SERIES", "notBiting");
      Side patched = Side.open("quotas", "PATCHED", "notBiting")) {
      assertEquals(1000, upstream.run());
      assertTrue(upstream.describe(), upstream.describe().contains("AverageIntervalRateLimiter"));
      assertTrue(series.describe(), series.describe().contains(
        "request limiter org.apache.hadoop.hbase.quotas.PreciseRateLimiter (hbase.quota.rate"
          + ".limiter=org.apache.hadoop.hbase.quotas.PreciseRateLimiter)"));
      assertTrue(patched.describe(), patched.describe().contains("REQUEST_NUMBER=1000000000000"));
    }
  }

  /**
   * The series' gain is accuracy: on a simulated clock, one caller taking every request the
   * quota admits and then moving the clock one millisecond, for ten seconds, through
   * DefaultOperationQuota and TimeBasedLimiter (or the module's quota). The series' limiter and
   * the module's admit the burst (one limit) and the limit every second after it. HBase's default
   * limiter refills whole requests per elapsed millisecond and drops the fraction: 1,000 a second
   * at 1,500 (two thirds), 2,000 at 2,500 (four fifths); its refusal waits round down to 0 ms,
   * which admits, so its burst runs a request or two into debt. At 500 a second (a whole request
   * every two milliseconds) nothing is dropped and all three agree.
   */
  @Test
  public void quotaSeriesAndModuleHoldTheLimitWhereTheStockLimiterFallsShort() throws Exception {
    assertEquals(1500 + 10 * 1500, admitted("SERIES", "accuracy/1500"));
    // The module spaces requests by whole nanoseconds rounded up (666,667 ns at 1,500 a second),
    // so the 15,000th of the ten seconds falls 5 microseconds after their end.
    assertEquals(1500 + 10 * 1500 - 1, admitted("PATCHED", "accuracy/1500"));
    assertEquals(1501 + 10 * 1000, admitted("UPSTREAM", "accuracy/1500"));
    assertEquals(2500 + 10 * 2500, admitted("SERIES", "accuracy/2500"));
    assertEquals(2500 + 10 * 2500, admitted("PATCHED", "accuracy/2500"));
    assertEquals(2502 + 10 * 2000, admitted("UPSTREAM", "accuracy/2500"));
    for (String side : List.of("UPSTREAM", "SERIES", "PATCHED")) {
      assertEquals(side, 500 + 10 * 500, admitted(side, "accuracy/500"));
    }
  }

  private static long admitted(String side, String caseSpec) throws Exception {
    try (Side s = Side.open("quotas", side, caseSpec)) {
      long first = s.run();
      assertEquals(side + " " + caseSpec + " is deterministic", first, s.run());
      return first;
    }
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
    assertTrue(SideLoader.seriesClasses("quotas", dir)
      .containsAll(List.of("org.apache.hadoop.hbase.quotas.PreciseRateLimiter",
        "org.apache.hadoop.hbase.quotas.TimeBasedLimiter")));
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
    e = assertThrows(Exception.class, () -> Side.open("checksum", "BASELINE", "HEAP"));
    assertTrue(e.toString(), e.toString().contains("ChecksumToggleBenchmark"));
    e = assertThrows(Exception.class, () -> Side.open("checksum", "UPSTREAM", "OFFHEAP"));
    assertTrue(e.toString(), e.toString().contains("HEAP, DIRECT or MULTI"));
    e = assertThrows(Exception.class, () -> Side.open("quotas", "UPSTREAM", "biting"));
    assertTrue(e.toString(), e.toString().contains("notBiting[/requests] or accuracy/limit"));
    e = assertThrows(Exception.class, () -> Side.open("quotas", "UPSTREAM", "accuracy"));
    assertTrue(e.toString(), e.toString().contains("accuracy/limit[/seconds]"));
    e = assertThrows(Exception.class, () -> Side.open("quotas", "BASELINE", "accuracy/1500"));
    assertTrue(e.toString(), e.toString().contains("BASELINE has none"));
  }
}
