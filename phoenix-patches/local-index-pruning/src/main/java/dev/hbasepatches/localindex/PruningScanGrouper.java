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

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.phoenix.compile.QueryPlan;
import org.apache.phoenix.compile.ScanRanges;
import org.apache.phoenix.compile.StatementContext;
import org.apache.phoenix.iterate.DefaultParallelScanGrouper;
import org.apache.phoenix.iterate.ParallelScanGrouper;
import org.apache.phoenix.query.ConnectionQueryServices;
import org.apache.phoenix.query.KeyRange;

/**
 * Hands Phoenix's {@code BaseResultIterators} only the regions of a LOCAL index query that the
 * data-table key ranges can reach, found by {@link RegionPruner}'s binary searches instead of
 * Phoenix 5.2.1's walk over every region.
 * <p>
 * Phoenix plans a local index scan by chaining each region's scan start from the previous
 * region's end key. A list with holes would chain a kept region to the end key of an earlier
 * one, which, when that key is longer than the kept region's start key, cuts the front off the
 * kept region's index range (rows lost without a word). So the list handed back covers the table
 * without holes: every run of pruned regions becomes one placeholder region spanning it, which
 * Phoenix's own data-range check then skips, exactly as it skips a real region it prunes. Before
 * a placeholder goes out, the same check is asked about it here; if the data ranges could reach
 * any row in it (the pruner and Phoenix disagree), the grouper gives Phoenix the real region
 * list instead, so the worst case is Phoenix's own cost, never a missing row.
 * <p>
 * Only the first region lookup for the one plan it was made for is pruned: later lookups (the
 * re-planning Phoenix does after a region split or merge mid-query) and other plans' lookups (a
 * join's other side) get the real regions.
 */
public final class PruningScanGrouper implements ParallelScanGrouper {

  private final StatementContext indexContext;
  private final ScanRanges dataRanges;
  private final List<KeyRange> intervals;
  private boolean served;
  private int keptRegions = -1;
  private String fallback;

  /**
   * @param indexContext the LOCAL index plan's context, as Phoenix passes it back
   * @param dataRanges the data-table plan's key ranges for the same statement
   */
  public PruningScanGrouper(StatementContext indexContext, ScanRanges dataRanges) {
    this.indexContext = indexContext;
    this.dataRanges = dataRanges;
    this.intervals = DataKeyRanges.of(dataRanges);
  }

  /** A grouper for another planning of the same plan (this one prunes one lookup only). */
  public PruningScanGrouper forSamePlan() {
    return new PruningScanGrouper(indexContext, dataRanges);
  }

  @Override
  public boolean shouldStartNewScan(QueryPlan plan, Scan lastScan, byte[] startKey,
    boolean crossesRegionBoundary) {
    return DefaultParallelScanGrouper.getInstance().shouldStartNewScan(plan, lastScan, startKey,
      crossesRegionBoundary);
  }

  @Override
  public List<HRegionLocation> getRegionBoundaries(StatementContext context, byte[] tableName)
    throws SQLException {
    return DefaultParallelScanGrouper.getInstance().getRegionBoundaries(context, tableName);
  }

  @Override
  public List<HRegionLocation> getRegionBoundaries(StatementContext context, byte[] tableName,
    byte[] startRegionBoundaryKey, byte[] stopRegionBoundaryKey) throws SQLException {
    if (context != indexContext || served || intervals == DataKeyRanges.EVERYTHING) {
      return DefaultParallelScanGrouper.getInstance().getRegionBoundaries(context, tableName,
        startRegionBoundaryKey, stopRegionBoundaryKey);
    }
    served = true;
    ConnectionQueryServices services = context.getConnection().getQueryServices();
    int timeout = context.getStatement().getQueryTimeoutInMillis();
    Map<byte[], HRegionLocation> kept = keptLocations(services, tableName, timeout);
    List<HRegionLocation> covering = cover(tableName, kept);
    if (covering == null) {
      return DefaultParallelScanGrouper.getInstance().getRegionBoundaries(context, tableName,
        startRegionBoundaryKey, stopRegionBoundaryKey);
    }
    keptRegions = kept.size();
    return covering;
  }

