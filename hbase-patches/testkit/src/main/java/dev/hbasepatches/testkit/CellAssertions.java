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

import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.PrivateCellUtil;

/**
 * Cell-by-cell comparison for tests that run the same read several ways: every key field, the
 * value and the tags must match, in order. A failure names the first differing position and both
 * cells, plus the caller's context (shape, mode, seed).
 */
public final class CellAssertions {
  private CellAssertions() {
  }

  public static void assertSameCells(String context, List<Cell> expected, List<Cell> actual) {
    int n = Math.min(expected.size(), actual.size());
    for (int i = 0; i < n; i++) {
      Cell e = expected.get(i);
      Cell a = actual.get(i);
      if (!sameCell(e, a)) {
        throw new AssertionError(context + ": cell " + i + " differs: expected " + describe(e)
          + " but was " + describe(a));
      }
    }
    if (expected.size() != actual.size()) {
      String extra = expected.size() > actual.size()
        ? "first missing " + describe(expected.get(n))
        : "first extra " + describe(actual.get(n));
      throw new AssertionError(context + ": expected " + expected.size() + " cells but got "
        + actual.size() + " (" + extra + ")");
    }
  }

  /** Key (row, family, qualifier, timestamp, type), value and tags all equal. */
  public static boolean sameCell(Cell a, Cell b) {
    return CellUtil.equals(a, b) && CellUtil.matchingValue(a, b)
      && a.getTagsLength() == b.getTagsLength()
      && PrivateCellUtil.matchingTags(a, b, a.getTagsLength(), b.getTagsLength());
  }

  public static String describe(Cell c) {
    return c == null ? "null" : CellUtil.toString(c, false) + " valueLen=" + c.getValueLength();
  }
}
