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
package dev.hbasepatches.seekskip;

import static dev.hbasepatches.testkit.ScanShape.FAMILY;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import dev.hbasepatches.testkit.CellAssertions;
import dev.hbasepatches.testkit.LocalRegion;
import dev.hbasepatches.testkit.MiniCluster;
import dev.hbasepatches.testkit.ScanShape;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.DefaultStoreEngine;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;

/**
 * The patch on a real RegionServer: {@code hbase.hregion.impl} names {@link SeekSkipRegion}, so
 * client scans run through {@link SeekSkipStoreScanner}. Each shape is loaded into three tables,
 * one per mode (set per table, over the site default), and into a stock local HRegion; every
 * client scan must return the same rows from all of them.
 */
public class SeekSkipMiniClusterTest {

  @ClassRule
  public static final MiniCluster CLUSTER = MiniCluster.builder()
    .conf(HConstants.REGION_IMPL, SeekSkipRegion.class)
    .conf(SeekSkipMode.MODE_KEY, SeekSkipMode.PATCHED.name())
    .conf(DefaultStoreEngine.DEFAULT_COMPACTOR_CLASS_KEY, SeekSkipCompactor.class)
    .conf(DefaultStoreEngine.DEFAULT_STORE_FLUSHER_CLASS_KEY, SeekSkipStoreFlusher.class).build();

  private static final ScanShape[] SHAPES =
    { ScanShape.TIMERANGE_MISS, ScanShape.ONE_COLUMN_OF_TEN, ScanShape.ONE_VERSION_OF_TEN };
  private static final int CELLS = 6_000;
  private static final long SEED = 77L;

  private static TableName table(ScanShape shape, SeekSkipMode mode) {
    return TableName.valueOf(shape.paramName() + "_" + mode);
  }

  @BeforeClass
  public static void load() throws IOException {
    Admin admin = CLUSTER.admin();
    for (ScanShape shape : SHAPES) {
      ScanShape.ShapeData data = shape.generate(CELLS, 2, 0.2, SEED);
      for (SeekSkipMode mode : SeekSkipMode.values()) {
        TableName name = table(shape, mode);
        admin.createTable(TableDescriptorBuilder.newBuilder(name)
          .setValue(SeekSkipMode.MODE_KEY, mode.name())
          .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(FAMILY)
            .setMaxVersions(shape.versions()).setBlocksize(2048).build())
          .build());
        try (Table t = CLUSTER.connection().getTable(name)) {
          for (List<Mutation> file : data.files()) {
            t.batch(file, new Object[file.size()]);
            admin.flush(name);
          }
          t.batch(data.memstore(), new Object[data.memstore().size()]);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException(e);
        }
      }
    }
  }

  private static List<Cell> clientScan(TableName name, Scan scan) throws IOException {
    List<Cell> cells = new ArrayList<>();
    try (Table t = CLUSTER.connection().getTable(name); ResultScanner rs = t.getScanner(scan)) {
      for (Result r : rs) {
        Collections.addAll(cells, r.rawCells());
      }
    }
    return cells;
  }

  private static SeekSkipStore storeOf(TableName name) {
    List<HRegion> regions = CLUSTER.regions(name);
    assertFalse("no online region for " + name, regions.isEmpty());
    HRegion region = regions.get(0);
    assertTrue("the RegionServer opened " + region.getClass(), region instanceof SeekSkipRegion);
    return (SeekSkipStore) region.getStore(FAMILY);
  }

  @Test
  public void clientScansRunThroughThePatchAndMatchAStockServer() throws IOException {
    for (ScanShape shape : SHAPES) {
      SeekSkipStore patchedStore = storeOf(table(shape, SeekSkipMode.PATCHED));
      patchedStore.decisions().reset();
      try (LocalRegion stock = LocalRegion.builder("stock_" + shape.paramName())
        .family(Bytes.toString(FAMILY)).maxVersions(shape.versions()).blockSize(2048).build()) {
        shape.generate(CELLS, 2, 0.2, SEED).loadInto(stock);
        for (boolean reversed : new boolean[] { false, true }) {
          Scan scan = shape.scan().setReversed(reversed);
          List<Cell> expected = stock.scanAll(shape.scan().setReversed(reversed));
          for (SeekSkipMode mode : SeekSkipMode.values()) {
            CellAssertions.assertSameCells(shape.paramName() + " " + mode + " reversed=" + reversed,
              expected, clientScan(table(shape, mode), new Scan(scan)));
          }
        }
      }
      SeekDecisions d = patchedStore.decisions();
      assertTrue("the client scans went through the PATCHED scanner: " + d,
        d.skips() + d.seeks() > 0);
      if (shape == ScanShape.TIMERANGE_MISS) {
        assertTrue("time-range misses are skipped on the server: " + d, d.skips() > 0);
      }
    }
  }

  @Test
  public void perTableModeOverridesTheSiteDefault() {
    for (SeekSkipMode mode : SeekSkipMode.values()) {
      SeekSkipStore store = storeOf(table(ScanShape.TIMERANGE_MISS, mode));
      org.junit.Assert.assertEquals(mode, store.mode());
    }
  }
}
