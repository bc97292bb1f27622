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
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.Test;

/**
 * The committed evidence and the documents quoting it agree: each change's results/report.md
 * holds the table its JMH files give today, every target in it rests on five forks or more, and
 * the README's and PATCH.md's evidence blocks are what {@code Evidence --docs} writes from those
 * reports (so a hand-edited number, or a report left stale without saying so, fails here; rerun
 * {@code java -cp jmh-benchmarks/target/benchmarks.jar dev.hbasepatches.jmh.report.Evidence
 * --docs} after a run).
 */
public class EvidenceReportsTest {

  @Test
  public void reportsDocumentsAndJmhFilesAgree() throws Exception {
    Path root = DocumentLinksTest.projectRoot();
    List<Evidence.Row> all = Evidence.builtIn();
    for (String change : Evidence.changes(all)) {
      Evidence.Current c = Evidence.current(root, all, change);
      Path results = Evidence.moduleDir(root, change).resolve("results");
      if (c.outcomes().isEmpty()) {
        continue;
      }
      String report = Files.readString(results.resolve(Evidence.REPORT), StandardCharsets.UTF_8);
      assertTrue(change + ": report.md does not hold the table its JMH files give",
        report.contains(Evidence.table(c.outcomes(), c.rows())));
      for (Evidence.Outcome o : c.outcomes()) {
        assertTrue(change + " " + o.row().id() + ": " + o.forks() + " forks",
          o.forks() >= ForkStats.MIN_FORKS);
      }
      Path patch = Evidence.moduleDir(root, change).resolve("PATCH.md");
      String block = Evidence.block(Files.readString(patch, StandardCharsets.UTF_8));
      assertNotNull(patch + " has no evidence block", block);
      assertEquals(patch + ": run Evidence --docs", Evidence.patchBlock(root, all, change),
        block);
    }
    String readme = Evidence.block(Files.readString(root.resolve("README.md"),
      StandardCharsets.UTF_8));
    assertNotNull("README.md has no evidence block", readme);
    assertEquals("README.md: run Evidence --docs", Evidence.readmeBlock(root, all), readme);
    String building = Evidence.block(Files.readString(root.resolve("BUILDING.md"),
      StandardCharsets.UTF_8));
    assertNotNull("BUILDING.md has no evidence block", building);
    assertEquals("BUILDING.md: run Evidence --docs", Evidence.timesBlock(root, all), building);
  }
}
