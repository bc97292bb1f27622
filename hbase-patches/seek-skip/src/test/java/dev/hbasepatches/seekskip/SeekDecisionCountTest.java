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
package dev.hbasepatches.seekskip;

import static dev.hbasepatches.testkit.ScanShape.FAMILY;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import dev.hbasepatches.testkit.LocalRegion;
import dev.hbasepatches.testkit.ScanShape;
import java.io.IOException;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.Test;

/**
 * Counts what each policy decided. On the time-range shape every data cell is a SEEK_NEXT_COL
 * request one cell away: BASELINE must seek every time, PATCHED must skip nearly every time.
 * On wide rows with twenty versions a column request is nineteen cells away: PATCHED must learn
 * to seek instead of spending its budget on every request.
 */
public class SeekDecisionCountTest {
  private static final long SEED = 13109L;

  private static SeekDecisions scanShape(ScanShape shape, SeekSkipMode mode, int files)
    throws IOException {
    try (LocalRegion r = ModeRegions.open("count_" + shape.paramName(), mode,
      b -> b.family(Bytes.toString(FAMILY)).maxVersions(shape.versions()))) {
      shape.generate(20_000, files, 0, SEED).loadInto(r);
      SeekSkipStore store = ModeRegions.store(r);
      store.decisions().reset();
      r.scanAll(shape.scan());
      return store.decisions();
    }
  }

  @Test
  public void baselineSeeksAndPatchedSkipsOnTimeRangeMisses() throws IOException {
    for (int files : new int[] { 1, 4 }) {
      SeekDecisions baseline = scanShape(ScanShape.TIMERANGE_MISS, SeekSkipMode.BASELINE, files);
      assertEquals("BASELINE never skips: " + baseline, 0, baseline.skips());
      assertTrue("BASELINE seeks once per data cell: " + baseline, baseline.seeks() >= 19_000);

      SeekDecisions patched = scanShape(ScanShape.TIMERANGE_MISS, SeekSkipMode.PATCHED, files);
      assertTrue("PATCHED skips per data cell: " + patched, patched.skips() >= 19_000);
      assertTrue("PATCHED seeks only where the index demands it: " + patched,
        patched.seeks() * 50 < patched.skips());
      // Each met request is one step; only the few index-driven seeks may have stepped first.
      long extraSteps = patched.skippedCells() - patched.skips();
      assertTrue("one step per request: " + patched,
        extraSteps >= 0 && extraSteps <= patched.seeks() * BoundedSkipPolicy.DEFAULT_MAX_SKIPS);
    }
  }

  @Test
  public void patchedLearnsToSeekWhenTargetsAreFar() throws IOException {
    SeekDecisions patched =
      scanShape(ScanShape.WIDE_ROWS_MANY_VERSIONS, SeekSkipMode.PATCHED, 1);
    assertTrue("far targets end in seeks: " + patched, patched.seeks() > 10 * patched.skips());
    long requests = patched.seeks() + patched.skips();
    long budget = BoundedSkipPolicy.DEFAULT_MAX_SKIPS;
    assertTrue("probing costs at most one budget per probe interval: " + patched,
      patched.skippedCells() <= requests * budget / BoundedSkipPolicy.PROBE_INTERVAL
        + 4 * budget);
  }

  @Test
  public void versionsSpreadOverFilesAreSkippedInOnePassPerRequest() throws IOException {
    // Ten versions, version v in file v % 4: each column request passes nine cells spread over
    // the four files. The per-file pass meets them without a seek, where stepping through the
    // heap would re-sort it per cell; only index-driven reseeks of single files count as seeks.
    SeekDecisions patched = scanShape(ScanShape.ONE_VERSION_OF_TEN, SeekSkipMode.PATCHED, 4);
    assertTrue("version requests are met by skipping: " + patched,
      patched.skips() > 20 * patched.seeks() && patched.skips() >= 1_500);
    assertTrue("nine older versions passed per request: " + patched,
      patched.skippedCells() >= 9 * patched.skips());
  }

  @Test
  public void upstreamModeUsesTheStockScanner() throws IOException {
    SeekDecisions upstream = scanShape(ScanShape.TIMERANGE_MISS, SeekSkipMode.UPSTREAM, 1);
    assertEquals("UPSTREAM decisions are made by HBase's own StoreScanner: " + upstream, 0,
      upstream.skips() + upstream.seeks());
  }
}
