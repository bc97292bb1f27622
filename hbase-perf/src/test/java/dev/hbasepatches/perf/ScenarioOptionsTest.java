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

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.Test;

/** The scenarios' options and report format; no cluster. */
public class ScenarioOptionsTest {

  private static void refused(String expected, String... args) {
    ToolRun r = ToolRun.plain(args);
    assertEquals(r.toString(), ToolFailure.EXIT_USAGE, r.exitCode);
    assertTrue(r.toString(), r.err.contains(expected));
    assertEquals(r.toString(), "", r.out);
  }

  @Test
  public void badScenarioOptionsAreRefusedSayingWhy() {
    refused("--fault must be abort or stop, not 'kill'", "--fault=kill", "replicaFailover");
    refused("--throttle must look like 50req/sec", "--throttle=fast", "throttledUsers");
    refused("--throttle must look like 50req/sec", "--throttle=0req/sec", "throttledUsers");
    refused("--encodings: 'FAST_DIF' is not one of", "--encodings=none,FAST_DIF",
      "encodingCompression");
    refused("--compressions names GZ twice", "--compressions=gz,GZ", "encodingCompression");
    refused("--failoverModes: 'fast' is not one of", "--failoverModes=patched,fast",
      "replicaFailover");
    refused("encodingCompression is a scenario that runs its own commands",
      "encodingCompression,scan");
    refused("replicaFailover runs on the embedded cluster only", "--zk=localhost:2181",
      "replicaFailover");
    refused("replicaFailover needs --regionServers of at least 3", "--regionServers=2",
      "replicaFailover");
  }

  @Test
  public void scenarioOptionsAreRead() {
    PerfOptions o = PerfArgsParser.parse("--encodings=fast_diff,none", "--compressions=gz",
      "--reportDir=/tmp/x", "encodingCompression");
    assertEquals(List.of("FAST_DIFF", "NONE"), o.encodings);
    assertEquals(List.of("GZ"), o.compressions);
    assertEquals("/tmp/x", o.reportDir);
    PerfOptions f = PerfArgsParser.parse("--fault=STOP", "--faultAfter=2s",
      "--failoverModes=patched,baseline", "replicaFailover");
    assertEquals("stop", f.fault);
    assertEquals(2000, f.faultAfter.toMillis());
    assertEquals(List.of(PerfOptions.ChangeMode.PATCHED, PerfOptions.ChangeMode.BASELINE),
      f.failoverModes);
    assertEquals(3, f.regionServers);
    assertEquals(3, f.replicas);
    PerfOptions q = PerfArgsParser.parse("--throttle=120 req/min", "throttledUsers");
    assertEquals("120req/min", q.throttle);
    assertEquals(120, ThrottledUsers.limit(q.throttle));
    assertEquals(TimeUnit.MINUTES, ThrottledUsers.unit(q.throttle));
    assertEquals(2.0, ThrottledUsers.perSecond(q.throttle), 1e-9);
    // The scenarios' server settings go into the embedded cluster they start.
    assertEquals("true", EmbeddedCluster.settings(f, null)
      .get("hbase.region.replica.replication.enabled"));
    assertEquals("true", EmbeddedCluster.settings(q, null).get("hbase.quota.enabled"));
    assertEquals(null, EmbeddedCluster.settings(o, null).get("hbase.quota.enabled"));
  }

  @Test
  public void reportIsMarkdownWithAChartAndTheSameRowsAsCsv() throws Exception {
    ScenarioReport r = new ScenarioReport("demo", "Demo table", List.of("name", "value", "n"));
    r.row("a,b", 1234.4, 7L);
    r.row("c", 0.25, null);
    r.note("a note");
    r.chart(new ScenarioReport.Chart("Values", "units", List.of("a", "c"), true)
      .series("value", new double[] { 1234.4, 0.25 }));
    r.csv("extra", List.of("x", "y"), List.of(List.of("1", "2")));
    String md = r.markdown();
    assertTrue(md, md.startsWith("# Demo table\n\n| name | value | n |\n|---|---|---|\n"));
    assertTrue(md, md.contains("| a,b | 1234 | 7 |\n| c | 0.250 | - |\n"));
    assertTrue(md, md.contains("- a note\n"));
    assertTrue(md, md.contains("```mermaid\nxychart-beta\n  title \"Values\"\n"
      + "  x-axis [\"a\", \"c\"]\n  y-axis \"units\"\n  bar [1234, 0.250]\n```\n"));
    assertEquals("name,value,n\n\"a,b\",1234,7\nc,0.250,-\n", r.csv());

    Path dir = Files.createTempDirectory("hbase-perf-report");
    try {
      List<Path> written = r.write(dir.resolve("sub"), System.err);
      assertEquals(3, written.size());
      assertEquals(md, Files.readString(dir.resolve("sub/demo.md")));
      assertEquals(r.csv(), Files.readString(dir.resolve("sub/demo.csv")));
      assertEquals("x,y\n1,2\n", Files.readString(dir.resolve("sub/demo-extra.csv")));
    } finally {
      for (Path p : List.of(dir.resolve("sub/demo.md"), dir.resolve("sub/demo.csv"),
        dir.resolve("sub/demo-extra.csv"), dir.resolve("sub"), dir)) {
        Files.deleteIfExists(p);
      }
    }
  }

  @Test(expected = IllegalArgumentException.class)
  public void aRowMustHaveOneCellPerColumn() {
    new ScenarioReport("demo", "Demo", List.of("a", "b")).row("only one");
  }

  @Test
  public void throttledUsersNamesTheLimiterByTheServerClass() {
    String stock = ThrottledUsers.limiter(
      "org.apache.hadoop.hbase.MiniHBaseCluster$MiniHBaseClusterRegionServer",
      PerfOptions.ChangeMode.PATCHED);
    assertTrue(stock, stock.startsWith("stock HBase's limiter"));
    assertTrue(stock, stock.contains("MiniHBaseClusterRegionServer"));
    String module = ThrottledUsers.limiter("dev.hbasepatches.quotas.ThrottlingRegionServer",
      PerfOptions.ChangeMode.BASELINE);
    assertEquals("the region servers are ThrottlingRegionServer (--changes=quotas, mode "
      + "BASELINE)", module);
  }
}
