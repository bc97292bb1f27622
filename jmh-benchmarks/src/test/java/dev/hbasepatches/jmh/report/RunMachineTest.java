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
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** Machine facts captured around the run reach the report; without them it says report time. */
public class RunMachineTest {

  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  private static final String JSON = "[{\"benchmark\":\"dev.hbasepatches.jmh.seekskip.S.scan\","
    + "\"mode\":\"thrpt\",\"forks\":1,\"params\":{\"mode\":\"PATCHED\"},\"primaryMetric\":"
    + "{\"score\":1,\"scoreError\":\"NaN\",\"scoreUnit\":\"ops/s\",\"rawData\":[[1,1]]}}]";

  @Test
  public void captureBeforeAndAfterTheRunIsWhatTheReportDescribes() throws Exception {
    Path json = tmp.getRoot().toPath().resolve("jmh-result.json");
    Files.writeString(json, JSON, StandardCharsets.UTF_8);
    Path capture = Path.of(json + RunMachine.SUFFIX);
    MachineInfo runBox = new MachineInfo("AMD EPYC (run box)", 2, 24L << 20);
    RunMachine.capture(capture, false, runBox, "7.50 6.00 5.25",
      Instant.parse("2026-11-25T20:00:00Z"));
    RunMachine.capture(capture, true, null, "9.00 8.00 7.00",
      Instant.parse("2026-11-25T20:14:00Z"));
    RunMachine read = RunMachine.besides(json);
    assertEquals(runBox, read.machine());
    assertEquals("7.50 6.00 5.25", read.startLoad());
    assertEquals("2026-11-25 20:14 UTC", read.endUtc());

    Path dir = tmp.newFolder("reports").toPath();
    MachineInfo reportBox = new MachineInfo("Some laptop", 8, 16L << 20);
    new ReportWriter(Clock.fixed(Instant.parse("2026-11-26T09:00:00Z"), ZoneOffset.UTC),
      reportBox).write(json, dir);
    String report = Files.readString(dir.resolve("seek-skip.md"));
    assertTrue(report, report.contains("captured when the benchmarks ran (`RunMachine`, beside"
      + " the result file): started 2026-11-25 20:00 UTC, load average 7.50 6.00 5.25; ended"
      + " 2026-11-25 20:14 UTC, load average 9.00 8.00 7.00; build JDK "));
    assertTrue(report, report.contains("- CPU: AMD EPYC (run box)\n- Logical cores: 2\n"));
    assertFalse(report, report.contains("Some laptop"));
  }

  @Test
  public void noCaptureMeansNoneAndLoadavgIsReadOrUnknown() throws Exception {
    Path json = tmp.newFile("r.json").toPath();
    assertNull(RunMachine.besides(json));
    Path load = tmp.newFile("loadavg").toPath();
    Files.writeString(load, "0.52 0.58 0.59 1/467 12345\n", StandardCharsets.UTF_8);
    assertEquals("0.52 0.58 0.59", RunMachine.loadavg(load));
    assertEquals("unknown", RunMachine.loadavg(tmp.getRoot().toPath().resolve("none")));
  }
}
