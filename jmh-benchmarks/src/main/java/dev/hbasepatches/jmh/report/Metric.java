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

import java.util.List;

/**
 * One JMH metric (primary or secondary): score, error and unit as JMH wrote them, and the mean of
 * each fork's iterations, which is what the project's statistics ({@link ForkStats}) start from.
 *
 * @param score the score; NaN if JMH had none
 * @param error the half-width of JMH's confidence interval; NaN when JMH could not estimate it
 *              (a single measurement iteration), so callers must render it, not trust it
 * @param unit  JMH's unit label, e.g. {@code ns/op}, {@code ops/s}, {@code B/op}
 * @param forks each fork's mean, in fork order; empty when the file had no raw data
 */
record Metric(double score, double error, String unit, List<Double> forks) {

  Metric(double score, double error, String unit) {
    this(score, error, unit, List.of());
  }

  double[] forkMeans() {
    double[] out = new double[forks.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = forks.get(i);
    }
    return out;
  }
}
