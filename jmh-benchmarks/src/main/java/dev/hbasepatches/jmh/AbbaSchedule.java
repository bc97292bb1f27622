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

import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * Which slot each iteration of a two-mode toggle benchmark runs: blocks of four, A B B A
 * ({@code ABBA}), or mirrored every other block ({@code alternate}: A B B A, B A A B, ...).
 * Warm-up and measurement count their iterations apart, so measurement starts a fresh block.
 * The report tool {@code AbbaPairs} reads the blocks back in the same order.
 */
public final class AbbaSchedule {

  private static final boolean[] BLOCK_IS_B = { false, true, true, false };

  private final boolean alternate;
  private int warmupIndex;
  private int measurementIndex;

  /** @throws IllegalArgumentException for an order other than ABBA or alternate */
  public AbbaSchedule(String order) {
    if (!order.equals("ABBA") && !order.equals("alternate")) {
      throw new IllegalArgumentException("order must be ABBA or alternate: " + order);
    }
    this.alternate = order.equals("alternate");
  }

  /** Whether the iteration starting now is a B slot. */
  public boolean nextIsB(IterationParams iteration) {
    int index = iteration.getType() == IterationType.WARMUP ? warmupIndex++ : measurementIndex++;
    boolean mirrored = alternate && (index / BLOCK_IS_B.length) % 2 == 1;
    return BLOCK_IS_B[index % BLOCK_IS_B.length] != mirrored;
  }
}
