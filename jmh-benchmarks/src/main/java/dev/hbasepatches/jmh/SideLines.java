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

/**
 * What a benchmark says about the two sides it compares: the code each runs, the check that both
 * return the same, each side's counters at the end. Each line goes to standard output behind
 * {@link #MARK}; the evidence command keeps every marked line of a JMH log in the report
 * ({@code dev.hbasepatches.jmh.report.Evidence}), whatever the benchmark.
 */
public final class SideLines {

  /** The mark before each line. */
  public static final String MARK = "# side ";

  private SideLines() {
  }

  /** Prints each line behind the mark. */
  public static void print(String... lines) {
    StringBuilder s = new StringBuilder();
    for (String line : lines) {
      s.append(MARK).append(line).append(System.lineSeparator());
    }
    System.out.print(s);
  }
}