  /** Regions the pruner kept at the last pruned lookup, or -1 if none happened or it fell back. */
  public int keptRegions() {
    return keptRegions;
  }

  /** Why the last pruned lookup gave Phoenix the real region list, or null if it did not. */
  public String fallbackReason() {
    return fallback;
  }

  private Map<byte[], HRegionLocation> keptLocations(ConnectionQueryServices services,
    byte[] tableName, int timeout) throws SQLException {
    Map<byte[], HRegionLocation> kept = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    List<HRegionLocation> whole = null;
    for (KeyRange range : intervals) {
      if (range == KeyRange.EMPTY_RANGE) {
        continue;
      }
      List<HRegionLocation> regions = whole;
      if (regions == null) {
        byte[] lower = range.lowerUnbound() ? HConstants.EMPTY_START_ROW : range.getLowerRange();
        // One byte past the upper bound, so a region starting exactly there is listed too.
        byte[] upper = range.upperUnbound() ? HConstants.EMPTY_END_ROW
          : Bytes.add(range.getUpperRange(), new byte[1]);
        regions = services.getTableRegions(tableName, lower, upper, timeout);
        if (coversTable(regions)) {
          // Some query services (connectionless ones) hand out the whole table whatever is
          // asked: search that one list for every range.
          whole = regions;
        }
      }
      for (int[] run : RegionPruner.keptRuns(Collections.singletonList(range),
        RegionStarts.ofLocations(regions))) {
        for (int r = run[0]; r <= run[1]; r++) {
          HRegionLocation location = regions.get(r);
          kept.put(location.getRegion().getStartKey(), location);
        }
      }
    }
    return kept;
  }

  private static boolean coversTable(List<HRegionLocation> regions) {
    return !regions.isEmpty() && regions.get(0).getRegion().getStartKey().length == 0
      && regions.get(regions.size() - 1).getRegion().getEndKey().length == 0;
  }

  /**
   * The kept regions with placeholders over the holes, or null (with {@link #fallback} set) when
   * the list cannot be trusted.
   */
  private List<HRegionLocation> cover(byte[] tableName, Map<byte[], HRegionLocation> kept) {
    List<HRegionLocation> out = new ArrayList<>(2 * kept.size() + 1);
    TableName table = TableName.valueOf(tableName);
    byte[] end = HConstants.EMPTY_START_ROW;
    boolean atTableEnd = false;
    for (HRegionLocation location : kept.values()) {
      RegionInfo region = location.getRegion();
      int c = Bytes.compareTo(region.getStartKey(), end);
      if (atTableEnd || c < 0) {
        fallback = "overlapping regions (a split or merge while listing): "
          + region.getRegionNameAsString();
        return null;
      }
      if (c > 0 && !addPlaceholder(out, table, end, region.getStartKey())) {
        return null;
      }
      out.add(location);
      end = region.getEndKey();
      atTableEnd = end.length == 0;
    }
    if (!atTableEnd && !addPlaceholder(out, table, end, HConstants.EMPTY_END_ROW)) {
      return null;
    }
    return out;
  }

  private boolean addPlaceholder(List<HRegionLocation> out, TableName table, byte[] start,
    byte[] stop) {
    // Phoenix's own per-region question, asked once for the whole hole.
    if (dataRanges.intersectRegion(start, stop, false)) {
      fallback = "data key ranges reach [" + Bytes.toStringBinary(start) + ", "
        + Bytes.toStringBinary(stop) + "), which the pruner dropped";
      return false;
    }
    RegionInfo hole = RegionInfoBuilder.newBuilder(table).setStartKey(start).setEndKey(stop)
      .setRegionId(0).build();
    out.add(new HRegionLocation(hole, null, -1));
    return true;
  }
}
