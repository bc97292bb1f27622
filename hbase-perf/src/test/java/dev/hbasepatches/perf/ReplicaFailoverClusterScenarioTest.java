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
import org.junit.AfterClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * replicaFailover on its own 3-server cluster, small: 300 rows, 40 reads/s for 6 s, the primary's
 * server aborted at 2 s, all three modes. Every mode's row is written; STRONG reads are never
 * stale, empty or wrong; PATCHED reads (the timeline-reads module, on the test class path) never
 * fail, and are never empty or wrong. Latencies are reported, not asserted.
 */
public class ReplicaFailoverClusterScenarioTest {

  private static final String[] ARGS = { "--progress=0", "--rows=300", "--rate=40",
    "--duration=6s", "--faultAfter=2s", "--table=failover", "replicaFailover" };

  @ClassRule
  public static final TemporaryFolder DIR = new TemporaryFolder();

  @AfterClass
  public static void stopCluster() {
    PerfOptions o = PerfArgsParser.parse(ARGS);
    EmbeddedCluster.miniCluster(o, null).stop();
  }

  @Test(timeout = 900_000)
  public void everyModeReadsThroughAnAbortAndTheTableIsWritten() throws Exception {
    Path dir = DIR.getRoot().toPath();
    String[] args = new String[ARGS.length + 1];
    System.arraycopy(ARGS, 0, args, 1, ARGS.length);
    args[0] = "--reportDir=" + dir;
    ToolRun r = ToolRun.plain(args);
    assertEquals(r.toString(), 0, r.exitCode);
    r.assertNoStackTrace();
    List<String> lines = Files.readAllLines(dir.resolve("replicaFailover.csv"));
    assertEquals(String.join(",", ReplicaFailover.COLUMNS), lines.get(0));
    assertEquals(r.toString(), 4, lines.size());
    for (String line : lines.subList(1, 4)) {
      String[] c = line.split(",");
      assertEquals(line, "240", c[1]);
      // The counts behind the share within 50 ms after the fault (4 of the 6 s at 40 reads/s).
      long after = Long.parseLong(c[12]);
      long afterWithin = Long.parseLong(c[13]);
      assertTrue(line, after >= 150 && after <= 170 && afterWithin <= after);
      if (c[0].startsWith("BASELINE")) {
        // STRONG: only the primary answers, so never stale and never empty.
        assertEquals(line, "0", c[4]);
        assertEquals(line + "\n" + r.err, "0", c[3]);
      } else if (c[0].startsWith("PATCHED")) {
        assertEquals(line + "\n" + r.err, "0", c[2]);
        assertEquals(line + "\n" + r.err, "0", c[3]);
      }
      // UPSTREAM may answer empty from a just-opened secondary (timeline-reads' finding 1).
    }
    assertTrue(lines.get(1), lines.get(1).startsWith("BASELINE (STRONG)"));
    assertTrue(lines.get(2), lines.get(2).startsWith("UPSTREAM (HBase TIMELINE)"));
    assertTrue(lines.get(3), lines.get(3).startsWith("PATCHED (TimelineReader)"));
    assertTrue(r.err, r.err.contains("replicaFailover PATCHED: abort of "));
    List<String> series = Files.readAllLines(dir.resolve("replicaFailover-timeseries.csv"));
    assertTrue(series.size() > 3 * 20);
    String md = Files.readString(dir.resolve("replicaFailover.md"));
    assertTrue(md, md.contains("```mermaid") && md.contains("line ["));
  }
}
