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
import java.io.InterruptedIOException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Consistency;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;

/** What every client of one command shares: the table, the data shape, and the tallies. */
final class RunContext {

  final PerfOptions options;
  final Command command;
  /** The run's Connection: tables, loading, reading back; the clients' with --oneCon. */
  final Connection connection;
  /** Each client's own Connection (hbase pe's default), made when its workload opens. */
  private final Connection[] clientConnections;
  /** The async* commands' per-client connections, as {@link #clientConnections}. */
  private final AsyncConnection[] clientAsyncConnections;
  private final boolean loading;
  final TableName table;
  final RowShape shape;
  final ZipfDistribution keyZipf;
  final ErrorTally errors = new ErrorTally();
  final VerifyTally tally = new VerifyTally();
  /** Reads a region replica answered (TIMELINE consistency only). */
  final LongAdder staleReads = new LongAdder();
  /** checkAnd* calls whose check did not hold. */
  final LongAdder checkFailed = new LongAdder();
  /** Rows written or deleted, kept only when they are to be read back. */
  final RowSet written;
  /** Successful mutate operations (increment, append, checkAnd*) per row, only with --verify. */
  final AtomicLongArray increments;
  /** Operations each client runs; Long.MAX_VALUE when only a duration bounds the run. */
  final long opsPerClient;
  /** How long clients run at most, or null for no limit. */
  final java.time.Duration duration;
  /** Operations per second over all clients, or 0 for as fast as they go. */
  final double targetRate;
  /** Whether values are checked; never while loading a table for another command. */
  final boolean verify;
  /** Time from the start that runs but is not counted, or null. */
  final java.time.Duration warmup;
  /** Operations per client that run but are not counted. */
  final long warmupOps;
  /** Rows the YCSB workloads insert (D, E) and read (D's latest): after the loaded rows. */
  final InsertedRows inserted;
  private ZipfDistribution requestZipf;
  /** See {@link #clientConf()}; made on first use. */
  private Configuration clientConf;
  /** timeline-reads' reader for the read commands, or null when it is off or while loading. */
  final TimelineReads timeline;
  /** Where the async* commands get their AsyncConnection (one per run, made on first use). */
  java.util.function.Supplier<AsyncConnection> asyncSource;

  /**
   * @param loading true to fill the table for a later command: every row once, unpaced,
   *   unchecked, whatever --ops, --duration, --rate and --verify say
   */
  RunContext(PerfOptions options, Command command, Connection connection, TableName table,
    boolean loading) {
    this.options = options;
    this.command = command;
    this.connection = connection;
    this.table = table;
    this.loading = loading;
    this.clientConnections = new Connection[options.clients];
    this.clientAsyncConnections = new AsyncConnection[options.clients];
    this.shape = new RowShape(options);
    this.keyZipf = KeyChooser.zipfFor(options);
    this.verify = options.verify && !loading;
    this.duration = loading ? null : options.duration;
    this.targetRate = loading ? 0 : options.targetRate;
    this.warmup = loading ? null : options.warmup;
    this.warmupOps = loading ? 0 : options.measureAfter;
    this.inserted = new InsertedRows(options.totalRows());
    this.timeline = loading ? null : TimelineReads.forRun(options);
    this.written = verify && (command.writesRows() || command.kind() == Command.Kind.DELETE)
      ? new RowSet(options.totalRows()) : null;
    this.increments = verify && command.kind() == Command.Kind.MUTATE
      ? new AtomicLongArray((int) options.rows) : null;
    if (loading) {
      this.opsPerClient = options.rows;
    } else if (options.opsPerClient != null) {
      this.opsPerClient = options.opsPerClient;
    } else if (options.duration != null) {
      this.opsPerClient = Long.MAX_VALUE;
    } else {
      this.opsPerClient = command.defaultOpsPerClient(options);
    }
  }

  /**
   * The configuration the clients' own connections are made from: the run's, with the settings
   * of client-side change modules (timeline-reads' mode) added when one is on.
   */
  synchronized Configuration clientConf() {
    if (clientConf == null) {
      clientConf = ChangeModules.clientConfiguration(options, connection.getConfiguration());
    }
    return clientConf;
  }

  /** Zipf ranks over the loaded rows for the YCSB workloads, built once per command. */
  synchronized ZipfDistribution requestZipf() {
    if (requestZipf == null) {
      requestZipf = keyZipf != null ? keyZipf
        : new ZipfDistribution(options.totalRows(), options.zipfExponent);
    }
    return requestZipf;
  }

  AsyncConnection asyncConnection() {
    if (asyncSource == null) {
      throw new IllegalStateException(command.cliName() + " has no AsyncConnection");
    }
    return asyncSource.get();
  }

