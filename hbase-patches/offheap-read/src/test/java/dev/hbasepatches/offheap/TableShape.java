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
package dev.hbasepatches.offheap;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hbase.ArrayBackedTag;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.KeyValueUtil;
import org.apache.hadoop.hbase.Tag;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.RegionScanner;
import org.apache.hadoop.hbase.regionserver.Shipper;
import org.apache.hadoop.hbase.util.Bytes;
import dev.hbasepatches.testkit.LocalRegion;

/** A seeded table shape for the region tests: rows over three flushed files, tags on some cells. */
final class TableShape {
  static final byte[] FAMILY = Bytes.toBytes("f");
  static final int ROWS = 600;
  static final long SEED = 20261125L;

  private TableShape() {
  }

  static byte[] row(int i) {
    return Bytes.toBytes(String.format("row-%06d", i));
  }

  /** Three files: every row in the first, newer versions of some cells in the later two. */
  static void load(LocalRegion region) throws IOException {
    Random rnd = new Random(SEED);
    for (int file = 0; file < 3; file++) {
      List<Put> puts = new ArrayList<>();
      for (int i = 0; i < ROWS; i++) {
        if (file > 0 && rnd.nextInt(3) != 0) {
          continue;
        }
        Put p = new Put(row(i));
        for (int q = 0; q < 3; q++) {
          byte[] value = new byte[10 + rnd.nextInt(300)];
          rnd.nextBytes(value);
          byte[] qual = Bytes.toBytes("q" + q);
          long ts = 1000L + file;
          if ((i + q) % 4 == 0) {
            List<Tag> tags = Collections.singletonList(
              new ArrayBackedTag((byte) 66, Bytes.toBytes("tag-" + file + "-" + i)));
            p.add(new KeyValue(row(i), FAMILY, qual, ts, value, tags));
          } else {
            p.addColumn(FAMILY, qual, ts, value);
          }
        }
        puts.add(p);
      }
      region.writeAndFlush(puts);
    }
  }

  static LocalRegion.Builder builder(String name, DataBlockEncoding encoding) {
    return LocalRegion.builder(name).family("f").encoding(encoding).blockSize(4096)
      .conf("hfile.format.version", "3");
  }

  /** Runs the scan through a RegionScanner as the RPC layer does: copy each batch, then ship. */
  static List<Cell> scan(HRegion region, Scan scan, int maxRows) throws IOException {
    List<Cell> out = new ArrayList<>();
    List<Cell> batch = new ArrayList<>();
    int rows = 0;
    try (RegionScanner s = region.getScanner(scan)) {
      boolean more;
      do {
        more = s.next(batch);
        if (!batch.isEmpty()) {
          rows++;
          for (Cell c : batch) {
            out.add(KeyValueUtil.copyToNewKeyValue(c));
          }
          batch.clear();
          ((Shipper) s).shipped();
        }
      } while (more && rows < maxRows);
    }
    return out;
  }

  /** Every query the tests compare: forward, reversed, a 100-row range, 100 seeded gets. */
  static List<List<Cell>> queries(HRegion region) throws IOException {
    List<List<Cell>> all = new ArrayList<>();
    all.add(scan(region, new Scan(), Integer.MAX_VALUE));
    all.add(scan(region, new Scan().setReversed(true), Integer.MAX_VALUE));
    all.add(scan(region, new Scan().withStartRow(row(250)), 100));
    all.add(scan(region, new Scan().withStartRow(row(400)).setReversed(true), 100));
    all.add(scan(region, new Scan().readAllVersions(), Integer.MAX_VALUE));
    Random rnd = new Random(SEED + 1);
    List<Cell> gets = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      for (Cell c : region.get(new Get(row(rnd.nextInt(ROWS)))).rawCells()) {
        gets.add(KeyValueUtil.copyToNewKeyValue(c));
      }
    }
    all.add(gets);
    return all;
  }
}
