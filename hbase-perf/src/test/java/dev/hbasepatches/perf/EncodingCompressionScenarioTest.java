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
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * encodingCompression on the shared cluster with two encodings and three codecs: one row per
 * pair, the same rows read back in every table, GZ tables smaller than uncompressed ones, a codec
 * that does not load reported with its reason, and the tables dropped afterwards.
 */
public class EncodingCompressionScenarioTest {

  @ClassRule
  public static final ClusterRule CLUSTER = TestCluster.CLUSTER;

  @ClassRule
  public static final TemporaryFolder DIR = new TemporaryFolder();

  @Test(timeout = 600_000)
  public void writesOneRowPerEncodingAndCodecWithFootprintAndSpeeds() throws Exception {
    Path dir = DIR.getRoot().toPath();
    ToolRun r = ToolRun.plain(TestCluster.embedded("--rows=200", "--table=encmatrix",
      "--encodings=none,fast_diff", "--compressions=none,gz,zstd", "--verify",
      "--reportDir=" + dir, "encodingCompression"));
    assertEquals(r.toString(), 0, r.exitCode);
    r.assertNoStackTrace();
    assertTrue(r.out, r.out.contains("# Encoding x compression: 200 rows"));
    assertTrue(r.out, r.out.contains("```mermaid"));

    List<String> lines = Files.readAllLines(dir.resolve("encodingCompression.csv"));
    assertEquals(String.join(",", EncodingCompression.COLUMNS), lines.get(0));
    assertEquals(r.toString(), 7, lines.size());
    Map<String, String[]> byCell = new HashMap<>();
    for (String line : lines.subList(1, lines.size())) {
      String[] cells = line.split(",", EncodingCompression.COLUMNS.size());
      byCell.put(cells[0] + "/" + cells[1], cells);
    }
    assertEquals(new ArrayList<>(List.of("FAST_DIFF/GZ", "FAST_DIFF/NONE", "FAST_DIFF/ZSTD",
      "NONE/GZ", "NONE/NONE", "NONE/ZSTD")), sorted(byCell.keySet()));
    for (String cell : List.of("NONE/NONE", "NONE/GZ", "FAST_DIFF/NONE", "FAST_DIFF/GZ")) {
      String[] c = byCell.get(cell);
      assertTrue(cell + ": " + Arrays.toString(c), Long.parseLong(c[2]) > 0);
      assertTrue(cell + ": " + Arrays.toString(c), Double.parseDouble(c[5]) > 0);
      assertTrue(cell + ": " + Arrays.toString(c), Double.parseDouble(c[6]) > 0);
      assertEquals(cell + ": no errors, nothing missing or wrong", "0", c[9]);
    }
    // 1,000-byte values of 26 letters compress; the row keys share 20-odd leading zeros.
    assertTrue(Long.parseLong(byCell.get("NONE/GZ")[2])
      < Long.parseLong(byCell.get("NONE/NONE")[2]));
    assertTrue(Long.parseLong(byCell.get("FAST_DIFF/NONE")[2])
      < Long.parseLong(byCell.get("NONE/NONE")[2]));
    assertEquals("1.000", byCell.get("NONE/NONE")[4]);
    String zstdProblem = EncodingCompression.codecProblem("ZSTD");
    String[] zstd = byCell.get("NONE/ZSTD");
    if (zstdProblem == null) {
      assertTrue(Arrays.toString(zstd), Long.parseLong(zstd[2]) > 0);
    } else {
      assertTrue(Arrays.toString(zstd), zstd[10].contains("codec not loaded: "));
      assertEquals("-", zstd[2]);
    }
    assertTrue(Files.readString(dir.resolve("encodingCompression.md"))
      .contains("| FAST_DIFF | GZ |"));
    try (Admin admin = CLUSTER.cluster().admin()) {
      for (String cell : byCell.keySet()) {
        assertFalse(cell, admin.tableExists(TableName.valueOf("encmatrix_"
          + cell.replace('/', '_'))));
      }
    }
  }

  private static List<String> sorted(java.util.Collection<String> c) {
    List<String> l = new ArrayList<>(c);
    l.sort(null);
    return l;
  }
}