  /**
   * The Connection client {@code client}'s operations go through: one of its own, made on first
   * use from the run's configuration, as hbase pe gives each client thread (one Connection per
   * thread unless --oneCon); the run's shared Connection with --oneCon and while loading a table
   * for another command. Called from the client's thread before the timed operations start.
   */
  Connection connectionFor(int client) throws IOException {
    if (options.oneCon || loading) {
      return connection;
    }
    synchronized (clientConnections) {
      if (clientConnections[client] == null) {
        clientConnections[client] = ConnectionFactory.createConnection(clientConf());
      }
      return clientConnections[client];
    }
  }

  /**
   * The AsyncConnection client {@code client}'s async* operations go through: one of its own, as
   * hbase pe's async tests open one per client thread unless --oneCon; the run's shared one with
   * --oneCon and while loading.
   */
  AsyncConnection asyncConnectionFor(int client) throws IOException {
    if (options.oneCon || loading) {
      return asyncConnection();
    }
    synchronized (clientConnections) {
      if (clientAsyncConnections[client] == null) {
        try {
          clientAsyncConnections[client] = ConnectionFactory.createAsyncConnection(clientConf())
            .get(options.connectTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
          throw new IOException("client " + client + " could not open an AsyncConnection", e);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("client " + client + " opening an AsyncConnection");
        }
      }
      return clientAsyncConnections[client];
    }
  }

  /**
   * Why timeline-reads' reader does not serve this command although it is on, or null when it
   * does (or is off, or the command reads nothing).
   */
  String notThroughReader() {
    if (timeline == null || command.kind() == Command.Kind.WRITE
      || command.kind() == Command.Kind.DELETE || command.kind() == Command.Kind.MUTATE
      || command.kind() == Command.Kind.META) {
      return null;
    }
    if (command.isAsync()) {
      return "read through HBase's AsyncTable, not timeline-reads' reader (it serves the "
        + "commands that read through a Table)";
    }
    if (command == Command.RANDOM_SEEK_SCAN) {
      return "read through HBase's Table, not timeline-reads' reader: the command's page filter "
        + "counts rows per server-side scanner, and the PATCHED reader's scanner opens one per "
        + "batch, so the page would not end the scan";
    }
    return null;
  }

  /**
   * The table client {@code client} reads through: with timeline-reads on, one whose Gets,
   * multi-gets and scanners go to a TimelineReader of the client's own (over its Connection and
   * AsyncConnection, closed with them), everything else to HBase's Table; else (and for the
   * commands {@link #notThroughReader} names) HBase's Table.
   */
  Table readTableFor(int client) throws IOException {
    Table plain = connectionFor(client).getTable(table);
    if (timeline == null || notThroughReader() != null) {
      return plain;
    }
    try {
      return timeline.table(plain, connectionFor(client), asyncConnectionFor(client));
    } catch (IOException | RuntimeException e) {
      plain.close();
      throw e;
    }
  }

  /** Closes the clients' own Connections and AsyncConnections; the run's stay open. */
  void closeClientConnections() {
    synchronized (clientConnections) {
      for (int i = 0; i < clientConnections.length; i++) {
        close(clientConnections[i]);
        clientConnections[i] = null;
        close(clientAsyncConnections[i]);
        clientAsyncConnections[i] = null;
      }
    }
  }

  private void close(java.io.Closeable c) {
    if (c != null) {
      try {
        c.close();
      } catch (IOException e) {
        errors.record(e);
      }
    }
  }

  /** How many per-client connections (Connection and AsyncConnection) are open (for tests). */
  int openClientConnections() {
    synchronized (clientConnections) {
      int n = 0;
      for (int i = 0; i < clientConnections.length; i++) {
        n += (clientConnections[i] != null ? 1 : 0) + (clientAsyncConnections[i] != null ? 1 : 0);
      }
      return n;
    }
  }

  long firstRow(int client) {
    return client * options.rows;
  }

  KeyChooser keyChooser(int client) {
    return KeyChooser.forClient(options, command, client, keyZipf);
  }

  Get get(long row) {
    Get g = new Get(RowKeys.key(row));
    for (byte[] f : shape.families()) {
      if (options.addColumns) {
        for (byte[] q : shape.qualifiers()) {
          g.addColumn(f, q);
        }
      } else {
        g.addFamily(f);
      }
    }
    g.setCacheBlocks(options.cacheBlocks);
    if (options.timelineReads()) {
      g.setConsistency(Consistency.TIMELINE);
    }
    return g;
  }

  Scan scan() {
    Scan s = new Scan();
    for (byte[] f : shape.families()) {
      if (options.addColumns) {
        for (byte[] q : shape.qualifiers()) {
          s.addColumn(f, q);
        }
      } else {
        s.addFamily(f);
      }
    }
    s.setCaching(options.caching);
    s.setCacheBlocks(options.cacheBlocks);
    if (options.timelineReads()) {
      s.setConsistency(Consistency.TIMELINE);
    }
    return s;
  }
}
