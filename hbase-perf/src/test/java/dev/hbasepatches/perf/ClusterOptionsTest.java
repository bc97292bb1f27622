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

import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;
import org.junit.ClassRule;
import org.junit.Test;

/** Options that shape the table, the data and the client, checked on the cluster. */
public class ClusterOptionsTest {

  @ClassRule
  public static final ClusterRule CLUSTER = TestCluster.CLUSTER;

  @Test
  public void tableOptionsReachTheTableDescriptor() throws Exception {
    ToolRun r = ToolRun.plain(TestCluster.embedded("--rows=50", "--table=opt_table",
      "--families=2", "--columns=3", "--presplit=5", "--compression=gz",
      "--blockEncoding=fast_diff", "--bloomFilter=rowcol", "--inMemory", "--verify",
      "sequentialWrite"));
    assertEquals(r.toString(), 0, r.exitCode);
    TableDescriptor d = CLUSTER.admin().getDescriptor(TableName.valueOf("opt_table"));
    assertEquals(2, d.getColumnFamilyCount());
    for (ColumnFamilyDescriptor f : d.getColumnFamilies()) {
      assertEquals(Compression.Algorithm.GZ, f.getCompressionType());
      assertEquals(DataBlockEncoding.FAST_DIFF, f.getDataBlockEncoding());
      assertEquals(BloomType.ROWCOL, f.getBloomFilterType());
      assertTrue(f.isInMemory());
    }
    assertEquals(5, CLUSTER.admin().getRegions(TableName.valueOf("opt_table")).size());
  }

  @Test
  public void replicasServeTimelineReads() throws Exception {
    ToolRun r = ToolRun.withJson(TestCluster.embedded("--rows=100", "--table=opt_replicas",
      "--replicas=2", "--verify", "randomRead,scan"));
    assertEquals(r.toString(), 0, r.exitCode);
    assertEquals(2, CLUSTER.admin().getDescriptor(TableName.valueOf("opt_replicas"))
      .getRegionReplication());
    for (JsonObject m : r.measured()) {
      assertEquals(100, m.get("operations").getAsLong());
      assertEquals(0, m.getAsJsonObject("verify").get("missing").getAsLong());
      assertEquals(0, m.getAsJsonObject("verify").get("wrong").getAsLong());
    }
  }

  @Test
  public void multiGetReadsSeveralRowsPerOperation() throws Exception {
    ToolRun r = ToolRun.withJson(TestCluster.embedded("--rows=100", "--table=opt_multiget",
      "--multiGet=10", "--verify", "randomRead", "2"));
    assertEquals(r.toString(), 0, r.exitCode);
    JsonObject m = r.only();
    assertEquals(20, m.get("operations").getAsLong());
    assertEquals(200, m.get("rows").getAsLong());
    assertEquals(200, m.getAsJsonObject("verify").get("rowsChecked").getAsLong());
  }

  @Test
  public void sampleRateReadsAFractionOfTheRows() throws Exception {
    ToolRun r = ToolRun.withJson(TestCluster.embedded("--rows=200", "--table=opt_sample",
      "--sampleRate=0.25", "--verify", "sequentialRead"));
    assertEquals(r.toString(), 0, r.exitCode);
    assertEquals(50, r.only().get("operations").getAsLong());
    assertEquals(0, r.only().getAsJsonObject("verify").get("missing").getAsLong());
  }

  @Test
  public void variableValuesZipfKeysAndNoWalStillVerify() throws Exception {
    ToolRun r = ToolRun.withJson(TestCluster.embedded("--rows=100", "--table=opt_shapes",
      "--valueSizes=zipf", "--valueSize=500", "--keys=zipf", "--writeToWAL=false",
      "--autoFlush", "--verify", "randomWrite,randomRead,scanRange10"));
    assertEquals(r.toString(), 0, r.exitCode);
    for (JsonObject m : r.measured()) {
      assertEquals(0, m.get("errors").getAsLong());
      assertEquals(0, m.getAsJsonObject("verify").get("wrong").getAsLong());
    }
  }

  @Test
  public void aTargetRateHoldsTheRunToItsSchedule() throws Exception {
    // 100 operations at 500/s cannot finish in under ~0.2 s; unpaced they would.
    ToolRun r = ToolRun.withJson(TestCluster.embedded("--rows=100", "--table=opt_rate",
      "--rate=500", "randomRead"));
    assertEquals(r.toString(), 0, r.exitCode);
    JsonObject m = r.only();
    assertEquals(100, m.get("operations").getAsLong());
    assertTrue(m.get("seconds").getAsDouble() >= 0.19);
    assertTrue(r.out, r.out.contains("paced; latency counts from each operation's scheduled"));
  }

  @Test
  public void aDurationRunsUntilTimeIsUp() throws Exception {
    ToolRun r = ToolRun.withJson(TestCluster.embedded("--rows=50", "--table=opt_duration",
      "--duration=1s", "--verify", "sequentialWrite"));
    assertEquals(r.toString(), 0, r.exitCode);
    JsonObject m = r.only();
    assertTrue(m.get("seconds").getAsDouble() >= 1.0);
    assertTrue(m.get("operations").getAsLong() > 0);
    // Sequential writes wrap round each client's 50 rows: at most 50 distinct rows to check.
    assertTrue(m.getAsJsonObject("verify").get("rowsChecked").getAsLong() <= 50);
  }
}
