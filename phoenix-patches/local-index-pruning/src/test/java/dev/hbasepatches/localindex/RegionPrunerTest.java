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
package dev.hbasepatches.localindex;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.phoenix.query.KeyRange;
import org.junit.Test;

/** The pure pruning decision, checked against a region-by-region reading of the same ranges. */
public class RegionPrunerTest {

  /** Regions starting at "", b, bb, c, cz, d: boundaries of different lengths on purpose. */
  private static final RegionStarts REGIONS = RegionStarts.of(Arrays.asList(new byte[0],
    Bytes.toBytes("b"), Bytes.toBytes("bb"), Bytes.toBytes("c"), Bytes.toBytes("cz"),
    Bytes.toBytes("d")));

  private static KeyRange point(String key) {
    return KeyRange.getKeyRange(Bytes.toBytes(key));
  }

  private static KeyRange range(String lower, boolean lowerInclusive, String upper,
    boolean upperInclusive) {
    return KeyRange.getKeyRange(lower == null ? KeyRange.UNBOUND : Bytes.toBytes(lower),
      lowerInclusive, upper == null ? KeyRange.UNBOUND : Bytes.toBytes(upper), upperInclusive);
  }

  private static int[] kept(KeyRange... ranges) {
    return RegionPruner.keptRegions(Arrays.asList(ranges), REGIONS);
  }

  @Test
  public void pointFindsTheOneRegionHoldingIt() {
    assertArrayEquals(new int[] { 0 }, kept(point("a")));
    assertArrayEquals(new int[] { 1 }, kept(point("b")));
    assertArrayEquals(new int[] { 1 }, kept(point("ba")));
    assertArrayEquals(new int[] { 2 }, kept(point("bb")));
    assertArrayEquals(new int[] { 3 }, kept(point("cy")));
    assertArrayEquals(new int[] { 5 }, kept(point("zzz")));
  }

  @Test
  public void inListKeepsEachPointsRegionOnceInKeyOrder() {
    assertArrayEquals(new int[] { 0, 2, 5 }, kept(point("x"), point("bbb"), point("a"),
      point("a0"), point("bc")));
  }

  @Test
  public void rangesKeepEveryRegionTheyTouch() {
    assertArrayEquals(new int[] { 1, 2, 3 }, kept(range("b", true, "c", false)));
    // A region starting exactly at an exclusive upper bound is kept: the answer is a superset.
    assertArrayEquals(new int[] { 1, 2, 3 }, kept(range("b", true, "c", true)));
    assertArrayEquals(new int[] { 0, 1, 2 }, kept(range(null, false, "bb0", false)));
    assertArrayEquals(new int[] { 4, 5 }, kept(range("cz", false, null, false)));
    assertArrayEquals(new int[] { 0, 1, 2, 3, 4, 5 }, kept(KeyRange.EVERYTHING_RANGE));
  }

  @Test
  public void nothingKeepsNothing() {
    assertArrayEquals(new int[0], kept());
    assertArrayEquals(new int[0], kept(KeyRange.EMPTY_RANGE));
  }

  @Test
  public void runsAreMergedWhenAdjacentOrOverlapping() {
    List<int[]> runs = RegionPruner.keptRuns(Arrays.asList(point("c"), point("bb"),
      range("cz", true, "czz", true), point("a")), REGIONS);
    assertEquals("[[0, 0], [2, 4]]", toString(runs));
  }

  @Test
  public void singleRegionTableKeepsItsRegion() {
    RegionStarts one = RegionStarts.of(Collections.singletonList(new byte[0]));
    assertArrayEquals(new int[] { 0 }, RegionPruner.keptRegions(
      Collections.singletonList(point("q")), one));
  }

  /** Random boundaries and ranges against the obvious linear reading; prints its seed. */
  @Test
  public void agreesWithALinearWalkOnRandomShapes() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    for (int round = 0; round < 500; round++) {
      List<byte[]> starts = new ArrayList<>();
      starts.add(new byte[0]);
      int n = 1 + random.nextInt(40);
      java.util.TreeSet<byte[]> keys = new java.util.TreeSet<>(Bytes.BYTES_COMPARATOR);
      while (keys.size() < n - 1) {
        keys.add(randomKey(random));
      }
      starts.addAll(keys);
      RegionStarts regions = RegionStarts.of(starts);
      List<KeyRange> ranges = new ArrayList<>();
      for (int i = random.nextInt(4); i >= 0; i--) {
        byte[] a = randomKey(random);
        if (random.nextBoolean()) {
          ranges.add(KeyRange.getKeyRange(a));
        } else {
          byte[] b = randomKey(random);
          byte[] lo = Bytes.compareTo(a, b) <= 0 ? a : b;
          byte[] hi = lo == a ? b : a;
          KeyRange r = KeyRange.getKeyRange(random.nextInt(5) == 0 ? KeyRange.UNBOUND : lo, true,
            random.nextInt(5) == 0 ? KeyRange.UNBOUND : hi, random.nextBoolean());
          ranges.add(r);
        }
      }
      int[] expected = linear(ranges, starts);
      assertArrayEquals("seed " + seed + " round " + round, expected,
        RegionPruner.keptRegions(ranges, regions));
    }
  }

  /** Region i kept iff some range has a key in [start_i, start_i+1], the upper end inclusive. */
  private static int[] linear(List<KeyRange> ranges, List<byte[]> starts) {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < starts.size(); i++) {
      byte[] start = starts.get(i);
      byte[] end = i + 1 < starts.size() ? starts.get(i + 1) : null;
      for (KeyRange r : ranges) {
        if (r == KeyRange.EMPTY_RANGE) {
          continue;
        }
        boolean belowEnd = r.lowerUnbound() || end == null
          || Bytes.compareTo(r.getLowerRange(), end) < 0;
        boolean aboveStart = r.upperUnbound() || Bytes.compareTo(r.getUpperRange(), start) >= 0;
        if (belowEnd && aboveStart) {
          out.add(i);
          break;
        }
      }
    }
    return out.stream().mapToInt(Integer::intValue).toArray();
  }

  private static byte[] randomKey(Random random) {
    byte[] key = new byte[1 + random.nextInt(3)];
    for (int i = 0; i < key.length; i++) {
      key[i] = (byte) ('a' + random.nextInt(5));
    }
    return key;
  }

  private static String toString(List<int[]> runs) {
    List<String> parts = new ArrayList<>();
    for (int[] run : runs) {
      parts.add(Arrays.toString(run));
    }
    return parts.toString();
  }
}
