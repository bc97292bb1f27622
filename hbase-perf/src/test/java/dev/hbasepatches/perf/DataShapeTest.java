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
package dev.hbasepatches.perf;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;
import org.apache.hbase.thirdparty.com.google.gson.JsonParser;
import org.junit.Test;

/** Keys, values and key distributions: the parts both writers and checkers rely on. */
public class DataShapeTest {

  @Test
  public void keysSortLikeTheirRowNumbersAndReadBack() {
    byte[] previous = null;
    for (long row : new long[] { 0, 1, 9, 10, 99, 12345, 999_999_999L, 9_999_999_999L }) {
      byte[] key = RowKeys.key(row);
      assertEquals(RowKeys.WIDTH, key.length);
      assertEquals(row, RowKeys.row(key));
      if (previous != null) {
        assertTrue(Bytes.compareTo(previous, key) < 0);
      }
      previous = key;
    }
    assertEquals(-1, RowKeys.row(Bytes.toBytes("row-1")));
    assertEquals(-1, RowKeys.row(Bytes.toBytes("00000000x1")));
  }

  @Test
  public void splitsCutTheKeySpaceIntoEvenRanges() {
    byte[][] splits = RowKeys.splits(1000, 4);
    assertEquals(3, splits.length);
    assertEquals(250, RowKeys.row(splits[0]));
    assertEquals(500, RowKeys.row(splits[1]));
    assertEquals(750, RowKeys.row(splits[2]));
    assertEquals(0, RowKeys.splits(1000, 1).length);
    assertEquals(0, RowKeys.splits(1000, 0).length);
  }

  @Test
  public void valuesAreAFunctionOfSeedRowFamilyAndColumn() {
    PerfOptions o = PerfArgsParser.parse("--families=2", "--columns=2", "scan");
    RowShape a = new RowShape(o);
    RowShape b = new RowShape(o);
    assertArrayEquals(a.value(42, 1, 1), b.value(42, 1, 1));
    assertEquals(1000, a.value(42, 0, 0).length);
    assertFalse(Arrays.equals(a.value(42, 0, 0), a.value(43, 0, 0)));
    assertFalse(Arrays.equals(a.value(42, 0, 0), a.value(42, 1, 0)));
    assertFalse(Arrays.equals(a.value(42, 0, 0), a.value(42, 0, 1)));
    RowShape otherSeed = new RowShape(PerfArgsParser.parse("--seed=1", "--families=2", "scan"));
    assertFalse(Arrays.equals(a.value(42, 0, 0), otherSeed.value(42, 0, 0)));
    for (byte c : a.value(7, 0, 0)) {
      assertTrue(c >= 'a' && c <= 'z');
    }
  }

  @Test
  public void variableSizesStayWithinOneToValueSize() {
    for (String kind : new String[] { "uniform", "zipf" }) {
      RowShape s = new RowShape(PerfArgsParser.parse("--valueSize=100", "--valueSizes=" + kind,
        "scan"));
      int smallest = Integer.MAX_VALUE;
      int largest = 0;
      for (long row = 0; row < 2000; row++) {
        int size = s.value(row, 0, 0).length;
        smallest = Math.min(smallest, size);
        largest = Math.max(largest, size);
        assertEquals("sizes repeat for a row", size, s.value(row, 0, 0).length);
      }
      assertTrue(kind + " smallest " + smallest, smallest >= 1);
      assertTrue(kind + " largest " + largest, largest <= 100);
      assertTrue(kind + " sizes should vary", largest > smallest);
    }
  }

