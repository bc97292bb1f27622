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
package dev.hbasepatches.jmh.report;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import org.junit.Test;

/** The report's headline: verdicts over forks, the loud note on short runs, the chart. */
public class HeadlineTest {

  private static final MachineInfo MACHINE = new MachineInfo("Test CPU", 2, 24L << 20);

  /** One JMH entry whose forks each ran two iterations at the given level. */
  private static String entry(String mode, String shape, double... forks) {
    StringBuilder raw = new StringBuilder();
    for (double f : forks) {
      raw.append(raw.length() == 0 ? "" : ",").append('[').append(f).append(',').append(f)
        .append(']');
    }
    return "{\"benchmark\":\"dev.hbasepatches.jmh.seekskip.ScanBenchmark.scan\",\"mode\":\"thrpt\","
      + "\"forks\":" + forks.length + ",\"params\":{\"mode\":\"" + mode + "\",\"shape\":\"" + shape
      + "\"},\"primaryMetric\":{\"score\":1,\"scoreError\":0.1,\"scoreUnit\":\"ops/s\","
      + "\"rawData\":[" + raw + "]}}";
  }

  private static String render(String json) throws Exception {
    List<JmhResult> results = JmhJsonParser.parse(json, "r.json");
    return ChangeReport.render("seek-skip", results, MACHINE,
      ZonedDateTime.of(2026, 11, 25, 19, 0, 0, 0, ZoneOffset.UTC), "r.json");
  }

  @Test
  public void fiveForksPerModeGetAVerdict() throws Exception {
    String report = render("[" + entry("UPSTREAM", "miss", 100, 102, 98, 101, 99) + ","
      + entry("PATCHED", "miss", 150, 153, 147, 151, 149) + ","
      + entry("BASELINE", "miss", 50, 51, 49, 50, 50) + "]");
    assertTrue(report, report.indexOf("## Headline") < report.indexOf("## What ran"));
    assertFalse(report, report.contains("FIRST LOOK, NO VERDICTS"));
    assertTrue(report, report.contains("| ScanBenchmark.scan | shape=miss | ops/s | 1.5 | "));
    assertTrue(report, report.contains("| PATCHED better | 3 | "));
    assertTrue(report, report.contains("```mermaid\nxychart-beta\n"));
    assertTrue(report, report.contains("x-axis [\"Scan.scan shape=miss\"]"));
    assertTrue(report, report.contains("bar [1.5]\n  line [1]\n"));
  }

  @Test
  public void oneForkIsLoudlyUndecided() throws Exception {
    String report = render("[" + entry("UPSTREAM", "miss", 100) + ","
      + entry("PATCHED", "miss", 150) + "," + entry("UPSTREAM", "full", 100, 101, 99, 100, 100)
      + "," + entry("PATCHED", "full", 99, 101, 100, 100, 100) + "]");
    assertTrue(report, report.contains("> **FIRST LOOK, NO VERDICTS: 1 of 2 comparisons rest on fewer"
      + " than 5 forks per mode.**"));
    assertTrue(report, report.contains("| 1.5 | - | first look (1 < 5 forks): no verdict |"));
    // Only UPSTREAM ran beside PATCHED: no BASELINE column at all.
    assertTrue(report, report.contains("| no difference shown |\n"));
    assertTrue(report, report.contains("| benchmark | case | unit | PATCHED vs UPSTREAM"
      + " | 95% interval | verdict |\n"));
  }

  @Test
  public void chartLabelsAreCleanedAndShort() {
    assertEquals("Scan.scan shape=a b", Headline.chartLabel("ScanBenchmark.scan shape=\"a [b]\""));
    assertEquals(40, Headline.chartLabel("x".repeat(60)).length());
  }
}
