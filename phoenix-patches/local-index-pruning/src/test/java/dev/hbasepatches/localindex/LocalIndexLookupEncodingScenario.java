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
package dev.hbasepatches.localindex;

import dev.hbasepatches.testkit.MiniCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.CompactionState;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;

/**
 * The seed's uncovered LOCAL index row lookup with the data table's blocks in HBase's own
 * ROW_INDEX_V1 encoding against FAST_DIFF, one fork per run of {@link #main} (module test scope,
 * not a JUnit test). Two tables with the same rows, one per encoding, each split into
 * {@code --regions} regions, flushed and major-compacted so every read comes from an encoded
 * HFile block; a local index on {@code V1} that does not include the selected {@code V3}, so each
 * index hit is looked up in the data table. The query runs in PATCHED mode; the encodings take
 * turns block by block. The row-index change of this project is not involved (no dependency).
 * <p>
 * Output, one tab-separated line per encoding: {@code encoding rows meanMicros queries}.
 */
public final class LocalIndexLookupEncodingScenario {

  private static final DataBlockEncoding[] ENCODINGS =
    { DataBlockEncoding.FAST_DIFF, DataBlockEncoding.ROW_INDEX_V1 };

  private LocalIndexLookupEncodingScenario() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 6) {
      throw new IllegalArgumentException("usage: LocalIndexLookupEncodingScenario OUT REGIONS"
        + " ROWS WARMUP QUERIES BLOCK");
    }
    String out = args[0];
    int regions = Integer.parseInt(args[1]);
    int rows = Integer.parseInt(args[2]);
    int warmup = Integer.parseInt(args[3]);
    int queries = Integer.parseInt(args[4]);
    int block = Integer.parseInt(args[5]);
    if (regions < 1 || rows < regions || warmup < 0 || block < 1 || queries % block != 0) {
      throw new IllegalArgumentException("need REGIONS >= 1, ROWS >= REGIONS, WARMUP >= 0,"
        + " QUERIES a positive multiple of BLOCK; got " + String.join(" ", args));
    }
    MiniCluster cluster = PhoenixCluster.shared();
    cluster.start();
    List<String> lines = new ArrayList<>();
    try (Connection conn = PhoenixCluster.connect(cluster)) {
      String[] sql = new String[ENCODINGS.length];
      long[] expectRows = new long[ENCODINGS.length];
      for (int e = 0; e < ENCODINGS.length; e++) {
        String table = "LIE_" + ENCODINGS[e].name();
        create(conn, cluster.admin(), table, ENCODINGS[e], regions, rows);
        sql[e] = "SELECT /*+ INDEX(" + table + " " + table + "_I) */ K, ID, V2, V3 FROM "
          + table + " WHERE V1 = 'v3'";
        expectRows[e] = runOnce(conn, sql[e]);
      }
      if (expectRows[0] != expectRows[1] || expectRows[0] == 0) {
        throw new IllegalStateException("the encodings' tables answer differently: "
          + expectRows[0] + " vs " + expectRows[1] + " rows");
      }
      for (int e = 0; e < ENCODINGS.length; e++) {
        for (int i = 0; i < warmup; i++) {
          runOnce(conn, sql[e]);
        }
      }
      long[] nanos = new long[ENCODINGS.length];
      for (int b = 0; b < queries / block; b++) {
        for (int m = 0; m < ENCODINGS.length; m++) {
          int e = (b + m) % ENCODINGS.length;
          long start = System.nanoTime();
          for (int i = 0; i < block; i++) {
            runOnce(conn, sql[e]);
          }
          nanos[e] += System.nanoTime() - start;
        }
      }
      for (int e = 0; e < ENCODINGS.length; e++) {
        String line = String.format(Locale.ROOT, "%s\t%d\t%.1f\t%d", ENCODINGS[e].name(),
          expectRows[e], nanos[e] / 1000.0 / queries, queries);
        lines.add(line);
        System.out.println(line);
      }
    } finally {
      Files.write(Paths.get(out), lines, StandardCharsets.UTF_8);
      cluster.stop();
    }
    System.exit(0);
  }

  private static void create(Connection conn, Admin admin, String table,
    DataBlockEncoding encoding, int regions, int rows) throws Exception {
    StringBuilder splits = new StringBuilder();
    for (int r = 1; r < regions; r++) {
      splits.append(r == 1 ? "" : ", ").append((long) rows * r / regions);
    }
    try (Statement st = conn.createStatement()) {
      st.execute("CREATE TABLE " + table + " (K BIGINT NOT NULL PRIMARY KEY, ID INTEGER,"
        + " V1 VARCHAR, V2 VARCHAR, V3 VARCHAR) USE_STATS_FOR_PARALLELIZATION=false,"
        + " DATA_BLOCK_ENCODING='" + encoding.name() + "'"
        + (regions > 1 ? " SPLIT ON (" + splits + ")" : ""));
      st.execute("CREATE LOCAL INDEX " + table + "_I ON " + table + " (V1)");
    }
    conn.setAutoCommit(false);
    try (PreparedStatement ps =
      conn.prepareStatement("UPSERT INTO " + table + " VALUES (?, ?, ?, ?, ?)")) {
      for (int i = 0; i < rows; i++) {
        ps.setLong(1, i);
        ps.setInt(2, i);
        ps.setString(3, "v" + (i % 100));
        ps.setString(4, "payload-" + i + "-" + "x".repeat(40));
        ps.setString(5, "w" + (i * 7 % 1000));
        ps.executeUpdate();
        if (i % 1000 == 999) {
          conn.commit();
        }
      }
      conn.commit();
    } finally {
      conn.setAutoCommit(true);
    }
    TableName name = TableName.valueOf(table);
    for (ColumnFamilyDescriptor cf : admin.getDescriptor(name).getColumnFamilies()) {
      if (!cf.getNameAsString().startsWith("L#") && cf.getDataBlockEncoding() != encoding) {
        throw new IllegalStateException(table + " family " + cf.getNameAsString() + " is "
          + cf.getDataBlockEncoding() + ", not " + encoding);
      }
    }
    admin.flush(name);
    admin.majorCompact(name);
    long deadline = System.currentTimeMillis() + 300_000;
    Thread.sleep(1000);
    while (admin.getCompactionState(name) != CompactionState.NONE) {
      if (System.currentTimeMillis() > deadline) {
        throw new IllegalStateException("major compaction of " + table + " did not finish");
      }
      Thread.sleep(500);
    }
  }

  private static long runOnce(Connection conn, String sql) throws SQLException {
    try (PreparedStatement ps = conn.prepareStatement(sql);
      ResultSet rs = new LocalIndexQueryExecutor(LocalIndexMode.PATCHED).executeQuery(ps)) {
      long n = 0;
      while (rs.next()) {
        n += rs.getString(4).length() > 0 ? 1 : 0;
      }
      return n;
    }
  }
}
