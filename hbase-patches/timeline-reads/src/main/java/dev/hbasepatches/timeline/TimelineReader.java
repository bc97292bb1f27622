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
package dev.hbasepatches.timeline;

import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.AdvancedScanResultConsumer;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.AsyncTable;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Consistency;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * Reads one table with timeline consistency, the way {@link TimelineMode} says, over the public
 * {@link Table} and {@link AsyncTable} API: an application adopts it without any server change.
 * <p>
 * Only reads that ask for {@link Consistency#TIMELINE} (and name no replica) are affected; STRONG
 * reads and reads of a chosen replica go to HBase untouched in every mode. In PATCHED mode a
 * TIMELINE read asks one replica at a time after a delay learned from recent latencies, on a hedge
 * budget ({@link HedgePolicy}), and its {@link Result#isStale()} is true exactly when a secondary
 * answered.
 * <p>
 * The connections are the caller's; {@link #close()} stops only the reader's timer. Reads in
 * progress at the close finish as usual (the timer stops when the last one has); a hedged read
 * started after it fails with a {@link DoNotRetryIOException} before anything is sent.
 * <p>
 * Cancelling a future this reader returned, or interrupting a thread waiting in one of its
 * blocking calls, ends the read: its hedge timer and every request it still has out are
 * cancelled, which stops the connection's retries for them (a request already on the wire is
 * answered into the void; a batch scan whose opening is on the wire is closed as soon as it
 * answers).
 */
@InterfaceAudience.Public
public final class TimelineReader implements Closeable {

  private final TimelineMode mode;
  private final Table table;
  private final AsyncTable<AdvancedScanResultConsumer> asyncTable;
  /** The same table with a short retry pause, for requests to secondaries. */
  private final AsyncTable<AdvancedScanResultConsumer> secondaryTable;
  private final HedgePolicy policy;
  private final ReplicaLocations locations;
  private final int replication;
  private final int scanRows;
  private final ScheduledThreadPoolExecutor timer;
  private final TimelineStats stats = new TimelineStats();
  private final TableName name;
  /** Hedged reads in progress; the sign bit is set once the reader is closed. */
  private final AtomicInteger readsInProgress = new AtomicInteger();

  private TimelineReader(Connection conn, AsyncConnection async, TableName name,
    TimelineMode mode, TimelineSettings settings) throws IOException {
    this.mode = mode;
    this.name = name;
    this.table = conn.getTable(name);
    this.asyncTable = async.getTable(name);
    this.secondaryTable = async.getTableBuilder(name)
      .setRetryPause(settings.secondaryPauseNanos, TimeUnit.NANOSECONDS).build();
    this.policy = new HedgePolicy(settings);
    this.locations = new ReplicaLocations(async.getRegionLocator(name), settings.relocateNanos);
    this.replication = Math.max(1, table.getDescriptor().getRegionReplication());
    this.scanRows = settings.scanRows;
    this.timer = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, "timeline-hedge-" + name.getNameAsString());
      t.setDaemon(true);
      return t;
    });
    this.timer.setRemoveOnCancelPolicy(true);
  }

  /**
   * A reader for {@code name} in the mode and with the settings of {@code async}'s configuration.
   * The sync connection serves UPSTREAM and BASELINE sync calls through HBase's own code paths.
   *
   * @throws IllegalArgumentException when a {@code hbasepatches.timeline.*} key has a bad value
   */
  public static TimelineReader create(Connection conn, AsyncConnection async, TableName name)
    throws IOException {
    TimelineMode mode = TimelineMode.from(async.getConfiguration());
    TimelineSettings settings = TimelineSettings.from(async.getConfiguration());
    return new TimelineReader(conn, async, name, mode, settings);
  }

  public TimelineMode mode() {
    return mode;
  }

  /** Counters of the hedged reads this reader made (PATCHED mode only). */
  public TimelineStats stats() {
    return stats;
  }

  HedgePolicy policy() {
    return policy;
  }

  ReplicaLocations locations() {
    return locations;
  }

  /** The reader's hedge timer, for tests that check it stops. */
  ScheduledThreadPoolExecutor timer() {
    return timer;
  }

  private static boolean timeline(org.apache.hadoop.hbase.client.Query q) {
    return q.getConsistency() == Consistency.TIMELINE && q.getReplicaId() < 0;
  }

  private static Get strong(Get get) {
    return timeline(get) ? new Get(get).setConsistency(Consistency.STRONG) : get;
  }

  private static Scan strong(Scan scan) throws IOException {
    return timeline(scan) ? new Scan(scan).setConsistency(Consistency.STRONG) : scan;
  }

  /** One Get, waiting for its answer. */
  public Result get(Get get) throws IOException {
    switch (mode) {
      case BASELINE:
        return table.get(strong(get));
      case UPSTREAM:
        return table.get(get);
      default:
        return timeline(get) ? join(getAsync(get)) : table.get(get);
    }
  }

  /** One Get, answered through the async client in every mode. */
  public CompletableFuture<Result> getAsync(Get get) {
    if (mode == TimelineMode.BASELINE) {
      return asyncTable.get(strong(get));
    }
    if (mode == TimelineMode.UPSTREAM || !timeline(get)) {
      return asyncTable.get(get);
    }
    return hedged(get.getRow(), false, replica -> getFromReplica(get, replica),
      TimelineReader::withStale, r -> r.isEmpty() && !get.isCheckExistenceOnly());
  }

  /** Many Gets, waiting for every answer; results in the order of {@code gets}. */
  public Result[] get(List<Get> gets) throws IOException {
    switch (mode) {
      case BASELINE: {
        List<Get> copy = new ArrayList<>(gets.size());
        for (Get g : gets) {
          copy.add(strong(g));
        }
        return table.get(copy);
      }
      case UPSTREAM:
        return table.get(gets);
      default:
        return join(getAllAsync(gets)).toArray(new Result[0]);
    }
  }

  /**
   * Many Gets through the async client. UPSTREAM is HBase's {@code AsyncTable.getAll}, which
   * reads only primaries whatever the consistency; PATCHED hedges each TIMELINE Get on its own.
   */
  public CompletableFuture<List<Result>> getAllAsync(List<Get> gets) {
    if (mode == TimelineMode.UPSTREAM) {
      return asyncTable.getAll(gets);
    }
    List<CompletableFuture<Result>> futures = new ArrayList<>(gets.size());
    for (Get g : gets) {
      futures.add(getAsync(g));
    }
    CompletableFuture<List<Result>> all =
      CompletableFuture.allOf(futures.toArray(new CompletableFuture<?>[0])).thenApply(v -> {
        List<Result> out = new ArrayList<>(futures.size());
        for (CompletableFuture<Result> f : futures) {
          out.add(f.join());
        }
        return out;
      });
    // cancelling the whole cancels every Get of it
    all.whenComplete((v, e) -> {
      if (all.isCancelled()) {
        for (CompletableFuture<Result> f : futures) {
          f.cancel(false);
        }
      }
    });
    return all;
  }

  /**
   * A bounded scan, all its rows at once. PATCHED hedges the whole scan (every row from one
   * replica, so the rows are one consistent snapshot of that replica); UPSTREAM is HBase's
   * scanner, which hedges only the opening of each region's scanner.
   */
  public List<Result> scanAll(Scan scan) throws IOException {
    if (mode == TimelineMode.BASELINE || mode == TimelineMode.UPSTREAM) {
      List<Result> out = new ArrayList<>();
      try (ResultScanner rs =
        table.getScanner(mode == TimelineMode.BASELINE ? strong(scan) : scan)) {
        for (Result r : rs) {
          out.add(r);
        }
      }
      return out;
    }
    if (!timeline(scan)) {
      return join(scanAll(asyncTable, scan));
    }
    return join(hedgedScan(scan));
  }

  /**
   * A streaming scanner. PATCHED: for a TIMELINE scan, hedged batches of whole rows
   * ({@code hbasepatches.timeline.scan.rows}, or the scan's caching), each resuming just after
   * the last row handed out, so a switch of replica between batches neither repeats nor skips a
   * row ({@link HedgedScanner}); every other scan, and every scan in the other modes, is HBase's
   * own scanner (UPSTREAM's TIMELINE scanner hedges only each region's scanner open).
   *
   * @throws IllegalArgumentException for a PATCHED TIMELINE scan that splits rows
   *   ({@code setBatch}, {@code setAllowPartialResults})
   */
  public ResultScanner getScanner(Scan scan) throws IOException {
    if (mode == TimelineMode.BASELINE) {
      return table.getScanner(strong(scan));
    }
    if (mode == TimelineMode.UPSTREAM || !timeline(scan)) {
      return table.getScanner(scan);
    }
    return new HedgedScanner(scan, scanRows, batch -> join(hedgedScan(batch)));
  }

  /** One whole bounded scan from one replica, hedged like a Get, rows flagged stale. */
  private CompletableFuture<List<Result>> hedgedScan(Scan scan) {
    // both directions begin at the start row: a reversed scan reads down from it, so it starts
    // in the region holding it or, when it is excluded (a resumed batch) or empty (from the
    // end), in the region holding the rows just below it
    byte[] row = scan.getStartRow();
    boolean before = scan.isReversed() && (row.length == 0 || !scan.includeStartRow());
    return hedged(row, before, replica -> {
      try {
        return scanAll(on(replica), new Scan(scan).setReplicaId(replica)
          .setConsistency(Consistency.TIMELINE));
      } catch (IOException e) {
        throw new IllegalArgumentException("scan cannot be copied: " + scan, e);
      }
    }, (rows, stale) -> {
      List<Result> out = new ArrayList<>(rows.size());
      for (Result r : rows) {
        out.add(withStale(r, stale));
      }
      return out;
    }, List::isEmpty);
  }

  /**
   * {@link AsyncTable#scanAll} whose future, once cancelled, also ends the scan: at its next
   * answer (or heartbeat) the scanner is closed instead of read on.
   */
  private static CompletableFuture<List<Result>> scanAll(
    AsyncTable<AdvancedScanResultConsumer> table, Scan scan) {
    CompletableFuture<List<Result>> future = new CompletableFuture<>();
    table.scan(scan, new AdvancedScanResultConsumer() {
      private final List<Result> rows = new ArrayList<>();

      @Override
      public void onNext(Result[] results, ScanController controller) {
        if (future.isDone()) {
          controller.terminate();
          return;
        }
        rows.addAll(Arrays.asList(results));
      }

      @Override
      public void onHeartbeat(ScanController controller) {
        if (future.isDone()) {
          controller.terminate();
        }
      }

      @Override
      public void onError(Throwable error) {
        future.completeExceptionally(error);
      }

      @Override
      public void onComplete() {
        future.complete(rows);
      }
    });
    return future;
  }

  /**
   * The table a request to {@code replica} goes through: a secondary's request that fails (a
   * stale location) retries after {@code hbasepatches.timeline.secondary.pause.ms}, not after the
   * connection's pause; the primary's requests keep the connection's settings.
   */
  private AsyncTable<AdvancedScanResultConsumer> on(int replica) {
    return replica == 0 ? asyncTable : secondaryTable;
  }

  /** One replica's answer to {@code get}, sent as a hedged read sends it. */
  CompletableFuture<Result> getFromReplica(Get get, int replica) {
    return on(replica).get(onReplica(get, replica));
  }

  private static Get onReplica(Get get, int replica) {
    return new Get(get).setReplicaId(replica).setConsistency(Consistency.TIMELINE);
  }

  /** The answer as the application sees it: stale exactly when a secondary gave it. */
  static Result withStale(Result r, boolean stale) {
    if (r.isStale() == stale) {
      return r;
    }
    return Result.create(r.rawCells(), r.getExists(), stale, r.mayHaveMoreCellsInRow());
  }

  private <T> CompletableFuture<T> hedged(byte[] row, boolean before,
    java.util.function.IntFunction<CompletableFuture<T>> send,
    java.util.function.BiFunction<T, Boolean, T> markStale,
    java.util.function.Predicate<T> weak) {
    if (!enter()) {
      CompletableFuture<T> closed = new CompletableFuture<>();
      closed.completeExceptionally(new DoNotRetryIOException(
        "TimelineReader of table " + name.getNameAsString() + " is closed"));
      return closed;
    }
    CompletableFuture<T> read;
    try {
      long now = System.nanoTime();
      ReplicaLocations.Entry entry = locations.find(row, before, now);
      ReadPlan plan;
      if (entry == null) {
        plan = policy.planUnlocated(replication);
      } else {
        ServerName[] servers = entry.servers;
        plan = policy.plan(servers, now);
      }
      read = new HedgedRead<>(plan, entry, send, markStale, weak, policy, locations,
        (task, delayNanos) -> timer.schedule(task, delayNanos, TimeUnit.NANOSECONDS),
        System::nanoTime, stats).start();
    } catch (RuntimeException | Error e) {
      exit();
      throw e;
    }
    read.whenComplete((v, e) -> exit());
    return read;
  }

  /** Counts a hedged read in, unless the reader is closed. */
  private boolean enter() {
    while (true) {
      int s = readsInProgress.get();
      if (s < 0) {
        return false;
      }
      if (readsInProgress.compareAndSet(s, s + 1)) {
        return true;
      }
    }
  }

  /** Counts a hedged read out; the last one out of a closed reader stops the timer. */
  private void exit() {
    if (readsInProgress.decrementAndGet() == Integer.MIN_VALUE) {
      timer.shutdownNow();
    }
  }

  /**
   * Waits for {@code f}; an interrupted wait cancels the read (its timer and requests) and
   * throws {@link InterruptedIOException} with the thread's interrupt flag set again.
   */
  private static <T> T join(CompletableFuture<T> f) throws IOException {
    try {
      return f.get();
    } catch (InterruptedException e) {
      f.cancel(true);
      Thread.currentThread().interrupt();
      throw (IOException) new InterruptedIOException("interrupted waiting for a read").initCause(e);
    } catch (ExecutionException e) {
      Throwable c = e.getCause() instanceof CompletionException && e.getCause().getCause() != null
        ? e.getCause().getCause() : e.getCause();
      if (c instanceof IOException) {
        throw (IOException) c;
      }
      if (c instanceof RuntimeException) {
        throw (RuntimeException) c;
      }
      throw new IOException(c);
    }
  }

  /**
   * Refuses new hedged reads; the reads in progress finish, and the hedge timer stops when the
   * last of them has. Closes the reader's own {@link Table}, not the connections. Idempotent.
   */
  @Override
  public void close() throws IOException {
    int s;
    do {
      s = readsInProgress.get();
      if (s < 0) {
        return;
      }
    } while (!readsInProgress.compareAndSet(s, s | Integer.MIN_VALUE));
    if (s == 0) {
      timer.shutdownNow();
    }
    table.close();
  }
}
