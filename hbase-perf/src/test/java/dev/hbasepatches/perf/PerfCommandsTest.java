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
import static org.junit.Assert.assertTrue;

import dev.hbasepatches.testkit.MiniCluster;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/**
 * Every command on the embedded minicluster, each on a fresh table of 2 clients x 150 rows with
 * --verify: the operation count is the one the command promises, nothing read back is missing
 * or wrong, and what the table holds afterwards is checked here directly, apart from the tool.
 */
@RunWith(Parameterized.class)
public class PerfCommandsTest {

  @ClassRule
  public static final MiniCluster CLUSTER = TestCluster.CLUSTER;

  private static final int ROWS = 150;
  private static final int CLIENTS = 2;
  private static final int TOTAL = ROWS * CLIENTS;

  @Parameters(name = "{0}")
  public static Collection<Object[]> commands() {
    List<Object[]> list = new ArrayList<>();
    for (Command c : Command.values()) {
      // The suites run several commands each; SeedTableTest and CachedReadsOffHeapTest.
      if (c != Command.SEED_TABLE && c != Command.CACHED_READS) {
        list.add(new Object[] { c });
      }
    }
    return list;
  }

  private final Command command;

  public PerfCommandsTest(Command command) {
    this.command = command;
  }

  /** What each command promises with 150 rows per client and no --ops or --duration. */
  private long expectedOps() {
    switch (command) {
      case SCAN_RANGE_10:
        return CLIENTS * (ROWS / 10);
      case SCAN_RANGE_100:
      case SCAN_RANGE_1000:
      case SCAN_RANGE_10000:
      case FILTER_SCAN:
        return CLIENTS;
      default:
        return TOTAL;
    }
  }

  @Test
  public void runsVerifiedWithTheOperationsItPromises() throws Exception {
    String table = "cmd_" + command.cliName().toLowerCase(Locale.ROOT);
    ToolRun r = ToolRun.withJson(TestCluster.embedded("--rows=" + ROWS, "--table=" + table,
      "--presplit=3", "--verify", command.cliName(), String.valueOf(CLIENTS)));
    assertEquals(r.toString(), 0, r.exitCode);
    JsonObject result = r.only();
    assertEquals(command.cliName(), result.get("command").getAsString());
    assertEquals(r.toString(), expectedOps(), result.get("operations").getAsLong());
    assertEquals(0, result.get("errors").getAsLong());
    JsonObject verify = result.getAsJsonObject("verify");
    assertTrue(verify.get("enabled").getAsBoolean());
    assertEquals(r.toString(), 0, verify.get("missing").getAsLong());
    assertEquals(r.toString(), 0, verify.get("wrong").getAsLong());
    assertEquals(0, verify.get("checkFailed").getAsLong());
    assertTrue(r.out, r.out.contains(command.cliName() + ": verified"));
    long checked = verify.get("rowsChecked").getAsLong();
    // Range scans may overlap one another; every other command checks each row at most once.
    long most = command.scanRangeRows() > 0 ? expectedOps() * command.scanRangeRows() : TOTAL;
    assertTrue("rows checked: " + checked, checked > 0 && checked <= most);
    if (command.needsLoadedTable()) {
      JsonObject load = r.results().get(0).getAsJsonObject();
      assertEquals("load", load.get("purpose").getAsString());
      assertEquals(TOTAL, load.get("operations").getAsLong());
    }
    checkTableDirectly(table, result, checked);
  }

  /** Reads the table with the plain client, not through the tool. */
  private void checkTableDirectly(String table, JsonObject result, long checked)
    throws Exception {
    TableName name = TableName.valueOf(command == Command.RANDOM_READ_MEM ? table + "Mem" : table);
    RowShape shape = new RowShape(PerfArgsParser.parse("scan"));
    long rows = 0;
    long counterTotal = 0;
    try (Table t = CLUSTER.connection().getTable(name);
      ResultScanner scanner = t.getScanner(new Scan())) {
      for (Result row : scanner) {
        long n = RowKeys.row(row.getRow());
        assertTrue("foreign key " + Bytes.toStringBinary(row.getRow()), n >= 0 && n < TOTAL);
        Cell counter = row.getColumnLatestCell(shape.firstFamily(), RowShape.COUNTER);
        if (counter != null) {
          counterTotal += Bytes.toLong(counter.getValueArray(), counter.getValueOffset());
        }
        if (command != Command.INCREMENT) {
          assertEquals(null, shape.check(row, n));
        }
        rows++;
      }
    }
    switch (command) {
      case RANDOM_WRITE:
        // Random keys repeat: every distinct row written is there, and nothing else.
        assertEquals(checked, rows);
        break;
      case INCREMENT:
        assertEquals("one per successful increment", TOTAL, counterTotal);
        assertEquals(checked, rows);
        break;
      default:
        assertEquals(TOTAL, rows);
        assertEquals(0, counterTotal);
    }
    if (Arrays.asList(Command.SEQUENTIAL_WRITE, Command.SEQUENTIAL_READ, Command.RANDOM_READ,
      Command.SCAN, Command.REVERSE_SCAN, Command.RANDOM_SEEK_SCAN, Command.CHECK_AND_PUT)
      .contains(command)) {
      assertEquals(TOTAL, checked);
    }
  }
}
