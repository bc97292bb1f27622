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

import static org.junit.Assert.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;

/**
 * A forward scan names no stop row, as PE's; the client still reads only its own range, and a
 * client asked for more operations than its range has rows goes round it again.
 */
public class ScanRangeTest {

  @ClassRule
  public static final ClusterRule CLUSTER = TestCluster.CLUSTER;

  private static final String TABLE = "scan_range";

  @BeforeClass
  public static void fill() throws Exception {
    // Three clients' worth of rows: 0..299, one region for each client's range.
    ToolRun r = ToolRun.plain(TestCluster.embedded("--rows=100", "--table=" + TABLE,
      "--presplit=3", "sequentialWrite", "3"));
    assertEquals(r.toString(), 0, r.exitCode);
  }

  /** The rows client {@code client} of {@code clients} reads in {@code ops} operations. */
  private static List<Long> rowsRead(String command, int client, long ops) throws Exception {
    RunContext ctx = new RunContext(PerfArgsParser.parse("--rows=100", "--ops=" + ops,
      command, "3"), Command.byName(command).get(), CLUSTER.connection(), TableName.valueOf(TABLE),
      false);
    List<Long> rows = new ArrayList<>();
    try (FullScanWorkload w = new FullScanWorkload(ctx, client)) {
      w.open();
      for (long i = 0; i < ops; i++) {
        if (w.execute(i) == ClientWorkload.EXHAUSTED) {
          break;
        }
        w.checkLast();
        rows.add(w.lastRow());
      }
    } finally {
      ctx.closeClientConnections();
    }
    assertEquals("rows missed", 0, ctx.tally.missing());
    return rows;
  }

  private static List<Long> range(long from, long to, boolean down) {
    List<Long> r = new ArrayList<>();
    for (long i = 0; i <= to - from; i++) {
      r.add(down ? to - i : from + i);
    }
    return r;
  }

  @Test(timeout = 180_000)
  public void aMiddleClientReadsItsRangeRoundAndRoundAndNothingPastIt() throws Exception {
    List<Long> expected = new ArrayList<>(range(100, 199, false));
    expected.addAll(range(100, 199, false));
    expected.addAll(range(100, 149, false));
    assertEquals(expected, rowsRead("scan", 1, 250));
  }

  @Test(timeout = 180_000)
  public void theFirstClientStopsBeforeTheNextClientsRows() throws Exception {
    assertEquals(range(0, 99, false), rowsRead("scan", 0, 100));
  }

  @Test(timeout = 180_000)
  public void aReversedScanReadsItsRangeDownwards() throws Exception {
    List<Long> expected = new ArrayList<>(range(100, 199, true));
    expected.addAll(range(150, 199, true));
    assertEquals(expected, rowsRead("reverseScan", 1, 150));
  }
}
