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
package dev.hbasepatches.testkit;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.mob.MobConstants;
import org.apache.hadoop.hbase.mob.MobUtils;
import org.apache.hadoop.hbase.regionserver.HMobStore;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The last read of a fuzzed table, run on every region after its random reads: a flush (so
 * every cell is in an HFile), then, with an off-heap BucketCache, a warming read and a wait for
 * the cache's writers, then a raw scan of every version. Its answers are compared across modes
 * like any read, and it proves that the table's options were really exercised: every MOB
 * reference cell the store holds comes back resolved (the MOB store's own counter agrees with a
 * MOB-raw scan's count of references), and with an off-heap BucketCache the scanner handed out
 * direct-memory cells. {@link Coverage} sums this over a run so a fuzzer can fail when a drawn
 * option never took effect.
 */
public final class FuzzCensus {

  private static final Duration CACHE_WRITES = Duration.ofSeconds(30);

  private FuzzCensus() {
  }

  /**
   * How many random reads a table of {@code family} runs: a third of {@code reads} (at least 10)
   * for a MOB family, whose reads resolve every MOB cell through a scanner of its own on the
   * MOB file (about a millisecond per cell on the 2-core build VM), all of them otherwise.
   */
  public static int readsFor(RandomFamily family, int reads) {
    return family.isMob() ? Math.min(reads, Math.max(10, reads / 3)) : reads;
  }

  /** Flushes the region and, when it reads through a BucketCache, fills and settles it. */
  public static void prepare(LocalRegion region) throws IOException {
    region.flush();
    if (region.hasBucketCache()) {
      region.warm();
      region.awaitCacheWrites(CACHE_WRITES);
    }
  }

  /** The census scan: raw, every version, whole table. */
  public static Scan scan() {
    return new Scan().setRaw(true).readAllVersions();
  }

  /** What one region's census read saw. */
  public static final class Reading {
    /** The cells, copied to the heap, in scan order. */
    public final List<Cell> cells;
    /** How the scanner handed them out. */
    public final CellTally tally;
    /** MOB reference cells a MOB-raw census of the store returns (0 for a family not MOB). */
    public final long mobReferences;
    /** References the MOB store resolved during the census. */
    public final long mobResolved;

    Reading(List<Cell> cells, CellTally tally, long mobReferences, long mobResolved) {
      this.cells = cells;
      this.tally = tally;
      this.mobReferences = mobReferences;
      this.mobResolved = mobResolved;
    }
  }

  /**
   * Reads the census of {@code region} (after {@link #prepare}) and checks it: every MOB
   * reference was resolved; with {@code offHeap} (the region reads through an off-heap
   * BucketCache) at least one cell came out of direct memory whenever a cell came from a store
   * file rather than a MOB file.
   */
  public static Reading read(String where, LocalRegion region, boolean offHeap)
    throws IOException {
    HStore store = region.store(ScanShape.FAMILY);
    long references = 0;
    long resolvedBefore = 0;
    if (store instanceof HMobStore) {
      Scan refs = scan();
      refs.setAttribute(MobConstants.MOB_SCAN_RAW, Bytes.toBytes(Boolean.TRUE));
      for (Cell c : RandomReads.scanLikeRpc(region.region(), refs, 0, null)) {
        if (MobUtils.isMobReferenceCell(c)) {
          references++;
        }
      }
      resolvedBefore = ((HMobStore) store).getMobScanCellsCount();
    }
    CellTally tally = new CellTally();
    List<Cell> cells =
      new ArrayList<>(RandomReads.scanLikeRpc(region.region(), scan(), 0, null, tally));
    long resolved =
      store instanceof HMobStore ? ((HMobStore) store).getMobScanCellsCount() - resolvedBefore : 0;
    if (resolved != references) {
      throw new AssertionError(where + ": the store holds " + references
        + " MOB reference cells but the census resolved " + resolved);
    }
    if (offHeap && cells.size() > resolved && tally.offHeap() == 0) {
      throw new AssertionError(where + ": read through an off-heap BucketCache, yet none of "
        + cells.size() + " census cells (" + resolved + " from MOB files) was off-heap");
    }
    return new Reading(cells, tally, references, resolved);
  }

  /** What a fuzz run exercised, summed over its tables, with the checks that it was real. */
  public static final class Coverage {
    private int mobTables;
    private long mobResolved;
    private int offHeapTables;
    private long offHeapCells;
    private long cellsSeen;
    private int limitedScans;
    private long limitedCells;

    /**
     * Counts a table: its family, whether it read off-heap, and its regions' censuses. A table
     * whose TTL expires every cell ({@link RandomFamily#expiresEveryCell()}) holds nothing to
     * resolve or hand out, so it does not count as a MOB or off-heap table.
     */
    public void table(RandomFamily family, boolean offHeap, List<Reading> censuses) {
      boolean holdsCells = !family.expiresEveryCell();
      if (family.isMob() && holdsCells) {
        mobTables++;
      }
      if (offHeap && holdsCells) {
        offHeapTables++;
      }
      for (Reading r : censuses) {
        mobResolved += r.mobResolved;
        offHeapCells += r.tally.offHeap();
        cellsSeen += r.tally.cells();
      }
    }

    /** Counts the cells a scanner handed out during the random reads. */
    public void reads(CellTally tally) {
      offHeapCells += tally.offHeap();
      cellsSeen += tally.cells();
    }

    /** Counts a compared scan that carried a row limit, and the cells it returned. */
    public void limitedScan(int cells) {
      limitedScans++;
      limitedCells += cells;
    }

    /**
     * Fails when an option the run drew never took effect: MOB tables but no reference cell
     * resolved, off-heap tables but no off-heap cell, or ({@code expectLimits}) no limited scan.
     */
    public void assertReal(String where, boolean expectLimits) {
      if (mobTables > 0 && mobResolved == 0) {
        throw new AssertionError(where + ": " + mobTables
          + " MOB tables, but no MOB reference cell was ever resolved: " + this);
      }
      if (offHeapTables > 0 && offHeapCells == 0) {
        throw new AssertionError(where + ": " + offHeapTables
          + " tables read through an off-heap BucketCache, but no cell was off-heap: " + this);
      }
      if (expectLimits && limitedScans == 0) {
        throw new AssertionError(where + ": no scan with a row limit was compared: " + this);
      }
    }

    @Override
    public String toString() {
      return "MOB tables " + mobTables + " (references resolved in censuses " + mobResolved
        + "), off-heap tables " + offHeapTables + " (" + offHeapCells + " of " + cellsSeen
        + " scanned cells off-heap), limited scans " + limitedScans + " (" + limitedCells
        + " cells)";
    }
  }
}
