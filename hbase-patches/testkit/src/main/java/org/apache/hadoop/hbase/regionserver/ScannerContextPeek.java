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
package org.apache.hadoop.hbase.regionserver;

/**
 * Test seam (testkit only): what {@code RSRpcServices} asks a {@link ScannerContext} after each
 * {@code nextRaw} to count the complete rows of a {@code Scan.setLimit}, a package-private
 * question in HBase 2.6. Lives in HBase's package so the fuzzers' RPC-style scan loop can count
 * rows exactly as a RegionServer does.
 */
public final class ScannerContextPeek {

  private ScannerContextPeek() {
  }

  /** Whether the last {@code nextRaw} stopped inside a row (batch, size or time limit). */
  public static boolean mayHaveMoreCellsInRow(ScannerContext context) {
    return context.mayHaveMoreCellsInRow();
  }
}
