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

import org.apache.hadoop.conf.Configuration;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * PATCHED: skip, but never far, and stop trying where skipping keeps failing.
 * <p>
 * On HBase 2.6 an in-block reseek is cheap, so a SKIP only pays while the target is a few cells
 * away; stepping through a whole 64 KB block (what the index-only rule allows) can cost more than
 * the seek it saves. Each request therefore gets at most {@link #MAX_SKIPS_KEY} steps. Rows and
 * columns are tracked apart, since a scan's column requests are often one step (time-range
 * misses, deleted cells) while its row requests are far (one column of many). A saturating credit
 * per target counts met requests up and budget give-ups down; while it is negative the request
 * seeks straight away, except one in {@link #PROBE_INTERVAL} which probes with a full budget so
 * the policy notices when the data changes shape.
 */
@InterfaceAudience.Private
public final class BoundedSkipPolicy implements SeekPolicy {

  /** Config key: how many cells one SEEK request may be skipped over before seeking. */
  public static final String MAX_SKIPS_KEY = "hbasepatches.seekskip.max.skips";
  public static final int DEFAULT_MAX_SKIPS = 12;
  /** Requests that probe skipping while a target's credit is negative: one in this many. */
  static final int PROBE_INTERVAL = 16;
  private static final int CREDIT_CAP = 4;
  private static final int GIVE_UP_PENALTY = 2;

  private final int maxSkips;
  private int rowCredit;
  private int columnCredit;
  private int rowProbe;
  private int columnProbe;
  private long skips;
  private long seeks;
  private long skippedCells;

  public BoundedSkipPolicy(int maxSkips) {
    if (maxSkips < 0) {
      throw new IllegalArgumentException(MAX_SKIPS_KEY + " must be >= 0, was " + maxSkips);
    }
    this.maxSkips = maxSkips;
  }

  public static BoundedSkipPolicy from(Configuration conf) {
    String raw = conf.get(MAX_SKIPS_KEY);
    if (raw == null) {
      return new BoundedSkipPolicy(DEFAULT_MAX_SKIPS);
    }
    try {
      return new BoundedSkipPolicy(Integer.parseInt(raw.trim()));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
        "Bad value '" + raw + "' for " + MAX_SKIPS_KEY + "; expected a whole number >= 0", e);
    }
  }

  public int maxSkips() {
    return maxSkips;
  }

  @Override
  public int skipBudget(Target target) {
    if (target == Target.NEXT_ROW) {
      if (rowCredit >= 0 || ++rowProbe % PROBE_INTERVAL == 0) {
        return maxSkips;
      }
    } else if (columnCredit >= 0 || ++columnProbe % PROBE_INTERVAL == 0) {
      return maxSkips;
    }
    return 0;
  }

  @Override
  public void skipped(Target target, int cells) {
    skips++;
    skippedCells += cells;
    if (target == Target.NEXT_ROW) {
      rowCredit = Math.min(CREDIT_CAP, rowCredit + 1);
    } else {
      columnCredit = Math.min(CREDIT_CAP, columnCredit + 1);
    }
  }

  @Override
  public void sought(Target target, int cellsFirst, boolean budgetSpent) {
    seeks++;
    skippedCells += cellsFirst;
    if (!budgetSpent) {
      // The index sent us to the next block: that says nothing about how far targets are.
      return;
    }
    if (target == Target.NEXT_ROW) {
      rowCredit = Math.max(-CREDIT_CAP, rowCredit - GIVE_UP_PENALTY);
    } else {
      columnCredit = Math.max(-CREDIT_CAP, columnCredit - GIVE_UP_PENALTY);
    }
  }

  @Override
  public void drainTo(SeekDecisions sink) {
    sink.add(skips, seeks, skippedCells);
    skips = 0;
    seeks = 0;
    skippedCells = 0;
  }
}
