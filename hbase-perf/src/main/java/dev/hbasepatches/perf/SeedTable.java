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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * seedTable: the six experiments of the seed (the BigTable paper's section 7, as HBase's wiki
 * ran them with {@code PerformanceEvaluation}), with 1,000-byte rows, and our rows/s printed
 * beside the published HBase 0.19.0RC1 and BigTable columns.
 * <p>
 * The published numbers are data copied from the seed; the tool never reads the seed file.
 */
final class SeedTable {

  /** One experiment row of the published table. */
  static final class SeedRow {
    final String experiment;
    final Command command;
    /** HBase 0.19.0RC1 on Java 6, one client; null where the seed has none. */
    final Integer hbase019;
    /** BigTable, one tablet server. */
    final int bigtable;

    SeedRow(String experiment, Command command, Integer hbase019, int bigtable) {
      this.experiment = experiment;
      this.command = command;
      this.hbase019 = hbase019;
      this.bigtable = bigtable;
    }
  }

  /** Rows (1,000-byte values) per second, in the seed's row order. */
  static final List<SeedRow> PUBLISHED = List.of(
    new SeedRow("random reads", Command.RANDOM_READ, 540, 1212),
    new SeedRow("random reads (mem)", Command.RANDOM_READ_MEM, null, 10811),
    new SeedRow("random writes", Command.RANDOM_WRITE, 9986, 8850),
    new SeedRow("sequential reads", Command.SEQUENTIAL_READ, 464, 4425),
    new SeedRow("sequential writes", Command.SEQUENTIAL_WRITE, 9892, 8547),
    new SeedRow("scans", Command.SCAN, 20971, 15385));

  static final String HBASE_SOURCE = "HBase 0.19.0RC1, Java 6, 1 client (HBase wiki, "
    + "'Testing HBase Performance and Scalability', run of 2009-01-16)";
  static final String BIGTABLE_SOURCE = "BigTable, 1 tablet server (Figure 6 of the BigTable "
    + "paper, as quoted there)";

  /** Run order: writes first so reads find data; randomWrite after the reads, as it adds to it. */
  private static final List<Command> ORDER = List.of(Command.SEQUENTIAL_WRITE,
    Command.SEQUENTIAL_READ, Command.RANDOM_READ, Command.SCAN, Command.RANDOM_WRITE,
    Command.RANDOM_READ_MEM);

  private final PerfRun run;
  private final PerfOptions options;
  private final PrintStream notes;
  private final Map<Command, CommandResult> measured = new LinkedHashMap<>();

  SeedTable(PerfRun run, PerfOptions options, PrintStream notes) {
    this.run = run;
    this.options = options;
    this.notes = notes;
  }

  void run() {
    if (options.valueSize != 1000 || options.valueSizes != PerfOptions.ValueSizes.FIXED) {
      notes.println("note: the seed's rows are 1,000 bytes; this run uses --valueSize="
        + options.valueSize + " (" + options.valueSizes.name().toLowerCase(Locale.ROOT) + ")");
    }
    for (Command c : List.of(Command.SEQUENTIAL_WRITE, Command.RANDOM_READ_MEM)) {
      TableManager.TableState state = run.tables().prepare(run.tableFor(c),
        options.inMemory || c == Command.RANDOM_READ_MEM);
      if (!state.createdByThisRun) {
        throw ToolFailure.usage("seedTable starts from an empty table, but " + run.tableFor(c)
          + " exists; pass --recreate to drop it, or --table to use another name");
      }
    }
    for (Command c : ORDER) {
      CommandResult r = run.run(c);
      measured.put(c, r);
      if (c == Command.SEQUENTIAL_WRITE) {
        // As in the seed's runs: reads start with nothing in the memstore.
        run.tables().flush(run.tableFor(c));
      }
    }
  }

  /** Our rows/s for an experiment, or null if it did not run. */
  Double ours(SeedRow row) {
    CommandResult r = measured.get(row.command);
    return r == null ? null : r.rowsPerSecond();
  }

  void print(PrintStream out, String where) {
    out.println();
    out.println("Seed comparison: rows per second, " + options.valueSize + "-byte values ("
      + where + ")");
    out.println(String.format(Locale.ROOT, "%-20s %14s %16s %12s", "experiment", "this run",
      "HBase 0.19.0RC1", "BigTable"));
    for (SeedRow row : PUBLISHED) {
      Double ours = ours(row);
      out.println(String.format(Locale.ROOT, "%-20s %14s %16s %12s", row.experiment,
        ours == null ? "-" : Units.rate(ours),
        row.hbase019 == null ? "-" : String.format(Locale.ROOT, "%,d", row.hbase019),
        String.format(Locale.ROOT, "%,d", row.bigtable)));
    }
    out.println("HBase column: " + HBASE_SOURCE + ".");
    out.println("BigTable column: " + BIGTABLE_SOURCE + ".");
    out.println("Those ran on 2006-2009 hardware over the network with ~1 GB of data; compare "
      + "orders of magnitude, not digits.");
  }

  List<Map<String, Object>> asList() {
    List<Map<String, Object>> list = new ArrayList<>();
    for (SeedRow row : PUBLISHED) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("experiment", row.experiment);
      m.put("command", row.command.cliName());
      Double ours = ours(row);
      m.put("rowsPerSecond", ours == null ? null : LatencySummary.round(ours));
      m.put("hbase019RowsPerSecond", row.hbase019);
      m.put("bigtableRowsPerSecond", row.bigtable);
      list.add(m);
    }
    return list;
  }
}
