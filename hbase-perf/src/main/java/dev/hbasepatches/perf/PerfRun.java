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

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;

/**
 * Runs the commands of one invocation in order against one cluster: prepares each command's
 * table, fills it first when a read needs rows that are not there, runs the clients, then makes
 * the checks --verify asks for.
 */
final class PerfRun {

  private final PerfOptions options;
  private final Connection connection;
  private final ClusterSession cluster;
  private final TableManager tables;
  private final CommandRunner runner;
  private final PrintStream notes;
  private final List<CommandResult> results = new ArrayList<>();
  private SeedTable seedTable;
  private AsyncConnection async;
  private final List<ScenarioReport> scenarioReports = new ArrayList<>();

  PerfRun(PerfOptions options, ClusterSession cluster, PrintStream notes, boolean terminal) {
    this.options = options;
    this.cluster = cluster;
    this.connection = cluster.connection();
    this.tables = new TableManager(connection, options, cluster.embedded(), notes);
    this.runner = new CommandRunner(notes, terminal, options.progressInterval);
    this.notes = notes;
    if (options.replicas == 1 && !ChangeModules.clientSide(options).isEmpty()) {
      notes.println("timeline-reads: with --replicas=1 reads are STRONG, which its reader passes "
        + "to HBase unchanged in every mode; use --replicas=2 or more for TIMELINE reads");
    }
  }

  /** Everything run so far, loads included; complete once {@link #runAll} returns. */
  List<CommandResult> results() {
    return results;
  }

  /** The seed comparison, when seedTable ran. */
  SeedTable seedTable() {
    return seedTable;
  }

