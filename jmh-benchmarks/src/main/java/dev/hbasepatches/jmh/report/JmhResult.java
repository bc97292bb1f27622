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

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One entry of JMH's JSON result file: one benchmark method run with one combination of
 * {@code @Param} values in one JMH mode.
 *
 * @param benchmark  fully qualified {@code package.Class.method}
 * @param jmhMode    JMH's benchmark mode label ({@code thrpt}, {@code avgt}, {@code sample},
 *                   {@code ss}); not to be confused with the {@code mode} parameter
 * @param params     every {@code @Param}, in the order JMH wrote them
 * @param secondary  secondary metrics by name (e.g. {@code gc.alloc.rate.norm}), in file order
 */
record JmhResult(String benchmark, String jmhMode, Map<String, String> params, Metric primary,
  Map<String, Metric> secondary, Settings settings, Toolchain toolchain) {

  /** The parameter that selects BASELINE / PATCHED / UPSTREAM in every benchmark here. */
  static final String MODE_PARAM = "mode";

  /**
   * How JMH ran the entry. A record so that equal settings collapse to one row in the report.
   * Counts are -1 and strings "?" where the file did not say.
   */
  record Settings(int threads, int forks, int warmupIterations, String warmupTime,
    int warmupBatchSize, int measurementIterations, String measurementTime,
    int measurementBatchSize, List<String> jvmArgs) {
  }

  /** The JVM and JMH that produced the entry, as JMH recorded them. */
  record Toolchain(String jmhVersion, String jdkVersion, String vmName, String vmVersion,
    String jvm) {
  }

  /** The value of the {@code mode} parameter, or null if the benchmark has none. */
  String modeParam() {
    return params.get(MODE_PARAM);
  }

  /** Every parameter except {@code mode}: what identifies a "case" in the report. */
  Map<String, String> caseParams() {
    Map<String, String> rest = new LinkedHashMap<>(params);
    rest.remove(MODE_PARAM);
    return rest;
  }

  /**
   * The package of the benchmark class. JMH names a nested class {@code Outer.Inner}, so the
   * class cannot be found by counting dots from the end; Java naming puts it at the first
   * segment that starts with an upper-case letter.
   */
  String packageName() {
    String[] parts = benchmark.split("\\.");
    for (int i = 0; i < parts.length; i++) {
      if (!parts[i].isEmpty() && Character.isUpperCase(parts[i].charAt(0))) {
        return String.join(".", List.of(parts).subList(0, i));
      }
    }
    // No upper-case class name: assume the plain package.Class.method layout.
    return parts.length > 2 ? String.join(".", List.of(parts).subList(0, parts.length - 2)) : "";
  }

  /** {@code Class.method} (nested classes keep their outer name), for headings. */
  String shortName() {
    String pkg = packageName();
    return pkg.isEmpty() ? benchmark : benchmark.substring(pkg.length() + 1);
  }
}
