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
package dev.hbasepatches.jmh.seekskip;

import dev.hbasepatches.jmh.HBaseBenchmark.Mode;
import dev.hbasepatches.jmh.series.SideWorkload;
import dev.hbasepatches.seekskip.BoundedSkipPolicy;
import dev.hbasepatches.testkit.ScanShape;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.util.Map;
import org.apache.hadoop.hbase.regionserver.ScanInfo;

/**
 * Seek-skip's sides for the series comparison ({@code dev.hbasepatches.jmh.series}): a full scan
 * of a region of one shape. UPSTREAM and SERIES are stock regions (no class of the module), SERIES
 * with {@code hbase.storescanner.max.skips} at the module's default budget; PATCHED and BASELINE
 * are the module's region in that mode, as {@link SeekSkipScanBenchmark} builds it.
 */
public final class SeekSkipSides {

  /** The upstream series' key. */
  static final String SERIES_KEY = "hbase.storescanner.max.skips";

  private SeekSkipSides() {
  }

  /** Case {@code shape/files[/cells]}, e.g. {@code oneVersionOfTen/4}. */
  public static SideWorkload open(String side, String caseSpec) throws IOException {
    String[] p = SideWorkload.parts("seek-skip", caseSpec, 2, "shape", "files", "cells");
    int files = SideWorkload.intPart("seek-skip", p, 1, 0);
    int cells = SideWorkload.intPart("seek-skip", p, 2, 500_000);
    String layout = "versionsAcrossFiles";
    long seed = 42;
    String budget = String.valueOf(BoundedSkipPolicy.DEFAULT_MAX_SKIPS);
    ShapeRegion region;
    switch (side) {
      case "UPSTREAM":
        region = ShapeRegion.openStock("seekskip_upstream", p[0], files, cells, layout, seed,
          Map.of());
        break;
      case "SERIES":
        region = ShapeRegion.openStock("seekskip_series", p[0], files, cells, layout, seed,
          Map.of(SERIES_KEY, budget));
        checkBudget(region, Integer.parseInt(budget));
        break;
      case "PATCHED":
      case "BASELINE":
        region = ShapeRegion.open(Mode.valueOf(side), p[0], files, cells, layout, seed, "");
        break;
      default:
        throw SideWorkload.noSide("seek-skip", side, "not a side");
    }
    String what = "seek-skip " + side + " " + region.data() + " storedCells="
      + region.storedCells() + (side.equals("SERIES") ? " " + SERIES_KEY + "=" + budget : "");
    return new SideWorkload() {
      @Override
      public long getAsLong() {
        try {
          return region.scan(batch -> { });
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }

      @Override
      public void close() throws IOException {
        region.close();
      }

      @Override
      public String toString() {
        return what;
      }
    };
  }

  /** The series reads its key into ScanInfo: the store must have taken the budget. */
  private static void checkBudget(ShapeRegion region, int budget) {
    ScanInfo info = region.region().store(ScanShape.FAMILY).getScanInfo();
    try {
      Method m = ScanInfo.class.getDeclaredMethod("getMaxSkips");
      m.setAccessible(true);
      int got = (Integer) m.invoke(info);
      if (got != budget) {
        throw new IllegalStateException(SERIES_KEY + " is " + got + " in the store, not " + budget);
      }
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("ScanInfo has no getMaxSkips(): the SERIES side is not "
        + "running the seek-skip series' classes", e);
    }
  }
}
