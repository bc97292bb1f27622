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

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.phoenix.query.KeyRange;

/**
 * The pruning decision as a pure function: which regions of a table can hold a row whose data
 * row key falls in one of the given key ranges. A LOCAL index keeps each index row in the region
 * of its data row, so a region the data key ranges cannot reach has no index rows to return.
 * <p>
 * Each range costs two binary searches over the start keys, so a point lookup on a table of N
 * regions costs O(log N) instead of Phoenix 5.2.1's visit of every region in the range; the
 * answer costs O(kept regions) more.
 * <p>
 * The answer is a superset: a region is kept if a range touches it, including a range whose
 * upper bound equals the region's start key (inclusive or not). Callers that need the exact set
 * ask Phoenix's own predicate about the few regions kept; nothing here can drop a region a range
 * reaches.
 */
public final class RegionPruner {

  private RegionPruner() {
  }

  /**
   * Returns the kept regions as sorted, disjoint, non-adjacent runs {@code [first, last]}
   * (inclusive region indexes), ready to walk in key order.
   *
   * @param ranges data-table row key ranges (any order, may overlap; empty list keeps nothing)
   * @param regions the table's regions in key order
   */
  public static List<int[]> keptRuns(List<KeyRange> ranges, RegionStarts regions) {
    int n = regions.size();
    List<int[]> runs = new ArrayList<>();
    if (n == 0) {
      return runs;
    }
    int[][] spans = new int[ranges.size()][];
    int count = 0;
    for (KeyRange range : ranges) {
      if (range == KeyRange.EMPTY_RANGE) {
        continue;
      }
      int first = range.lowerUnbound() ? 0 : regionOf(regions, range.getLowerRange());
      int last = range.upperUnbound() ? n - 1 : regionOf(regions, range.getUpperRange());
      if (last < first) {
        // A malformed range (upper below lower): keep what either end touches rather than guess.
        int t = first;
        first = last;
        last = t;
      }
      spans[count++] = new int[] { first, last };
    }
    if (count == 0) {
      return runs;
    }
    int[][] sorted = Arrays.copyOf(spans, count);
    Arrays.sort(sorted, (a, b) -> Integer.compare(a[0], b[0]));
    int[] current = sorted[0].clone();
    for (int i = 1; i < count; i++) {
      int[] s = sorted[i];
      if (s[0] <= current[1] + 1) {
        current[1] = Math.max(current[1], s[1]);
      } else {
        runs.add(current);
        current = s.clone();
      }
    }
    runs.add(current);
    return runs;
  }

  /** The kept regions as a sorted array of region indexes. */
  public static int[] keptRegions(List<KeyRange> ranges, RegionStarts regions) {
    List<int[]> runs = keptRuns(ranges, regions);
    int total = 0;
    for (int[] run : runs) {
      total += run[1] - run[0] + 1;
    }
    int[] kept = new int[total];
    int k = 0;
    for (int[] run : runs) {
      for (int r = run[0]; r <= run[1]; r++) {
        kept[k++] = r;
      }
    }
    return kept;
  }

  /**
   * The region whose key range holds {@code key}: the last region whose start key is at most
   * {@code key}. Region 0 starts at the empty key, so there always is one.
   */
  static int regionOf(RegionStarts regions, byte[] key) {
    int lo = 1;
    int hi = regions.size() - 1;
    int found = 0;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int c = Bytes.compareTo(regions.startKey(mid), key);
      if (c <= 0) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found;
  }
}
