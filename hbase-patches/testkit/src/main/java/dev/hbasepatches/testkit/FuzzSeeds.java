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

import java.time.Duration;
import java.util.Arrays;
import java.util.Random;

/**
 * The seeds a differential fuzzer runs, and how long one of its cases may take. In
 * {@code mvn verify} a fuzzer runs its fixed list, so the build is deterministic;
 * {@code -Dhbasepatches.fuzz.seed=N} replays one seed; {@code -Dhbasepatches.fuzz.random=true}
 * (set by the root pom's {@code -Pfuzz-long} profile) draws {@code hbasepatches.fuzz.runs}
 * (default 1) seeds from the clock instead. {@code hbasepatches.fuzz.caseSeconds} (default 300)
 * bounds one case (a table with its reads) through {@link Bounded}.
 */
public final class FuzzSeeds {

  /** Replays one seed. */
  public static final String SEED = "hbasepatches.fuzz.seed";
  /** Draws the seeds from the clock (the long profile). */
  public static final String RANDOM = "hbasepatches.fuzz.random";
  /** How many clock seeds to draw with {@link #RANDOM}. */
  public static final String RUNS = "hbasepatches.fuzz.runs";
  /** Seconds one fuzz case may take before it fails. */
  public static final String CASE_SECONDS = "hbasepatches.fuzz.caseSeconds";

  private FuzzSeeds() {
  }

  /** The seeds to run: the replayed one, clock seeds, or {@code fixed}. */
  public static long[] seeds(long... fixed) {
    String one = System.getProperty(SEED);
    if (one != null && !one.isBlank()) {
      try {
        return new long[] { Long.parseLong(one.trim()) };
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(SEED + " must be a long, was '" + one + "'", e);
      }
    }
    if (Boolean.getBoolean(RANDOM)) {
      int runs = Integer.getInteger(RUNS, 1);
      if (runs < 1) {
        throw new IllegalArgumentException(RUNS + " must be at least 1, was " + runs);
      }
      Random clock = new Random(System.nanoTime());
      long[] out = new long[runs];
      for (int i = 0; i < runs; i++) {
        // Positive and short enough to retype.
        out[i] = (clock.nextLong() >>> 1) % 100_000_000_000_000L;
      }
      return out;
    }
    if (fixed.length == 0) {
      throw new IllegalArgumentException("a fuzzer needs at least one fixed seed");
    }
    return Arrays.copyOf(fixed, fixed.length);
  }

  /** How long one case may run ({@link #CASE_SECONDS}, default 300 s). */
  public static Duration caseLimit() {
    int s = Integer.getInteger(CASE_SECONDS, 300);
    if (s < 1) {
      throw new IllegalArgumentException(CASE_SECONDS + " must be at least 1, was " + s);
    }
    return Duration.ofSeconds(s);
  }

  /** One table of a seed: its own stream, its extras stream, the bound's progress. */
  @FunctionalInterface
  public interface Table {
    void fuzz(int table, Random random, Random extras, Bounded.Progress progress) throws Exception;
  }

  /**
   * Runs {@code tables} tables of {@code seed}, each bounded by {@link #caseLimit()} and named
   * "{@code test} seed=S table=T" when it times out. Table T draws from a stream seeded by the
   * seed's stream, and options added after a seed was recorded (MOB, the off-heap cache, row
   * limits) from an extras stream (that table seed XOR {@code extrasSalt}), so recorded seeds still
   * replay the same tables and reads.
   */
  public static void forEachTable(String test, long seed, int tables, long extrasSalt, Table body)
    throws Exception {
    Random random = new Random(seed);
    for (int t = 0; t < tables; t++) {
      long tableSeed = random.nextLong();
      Random tableRandom = new Random(tableSeed);
      Random extras = new Random(tableSeed ^ extrasSalt);
      int table = t;
      Bounded.call(test + " seed=" + seed + " table=" + t, caseLimit(), progress -> {
        body.fuzz(table, tableRandom, extras, progress);
        return null;
      });
    }
  }

  /** One table of one seed, with the run's coverage tally. */
  @FunctionalInterface
  public interface SeededTable {
    void fuzz(long seed, int table, Random random, Random extras, Bounded.Progress progress,
      FuzzCensus.Coverage coverage) throws Exception;
  }

  /**
   * A differential fuzz test's whole run: for every seed ({@link #seeds}), prints the line that
   * replays it and runs its tables ({@link #forEachTable}); then prints the coverage and fails
   * unless every drawn option took effect ({@link FuzzCensus.Coverage#assertReal}, limited scans
   * expected from 20 reads per table up).
   */
  public static void run(String test, long[] fixed, int tables, int reads, long extrasSalt,
    SeededTable body) throws Exception {
    FuzzCensus.Coverage coverage = new FuzzCensus.Coverage();
    for (long seed : seeds(fixed)) {
      System.out.println(test + " seed=" + seed + " tables=" + tables + " reads=" + reads
        + " (replay: -D" + SEED + "=" + seed + ")");
      forEachTable(test, seed, tables, extrasSalt,
        (t, random, extras, progress) -> body.fuzz(seed, t, random, extras, progress, coverage));
    }
    System.out.println(test + " coverage: " + coverage);
    coverage.assertReal(test, reads >= 20);
  }
}
