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

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/** The per-command table a person reads, and the lines that explain anything that went wrong. */
final class ResultTable {

  private static final String ROW = "%-22s %7s %12s %8s %11s %11s %9s %9s %9s %9s %9s %9s%n";

  private ResultTable() {
  }

  private static String f(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }

  static void print(List<CommandResult> results, String where, PrintStream out) {
    out.println();
    out.println("Results (" + where + "; latency in microseconds)");
    out.print(f(ROW, "command", "clients", "operations", "errors", "ops/s", "rows/s", "mean", "p50",
      "p95", "p99", "p99.9", "max"));
    for (CommandResult r : results) {
      LatencySummary l = r.latency;
      out.print(f(ROW, label(r), r.clients, f("%,d", r.ops), f("%,d", r.errors),
        Units.rate(r.opsPerSecond()), Units.rate(r.rowsPerSecond()), Units.micros(l.mean),
        Units.micros(l.p50), Units.micros(l.p95), Units.micros(l.p99), Units.micros(l.p999),
        Units.micros(l.max)));
      r.perOperation.forEach((kind, k) -> out.print(f(ROW, "  " + kind, "", f("%,d", k.count),
        "", "", "", Units.micros(k.mean), Units.micros(k.p50), Units.micros(k.p95),
        Units.micros(k.p99), Units.micros(k.p999), Units.micros(k.max))));
    }
    for (CommandResult r : results) {
      printDetails(r, out);
    }
  }

  private static String label(CommandResult r) {
    return r.purpose == CommandResult.Purpose.LOAD ? r.name + " (load)" : r.name;
  }

  private static void printDetails(CommandResult r, PrintStream out) {
    String who = label(r);
    if (r.serviceTime != null) {
      out.print(f("%s: paced; latency counts from each operation's scheduled start. Service "
        + "time alone: mean %s, p99 %s, max %s us%n", who, Units.micros(r.serviceTime.mean),
        Units.micros(r.serviceTime.p99), Units.micros(r.serviceTime.max)));
    }
    if (r.errors > 0) {
      out.print(f("%s: %,d operation(s) failed:%n", who, r.errors));
      r.errorSamples.forEach(s -> out.println("    " + s));
    }
    if (r.missing > 0) {
      out.print(f("%s: %,d row(s) not found%s%n", who, r.missing,
        r.verified ? "" : " (the table may hold fewer rows than --rows x nclients)"));
    }
    if (r.staleReads > 0 || r.staleMissing > 0) {
      out.print(f("%s: %,d read(s) answered by a region replica (stale), %,d row(s) not there "
        + "yet%n", who, r.staleReads, r.staleMissing));
    }
    if (r.checkFailed > 0) {
      out.print(f("%s: %,d check(s) did not hold%s%n", who, r.checkFailed, r.clients > 1
        ? " (clients share rows, as in hbase pe: another client's mutation came in between)"
        : ""));
    }
    if (r.verified) {
      if (r.missing == 0 && r.wrong == 0 && !r.unexplainedCheckFailures()) {
        out.print(f("%s: verified %,d row(s): %s%n", who, r.checked, verifiedWhat(r.command)));
      } else {
        out.print(f("%s: VERIFY FAILED: %,d checked, %,d missing, %,d wrong%n", who, r.checked,
          r.missing, r.wrong + (r.unexplainedCheckFailures() ? r.checkFailed : 0)));
      }
    }
    if (!r.problems.isEmpty() && (r.verified || r.missing > 0)) {
      r.problems.forEach(p -> out.println("    " + p));
    }
    if (r.purpose == CommandResult.Purpose.MEASURE && r.jvm != null) {
      long perOp = r.jvm.bytesPer(r.ops);
      out.print(f("%s: JVM while it ran: %,d GC(s), %,d ms in GC, %s allocated per operation%n",
        who, r.jvm.gcCount, r.jvm.gcMillis, perOp < 0 ? "unknown bytes" : f("%,d bytes", perOp)));
    }
    if (r.reader != null) {
      out.print(f("%s: reads served by TimelineReader, mode %s: %,d Get(s), %,d multi-get(s) of "
        + "%,d row(s), %,d scanner(s); its stats (PATCHED's hedged reads): %s%n", who,
        r.reader.get("mode"), r.reader.get("gets"), r.reader.get("multiGets"),
        r.reader.get("multiGetRows"), r.reader.get("scanners"), r.reader.get("stats")));
    }
    r.notes.forEach(n -> out.println(who + ": " + n));
  }

  private static String verifiedWhat(Command c) {
    switch (c.kind()) {
      case DELETE:
        return "every row deleted is gone";
      case META:
        return c == Command.CLEAN_META ? "each fake region found and deleted"
          : "each fake region in hbase:meta, on the made-up server";
      case MUTATE:
        return c == Command.INCREMENT ? "each counter rose by exactly its increments"
          : c == Command.APPEND ? "each value grew by exactly its appends"
          : c == Command.CHECK_AND_DELETE ? "the conditional deletes took effect"
          : "the conditional mutations took effect";
      default:
        return "all present, every value as written";
    }
  }
}
