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
package dev.hbasepatches.testkit;

import java.io.IOException;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Scan;

/**
 * A change that makes open scanners swap readers, drawn for one read of a differential fuzzer:
 * nothing, new data written and flushed (the store scanner replaces its memstore scanner with
 * the new file's) or a major compaction, done after a drawn part of the scan and before that
 * part's cells are copied. A scan's read point hides the new data, so its answer is the same
 * wherever the change lands; each region gets the change exactly once, at the end of the scan if
 * the scan had fewer parts, so every region holds the same data afterwards.
 */
public final class ReaderSwap {

  /** What happens inside the scan. */
  public enum Kind {
    NONE, FLUSH, COMPACT
  }

  private final Kind kind;
  private final int atPart;
  private final List<Mutation> data;
  private final Set<LocalRegion> applied = Collections.newSetFromMap(new IdentityHashMap<>());

  private final RandomFamily family;

  private ReaderSwap(Kind kind, int atPart, List<Mutation> data, RandomFamily family) {
    this.kind = kind;
    this.atPart = atPart;
    this.data = data;
    this.family = family;
  }

  /** A flush in one read of {@code oneIn}, a compaction in another, otherwise nothing. */
  public static ReaderSwap draw(Random random, int oneIn, int rows, int cols, int maxTs,
    boolean tags, int maxValue) {
    return draw(random, oneIn, rows, cols, maxTs, tags, maxValue, null);
  }

  /**
   * As {@link #draw(Random, int, int, int, int, boolean, int)}, compacting through
   * {@code family} ({@link RandomFamily#majorCompact}: not where stock HBase asserts); the
   * draws are the same.
   */
  public static ReaderSwap draw(Random random, int oneIn, int rows, int cols, int maxTs,
    boolean tags, int maxValue, RandomFamily family) {
    int k = random.nextInt(oneIn);
    Kind kind = k == 0 ? Kind.FLUSH : k == 1 ? Kind.COMPACT : Kind.NONE;
    int atPart = random.nextInt(6);
    List<Mutation> data = kind == Kind.FLUSH
      ? RandomReads.mutations(random, rows, cols, maxTs, 1 + random.nextInt(30), tags, maxValue)
      : null;
    return new ReaderSwap(kind, atPart, data, family);
  }

  public Kind kind() {
    return kind;
  }

  /**
   * The scan's cells, read as {@link RandomReads#scanLikeRpc} reads them (parts of at most
   * {@code maxResultBytes}, 0 for whole rows), with the change after part {@code atPart}.
   */
  public List<Cell> scan(LocalRegion region, Scan scan, long maxResultBytes) throws IOException {
    return scan(region, scan, maxResultBytes, null);
  }

  /** As {@link #scan(LocalRegion, Scan, long)}, counting the scanner's cells in {@code tally}. */
  public List<Cell> scan(LocalRegion region, Scan scan, long maxResultBytes, CellTally tally)
    throws IOException {
    List<Cell> cells = RandomReads.scanLikeRpc(region.region(), scan, maxResultBytes, part -> {
      if (part == atPart) {
        apply(region);
      }
    }, tally);
    apply(region);
    return cells;
  }

  /** Makes the change on {@code region} unless it already has it. */
  public void apply(LocalRegion region) throws IOException {
    if (kind == Kind.NONE || !applied.add(region)) {
      return;
    }
    if (kind == Kind.FLUSH) {
      region.writeAndFlush(data);
    } else if (family != null) {
      family.majorCompact(region);
    } else {
      region.region().compact(true);
    }
  }

  @Override
  public String toString() {
    return kind == Kind.NONE ? "none" : kind + "@part" + atPart;
  }
}
