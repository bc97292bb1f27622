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
package dev.hbasepatches.perf;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** What one command did: counts, rates, latencies, and what reading back found. */
final class CommandResult {

  /** Why a command ran: measured for the user, or only to fill a table first. */
  enum Purpose {
    MEASURE, LOAD
  }

  final String name;
  final Command command;
  final Purpose purpose;
  final int clients;
  final long ops;
  final long rows;
  final long elapsedNanos;
  final LatencySummary latency;
  /** Time from start to end of each operation; kept apart from latency only under --rate. */
  final LatencySummary serviceTime;
  /** Latency by kind of operation (YCSB workloads), in name order; empty otherwise. */
  final Map<String, LatencySummary> perOperation;
  final long errors;
  final List<String> errorSamples;
  final boolean verified;
  final long checked;
  final long missing;
  final long wrong;
  final long staleReads;
  final long staleMissing;
  final long checkFailed;
  final List<String> problems;
  final JvmCounters jvm;
  final List<String> notes = new ArrayList<>();
  /** The L2 block caches' hits, misses and evictions while the command ran, when counted. */
  final List<Map<String, Object>> l2During = new ArrayList<>();
  /** Which reader served the reads and what it counted (timeline-reads on), else null. */
  Map<String, Object> reader;

  CommandResult(String name, RunContext ctx, Purpose purpose, CommandRunner.Measurement m) {
    this.name = name;
    this.command = ctx.command;
    this.purpose = purpose;
    this.clients = ctx.options.clients;
    this.ops = m.ops;
    this.rows = m.rows;
    this.elapsedNanos = m.elapsedNanos;
    this.latency = m.latency;
    this.serviceTime = m.serviceTime;
    this.perOperation = m.perOperation;
    this.notes.addAll(m.notes);
    this.errors = ctx.errors.count();
    this.errorSamples = ctx.errors.samples();
    this.verified = ctx.verify;
    this.checked = ctx.tally.checked();
    this.missing = ctx.tally.missing();
    this.wrong = ctx.tally.wrong();
    this.staleReads = ctx.staleReads.sum();
    this.staleMissing = ctx.tally.staleMissing();
    this.checkFailed = ctx.checkFailed.sum();
    this.problems = ctx.tally.samples();
    this.jvm = m.jvm;
  }

  double seconds() {
    return elapsedNanos / 1e9;
  }

  double opsPerSecond() {
    return elapsedNanos == 0 ? 0 : ops / seconds();
  }

  double rowsPerSecond() {
    return elapsedNanos == 0 ? 0 : rows / seconds();
  }

  /** Failed operations, or (with --verify) anything lost or wrong: the run must not pass. */
  boolean failed() {
    return errors > 0 || (verified && (missing > 0 || wrong > 0 || unexplainedCheckFailures()));
  }

  /**
   * checkAnd* checks that did not hold although no other client touched the row: with one
   * client every check follows its own put of the checked value, so none may fail; with more,
   * clients share rows (as in hbase pe) and one's delete or replacement can beat another's check.
   */
  boolean unexplainedCheckFailures() {
    return checkFailed > 0 && clients == 1;
  }

  Map<String, Object> asMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("command", command.cliName());
    m.put("name", name);
    m.put("purpose", purpose.name().toLowerCase(Locale.ROOT));
    m.put("clients", clients);
    m.put("operations", ops);
    m.put("rows", rows);
    m.put("errors", errors);
    m.put("seconds", LatencySummary.round(seconds()));
    m.put("opsPerSecond", LatencySummary.round(opsPerSecond()));
    m.put("rowsPerSecond", LatencySummary.round(rowsPerSecond()));
    m.put("latencyMicros", latency.asMap());
    m.put("serviceTimeMicros", serviceTime == null ? null : serviceTime.asMap());
    Map<String, Object> kinds = new LinkedHashMap<>();
    perOperation.forEach((kind, l) -> {
      Map<String, Object> k = new LinkedHashMap<>();
      k.put("operations", l.count);
      k.put("latencyMicros", l.asMap());
      kinds.put(kind, k);
    });
    m.put("perOperation", kinds);
    Map<String, Object> v = new LinkedHashMap<>();
    v.put("enabled", verified);
    v.put("rowsChecked", checked);
    v.put("missing", missing);
    v.put("wrong", wrong);
    v.put("checkFailed", checkFailed);
    v.put("staleReads", staleReads);
    v.put("staleMissing", staleMissing);
    v.put("problems", problems);
    m.put("verify", v);
    Map<String, Object> j = new LinkedHashMap<>();
    j.put("gcCollections", jvm.gcCount);
    j.put("gcMillis", jvm.gcMillis);
    j.put("allocatedBytes", jvm.allocatedBytes);
    j.put("allocatedBytesPerOp", jvm.bytesPer(ops));
    m.put("jvm", j);
    if (!l2During.isEmpty()) {
      m.put("l2During", l2During);
    }
    if (reader != null) {
      m.put("reader", reader);
    }
    m.put("errorSamples", errorSamples);
    m.put("notes", notes);
    return m;
  }
}
