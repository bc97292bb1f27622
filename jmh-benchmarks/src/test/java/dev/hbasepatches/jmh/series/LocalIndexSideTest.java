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
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import dev.hbasepatches.jmh.localindexpruning.LocalIndexSides;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.Test;

/**
 * The local-index-pruning sides of {@link SeriesToggleBenchmark}: Phoenix 5.2.1 with the upstream
 * series in front (SERIES), as released (UPSTREAM) and with this project's module (PATCHED), each
 * in its own class loader, select the same regions (the operation's fingerprint of the planned
 * scans), SERIES from the series jar's classes, and bad cases and sides are refused by name.
 */
public class LocalIndexSideTest {

  private static final String CHANGE = "local-index-pruning";
  private static final String SERIES_JAR = SideLoader.seriesResource(CHANGE);

  /** Opens both sides, runs {@code ops} operations on each, checks they returned the same. */
  private static String[] sameRegions(String caseSpec, String a, String b, int ops)
    throws Exception {
    ClassLoader before = Thread.currentThread().getContextClassLoader();
    try (Side sa = Side.open(CHANGE, a, caseSpec); Side sb = Side.open(CHANGE, b, caseSpec)) {
      assertSame("context loader restored", before, Thread.currentThread().getContextClassLoader());
      long first = sa.run();
      for (int i = 0; i < ops; i++) {
        long ra = sa.run();
        assertEquals(caseSpec + " " + a + " op " + i + " (the same plan again)", first, ra);
        assertEquals(caseSpec + " op " + i + ": " + a + " and " + b + " selected other regions\n"
          + sa.describe() + "\n" + sb.describe(), ra, sb.run());
        assertTrue(ra > 0);
      }
      return new String[] { sa.describe(), sb.describe() };
    } finally {
      assertSame(before, Thread.currentThread().getContextClassLoader());
    }
  }

  @Test
  public void seriesSelectsUpstreamsRegionsWithTheSeriesClasses() throws Exception {
    String[] point = sameRegions("point/1000", "UPSTREAM", "SERIES", 3);
    assertFalse(point[0], point[0].contains(SERIES_JAR));
    assertFalse(point[0], point[0].contains(LocalIndexSides.SERIES_KEY));
    assertTrue(point[1], point[1].contains("BaseResultIterators from " + SERIES_JAR));
    assertTrue(point[1], point[1].contains(LocalIndexSides.SERIES_KEY + "="
      + LocalIndexSides.SERIES_PRUNER));
    // Phoenix keeps the region before a CHAR key equal to a split point: one or two regions.
    assertTrue(point[1], point[1].matches(".* selected=[12] .*"));
    String[] in = sameRegions("inList/1000", "SERIES", "UPSTREAM", 2);
    assertTrue(in[0], in[0].matches(".* selected=(1[0-9]|20) .*"));
  }

  @Test
  public void seriesLeavesAQueryWithoutKeyRangeToTheWalk() throws Exception {
    String[] all = sameRegions("noPrefix/40", "UPSTREAM", "SERIES", 2);
    assertTrue(all[1], all[1].contains(" selected=40 "));
  }

  @Test
  public void moduleSelectsUpstreamsRegions() throws Exception {
    String[] point = sameRegions("point/2000", "UPSTREAM", "PATCHED", 3);
    assertFalse(point[1], point[1].contains(SERIES_JAR));
  }

  /**
   * The SERIES workload checks that its planning asks the series' pruner: opened over stock
   * Phoenix 5.2.1 (a loader without the series jar) it must refuse to be measured as the series.
   */
  @Test
  public void aSeriesSideOverStockPhoenixIsRefused() throws Exception {
    Path dir = Files.createTempDirectory("stock-phoenix");
    Thread me = Thread.currentThread();
    ClassLoader before = me.getContextClassLoader();
    try {
      URLClassLoader stock = SideLoader.loader(CHANGE, false, dir);
      me.setContextClassLoader(stock);
      Method open = stock.loadClass(LocalIndexSides.class.getName())
        .getMethod("open", String.class, String.class);
      InvocationTargetException e = assertThrows(InvocationTargetException.class,
        () -> open.invoke(null, "SERIES", "point/100"));
      assertTrue(e.getCause().toString(),
        e.getCause().toString().contains("did not ask the series' pruner"));
    } finally {
      me.setContextClassLoader(before);
      dev.hbasepatches.testkit.LocalRegion.deleteTree(dir);
    }
  }

  @Test
  public void theFingerprintTellsSelectionsApart() throws Exception {
    try (Side point = Side.open(CHANGE, "UPSTREAM", "point/1000");
      Side in = Side.open(CHANGE, "UPSTREAM", "inList/1000")) {
      assertNotEquals(point.run(), in.run());
    }
  }

  @Test
  public void seriesJarHoldsThePatchedPhoenixClasses() throws Exception {
    Path dir = Files.createTempDirectory("series-jars");
    try {
      List<String> classes = SideLoader.seriesClasses(CHANGE, dir);
      for (String c : List.of("org.apache.phoenix.iterate.BaseResultIterators",
        "org.apache.phoenix.iterate.BinarySearchLocalIndexRegionPruner",
        "org.apache.phoenix.iterate.LocalIndexRegionPruner",
        "org.apache.phoenix.execute.AggregatePlan", "org.apache.phoenix.query.QueryServices")) {
        assertTrue(c + " in " + classes, classes.contains(c));
      }
      assertEquals("hbasepatches-phoenix-upstream-patches-series-local-index-pruning.jar",
        SERIES_JAR);
    } finally {
      dev.hbasepatches.testkit.LocalRegion.deleteTree(dir);
    }
  }

  @Test
  public void badCasesAndSidesAreRefusedByName() {
    Exception e = assertThrows(Exception.class, () -> Side.open(CHANGE, "UPSTREAM", "point"));
    assertTrue(e.toString(), e.toString().contains("shape/regions"));
    e = assertThrows(Exception.class, () -> Side.open(CHANGE, "UPSTREAM", "point/5"));
    assertTrue(e.toString(), e.toString().contains("regions is 5, must be from 20 to 100000"));
    e = assertThrows(Exception.class, () -> Side.open(CHANGE, "SERIES", "point/100001"));
    assertTrue(e.toString(), e.toString().contains("regions is 100001"));
    e = assertThrows(Exception.class, () -> Side.open(CHANGE, "UPSTREAM", "point/many"));
    assertTrue(e.toString(), e.toString().contains("'many' is not a number"));
    e = assertThrows(Exception.class, () -> Side.open(CHANGE, "SERIES", "diagonal/1000"));
    assertTrue(e.toString(), e.toString().contains("diagonal"));
    assertTrue(e.toString(), e.toString().contains("[point, inList, noPrefix]"));
    e = assertThrows(Exception.class, () -> Side.open(CHANGE, "BASELINE", "point/1000"));
    assertTrue(e.toString(), e.toString().contains("LocalIndexPlanBenchmark"));
  }
}
