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

import java.util.List;
import java.util.stream.Collectors;
import org.apache.hadoop.hbase.MetaTableAccessor;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.ClassRule;
import org.junit.Test;

/**
 * metaWrite, metaRandomRead and cleanMeta on the embedded cluster, checked in hbase:meta
 * directly: the made-up regions are there after metaWrite, found by metaRandomRead, and gone
 * after cleanMeta, which leaves the table's real region alone.
 */
public class MetaCommandsTest {

  @ClassRule
  public static final ClusterRule CLUSTER = TestCluster.CLUSTER;

  private static final int ROWS = 25;
  private static final String TABLE = "meta_fake";

  private static List<String> startKeys() throws Exception {
    List<RegionInfo> regions =
      MetaTableAccessor.getTableRegions(CLUSTER.connection(), TableName.valueOf(TABLE));
    return regions.stream().map(r -> Bytes.toString(r.getStartKey())).sorted()
      .collect(Collectors.toList());
  }

  private static ToolRun run(String command, String... more) {
    String[] args = new String[more.length + 4];
    args[0] = "--rows=" + ROWS;
    args[1] = "--table=" + TABLE;
    args[2] = "--verify";
    args[3] = command;
    System.arraycopy(more, 0, args, 4, more.length);
    return ToolRun.plain(TestCluster.embedded(args));
  }

  @Test(timeout = 240_000)
  public void fakeRegionsAreWrittenFoundAndCleanedUp() throws Exception {
    ToolRun write = run("metaWrite");
    assertEquals(write.toString(), 0, write.exitCode);
    assertTrue(write.out, write.out.contains("metaWrite: verified 25 row(s)"));
    List<String> keys = startKeys();
    // The real region (start key "") and one per row: "00" .. "24".
    assertEquals(keys.toString(), ROWS + 1, keys.size());
    assertEquals("", keys.get(0));
    assertEquals("00", keys.get(1));
    assertEquals("24", keys.get(ROWS));

    ToolRun read = run("metaRandomRead", "--ops=40");
    assertEquals(read.toString(), 0, read.exitCode);
    assertTrue(read.out, read.out.contains("metaRandomRead: verified 40 row(s)"));

    ToolRun clean = run("cleanMeta");
    assertEquals(clean.toString(), 0, clean.exitCode);
    assertTrue(clean.out, clean.out.contains("cleanMeta: verified 25 row(s)"));
    assertEquals(List.of(""), startKeys());

    // With the made-up regions gone every lookup finds the real region: --verify says so.
    ToolRun stale = run("metaRandomRead", "--ops=5");
    assertEquals(stale.toString(), 1, stale.exitCode);
    assertTrue(stale.out, stale.out.contains("not at the key"));
  }
}