  /** The async* commands' connection, opened on first use and closed by {@link #runAll}. */
  synchronized AsyncConnection asyncConnection() {
    if (async == null) {
      try {
        async = ConnectionFactory.createAsyncConnection(
          ChangeModules.clientConfiguration(options, connection.getConfiguration()))
          .get(options.connectTimeout.toMillis(), TimeUnit.MILLISECONDS);
      } catch (ExecutionException | TimeoutException e) {
        throw ToolFailure.cluster("could not open an AsyncConnection", e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw ToolFailure.cluster("interrupted opening an AsyncConnection");
      }
    }
    return async;
  }

  void runAll() {
    try {
      runCommands();
    } finally {
      closeAsync();
    }
  }

  private synchronized void closeAsync() {
    if (async != null) {
      try {
        async.close();
      } catch (IOException e) {
        notes.println("closing the AsyncConnection: " + ToolFailure.describe(e));
      }
      async = null;
    }
  }

  private void runCommands() {
    for (Command c : options.commands) {
      if (c == Command.SEED_TABLE) {
        seedTable = new SeedTable(this, options, notes);
        seedTable.run();
      } else if (c == Command.CACHED_READS) {
        new CachedReads(this, options, notes).run();
      } else if (c == Command.ENCODING_COMPRESSION) {
        scenario(new EncodingCompression(this, options, notes).run());
      } else if (c == Command.REPLICA_FAILOVER) {
        scenario(new ReplicaFailover(this, options, notes).run());
      } else if (c == Command.THROTTLED_USERS) {
        scenario(new ThrottledUsers(this, options, notes).run());
      } else {
        run(c);
      }
    }
    if (options.dropTable) {
      for (TableName t : new ArrayList<>(listOf(tables.tablesSeen()))) {
        notes.println("dropping table " + t + " (--dropTable)");
        tables.drop(t);
      }
    }
  }

  private static List<TableName> listOf(Iterable<TableName> names) {
    List<TableName> list = new ArrayList<>();
    names.forEach(list::add);
    return list;
  }

  private void scenario(ScenarioReport report) {
    scenarioReports.add(report);
    report.write(java.nio.file.Paths.get(options.reportDir), notes);
  }

  /** The tables the scenarios wrote, in run order. */
  List<ScenarioReport> scenarioReports() {
    return scenarioReports;
  }

  /** The embedded cluster the scenarios measure and break (they run on no other). */
  LocalMiniCluster miniCluster() {
    if (!(cluster instanceof EmbeddedCluster)) {
      throw ToolFailure.usage("this scenario runs on the embedded cluster only");
    }
    return ((EmbeddedCluster) cluster).miniCluster();
  }

  Connection connection() {
    return connection;
  }

  /** Each embedded region server's block cache and its L2's counts now; empty elsewhere. */
  List<Map<String, Object>> blockCaches() {
    return cluster instanceof EmbeddedCluster ? ((EmbeddedCluster) cluster).blockCaches()
      : List.of();
  }

  CommandRunner runner() {
    return runner;
  }

  TableName tableFor(Command c) {
    return TableName.valueOf(c == Command.RANDOM_READ_MEM ? options.table + "Mem" : options.table);
  }

  TableManager tables() {
    return tables;
  }

  CommandResult run(Command c) {
    return run(c, c.cliName());
  }

  /** Runs {@code c}, reporting it under {@code label}. */
  CommandResult run(Command c, String label) {
    TableName name = tableFor(c);
    TableManager.TableState state = tables.prepare(name,
      options.inMemory || c == Command.RANDOM_READ_MEM);
    if (c.needsLoadedTable() && !state.loaded) {
      load(name, state, c);
    }
    if (c == Command.RANDOM_READ_MEM && !state.warmed) {
      warm(name, state);
    }
    RunContext ctx = new RunContext(options, c, connection, name, false);
    ctx.asyncSource = this::asyncConnection;
    try {
      byte[][][] columnsBefore = ctx.increments != null ? ReadBack.mutatedColumns(ctx) : null;
      notes.println(header(ctx, label));
      CommandRunner.Measurement m;
      try {
        m = runner.run(ctx, label);
      } finally {
        ctx.closeClientConnections();
      }
      if (ctx.written != null && c.kind() == Command.Kind.DELETE) {
        ReadBack.deletedRows(ctx);
      } else if (ctx.written != null) {
        ReadBack.writtenRows(ctx);
      }
      if (columnsBefore != null) {
        ReadBack.mutations(ctx, columnsBefore);
      }
      if (c.kind() == Command.Kind.DELETE) {
        state.loaded = false;
      }
      if (c.writesRows() && options.flush) {
        tables.flush(name);
      }
      if ((c == Command.SEQUENTIAL_WRITE || c == Command.ASYNC_SEQUENTIAL_WRITE)
        && ctx.duration == null && ctx.errors.count() == 0
        && ctx.opsPerClient >= options.rows && m.notes.isEmpty()) {
        state.loaded = true;
      }
      CommandResult r = new CommandResult(label, ctx, CommandResult.Purpose.MEASURE, m);
      if (ctx.timeline != null && ctx.timeline.used()) {
        r.reader = ctx.timeline.report();
      } else if (ctx.notThroughReader() != null) {
        r.notes.add(ctx.notThroughReader());
      }
      results.add(r);
      return r;
    } catch (IOException e) {
      throw ToolFailure.cluster("reading " + name + " back for --verify failed", e);
    }
  }

  private String header(RunContext ctx, String label) {
    String ops = ctx.opsPerClient == Long.MAX_VALUE ? ""
      : String.format(Locale.ROOT, "%,d ops each", ctx.opsPerClient);
    if (ctx.duration != null) {
      ops += (ops.isEmpty() ? "for " : " or at most ") + ctx.duration.toMillis() / 1000.0 + " s";
    }
    String pace = ctx.targetRate > 0
      ? String.format(Locale.ROOT, ", paced at %,.0f ops/s", ctx.targetRate) : "";
    return String.format(Locale.ROOT, "%s: %d client(s), %s%s", label, options.clients, ops,
      pace);
  }

  /**
   * Fills a table a read command needs with every row, then flushes it, so reads come from
   * store files as they did in the seed's runs rather than from the memstore.
   */
  void load(TableName name, TableManager.TableState state, Command forCommand) {
    notes.println(String.format(Locale.ROOT,
      "loading %,d rows into %s for %s (sequentialWrite, %d client(s))", options.totalRows(), name,
      forCommand.cliName(), options.clients));
    RunContext ctx = new RunContext(options, Command.SEQUENTIAL_WRITE, connection, name, true);
    CommandRunner.Measurement m = runner.run(ctx, "load " + name);
    CommandResult r = new CommandResult("sequentialWrite", ctx, CommandResult.Purpose.LOAD, m);
    results.add(r);
    if (r.errors > 0 || !m.notes.isEmpty()) {
      throw ToolFailure.cluster("loading " + name + " failed: " + String.join("; ",
        r.errors > 0 ? r.errorSamples : m.notes));
    }
    tables.flush(name);
    state.loaded = true;
  }

  /** Reads every row once through the block cache so an IN_MEMORY table is served from it. */
  void warm(TableName name, TableManager.TableState state) {
    tables.flush(name);
    long rows = 0;
    Scan scan = new Scan().setCacheBlocks(true).setCaching(Math.max(options.caching, 100));
    try (Table table = connection.getTable(name);
      ResultScanner scanner = table.getScanner(scan)) {
      for (Result r = scanner.next(); r != null; r = scanner.next()) {
        rows++;
      }
    } catch (IOException e) {
      throw ToolFailure.cluster("warming " + name + " into the block cache failed", e);
    }
    notes.println(String.format(Locale.ROOT, "warmed %,d rows of %s into the block cache", rows,
      name));
    state.warmed = true;
  }
}
