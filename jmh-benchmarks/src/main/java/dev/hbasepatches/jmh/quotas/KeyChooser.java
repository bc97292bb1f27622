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
package dev.hbasepatches.jmh.quotas;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Row keys for the readers: uniform over the table, or Zipfian (exponent 0.99, the YCSB default)
 * with the popular ranks scattered over the key space so hot rows do not share blocks.
 */
final class KeyChooser {

  /** The key distribution, shared by every reader (the Zipf table is built once). */
  static final class Shape {
    final int rows;
    final double[] cdf;

    private Shape(int rows, double[] cdf) {
      this.rows = rows;
      this.cdf = cdf;
    }
  }

  private static final double ZIPF_EXPONENT = 0.99;

  private final Shape shape;
  private final SplittableRandom random;

  KeyChooser(Shape shape, long seed) {
    this.shape = shape;
    this.random = new SplittableRandom(seed);
  }

  static Shape shape(String name, int rows) {
    if (rows <= 0) {
      throw new IllegalArgumentException("rows must be > 0, got " + rows);
    }
    switch (name) {
      case "uniform":
        return new Shape(rows, null);
      case "zipf": {
        double[] cdf = new double[rows];
        double sum = 0;
        for (int k = 0; k < rows; k++) {
          sum += 1.0 / Math.pow(k + 1, ZIPF_EXPONENT);
          cdf[k] = sum;
        }
        for (int k = 0; k < rows; k++) {
          cdf[k] /= sum;
        }
        return new Shape(rows, cdf);
      }
      default:
        throw new IllegalArgumentException("keys must be uniform or zipf, got '" + name + "'");
    }
  }

  static byte[] row(int i) {
    return Bytes.toBytes(String.format("user%08d", i));
  }

  byte[] next() {
    int rank;
    if (shape.cdf == null) {
      rank = random.nextInt(shape.rows);
    } else {
      int at = Arrays.binarySearch(shape.cdf, random.nextDouble());
      rank = Math.min(shape.rows - 1, at >= 0 ? at : -at - 1);
    }
    // Scatter ranks over the key space: a multiplicative step coprime with most table sizes.
    long scattered = (rank * 2_654_435_761L) % shape.rows;
    return row((int) scattered);
  }
}
