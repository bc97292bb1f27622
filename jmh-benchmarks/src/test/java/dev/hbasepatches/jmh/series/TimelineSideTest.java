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

import dev.hbasepatches.jmh.timelinereads.TimelineSides;
import dev.hbasepatches.testkit.LocalRegion;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The timeline-reads sides of {@link SeriesToggleBenchmark} on one shared 3-RegionServer
 * minicluster (stock HBase, region replication 3, a slow primary for some rows): HBase's sync
 * client as released (UPSTREAM), with the timeline-reads series in front and its keys on
 * (SERIES), and the module's reader (PATCHED, BASELINE) read the same cells for the same rows;
 * SERIES resolves the series' classes and its one-secondary-first switch shows at the servers.
 */
public class TimelineSideTest {

  private static final String CHANGE = "timeline-reads";
  private static final String SERIES_JAR = SideLoader.seriesResource(CHANGE);
  private static AutoCloseable cluster;

  @BeforeClass
  public static void startCluster() throws Exception {
    cluster = TimelineSides.holdCluster();
  }

  @AfterClass
  public static void stopCluster() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  public void everySideReadsTheSameCells() throws Exception {
    ClassLoader before = Thread.currentThread().getContextClassLoader();
    String caseSpec = "slowPrimary/20/30";
    try (Side upstream = Side.open(CHANGE, "UPSTREAM", caseSpec);
      Side series = Side.open(CHANGE, "SERIES", caseSpec);
      Side patched = Side.open(CHANGE, "PATCHED", caseSpec);
      Side baseline = Side.open(CHANGE, "BASELINE", caseSpec)) {
      assertSame("context loader restored", before, Thread.currentThread().getContextClassLoader());
      // ten operations, 100 reads: exactly 20 of slow rows
      for (int op = 0; op < 10; op++) {
        long cells = upstream.run();
        assertEquals("op " + op, TimelineSides.GETS_PER_OP, cells);
        assertEquals("SERIES op " + op, cells, series.run());
        assertEquals("PATCHED op " + op, cells, patched.run());
        assertEquals("BASELINE op " + op, cells, baseline.run());
      }
      String u = upstream.describe();
      String s = series.describe();
      assertTrue(u, u.contains("ConnectionImplementation from "));
      assertFalse(u, u.contains(SERIES_JAR));
      assertFalse(u, u.contains("ReplicaHedgePolicy"));
      assertTrue(s, s.contains("ConnectionImplementation from " + SERIES_JAR));
      assertTrue(s, s.contains("ReplicaHedgePolicy from " + SERIES_JAR + " with "
        + TimelineSides.SERIES_ADAPTIVE + "=true " + TimelineSides.SERIES_ONE_FIRST + "=true"));
      assertTrue(s, s.contains("RpcRetryingCallerWithReadReplicas from " + SERIES_JAR));
      assertTrue(patched.describe(), patched.describe().contains("TimelineReader, mode PATCHED"));
      assertTrue(baseline.describe(), baseline.describe().contains("mode BASELINE (reads STRONG"));
      for (String d : List.of(u, s, patched.describe(), baseline.describe())) {
        assertTrue(d, d.contains("100 reads (20 of slow rows)"));
      }
      // STRONG reads are answered by the primary only
      assertTrue(baseline.describe(), baseline.describe().endsWith(", 0 stale answers"));
    }
    assertSame(before, Thread.currentThread().getContextClassLoader());
  }

  /**
   * Every read is of a slow row: the primary sleeps 400 ms, and HBase's client waits 200 ms for
   * it ({@code hbase.client.primaryCallTimeout.get}, the case's fourth part), so every read
   * hedges. HBase's client as released then asks both secondaries at once; the series with
   * one.secondary.first asks one, and the second only if the first has not answered within
   * another hedge delay (the adaptive delay stays at the 200 ms bound: the primary loses every
   * race). Each secondary takes 60 ms to answer (the case's fifth part): long enough that
   * HBase's client has sent both its requests before the first answer cancels the other, even
   * on a busy machine (answering at once, one answer often came back before the second request
   * left), and far shorter than the series' second hedge delay. Counted by the servers'
   * observer, after the last late request arrived.
   */
  @Test
  public void theSeriesAsksOneSecondaryWhereUpstreamAsksBoth() throws Exception {
    double upstream = secondaryGetsPerRead("UPSTREAM");
    double series = secondaryGetsPerRead("SERIES");
    assertTrue("UPSTREAM " + upstream, upstream > 1.75);
    assertTrue("SERIES " + series, series >= 1.0 && series < 1.25);
  }

