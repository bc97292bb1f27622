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
  public static final ClusterRule CLUSTER = TestCluster.CLUSTER;

  private static final int ROWS = 150;
  private static final int CLIENTS = 2;
  private static final int TOTAL = ROWS * CLIENTS;

  @Parameters(name = "{0}")
  public static Collection<Object[]> commands() {
    List<Object[]> list = new ArrayList<>();
    for (Command c : Command.values()) {
      // The suites run several commands each; SeedTableTest, CachedReadsOffHeapTest and the
      // scenario tests. The hbase:meta commands: MetaCommandsTest.
      if (c != Command.SEED_TABLE && c != Command.CACHED_READS && c.kind() != Command.Kind.YCSB
        && c.kind() != Command.Kind.META && !c.isScenario()) {
        list.add(new Object[] { c });
      }
    }
    return list;
  }

  private final Command command;

  public PerfCommandsTest(Command command) {
    this.command = command;
  }

  /** checkAnd* run with one client here, where no check may fail (see the two-client test). */
  private int clients() {
    return isCheckAnd() ? 1 : CLIENTS;
  }

  private boolean isCheckAnd() {
    return command.cliName().startsWith("checkAnd");
  }

  /** What each command promises with 150 rows per client and no --ops or --duration. */
  private long expectedOps() {
    switch (command) {
      case SCAN_RANGE_10:
        return CLIENTS * (ROWS / 10);
      case SCAN_RANGE_100:
      case SCAN_RANGE_1000:
      case SCAN_RANGE_10000:
        return CLIENTS;
      case FILTER_SCAN:
        return CLIENTS * FILTER_SCAN_OPS;
      case RANDOM_SEEK_SCAN:
        return CLIENTS * SEEK_SCAN_OPS;
      default:
        return (long) clients() * ROWS;
    }
  }

  /** filterScan reads the whole table per operation; a few operations are enough. */
  private static final int FILTER_SCAN_OPS = 5;
  /** randomSeekScan reads up to 120 rows per operation. */
  private static final int SEEK_SCAN_OPS = 20;

  @Test
  public void runsVerifiedWithTheOperationsItPromises() throws Exception {
    String table = "cmd_" + command.cliName().toLowerCase(Locale.ROOT);
    List<String> args = new ArrayList<>(Arrays.asList("--rows=" + ROWS, "--table=" + table,
      "--presplit=3", "--verify"));
    if (command == Command.FILTER_SCAN) {
      args.add("--ops=" + FILTER_SCAN_OPS);
    }
    if (command == Command.RANDOM_SEEK_SCAN) {
      args.add("--ops=" + SEEK_SCAN_OPS);
    }
    args.add(command.cliName());
    args.add(String.valueOf(clients()));
    ToolRun r = ToolRun.withJson(TestCluster.embedded(args.toArray(new String[0])));
    assertEquals(r.toString(), 0, r.exitCode);
    JsonObject result = r.only();
    assertEquals(command.cliName(), result.get("command").getAsString());
    assertEquals(r.toString(), expectedOps(), result.get("operations").getAsLong());
    assertEquals(0, result.get("errors").getAsLong());
    JsonObject verify = result.getAsJsonObject("verify");
    assertTrue(verify.get("enabled").getAsBoolean());
    assertEquals(r.toString(), 0, verify.get("missing").getAsLong());
    assertEquals(r.toString(), 0, verify.get("wrong").getAsLong());
    assertEquals(r.toString(), 0, verify.get("checkFailed").getAsLong());
    assertTrue(r.out, r.out.contains(command.cliName() + ": verified"));
    long checked = verify.get("rowsChecked").getAsLong();
    // Range scans may overlap one another; every other command checks each row at most once.
    long most = command.scanRangeRows() > 0 ? expectedOps() * command.scanRangeRows()
      : command == Command.RANDOM_SEEK_SCAN ? TOTAL * Command.SEEK_SCAN_ROWS : TOTAL;
    assertTrue("rows checked: " + checked, checked > 0 && checked <= most);
    if (command.needsLoadedTable()) {
      JsonObject load = r.results().get(0).getAsJsonObject();
      assertEquals("load", load.get("purpose").getAsString());
      assertEquals(TOTAL, load.get("operations").getAsLong());
    }
    checkTableDirectly(table, checked);
  }

  /** Reads the table with the plain client, not through the tool. */
  private void checkTableDirectly(String table, long checked) throws Exception {
    TableName name = TableName.valueOf(command == Command.RANDOM_READ_MEM ? table + "Mem" : table);
    RowShape shape = new RowShape(PerfArgsParser.parse("scan"));
    boolean mutate = command.kind() == Command.Kind.MUTATE;
    byte[] q = mutate ? MutateWorkload.qualifier(command) : null;
    long rows = 0;
    long counterTotal = 0;
    try (Table t = CLUSTER.connection().getTable(name);
      ResultScanner scanner = t.getScanner(new Scan())) {
      for (Result row : scanner) {
        long n = RowKeys.row(row.getRow());
        assertTrue("foreign key " + Bytes.toStringBinary(row.getRow()), n >= 0 && n < TOTAL);
        rows++;
        if (!mutate) {
          assertEquals(null, shape.check(row, n));
          continue;
        }
        assertTrue("mutate commands work on rows 0..rows-1: " + n, n < ROWS);
        Cell cell = row.getColumnLatestCell(shape.firstFamily(), q);
        byte[] key = RowKeys.key(n);
        switch (command) {
          case INCREMENT:
            counterTotal += Bytes.toLong(cell.getValueArray(), cell.getValueOffset());
            break;
          case APPEND:
            assertEquals(clients() * key.length, cell.getValueLength());
            break;
          case CHECK_AND_DELETE:
            assertEquals("the conditional delete took the column away", null, cell);
            break;
          default:
            assertTrue(Bytes.equals(MutateWorkload.replaced(key), 0, key.length + 1,
              cell.getValueArray(), cell.getValueOffset(), cell.getValueLength()));
        }
      }
    }
    switch (command) {
      case RANDOM_WRITE:
      case ASYNC_RANDOM_WRITE:
        // Random keys repeat: every distinct row written is there, and nothing else.
        assertEquals(checked, rows);
        break;
      case SEQUENTIAL_DELETE:
        assertEquals("every row deleted", 0, rows);
        break;
      case RANDOM_DELETE:
        // Random keys repeat: each distinct row deleted is gone, the others stay.
        assertEquals(TOTAL - checked, rows);
        break;
      case INCREMENT:
        assertEquals("one per successful increment", TOTAL, counterTotal);
        assertEquals(ROWS, rows);
        break;
      case CHECK_AND_DELETE:
        // The put before each check leaves nothing behind once the delete took it away.
        assertEquals(0, rows);
        break;
      default:
        assertEquals(mutate ? ROWS : TOTAL, rows);
    }
    if (Arrays.asList(Command.SEQUENTIAL_WRITE, Command.SEQUENTIAL_READ, Command.RANDOM_READ,
      Command.SCAN, Command.REVERSE_SCAN, Command.SEQUENTIAL_DELETE,
      Command.ASYNC_SEQUENTIAL_WRITE, Command.ASYNC_SEQUENTIAL_READ, Command.ASYNC_RANDOM_READ,
      Command.ASYNC_SCAN).contains(command)) {
      assertEquals(TOTAL, checked);
    }
    if (mutate) {
      assertEquals(ROWS, checked);
    }
  }
}
