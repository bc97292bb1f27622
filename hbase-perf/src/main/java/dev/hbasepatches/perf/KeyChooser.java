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

import java.util.SplittableRandom;

/**
 * Picks row numbers in [0, totalRows) for the random commands: uniform, or Zipf with the hot
 * ranks scattered over the key space, so hot rows are not all in one region.
 */
final class KeyChooser {

  private final SplittableRandom random;
  private final long totalRows;
  private final ZipfDistribution zipf;
  private final long scatter;

  private KeyChooser(long seed, long totalRows, ZipfDistribution zipf) {
    this.random = new SplittableRandom(seed);
    this.totalRows = totalRows;
    this.zipf = zipf;
    this.scatter = RowShape.mix(seed ^ 0xA5A5A5A5L);
  }

  /** A chooser for one client of one command, seeded so runs repeat. */
  static KeyChooser forClient(PerfOptions o, Command command, int client, ZipfDistribution zipf) {
    long seed = RowShape.mix(RowShape.mix(o.seed + command.ordinal()) + client);
    return new KeyChooser(seed,
      o.totalRows(), o.keyDistribution == PerfOptions.KeyDistribution.ZIPF ? zipf : null);
  }

  /** Built once per command and shared: computing zeta(n) is O(n) for n up to 10M. */
  static ZipfDistribution zipfFor(PerfOptions o) {
    return o.keyDistribution == PerfOptions.KeyDistribution.ZIPF
      ? new ZipfDistribution(o.totalRows(), o.zipfExponent) : null;
  }

  long next() {
    if (zipf == null) {
      return random.nextLong(totalRows);
    }
    long rank = zipf.rank(random.nextDouble());
    // The same rank always lands on the same row; collisions only merge two ranks' weights.
    return Long.remainderUnsigned(RowShape.mix(rank ^ scatter), totalRows);
  }

  /** A uniform number in [0, bound), for choices that are not keys. */
  long uniform(long bound) {
    return random.nextLong(bound);
  }

  double nextDouble() {
    return random.nextDouble();
  }
}
