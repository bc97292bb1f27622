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
package dev.hbasepatches.jmh.report;

/**
 * A generated block in a document: the lines between a begin and an end marker, which the report
 * tools rewrite and their tests compare ({@link Evidence}'s evidence tables, {@link
 * Compatibility}'s compatibility tables).
 */
final class MarkedBlock {

  private MarkedBlock() {
  }

  /** The block between {@code begin} and {@code end} in {@code text}, or null without them. */
  static String between(String text, String begin, String end) {
    int b = text.indexOf(begin);
    int e = text.indexOf(end);
    return b < 0 || e < b ? null : text.substring(b + begin.length() + 1, e);
  }

  /** {@code text} with its block replaced by {@code block}, or null without the markers. */
  static String replace(String text, String begin, String end, String block) {
    int b = text.indexOf(begin);
    int e = text.indexOf(end);
    return b < 0 || e < b ? null : text.substring(0, b + begin.length()) + "\n" + block
      + text.substring(e);
  }
}