  private static double secondaryGetsPerRead(String side) throws Exception {
    int ops = 3;
    try (Side s = Side.open(CHANGE, side, "slowPrimary/100/400/200/60")) {
      assertTrue(s.describe(), s.describe().contains(
        "hbase.client.primaryCallTimeout.get=200000 us"));
      long[] before = quiet();
      for (int i = 0; i < ops; i++) {
        assertEquals(TimelineSides.GETS_PER_OP, s.run());
      }
      long[] after = quiet();
      long reads = (long) ops * TimelineSides.GETS_PER_OP;
      assertTrue(side + " " + Arrays.toString(before) + " -> " + Arrays.toString(after),
        after[0] - before[0] >= reads);
      return ((after[1] - before[1]) + (after[2] - before[2])) / (double) reads;
    }
  }

  /** The servers' Get counts once no request has arrived for half a second. */
  private static long[] quiet() throws InterruptedException {
    long[] last = TimelineSides.serverGets();
    while (true) {
      Thread.sleep(500);
      long[] now = TimelineSides.serverGets();
      if (Arrays.equals(last, now)) {
        return now;
      }
      last = now;
    }
  }

  /** A SERIES side over stock HBase (a loader without the series jar) refuses to be measured. */
  @Test
  public void aSeriesSideOverStockHBaseIsRefused() throws Exception {
    Path dir = Files.createTempDirectory("stock-hbase");
    Thread me = Thread.currentThread();
    ClassLoader before = me.getContextClassLoader();
    try {
      URLClassLoader stock = SideLoader.loader(CHANGE, false, dir);
      me.setContextClassLoader(stock);
      Method open = stock.loadClass(TimelineSides.class.getName())
        .getMethod("open", String.class, String.class);
      InvocationTargetException e = assertThrows(InvocationTargetException.class,
        () -> open.invoke(null, "SERIES", "slowPrimary/3/50"));
      assertTrue(e.getCause().toString(),
        e.getCause().toString().contains("has no ReplicaHedgePolicy"));
    } finally {
      me.setContextClassLoader(before);
      LocalRegion.deleteTree(dir);
    }
  }

  @Test
  public void seriesJarHoldsThePatchedClientClasses() throws Exception {
    Path dir = Files.createTempDirectory("series-jars");
    try {
      assertTrue(SideLoader.seriesClasses(CHANGE, dir).containsAll(List.of(
        "org.apache.hadoop.hbase.client.ConnectionImplementation",
        "org.apache.hadoop.hbase.client.RpcRetryingCallerWithReadReplicas",
        "org.apache.hadoop.hbase.client.ReplicaHedgePolicy")));
    } finally {
      LocalRegion.deleteTree(dir);
    }
  }

  @Test
  public void badCasesAreRefusedByName() {
    Exception e = assertThrows(Exception.class, () -> Side.open(CHANGE, "UPSTREAM", "fastPrimary"));
    assertTrue(e.toString(), e.toString().contains(
      "slowPrimary[/slowPercent[/pauseMs[/primaryTimeoutMs[/secondaryPauseMs]]]]"));
    e = assertThrows(Exception.class, () -> Side.open(CHANGE, "UPSTREAM", "slowPrimary/101"));
    assertTrue(e.toString(), e.toString().contains("slowPercent is 101, must be from 0 to 100"));
    e = assertThrows(Exception.class, () -> Side.open(CHANGE, "SERIES", "slowPrimary/3/0"));
    assertTrue(e.toString(), e.toString().contains("pauseMs is 0, must be from 1 to 10000"));
    e = assertThrows(Exception.class, () -> Side.open(CHANGE, "UPSTREAM", "slowPrimary/3/50/0"));
    assertTrue(e.toString(), e.toString().contains("primaryTimeoutMs is 0, must be from 1 to"));
    e = assertThrows(Exception.class,
      () -> Side.open(CHANGE, "UPSTREAM", "slowPrimary/3/50/10/0"));
    assertTrue(e.toString(), e.toString().contains("secondaryPauseMs is 0, must be from 1 to"));
    e = assertThrows(Exception.class,
      () -> Side.open(CHANGE, "UPSTREAM", "slowPrimary/3/50/10/1/1"));
    assertTrue(e.toString(), e.toString().contains("slowPrimary/slowPercent/pauseMs/primary"));
    try (Side open = Side.open(CHANGE, "UPSTREAM", "slowPrimary/3/50")) {
      e = assertThrows(Exception.class, () -> Side.open(CHANGE, "SERIES", "slowPrimary/3/20"));
      assertTrue(e.toString(), e.toString().contains("pauseMs is 20, but a side open in this "
        + "JVM reads with the primary paused 50 ms"));
    } catch (Exception unexpected) {
      throw new AssertionError(unexpected);
    }
  }
}
