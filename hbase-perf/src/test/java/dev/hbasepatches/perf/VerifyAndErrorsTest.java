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

import org.apache.hbase.thirdparty.com.google.gson.JsonObject;
import org.junit.ClassRule;
import org.junit.Test;

/**
 * --verify must catch what it is there to catch, and failed operations must be counted and
 * shown: each case here breaks something on purpose and expects exit code 1 and a plain message.
 */
public class VerifyAndErrorsTest {

  @ClassRule
  public static final ClusterRule CLUSTER = TestCluster.CLUSTER;

  @Test
  public void readingWithAnotherSeedFindsEveryValueWrong() throws Exception {
    ToolRun write = ToolRun.plain(TestCluster.embedded("--rows=100", "--table=v_seed",
      "sequentialWrite"));
    assertEquals(write.toString(), 0, write.exitCode);
    ToolRun read = ToolRun.withJson(TestCluster.embedded("--rows=100", "--table=v_seed",
      "--seed=99", "--verify", "sequentialRead"));
    assertEquals(read.toString(), ToolFailure.EXIT_RUN_ERRORS, read.exitCode);
    JsonObject verify = read.only().getAsJsonObject("verify");
    assertEquals(100, verify.get("wrong").getAsLong());
    assertEquals(0, verify.get("missing").getAsLong());
    assertTrue(read.out, read.out.contains("sequentialRead: VERIFY FAILED"));
    assertTrue(read.out, read.out.contains("bytes that differ from the"));
    read.assertNoStackTrace();
  }

  @Test
  public void rowsThatWereNeverWrittenAreReportedMissing() throws Exception {
    ToolRun write = ToolRun.plain(TestCluster.embedded("--rows=60", "--table=v_missing",
      "sequentialWrite"));
    assertEquals(write.toString(), 0, write.exitCode);
    // The table exists, so the tool takes it as loaded and the scan finds rows 60..99 absent.
    ToolRun scan = ToolRun.withJson(TestCluster.embedded("--rows=100", "--table=v_missing",
      "--verify", "scan"));
    assertEquals(scan.toString(), ToolFailure.EXIT_RUN_ERRORS, scan.exitCode);
    JsonObject verify = scan.only().getAsJsonObject("verify");
    assertEquals(40, verify.get("missing").getAsLong());
    assertEquals(60, verify.get("rowsChecked").getAsLong());
    assertTrue(scan.err, scan.err.contains("using existing table v_missing"));
    assertTrue(scan.out, scan.out.contains("40 row(s) not found"));
  }

  @Test
  public void withoutVerifyMissingRowsAreStillCountedButDoNotFailTheRun() throws Exception {
    ToolRun write = ToolRun.plain(TestCluster.embedded("--rows=50", "--table=v_partial",
      "sequentialWrite"));
    assertEquals(write.toString(), 0, write.exitCode);
    ToolRun read = ToolRun.withJson(TestCluster.embedded("--rows=100", "--table=v_partial",
      "sequentialRead"));
    assertEquals(read.toString(), 0, read.exitCode);
    assertEquals(50, read.only().getAsJsonObject("verify").get("missing").getAsLong());
    assertTrue(read.out, read.out.contains("the table may hold fewer rows"));
  }

  @Test
  public void failedPutsAreCountedEachOneWithItsReason() throws Exception {
    ToolRun create = ToolRun.plain(TestCluster.embedded("--rows=20", "--table=v_errors",
      "sequentialWrite"));
    assertEquals(create.toString(), 0, create.exitCode);
    // The table has one family; puts to a second one fail on the server.
    for (String flush : new String[] { "--autoFlush=true", "--autoFlush=false" }) {
      ToolRun r = ToolRun.withJson(TestCluster.embedded("--rows=20", "--table=v_errors",
        "--families=2", flush, "sequentialWrite", "2"));
      assertEquals(r.toString(), ToolFailure.EXIT_RUN_ERRORS, r.exitCode);
      JsonObject result = r.only();
      assertEquals(r.toString(), 40, result.get("errors").getAsLong());
      assertEquals(r.toString(), 0, result.get("operations").getAsLong());
      String sample = result.getAsJsonArray("errorSamples").get(0).getAsString();
      assertTrue(sample, sample.contains("NoSuchColumnFamilyException"));
      assertTrue(r.out, r.out.contains("sequentialWrite: 40 operation(s) failed"));
      assertTrue(r.err, r.err.contains("some operations failed"));
      r.assertNoStackTrace();
    }
  }

  @Test
  public void eachIncrementRunChecksTheRiseSinceItsOwnStart() throws Exception {
    ToolRun r = ToolRun.withJson(TestCluster.embedded("--rows=30", "--table=v_inc",
      "--verify", "increment,increment"));
    assertEquals(r.toString(), 0, r.exitCode);
    assertEquals(2, r.measured().size());
    for (JsonObject result : r.measured()) {
      assertEquals(30, result.get("operations").getAsLong());
      assertEquals(0, result.getAsJsonObject("verify").get("wrong").getAsLong());
    }
  }
}
