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
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import dev.hbasepatches.perf.PerfOptions.ChangeMode;
import org.apache.hadoop.hbase.TableName;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;
import org.junit.ClassRule;
import org.junit.Test;

/**
 * --change=timeline-reads on the shared embedded cluster, a table with two region replicas: the
 * read commands go through the module's TimelineReader in the mode given, every row comes back
 * right, and the report names the reader and what it counted. The reader's own counters tell
 * the modes apart: only PATCHED hedges, one hedged read per TIMELINE Get.
 */
public class TimelineReadsTest {

  @ClassRule
  public static final ClusterRule CLUSTER = TestCluster.CLUSTER;

  private static final int ROWS = 200;
  private static final String TABLE = "--table=timeline_reads";

  private static ToolRun run(String... args) throws Exception {
    ToolRun r = ToolRun.withJson(TestCluster.embedded(args));
    assertEquals(r.toString(), 0, r.exitCode);
    r.assertNoStackTrace();
    return r;
  }

  private static JsonObject measured(ToolRun r, String command) {
    return r.measured().stream().filter(o -> o.get("command").getAsString().equals(command))
      .findFirst().orElseThrow(() -> new AssertionError("no " + command + " in\n" + r));
  }

  private static void assertVerified(ToolRun r, JsonObject result) {
    JsonObject v = result.getAsJsonObject("verify");
    assertTrue(r.toString(), v.get("enabled").getAsBoolean());
    assertEquals(r.toString(), 0, v.get("missing").getAsLong());
    assertEquals(r.toString(), 0, v.get("wrong").getAsLong());
    assertEquals(r.toString(), 0, result.get("errors").getAsLong());
    assertTrue(r.toString(), v.get("rowsChecked").getAsLong() > 0);
  }

  @Test(timeout = 180_000)
  public void randomReadGoesThroughTheReaderInEachMode() throws Exception {
    // The first run creates and loads the table; the other modes read the same rows.
    for (ChangeMode mode : new ChangeMode[] { ChangeMode.PATCHED, ChangeMode.BASELINE,
      ChangeMode.UPSTREAM }) {
      ToolRun r = run(TABLE, "--rows=" + ROWS, "--replicas=2", "--change=timeline-reads",
        "--mode=" + mode, "--verify", "randomRead");
      JsonObject result = measured(r, "randomRead");
      assertVerified(r, result);
      long ops = result.get("operations").getAsLong();
      assertEquals(r.toString(), ROWS, ops);
      JsonObject reader = result.getAsJsonObject("reader");
      assertEquals(r.toString(), TimelineReads.READER_CLASS, reader.get("class").getAsString());
      assertEquals("the reader runs in the mode the clients' configuration names", mode.name(),
        reader.get("mode").getAsString());
      assertEquals("every Get went to the reader", ops, reader.get("gets").getAsLong());
      long hedged = reader.getAsJsonObject("stats").get("reads").getAsLong();
      if (mode == ChangeMode.PATCHED) {
        assertEquals("PATCHED hedges each TIMELINE Get itself", ops, hedged);
        assertTrue(reader.toString(), reader.getAsJsonObject("stats").get("rpcs").getAsLong()
          >= ops);
      } else {
        assertEquals(mode + " leaves the read to HBase's own client", 0, hedged);
      }
      if (mode == ChangeMode.BASELINE) {
        assertEquals("BASELINE reads STRONG: never a replica's answer", 0,
          result.getAsJsonObject("verify").get("staleReads").getAsLong());
      }
      assertTrue(r.out, r.out.contains("randomRead: reads served by TimelineReader, mode "
        + mode.name()));
      // Loading wrote through HBase's own Table, not the reader.
      for (JsonObject o : r.measured()) {
        if (!o.get("command").getAsString().equals("randomRead")) {
          assertFalse(o.toString(), o.has("reader"));
        }
      }
    }
  }

