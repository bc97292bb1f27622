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

import java.util.Arrays;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * What a row holds: --families families ({@code info0}, {@code info1}, ... as in {@code hbase pe})
 * of --columns columns ({@code 0}, {@code 1}, ...), each value a pure function of
 * (seed, row, family, column). Writers and readers compute the same bytes independently, so any
 * read can be checked without remembering what was written, even from another process.
 */
final class RowShape {

  private final byte[][] families;
  private final byte[][] qualifiers;
  private final int valueSize;
  private final PerfOptions.ValueSizes sizes;
  private final ZipfDistribution sizeZipf;
  private final long seedHash;

  RowShape(PerfOptions o) {
    families = new byte[o.families][];
    for (int i = 0; i < families.length; i++) {
      families[i] = Bytes.toBytes("info" + i);
    }
    qualifiers = new byte[o.columns][];
    for (int i = 0; i < qualifiers.length; i++) {
      qualifiers[i] = Bytes.toBytes(Integer.toString(i));
    }
    valueSize = o.valueSize;
    sizes = o.valueSizes;
    sizeZipf = sizes == PerfOptions.ValueSizes.ZIPF && valueSize > 1
      ? new ZipfDistribution(valueSize, o.zipfExponent) : null;
    seedHash = mix(o.seed ^ 0x5DEECE66DL);
  }

  byte[][] families() {
    return families;
  }

  byte[] family(int i) {
    return families[i];
  }

  byte[][] qualifiers() {
    return qualifiers;
  }

  byte[] qualifier(int i) {
    return qualifiers[i];
  }

  byte[] firstFamily() {
    return families[0];
  }

  byte[] firstQualifier() {
    return qualifiers[0];
  }

  /** The bytes of one cell: lowercase letters, so compression has something to do. */
  byte[] value(long row, int family, int column) {
    long h = cellHash(row, family, column);
    byte[] v = new byte[size(h)];
    long state = h;
    for (int i = 0; i < v.length; i += 8) {
      state += 0x9E3779B97F4A7C15L;
      long z = mix(state);
      for (int k = 0; k < 8 && i + k < v.length; k++) {
        v[i + k] = (byte) ('a' + (int) (((z >>> (8 * k)) & 0xFF) % 26));
      }
    }
    return v;
  }

  private int size(long h) {
    switch (sizes) {
      case UNIFORM:
        return 1 + (int) Long.remainderUnsigned(mix(h ^ 0x1L), valueSize);
      case ZIPF:
        return sizeZipf == null ? 1 : 1 + (int) sizeZipf.rank(unit(mix(h ^ 0x2L)));
      default:
        return valueSize;
    }
  }

  Put put(long row, boolean writeToWal) {
    Put p = new Put(RowKeys.key(row));
    for (int f = 0; f < families.length; f++) {
      for (int c = 0; c < qualifiers.length; c++) {
        p.addColumn(families[f], qualifiers[c], value(row, f, c));
      }
    }
    if (!writeToWal) {
      p.setDurability(Durability.SKIP_WAL);
    }
    return p;
  }

  /**
   * Checks that {@code r} is row {@code row} with every value as written.
   * @return null when it is, else what is wrong, for the user to read
   */
  String check(Result r, long row) {
    if (r == null || r.isEmpty()) {
      return "row " + row + " is missing";
    }
    long got = RowKeys.row(r.getRow());
    if (got != row) {
      return "asked for row " + row + " but got row key " + Bytes.toStringBinary(r.getRow());
    }
    for (int f = 0; f < families.length; f++) {
      for (int c = 0; c < qualifiers.length; c++) {
        Cell cell = r.getColumnLatestCell(families[f], qualifiers[c]);
        if (cell == null) {
          return "row " + row + " has no " + Bytes.toString(families[f]) + ":"
            + Bytes.toString(qualifiers[c]);
        }
        byte[] expected = value(row, f, c);
        if (!Arrays.equals(expected, 0, expected.length, cell.getValueArray(),
          cell.getValueOffset(), cell.getValueOffset() + cell.getValueLength())) {
          return "row " + row + " " + Bytes.toString(families[f]) + ":"
            + Bytes.toString(qualifiers[c]) + " holds " + cell.getValueLength()
            + " bytes that differ from the " + expected.length + " written";
        }
      }
    }
    return null;
  }

  private long cellHash(long row, int family, int column) {
    return mix(mix(seedHash + row) + (((long) family << 32) | column));
  }

  /** SplitMix64's finalizer: a fast, well-mixed 64-bit hash. */
  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** A double in [0, 1) from the top 53 bits. */
  static double unit(long bits) {
    return (bits >>> 11) * 0x1.0p-53;
  }
}
