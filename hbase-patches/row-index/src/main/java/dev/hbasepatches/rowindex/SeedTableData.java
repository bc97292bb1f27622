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

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The seed's table (HBASE-16213's Phoenix test): an int primary key and three small columns, two
 * floats and an int, plus Phoenix's empty marker column, so four small cells per row in one
 * family. Shared by the tests and the benchmarks so both load the same shape.
 */
public final class SeedTableData {

  public static final byte[] FAMILY = Bytes.toBytes("0");
  /** Phoenix's empty key-value column, written on every row. */
  public static final byte[] EMPTY_COLUMN = Bytes.toBytes("_0");
  public static final byte[] FLOAT_A = Bytes.toBytes("F1");
  public static final byte[] FLOAT_B = Bytes.toBytes("F2");
  public static final byte[] INT_C = Bytes.toBytes("I1");
  public static final int CELLS_PER_ROW = 4;
  /** One fixed timestamp, so regions loaded separately hold identical cells. */
  public static final long TIMESTAMP = 1_700_000_000_000L;

  private SeedTableData() {
  }

  /** Row key of primary key {@code pk}: the int with its sign bit flipped, so rows sort as ints. */
  public static byte[] rowKey(int pk) {
    return Bytes.toBytes(pk ^ Integer.MIN_VALUE);
  }

  /** Rows {@code 0 .. rows-1}, values from {@code seed}. */
  public static List<Put> puts(int rows, long seed) {
    Random rnd = new Random(seed);
    List<Put> puts = new ArrayList<>(rows);
    for (int pk = 0; pk < rows; pk++) {
      puts.add(put(pk, rnd));
    }
    return puts;
  }

  static Put put(int pk, Random rnd) {
    Put p = new Put(rowKey(pk), TIMESTAMP);
    p.addColumn(FAMILY, EMPTY_COLUMN, new byte[] { 'x' });
    p.addColumn(FAMILY, FLOAT_A, Bytes.toBytes(rnd.nextFloat()));
    p.addColumn(FAMILY, FLOAT_B, Bytes.toBytes(rnd.nextFloat() * 1000));
    p.addColumn(FAMILY, INT_C, Bytes.toBytes(rnd.nextInt()));
    return p;
  }

  /** Row deletes for every row except one in {@code keepOneIn} (the seed deleted 99.9%). */
  public static List<Delete> deleteAllBut(int rows, int keepOneIn) {
    if (keepOneIn <= 0) {
      throw new IllegalArgumentException("keepOneIn must be positive, was " + keepOneIn);
    }
    List<Delete> deletes = new ArrayList<>();
    for (int pk = 0; pk < rows; pk++) {
      if (pk % keepOneIn != 0) {
        deletes.add(new Delete(rowKey(pk)));
      }
    }
    return deletes;
  }
}