  @Test(timeout = 180_000)
  public void multiGetsAndScansGoThroughThePatchedReaderToo() throws Exception {
    ToolRun r = run("--table=timeline_reads_multi", "--rows=" + ROWS, "--replicas=2",
      "--change=timeline-reads", "--mode=patched", "--multiGet=4", "--verify",
      "randomRead,scan");
    JsonObject multi = measured(r, "randomRead");
    assertVerified(r, multi);
    JsonObject reader = multi.getAsJsonObject("reader");
    long ops = multi.get("operations").getAsLong();
    assertEquals(r.toString(), 0, reader.get("gets").getAsLong());
    assertEquals(r.toString(), ops, reader.get("multiGets").getAsLong());
    assertEquals(r.toString(), 4 * ops, reader.get("multiGetRows").getAsLong());
    assertEquals("each Get of a multi-get is hedged on its own", 4 * ops,
      reader.getAsJsonObject("stats").get("reads").getAsLong());

    JsonObject scan = measured(r, "scan");
    assertVerified(r, scan);
    assertEquals(ROWS, scan.get("operations").getAsLong());
    reader = scan.getAsJsonObject("reader");
    assertTrue(r.toString(), reader.get("scanners").getAsLong() >= 1);
    assertTrue("the scanner's batches are hedged reads",
      reader.getAsJsonObject("stats").get("reads").getAsLong() >= 1);
  }

  /** A client-side change needs nothing of the servers, so it runs against a real cluster too. */
  @Test(timeout = 120_000)
  public void itRunsAgainstARealClusterByItsQuorum() throws Exception {
    ToolRun r = ToolRun.withJson("--zk=localhost:" + CLUSTER.zkPort(), "--progress=0",
      "--table=timeline_reads_zk", "--rows=100", "--replicas=2", "--dropTable",
      "--change=timeline-reads", "--mode=upstream", "--verify", "randomRead");
    assertEquals(r.toString(), 0, r.exitCode);
    JsonObject result = measured(r, "randomRead");
    assertVerified(r, result);
    JsonObject reader = result.getAsJsonObject("reader");
    assertEquals(r.toString(), "UPSTREAM", reader.get("mode").getAsString());
    assertEquals(r.toString(), result.get("operations").getAsLong(),
      reader.get("gets").getAsLong());
  }

  @Test(timeout = 60_000)
  public void theReadCommandsItDoesNotServeSaySoAndLoadingNeverUsesIt() {
    PerfOptions o = PerfArgsParser.parse("--replicas=2", "--change=timeline-reads",
      "--mode=baseline", "randomRead");
    TableName t = TableName.valueOf("timeline_reads_commands");
    for (Command c : new Command[] { Command.RANDOM_READ, Command.SEQUENTIAL_READ, Command.SCAN,
      Command.REVERSE_SCAN, Command.SCAN_RANGE_10, Command.FILTER_SCAN, Command.WORKLOAD_E,
      Command.SEQUENTIAL_WRITE, Command.INCREMENT }) {
      RunContext ctx = new RunContext(o, c, CLUSTER.connection(), t, false);
      assertNotNull(c.cliName(), ctx.timeline);
      assertNull(c.cliName(), ctx.notThroughReader());
      assertEquals("BASELINE", ctx.clientConf().get(TimelineReads.MODE_KEY));
    }
    for (Command c : new Command[] { Command.ASYNC_RANDOM_READ, Command.ASYNC_SCAN,
      Command.RANDOM_SEEK_SCAN }) {
      String why = new RunContext(o, c, CLUSTER.connection(), t, false).notThroughReader();
      assertNotNull(c.cliName(), why);
      assertTrue(why, why.contains("not timeline-reads' reader"));
    }
    assertNull("loading writes through HBase's Table", new RunContext(o, Command.SEQUENTIAL_WRITE,
      CLUSTER.connection(), t, true).timeline);
    assertNull("off unless asked for", new RunContext(PerfArgsParser.parse("--replicas=2",
      "randomRead"), Command.RANDOM_READ, CLUSTER.connection(), t, false).timeline);
  }
}
