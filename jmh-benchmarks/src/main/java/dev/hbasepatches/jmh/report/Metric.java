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
 * One JMH metric (primary or secondary): score, error and unit as JMH wrote them.
 *
 * @param score the score; NaN if JMH had none
 * @param error the half-width of JMH's confidence interval; NaN when JMH could not estimate it
 *              (a single measurement iteration), so callers must render it, not trust it
 * @param unit  JMH's unit label, e.g. {@code ns/op}, {@code ops/s}, {@code B/op}
 */
record Metric(double score, double error, String unit) {
}
