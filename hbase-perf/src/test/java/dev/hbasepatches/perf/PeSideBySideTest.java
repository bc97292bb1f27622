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
import org.junit.Test;

/** The side-by-side summary: parsing both tools' output, the paired interval, the verdict. */
public class PeSideBySideTest {

  private static String peLog(long... millis) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < millis.length; i++) {
      b.append("2026-11-26 01:00:00,000 INFO  [TestClient-").append(i)
        .append("] PerformanceEvaluation: ").append(i).append("/").append(millis.length)
        .append(" Latency (us) : mean=").append(100 + 20 * i).append(".00, min=5.00, max=900.00, "
          + "stdDev=3.00, 50th=90.00, 75th=99.00, 95th=120.00, 99th=300.00\n");
    }
    b.append("2026-11-26 01:00:01,000 INFO  [main] PerformanceEvaluation: [RandomReadTest] "
      + "Summary of timings (ms): [");
    for (int i = 0; i < millis.length; i++) {
      b.append(i == 0 ? "" : ", ").append(millis[i]);
    }
    return b.append("]\n").toString();
  }

  @Test
  public void peThroughputIsRowsOverTheSlowestClient() {
    double[] v = PeSideBySide.parsePe(peLog(2000, 2500), 2, 1000);
    assertEquals(2000 * 1000.0 / 2500, v[0], 1e-9);
    assertEquals(110, v[1], 1e-9);
    assertEquals(90, v[2], 1e-9);
    assertEquals(300, v[3], 1e-9);
  }

  @Test
  public void aLatencyFigurePeGivesAsZeroHasNoRatio() throws Exception {
    PeSideBySide.Run pe = new PeSideBySide.Run("scan", 1, 1, "pe",
      new double[] { 1000, 300, 0, 10000 });
    PeSideBySide.Run ours = new PeSideBySide.Run("scan", 1, 1, "hbase-perf",
      new double[] { 1000, 330, 2, 11000 });
    List<PeSideBySide.Run[]> pairs = java.util.Collections.singletonList(
      new PeSideBySide.Run[] { pe, ours });
    assertEquals(null, PeSideBySide.latencyRatio(pairs, 1));
    assertEquals(1.1, PeSideBySide.latencyRatio(pairs, 2).estimate, 1e-12);
  }

  @Test(expected = IllegalArgumentException.class)
  public void aPeLogWithoutItsSummaryIsRefused() {
    PeSideBySide.parsePe("PerformanceEvaluation: nothing here\n", 1, 1000);
  }

  @Test(expected = IllegalArgumentException.class)
  public void aPeLogForOtherClientsIsRefused() {
    PeSideBySide.parsePe(peLog(2000), 2, 1000);
  }

  @Test
  public void pairedRatioIsTheGeometricMeanWithAStudentInterval() {
    PeSideBySide.Interval i = PeSideBySide.pairedRatio(new double[] { 1, 1, 1, 1, 1 });
    assertEquals(1, i.estimate, 1e-12);
    assertEquals(1, i.low, 1e-12);
    assertEquals("met", i.verdict());
    // logs 0.1, -0.1, 0.2, -0.2, 0: mean 0, sd sqrt(0.1/4), t(4) = 2.776
    double e = Math.exp(2.7764451 * Math.sqrt(0.1 / 4 / 5));
    PeSideBySide.Interval j = PeSideBySide.pairedRatio(new double[] { Math.exp(0.1),
      Math.exp(-0.1), Math.exp(0.2), Math.exp(-0.2), 1 });
    assertEquals(1, j.estimate, 1e-9);
    assertEquals(e, j.high, 1e-6);
    assertEquals(1 / e, j.low, 1e-6);
    assertEquals("inconclusive", j.verdict());
    assertEquals("not met", PeSideBySide.pairedRatio(new double[] { 0.5, 0.52, 0.51, 0.5,
      0.49 }).verdict());
    assertEquals("too few pairs (3)", PeSideBySide.pairedRatio(new double[] { 1, 1, 1 })
      .verdict());
  }

  @Test
  public void onePairHasNoIntervalAndNoVerdict() {
    PeSideBySide.Interval one = PeSideBySide.pairedRatio(new double[] { 1.25 });
    assertEquals("1.250 (1 pair, no interval)", PeSideBySide.shown(one));
    assertEquals("too few pairs (1)", one.verdict());
    assertEquals("1.000 [1.000, 1.000]",
      PeSideBySide.shown(PeSideBySide.pairedRatio(new double[] { 1, 1, 1, 1, 1 })));
  }

  @Test
  public void summaryPairsTheRunsOfEachRound() throws Exception {
    Path dir = Files.createTempDirectory("pe-side-by-side");
    try {
      StringBuilder runs = new StringBuilder();
      for (int r = 1; r <= 5; r++) {
        Files.writeString(dir.resolve("pe-" + r + ".log"), peLog(1000));
        Files.writeString(dir.resolve("perf-" + r + ".json"), "{\"results\":[{\"command\":"
          + "\"randomRead\",\"purpose\":\"load\",\"rowsPerSecond\":1.0,\"latencyMicros\":"
          + "{\"mean\":1.0}},{\"command\":\"randomRead\",\"purpose\":\"measure\","
          + "\"rowsPerSecond\":" + (1000 + r) + ".0,\"latencyMicros\":{\"mean\":100.0,"
          + "\"p50\":90.0,\"p99\":330.0}}]}");
        // The client JVMs' CPU: PE 2.0 s, hbase-perf 1.5 s for 1,000 rows (1,500 us a row).
        Files.writeString(dir.resolve("pe-" + r + ".time"), "12.00,1.50,0.50\n");
        Files.writeString(dir.resolve("perf-" + r + ".time"), "Command exited with non-zero "
          + "status 1\n11.00,1.25,0.25\n");
        runs.append("randomRead\t1\t").append(r).append("\tpe\t1000\tpe-").append(r)
          .append(".log\n");
        runs.append("randomRead\t1\t").append(r).append("\thbase-perf\t1000\tperf-").append(r)
          .append(".json\n");
      }
      Files.writeString(dir.resolve("runs.tsv"), runs.toString());
      String md = PeSideBySide.summarise(PeSideBySide.read(dir), dir);
      assertTrue(md, md.contains("| randomRead | 1 | 5 | 1,000 | 1,003 | 1.003 ["));
      assertTrue(md, md.contains("| met | 1.000 [1.000, 1.000] | 1.000 [1.000, 1.000] | "
        + "1.100 [1.100, 1.100] | 0.750 [0.750, 0.750] |"));
      List<String> pairs = Files.readAllLines(dir.resolve("pairs.csv"));
      assertEquals(6, pairs.size());
      assertTrue(pairs.get(1), pairs.get(1).startsWith("randomRead,1,1,1000.0,1001.0,1.0010,"));
      assertTrue(pairs.get(1), pairs.get(1).endsWith(",2000.00,1500.00"));
    } finally {
      try (var files = Files.list(dir)) {
        for (Path p : (Iterable<Path>) files::iterator) {
          Files.delete(p);
        }
      }
      Files.delete(dir);
    }
  }
}
