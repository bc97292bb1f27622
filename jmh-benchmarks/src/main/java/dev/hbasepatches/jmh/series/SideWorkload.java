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
package dev.hbasepatches.jmh.series;

import java.util.Arrays;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * A change's workload on one side, built inside that side's class loader: {@link #getAsLong()}
 * runs one operation and returns what it returned (cells, bytes, admissions), the same on every
 * side for the same case; {@link #toString()} says what was built. Reached from the benchmark
 * through {@link LongSupplier} and {@link AutoCloseable} only (JDK types, shared by all loaders).
 */
public abstract class SideWorkload implements LongSupplier, AutoCloseable {

  /**
   * The parts of a case, split on '/', e.g. {@code deletedColumns/4}: exactly {@code min} to
   * {@code names.length} parts.
   *
   * @throws IllegalArgumentException naming the change, the case and the parts it takes
   */
  public static String[] parts(String change, String caseSpec, int min, String... names) {
    String[] parts = caseSpec.split("/", -1);
    if (parts.length < min || parts.length > names.length
      || Arrays.stream(parts).anyMatch(String::isEmpty)) {
      throw new IllegalArgumentException(change + " case '" + caseSpec + "' must be "
        + String.join("/", List.of(names)) + " (the first " + min + " required)");
    }
    return parts;
  }

  /** Part {@code i} as an int, or {@code dflt} when the case has fewer parts. */
  public static int intPart(String change, String[] parts, int i, int dflt) {
    if (i >= parts.length) {
      return dflt;
    }
    try {
      return Integer.parseInt(parts[i]);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(change + ": '" + parts[i] + "' is not a number", e);
    }
  }

  /** Refuses a side the change has no workload for. */
  public static IllegalArgumentException noSide(String change, String side, String why) {
    return new IllegalArgumentException(change + " has no " + side + " side here: " + why);
  }
}
