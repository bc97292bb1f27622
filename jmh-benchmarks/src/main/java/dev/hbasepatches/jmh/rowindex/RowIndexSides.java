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
package dev.hbasepatches.jmh.rowindex;

import dev.hbasepatches.jmh.HBaseBenchmark.Mode;
import dev.hbasepatches.jmh.series.SideWorkload;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Row-index's sides for the series comparison ({@code dev.hbasepatches.jmh.series}): the region
 * reads of {@link RegionReadBenchmark} ({@link RegionReadWorkload}). UPSTREAM and SERIES read
 * ROW_INDEX_V1 with HBase's own encoder, which on the SERIES side is the series' patched
 * {@code RowIndexSeekerV1} (the series has no key: it changes no answer, position or byte);
 * PATCHED installs the module's encoder; BASELINE is the NONE encoding.
 */
public final class RowIndexSides {

  private RowIndexSides() {
  }

  /** Case {@code workload/cache[/rows]}, e.g. {@code randomGet/cached}. */
  public static SideWorkload open(String side, String caseSpec) throws IOException {
    String[] p = SideWorkload.parts("row-index", caseSpec, 2, "workload", "cache", "rows");
    int rows = SideWorkload.intPart("row-index", p, 2, 100_000);
    Mode mode;
    switch (side) {
      case "UPSTREAM":
      case "SERIES":
        mode = Mode.UPSTREAM;
        break;
      case "PATCHED":
      case "BASELINE":
        mode = Mode.valueOf(side);
        break;
      default:
        throw SideWorkload.noSide("row-index", side, "not a side");
    }
    RegionReadWorkload w = RegionReadWorkload.open("rowindex_" + side.toLowerCase(), mode, "NONE",
      p[0], p[1], rows, 42);
    String what = "row-index " + side + " workload=" + p[0] + " cache=" + p[1] + " rows=" + rows;
    return new SideWorkload() {
      @Override
      public long getAsLong() {
        try {
          return w.runOnce(o -> { });
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }

      @Override
      public void close() throws IOException {
        w.close();
      }

      @Override
      public String toString() {
        return what;
      }
    };
  }
}
