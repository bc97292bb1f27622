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

import java.util.Map;

/**
 * Maps a benchmark's package to the change (Maven module) it measures. Java packages cannot
 * hold dashes, so {@code dev.hbasepatches.jmh.seekskip} stands for the module {@code seek-skip};
 * the report is named after the module so it sits next to the code it describes.
 */
final class ChangeNames {

  /** Where the per-change benchmark packages live. */
  static final String ROOT_PACKAGE = "dev.hbasepatches.jmh";

  // Each change's package, under both its short and its module-like name; Map.of stops at ten.
  private static final Map<String, String> MODULES = Map.ofEntries(
    Map.entry("seekskip", "seek-skip"),
    Map.entry("rowindex", "row-index"),
    Map.entry("checksum", "checksum"),
    Map.entry("checksumoverlay", "checksum-overlay"),
    Map.entry("offheapread", "offheap-read"),
    Map.entry("offheap", "offheap-read"),
    Map.entry("quotas", "quotas"),
    Map.entry("timelinereads", "timeline-reads"),
    Map.entry("timeline", "timeline-reads"),
    Map.entry("localindexpruning", "local-index-pruning"),
    Map.entry("localindex", "local-index-pruning"));

  /** Reserved for the list of reports; a change of that name must not overwrite it. */
  static final String INDEX = "index";

  private ChangeNames() {
  }

  /** The change a result belongs to. */
  static String changeOf(JmhResult result) {
    return changeOfPackage(result.packageName());
  }

  /**
   * The change for a package: the known module name for a package directly under
   * {@link #ROOT_PACKAGE} (sub-packages count as their parent), otherwise the package's own
   * name (its first segment under the root, or its last segment elsewhere).
   */
  static String changeOfPackage(String packageName) {
    String segment;
    if (packageName.startsWith(ROOT_PACKAGE + ".")) {
      String below = packageName.substring(ROOT_PACKAGE.length() + 1);
      int dot = below.indexOf('.');
      segment = dot < 0 ? below : below.substring(0, dot);
    } else {
      int dot = packageName.lastIndexOf('.');
      segment = dot < 0 ? packageName : packageName.substring(dot + 1);
    }
    if (segment.isEmpty()) {
      return "default-package";
    }
    String module = MODULES.get(segment);
    if (module != null) {
      return module;
    }
    // The name becomes a file name: keep it to characters every file system accepts.
    String safe = segment.replaceAll("[^A-Za-z0-9._-]", "_");
    return safe.equals(INDEX) ? INDEX + "-change" : safe;
  }
}