  @Test
  public void checkFindsMissingAndAlteredValues() {
    PerfOptions o = PerfArgsParser.parse("--columns=2", "scan");
    RowShape shape = new RowShape(o);
    Put p = shape.put(5, true);
    Result whole = Result.create(p.getFamilyCellMap().get(shape.firstFamily()));
    assertNull(shape.check(whole, 5));
    assertTrue(shape.check(whole, 6).contains("asked for row 6"));
    assertTrue(shape.check(Result.EMPTY_RESULT, 5).contains("missing"));
    Cell first = p.getFamilyCellMap().get(shape.firstFamily()).get(0);
    Result oneColumn = Result.create(new Cell[] { first });
    assertTrue(shape.check(oneColumn, 5).contains("has no info0:1"));
    byte[] altered = CellUtil.cloneValue(first);
    altered[0] ^= 1;
    Put bad = new Put(RowKeys.key(5)).addColumn(shape.firstFamily(), shape.qualifier(0), altered)
      .addColumn(shape.firstFamily(), shape.qualifier(1), shape.value(5, 0, 1));
    String problem = shape.check(Result.create(bad.getFamilyCellMap()
      .get(shape.firstFamily())), 5);
    assertTrue(problem, problem.contains("differ"));
  }

  @Test
  public void zipfRanksAreSkewedTowardsTheFirst() {
    ZipfDistribution z = new ZipfDistribution(10_000, 0.99);
    SplittableRandom r = new SplittableRandom(1);
    long[] counts = new long[10_000];
    for (int i = 0; i < 200_000; i++) {
      long rank = z.rank(r.nextDouble());
      assertTrue(rank >= 0 && rank < 10_000);
      counts[(int) rank]++;
    }
    assertTrue(counts[0] > counts[1]);
    assertTrue(counts[1] > counts[100]);
    long top100 = Arrays.stream(counts, 0, 100).sum();
    // For theta 0.99 over 10,000 ranks, the first 100 hold roughly half the draws.
    assertTrue("top 100 ranks drew " + top100, top100 > 80_000 && top100 < 130_000);
    assertEquals(0, new ZipfDistribution(1, 0.5).rank(0.99));
  }

  @Test
  public void zetaOfLargeNIsCloseToTheExactSum() {
    double exact = 0;
    for (int i = 1; i <= 20_000_000; i++) {
      exact += Math.pow(i, -0.9);
    }
    assertEquals(exact, ZipfDistribution.zeta(20_000_000, 0.9), exact * 1e-6);
  }

  @Test
  public void randomKeysStayInTheKeySpaceAndRepeatPerSeed() {
    for (String keys : new String[] { "uniform", "zipf" }) {
      PerfOptions o = PerfArgsParser.parse("--rows=500", "--keys=" + keys, "randomRead", "2");
      ZipfDistribution zipf = KeyChooser.zipfFor(o);
      KeyChooser a = KeyChooser.forClient(o, Command.RANDOM_READ, 1, zipf);
      KeyChooser b = KeyChooser.forClient(o, Command.RANDOM_READ, 1, zipf);
      for (int i = 0; i < 5000; i++) {
        long k = a.next();
        assertTrue(k >= 0 && k < 1000);
        assertEquals(k, b.next());
      }
    }
  }

  @Test
  public void rowSetKeepsEveryRowAddedOnce() {
    RowSet s = new RowSet(130);
    s.add(0);
    s.add(64);
    s.add(129);
    s.add(64);
    assertEquals(3, s.count());
    assertTrue(s.contains(129));
    assertFalse(s.contains(1));
    StringBuilder seen = new StringBuilder();
    s.forEach(r -> seen.append(r).append(' '));
    assertEquals("0 64 129 ", seen.toString());
  }

  @Test
  public void jsonReportEscapesAndNests() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("s", "a\"b\\c\nd\u0001");
    m.put("n", 1.5);
    m.put("nan", Double.NaN);
    m.put("list", List.of(1, true));
    m.put("none", null);
    m.put("empty", Map.of());
    String json = JsonReport.toJson(m);
    JsonObject o = JsonParser.parseString(json).getAsJsonObject();
    assertEquals("a\"b\\c\nd\u0001", o.get("s").getAsString());
    assertEquals(1.5, o.get("n").getAsDouble(), 0);
    assertTrue(o.get("nan").isJsonNull());
    assertEquals(2, o.getAsJsonArray("list").size());
    assertTrue(o.get("none").isJsonNull());
  }
}
