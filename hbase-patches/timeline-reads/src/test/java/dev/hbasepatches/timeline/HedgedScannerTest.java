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
package dev.hbasepatches.timeline;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.NavigableSet;
import java.util.TreeSet;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellBuilderFactory;
import org.apache.hadoop.hbase.CellBuilderType;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.Test;

/**
 * The streaming scanner's resume logic against a fake batch reader over a sorted row set: which
 * replica answers each batch is scripted, so switches, short stale batches and limits are exact.
 */
public class HedgedScannerTest {

  private static final byte[] F = Bytes.toBytes("f");

  /** Serves each batch from {@code rows} (or from {@code lagging} when the script says stale). */
  private static final class FakeReplicas implements HedgedScanner.BatchReader {
    final NavigableSet<String> rows;
    final NavigableSet<String> lagging;
    final boolean[] staleScript;
    final List<String> starts = new ArrayList<>();
    int calls;

    FakeReplicas(NavigableSet<String> rows, NavigableSet<String> lagging, boolean... stale) {
      this.rows = rows;
      this.lagging = lagging;
      this.staleScript = stale;
    }

    @Override
    public List<Result> read(Scan batch) {
      boolean stale = staleScript[calls++ % staleScript.length];
      NavigableSet<String> view = stale ? lagging : rows;
      if (batch.isReversed()) {
        view = view.descendingSet();
      }
      String start = Bytes.toString(batch.getStartRow());
      starts.add(start + (batch.includeStartRow() ? "]" : ")"));
      List<Result> out = new ArrayList<>();
      for (String r : view) {
        boolean after = start.isEmpty() || (batch.isReversed() ? r.compareTo(start) < 0
          : r.compareTo(start) > 0) || (batch.includeStartRow() && r.equals(start));
        if (after && out.size() < batch.getLimit()) {
          Cell c = CellBuilderFactory.create(CellBuilderType.DEEP_COPY).setRow(Bytes.toBytes(r))
            .setFamily(F).setQualifier(F).setTimestamp(1L).setType(Cell.Type.Put)
            .setValue(Bytes.toBytes(r)).build();
          out.add(Result.create(new Cell[] { c }, null, stale));
        }
      }
      return out;
    }
  }

  private static NavigableSet<String> rows(int n) {
    NavigableSet<String> s = new TreeSet<>();
    for (int i = 0; i < n; i++) {
      s.add(String.format("r%03d", i));
    }
    return s;
  }

  private static List<String> drain(HedgedScanner scanner, List<Boolean> stale) throws Exception {
    List<String> out = new ArrayList<>();
    for (Result r : scanner) {
      out.add(Bytes.toString(r.getRow()));
      stale.add(r.isStale());
    }
    return out;
  }

  @Test
  public void switchingReplicasBetweenBatchesNeitherRepeatsNorSkipsARow() throws Exception {
    NavigableSet<String> all = rows(23);
    FakeReplicas fake = new FakeReplicas(all, all, false, true, true, false);
    List<Boolean> stale = new ArrayList<>();
    List<String> got = drain(new HedgedScanner(new Scan().setCaching(5), 100, fake), stale);
    assertEquals(new ArrayList<>(all), got);
    // batches of 5 from replicas primary, secondary, secondary, primary, primary
    assertEquals(List.of(false, false, false, false, false, true, true, true, true, true),
      stale.subList(0, 10));
    assertEquals("r004)", fake.starts.get(1)); // resumes just after the last row handed out
    assertEquals(5, fake.calls); // 23 rows: four full batches and a short one from the primary
  }

  @Test
  public void reversedScansResumeBelowTheLastRow() throws Exception {
    NavigableSet<String> all = rows(12);
    FakeReplicas fake = new FakeReplicas(all, all, true, false);
    List<String> got =
      drain(new HedgedScanner(new Scan().setReversed(true).setCaching(4), 100, fake),
        new ArrayList<>());
    assertEquals(new ArrayList<>(all.descendingSet()), got);
  }

  @Test
  public void aShortBatchFromASecondaryDoesNotEndTheScan() throws Exception {
    NavigableSet<String> all = rows(20);
    NavigableSet<String> lagging = new TreeSet<>(all.headSet("r007", true)); // misses r008..
    FakeReplicas fake = new FakeReplicas(all, lagging, true, false, false);
    List<Boolean> stale = new ArrayList<>();
    List<String> got = drain(new HedgedScanner(new Scan().setCaching(10), 100, fake), stale);
    assertEquals("the primary's next batch brings the rows the secondary lacked",
      new ArrayList<>(all), got);
    assertTrue(stale.get(0) && !stale.get(19));
  }

  @Test
  public void theScansLimitIsKeptAcrossBatches() throws Exception {
    NavigableSet<String> all = rows(50);
    FakeReplicas fake = new FakeReplicas(all, all, false);
    List<String> got =
      drain(new HedgedScanner(new Scan().setLimit(12).setCaching(5), 100, fake),
        new ArrayList<>());
    assertEquals(new ArrayList<>(all).subList(0, 12), got);
    assertEquals(3, fake.calls); // 5 + 5 + 2
  }

  @Test
  public void rowSplittingScansAreRefused() {
    try {
      new HedgedScanner(new Scan().setAllowPartialResults(true), 100, b -> List.of());
      fail("a partial-results scan was accepted");
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("setAllowPartialResults(true)"));
    }
  }
}
