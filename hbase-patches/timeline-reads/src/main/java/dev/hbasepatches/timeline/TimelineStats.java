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
package dev.hbasepatches.timeline;

import java.util.concurrent.atomic.LongAdder;
import org.apache.yetus.audience.InterfaceAudience;

/** What a PATCHED reader did, counted since it was built: for tests, benchmarks and metrics. */
@InterfaceAudience.Public
public final class TimelineStats {
  final LongAdder reads = new LongAdder();
  final LongAdder rpcs = new LongAdder();
  final LongAdder hedges = new LongAdder();
  final LongAdder hedgesPastCap = new LongAdder();
  final LongAdder budgetRefusals = new LongAdder();
  final LongAdder staleAnswers = new LongAdder();
  final LongAdder demotedReads = new LongAdder();
  final LongAdder unlocatedPrimaryReads = new LongAdder();
  final LongAdder failures = new LongAdder();
  final LongAdder inFlight = new LongAdder();

  /** Hedged TIMELINE reads started. */
  public long reads() {
    return reads.sum();
  }

  /** Requests sent for those reads, the first one included. */
  public long rpcs() {
    return rpcs.sum();
  }

  /** Requests sent after a wait, on a budget token or past the cap. */
  public long hedges() {
    return hedges.sum();
  }

  /** Hedges sent with the budget spent because the read had waited past the cap. */
  public long hedgesPastCap() {
    return hedgesPastCap.sum();
  }

  /** Times the budget held a hedge back. */
  public long budgetRefusals() {
    return budgetRefusals.sum();
  }

  /** Reads a secondary answered. */
  public long staleAnswers() {
    return staleAnswers.sum();
  }

  /** Reads that went to a secondary first because the primary's server was demoted. */
  public long demotedReads() {
    return demotedReads.sum();
  }

  /** Reads that went to a secondary first because the primary's location was unknown. */
  public long unlocatedPrimaryReads() {
    return unlocatedPrimaryReads.sum();
  }

  /** Reads that failed on every replica. */
  public long failures() {
    return failures.sum();
  }

  /**
   * Requests of hedged reads sent and not yet answered, failed or cancelled: zero once every
   * read has ended, whether it was answered, failed, cancelled or interrupted.
   */
  public long inFlight() {
    return inFlight.sum();
  }

  @Override
  public String toString() {
    return "reads=" + reads() + " rpcs=" + rpcs() + " hedges=" + hedges() + " pastCap="
      + hedgesPastCap() + " refused=" + budgetRefusals() + " stale=" + staleAnswers()
      + " demoted=" + demotedReads() + " unlocated=" + unlocatedPrimaryReads() + " failed="
      + failures() + " inFlight=" + inFlight();
  }
}
