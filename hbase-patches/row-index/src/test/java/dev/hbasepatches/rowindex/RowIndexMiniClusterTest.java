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
package dev.hbasepatches.rowindex;

import static dev.hbasepatches.testkit.CellAssertions.assertSameCells;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import dev.hbasepatches.testkit.MiniCluster;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.junit.AfterClass;
import org.junit.ClassRule;
import org.junit.Test;

/**
 * A minicluster whose RegionServer starts {@link RowIndexRegionServerCoprocessor} from
 * {@code hbase.coprocessor.regionserver.classes}: a ROW_INDEX_V1 table is then written and read
 * by our encoder, and Gets, forward and reverse scans and deletes return the same cells as a
 * NONE table. Stopping the cluster hands the encoding back.
 */
public class RowIndexMiniClusterTest {
  private static final int ROWS = 3000;

  @ClassRule
  public static final MiniCluster CLUSTER = MiniCluster.builder()
    .conf("hbase.coprocessor.regionserver.classes", RowIndexRegionServerCoprocessor.class)
    .conf(RowIndexConfig.MODE_KEY, "PATCHED").build();

  @AfterClass
  public static void clusterStopHandsTheEncodingBack() {
    CLUSTER.stop();
    boolean stillInstalled = RowIndexInstaller.isInstalled();
    // Never leave the JVM-wide swap to the next test class, whatever the outcome.
    RowIndexInstaller.uninstall();
    assertFalse("the RegionServer's coprocessor stop() did not uninstall the encoder",
      stillInstalled);
  }

  private static Table create(String name, DataBlockEncoding enc) throws IOException {
    TableName tn = TableName.valueOf(name);
    CLUSTER.admin().createTable(TableDescriptorBuilder.newBuilder(tn)
      .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(SeedTableData.FAMILY)
        .setDataBlockEncoding(enc).setBlocksize(1024).build())
      .build());
    return CLUSTER.connection().getTable(tn);
  }

  private static List<Cell> scan(Table t, Scan scan, int maxRows) throws IOException {
    List<Cell> cells = new ArrayList<>();
    int rows = 0;
    try (ResultScanner rs = t.getScanner(scan)) {
      for (Result r; rows < maxRows && (r = rs.next()) != null; rows++) {
        cells.addAll(r.listCells());
      }
    }
    return cells;
  }

  private static List<List<Cell>> reads(Table t) throws IOException {
    List<List<Cell>> out = new ArrayList<>();
    out.add(scan(t, new Scan(), Integer.MAX_VALUE));
    out.add(scan(t, new Scan().setReversed(true), Integer.MAX_VALUE));
    out.add(scan(t, new Scan().setReversed(true), 100));
    out.add(scan(t, new Scan().withStartRow(SeedTableData.rowKey(2222)).setReversed(true), 50));
    List<Cell> gets = new ArrayList<>();
    Random rnd = new Random(7);
    for (int i = 0; i < 200; i++) {
      Result r = t.get(new Get(SeedTableData.rowKey(rnd.nextInt(ROWS + 20) - 10)));
      if (!r.isEmpty()) {
        gets.addAll(r.listCells());
      }
    }
    out.add(gets);
    return out;
  }

  private static void assertSameReads(String what, List<List<Cell>> expected,
    List<List<Cell>> actual) {
    String[] names = { "full scan", "reverse scan", "reverse scan 100 rows",
      "reverse scan from a row", "gets" };
    for (int i = 0; i < names.length; i++) {
      assertSameCells(what + " " + names[i], expected.get(i), actual.get(i));
    }
  }

  private static void flush(String table) throws IOException {
    CLUSTER.admin().flush(TableName.valueOf(table));
  }

  @Test
  public void coprocessorInstallsOursAndTablesReadLikeNone() throws IOException {
    assertTrue("RowIndexRegionServerCoprocessor did not install the encoder",
      RowIndexInstaller.isInstalled());
    assertTrue(DataBlockEncoding.ROW_INDEX_V1.getEncoder() instanceof RowIndexEncoder);
    try (Table none = create("seed_none", DataBlockEncoding.NONE);
      Table ri = create("seed_rowindex", DataBlockEncoding.ROW_INDEX_V1)) {
      none.put(SeedTableData.puts(ROWS, 42));
      ri.put(SeedTableData.puts(ROWS, 42));
      flush("seed_none");
      flush("seed_rowindex");
      int files = 0;
      for (HRegion r : CLUSTER.regions(TableName.valueOf("seed_rowindex"))) {
        for (HStoreFile f : r.getStore(SeedTableData.FAMILY).getStorefiles()) {
          assertEquals(DataBlockEncoding.ROW_INDEX_V1, f.getReader().getHFileReader()
            .getDataBlockEncoding());
          files++;
        }
      }
      assertTrue("no ROW_INDEX_V1 store file was flushed", files > 0);
      List<List<Cell>> expected = reads(none);
      assertEquals(ROWS * SeedTableData.CELLS_PER_ROW, expected.get(0).size());
      assertSameReads("after flush", expected, reads(ri));

      // The seed's delete: all but one row in a thousand, markers flushed into a second file.
      List<Delete> deletes = SeedTableData.deleteAllBut(ROWS, 1000);
      none.delete(new ArrayList<>(deletes));
      ri.delete(SeedTableData.deleteAllBut(ROWS, 1000));
      flush("seed_none");
      flush("seed_rowindex");
      List<List<Cell>> afterDelete = reads(none);
      assertEquals(3 * SeedTableData.CELLS_PER_ROW, afterDelete.get(0).size());
      assertSameReads("after deleting 99.9%", afterDelete, reads(ri));
      assertTrue(DataBlockEncoding.ROW_INDEX_V1.getEncoder() instanceof RowIndexEncoder);
    }
  }
}
