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
package dev.hbasepatches.jmh.quotas;

import static org.junit.Assert.assertEquals;

import dev.hbasepatches.jmh.report.DocumentLinksTest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.Test;

/**
 * The committed limiter accuracy table is what the current code prints: the simulation runs on
 * a simulated clock with a fixed seed, so a change to the module's limiter (or to HBase's, with
 * another release) that moves any figure fails here until the file is written again by its
 * command ({@code results/limiter-accuracy/README.md}).
 */
public class LimiterAccuracyReportTest {

  @Test
  public void theCommittedTableIsWhatTheCodePrints() throws Exception {
    Path file = DocumentLinksTest.projectRoot()
      .resolve("hbase-patches/quotas/results/limiter-accuracy/limiter-accuracy.txt");
    assertEquals(file + ": run its command again", Files.readString(file, StandardCharsets.UTF_8),
      QuotaLimiterBenchmark.table(0.1));
  }
}
