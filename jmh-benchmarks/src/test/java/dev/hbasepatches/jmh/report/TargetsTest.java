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
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.StringReader;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.Test;

/** The targets file names real changes, benchmarks and parameters, and the headline uses it. */
public class TargetsTest {

  private static final List<String> PACKAGES = List.of("seekskip", "rowindex", "checksum",
    "offheapread", "quotas", "timelinereads", "localindexpruning");
  private static final Set<String> MODES = Set.of("BASELINE", "UPSTREAM");

  private static Class<?> benchmarkClass(String name) {
    String cls = name.contains(".") ? name.substring(0, name.indexOf('.')) : name;
    for (String p : PACKAGES) {
      try {
        return Class.forName(ChangeNames.ROOT_PACKAGE + "." + p + "." + cls);
      } catch (ClassNotFoundException e) {
        // try the next package
      }
    }
    return null;
  }

  @Test
  public void everyBuiltInTargetNamesARealBenchmarkAndParameter() throws Exception {
    List<Targets.Target> targets = Targets.builtIn();
    assertTrue(targets.size() >= 15);
    for (Targets.Target t : targets) {
      Class<?> c = benchmarkClass(t.benchmark());
      assertNotNull("no benchmark class " + t.benchmark(), c);
      assertEquals(t.benchmark(), t.change(),
        ChangeNames.changeOfPackage(c.getPackage().getName()));
      assertTrue(t.versus(), MODES.contains(t.versus()));
      c.getField(JmhResult.MODE_PARAM);
      for (String key : t.when().keySet()) {
        if (!Targets.THREADS.equals(key)) {
          c.getField(key); // throws NoSuchFieldException for a misspelt parameter
        }
      }
    }
  }

  @Test
  public void theMostSpecificTargetDecides() throws Exception {
    List<Targets.Target> t = Targets.parse(new StringReader("# comment\n"
      + "c\tB\t-\tUPSTREAM\t1.0\tevery case\n"
      + "c\tB\tshape=x\tUPSTREAM\t1.9\tshape x\n"
      + "c\tB\tshape=x threads=2\tUPSTREAM\t2.5\tshape x, two threads\n"));
    assertEquals("shape x",
      Targets.find(t, "c", "B.run", Map.of("shape", "x"), 1, "UPSTREAM").text());
    assertEquals("shape x, two threads",
      Targets.find(t, "c", "B.run", Map.of("shape", "x"), 2, "UPSTREAM").text());
    assertEquals("every case",
      Targets.find(t, "c", "B", Map.of("shape", "y"), 1, "UPSTREAM").text());
    assertNull(Targets.find(t, "c", "B.run", Map.of(), 1, "BASELINE"));
    assertNull(Targets.find(t, "c", "BOther.run", Map.of(), 1, "UPSTREAM"));
    assertNull(Targets.find(t, "d", "B.run", Map.of(), 1, "UPSTREAM"));
    assertSame(t.get(0), Targets.find(t, "c", "B.run", Map.of(), 1, "UPSTREAM"));
  }

  @Test
  public void badLinesAreRefusedWithTheLineNumber() throws Exception {
    for (String bad : new String[] { "c\tB\t-\tUPSTREAM\t1.0\n", "c\tB\tshape\tUPSTREAM\t1\tt\n",
      "c\tB\t-\tUPSTREAM\tfast\tt\n", "c\tB\t-\tUPSTREAM\t-1\tt\n" }) {
      try {
        Targets.parse(new StringReader("# header\n" + bad));
        fail("accepted " + bad);
      } catch (BadInputException e) {
        assertTrue(e.getMessage(), e.getMessage().startsWith("line 2: "));
      }
    }
  }

  private static String entry(String mode, String shape, double... forks) {
    StringBuilder raw = new StringBuilder();
    for (double f : forks) {
      raw.append(raw.length() == 0 ? "" : ",").append('[').append(f).append(',').append(f)
        .append(']');
    }
    return "{\"benchmark\":\"dev.hbasepatches.jmh.seekskip.SeekSkipScanBenchmark.scan\","
      + "\"mode\":\"thrpt\",\"threads\":1,\"forks\":" + forks.length + ",\"params\":{\"mode\":\""
      + mode + "\",\"shape\":\"" + shape + "\",\"files\":\"1\"},\"primaryMetric\":{\"score\":1,"
      + "\"scoreError\":0.1,\"scoreUnit\":\"ops/s\",\"rawData\":[" + raw + "]}}";
  }

  @Test
  public void theHeadlineJudgesEachCaseAgainstItsOwnTarget() throws Exception {
    String json = "[" + entry("BASELINE", "timerangeMiss", 50, 51, 49, 50, 50) + ","
      + entry("PATCHED", "timerangeMiss", 150, 153, 147, 151, 149) + ","
      + entry("BASELINE", "fullScan", 100, 101, 99, 100, 100) + ","
      + entry("PATCHED", "fullScan", 80, 81, 79, 80, 80) + "]";
    String report = ChangeReport.render("seek-skip", JmhJsonParser.parse(json, "r.json"),
      new MachineInfo("Test CPU", 2, 24L << 20),
      ZonedDateTime.of(2026, 11, 25, 19, 0, 0, 0, ZoneOffset.UTC), "r.json");
    assertTrue(report, report.contains("| met (target 1.9x) |"));
    assertTrue(report, report.contains("| not met (target 0.98x) |"));
    assertTrue(report, report.contains("| PATCHED >= 1.9x BASELINE on timerangeMiss | 1 | met |"));
    assertTrue(report, report.contains("| PATCHED >= 0.98x BASELINE on fullScan | 1 | not met |"));
    assertTrue(report, report.contains(
      "| PATCHED >= 1.0x UPSTREAM on every shape and file count | 0 | not in this run |"));
  }
}
