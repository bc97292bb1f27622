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
package dev.hbasepatches.jmh;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.IterationParams;

/**
 * The two slots of a toggle benchmark: slot A and slot B are two modes (or, in
 * {@code SeriesToggleBenchmark}, two sides) of one change, run in one fork in blocks of four
 * iterations, A B B A ({@link AbbaSchedule}), and counted per slot in {@link AbbaSlots}, so that
 * the report turns each block into one ratio B / A. A subclass builds both slots at set-up and
 * runs the one {@link #inB} names in its benchmark method; its trial set-up starts with
 * {@link #startBlocks()}. Every row of the evidence targets
 * pins {@link #a} and {@link #b}; the defaults only serve a run by hand.
 */
@State(Scope.Benchmark)
public abstract class AbbaToggleBenchmark extends HBaseBenchmark {

  /** The mode or side of slot A: the reference of the ratio B / A. */
  @Param({ "BASELINE" })
  public String a;

  /** The mode or side of slot B. */
  @Param({ "PATCHED" })
  public String b;

  /** {@code ABBA}, or {@code alternate} (A B B A, then B A A B, and so on). */
  @Param({ "ABBA" })
  public String order;

  private AbbaSchedule schedule;

  /** Whether the running iteration is one of slot B's. */
  protected boolean inB;

  /**
   * Starts the trial's blocks; a subclass calls it first in its trial set-up, so that a bad
   * {@link #order} is refused before anything is built.
   *
   * @throws IllegalArgumentException for an order other than ABBA or alternate
   */
  protected final void startBlocks() {
    schedule = new AbbaSchedule(order);
  }

  /** Picks this iteration's slot: A B B A (mirrored every other block with {@code alternate}). */
  @Setup(Level.Iteration)
  public void pickSlot(IterationParams iteration) {
    if (schedule == null) {
      throw new IllegalStateException(getClass().getSimpleName()
        + "'s trial set-up did not call startBlocks()");
    }
    inB = schedule.nextIsB(iteration);
  }
}
