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
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.phoenix.compile.ScanRanges;
import org.apache.phoenix.query.KeyRange;
import org.apache.phoenix.schema.RowKeySchema;
import org.apache.phoenix.util.ScanUtil;

/**
 * Turns the data-table plan's {@link ScanRanges} (one list of key ranges per primary key slot)
 * into plain row key intervals the {@link RegionPruner} can binary-search: one interval per
 * combination of the leading slots' ranges (an IN list times an IN list, a row value
 * constructor's keys, a range), with the keys built by Phoenix's own
 * {@link ScanUtil#getMinKey}/{@link ScanUtil#getMaxKey}, so separators, DESC columns and fixed
 * widths come out as Phoenix writes them.
 * <p>
 * Every interval covers at least the rows its combination can match: slots after the first
 * range slot, or past {@link #MAX_INTERVALS} combinations, are left out, which only widens the
 * intervals.
 */
public final class DataKeyRanges {

  /** The most intervals one query expands to; beyond it the leading slots alone are used. */
  public static final int MAX_INTERVALS = 50_000;

  /** The whole key space: no pruning possible. */
  public static final List<KeyRange> EVERYTHING =
    Collections.singletonList(KeyRange.EVERYTHING_RANGE);

  private DataKeyRanges() {
  }

  /**
   * The intervals; {@link #EVERYTHING} when nothing narrows the key space (no key ranges, or a
   * salted table, whose rows of one key prefix are spread over every bucket), an empty list when
   * no row can match.
   */
  public static List<KeyRange> of(ScanRanges ranges) {
    return of(ranges, MAX_INTERVALS);
  }

  static List<KeyRange> of(ScanRanges ranges, int maxIntervals) {
    if (ranges == null || ranges.isEverything() || ranges.isSalted()) {
      return EVERYTHING;
    }
    if (ranges.isDegenerate()) {
      return Collections.emptyList();
    }
    List<List<KeyRange>> slots = ranges.getRanges();
    if (slots.isEmpty()) {
      return EVERYTHING;
    }
    if (ranges.isPointLookup()) {
      // Already full row keys, one per point.
      return new ArrayList<>(slots.get(0));
    }
    RowKeySchema schema = ranges.getSchema();
    int[] slotSpans = ranges.getSlotSpans();
    int used = 0;
    long combinations = 1;
    while (used < slots.size()) {
      List<KeyRange> slot = slots.get(used);
      if (combinations * slot.size() > maxIntervals) {
        break;
      }
      combinations *= slot.size();
      used++;
      if (!allSingleKeys(slot)) {
        break;
      }
    }
    if (used == 0) {
      // Too many ranges in the first slot alone: their overall span is still an interval.
      return Collections.singletonList(ranges.getScanRange());
    }
    int[] spans = Arrays.copyOf(slotSpans, used);
    List<KeyRange> out = new ArrayList<>((int) combinations);
    int[] position = new int[used];
    List<List<KeyRange>> one = new ArrayList<>(used);
    for (int i = 0; i < used; i++) {
      one.add(null);
    }
    while (true) {
      for (int i = 0; i < used; i++) {
        one.set(i, Collections.singletonList(slots.get(i).get(position[i])));
      }
      byte[] lower = ScanUtil.getMinKey(schema, one, spans);
      byte[] upper = ScanUtil.getMaxKey(schema, one, spans);
      if (upper.length > 0 && lower.length > 0
        && Bytes.compareTo(lower, upper) >= 0) {
        // Never drop a combination over an odd bound: its lower key alone still locates it.
        out.add(KeyRange.getKeyRange(lower));
      } else {
        out.add(KeyRange.getKeyRange(lower, true, upper, false));
      }
      int i = used - 1;
      while (i >= 0 && ++position[i] == slots.get(i).size()) {
        position[i] = 0;
        i--;
      }
      if (i < 0) {
        return out;
      }
    }
  }

  private static boolean allSingleKeys(List<KeyRange> slot) {
    for (KeyRange r : slot) {
      if (!r.isSingleKey()) {
        return false;
      }
    }
    return true;
  }
}
