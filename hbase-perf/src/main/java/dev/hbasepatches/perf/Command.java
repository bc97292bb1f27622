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

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The load commands, named as {@code hbase pe} names them so its users can carry their habits
 * over. Each command knows what it does to the table (writes it, needs it filled) and how many
 * operations one client runs by default.
 */
public enum Command {
  SEQUENTIAL_WRITE("sequentialWrite", Kind.WRITE, "put rows in key order"),
  RANDOM_WRITE("randomWrite", Kind.WRITE, "put rows at random keys"),
  SEQUENTIAL_READ("sequentialRead", Kind.READ, "get rows in key order"),
  RANDOM_READ("randomRead", Kind.READ, "get rows at random keys"),
  RANDOM_READ_MEM("randomReadMem", Kind.READ,
    "randomRead on a second, IN_MEMORY table (<table>Mem) warmed into the block cache first"),
  SCAN("scan", Kind.SCAN, "one scanner over each client's rows; one operation = one row"),
  ASYNC_SEQUENTIAL_WRITE("asyncSequentialWrite", Kind.WRITE,
    "sequentialWrite through the AsyncConnection (one awaited put per row; "
      + "--autoFlush=false: an AsyncBufferedMutator)"),
  ASYNC_RANDOM_WRITE("asyncRandomWrite", Kind.WRITE, "randomWrite through the AsyncConnection"),
  ASYNC_SEQUENTIAL_READ("asyncSequentialRead", Kind.READ,
    "sequentialRead through the AsyncConnection (each client waits for its Get, as hbase pe)"),
  ASYNC_RANDOM_READ("asyncRandomRead", Kind.READ, "randomRead through the AsyncConnection"),
  ASYNC_SCAN("asyncScan", Kind.SCAN, "scan through the AsyncConnection's scanner"),
  SCAN_RANGE_10("scanRange10", Kind.SCAN, "open a scanner at a random row, read 10 rows"),
  SCAN_RANGE_100("scanRange100", Kind.SCAN, "open a scanner at a random row, read 100 rows"),
  SCAN_RANGE_1000("scanRange1000", Kind.SCAN, "open a scanner at a random row, read 1000 rows"),
  SCAN_RANGE_10000("scanRange10000", Kind.SCAN,
    "open a scanner at a random row, read 10000 rows"),
  REVERSE_SCAN("reverseScan", Kind.SCAN, "like scan, from each client's last row backwards"),
  RANDOM_SEEK_SCAN("randomSeekScan", Kind.SCAN,
    "open a scanner at a random row and read up to " + Command.SEEK_SCAN_ROWS + " rows (a "
      + "page filter, as hbase pe)"),
  FILTER_SCAN("filterScan", Kind.SCAN,
    "scan the whole table with a server-side value filter that keeps one row (slow: use "
      + "--ops or small --rows, as with hbase pe)"),
  SEQUENTIAL_DELETE("sequentialDelete", Kind.DELETE, "delete each client's rows in key order"),
  RANDOM_DELETE("randomDelete", Kind.DELETE, "delete rows at random keys"),
  INCREMENT("increment", Kind.MUTATE,
    "increment column IncrementTest of row i (clients overlap on rows 0..rows-1, as hbase pe)"),
  APPEND("append", Kind.MUTATE, "append the row key to column AppendTest of row i (clients "
    + "overlap)"),
  CHECK_AND_PUT("checkAndPut", Kind.MUTATE,
    "put the key into column CheckAndPutTest of row i, then a put conditional on it"),
  CHECK_AND_MUTATE("checkAndMutate", Kind.MUTATE,
    "put the key into column CheckAndMutateTest of row i, then RowMutations conditional on it"),
  CHECK_AND_DELETE("checkAndDelete", Kind.MUTATE,
    "put the key into column CheckAndDeleteTest of row i, then a delete conditional on it"),
  WORKLOAD_A("workloada", Kind.YCSB, "YCSB core workload A: 50% reads, 50% updates, zipfian"),
  WORKLOAD_B("workloadb", Kind.YCSB, "YCSB core workload B: 95% reads, 5% updates, zipfian"),
  WORKLOAD_C("workloadc", Kind.YCSB, "YCSB core workload C: reads only, zipfian"),
  WORKLOAD_D("workloadd", Kind.YCSB,
    "YCSB core workload D: 95% reads of the latest rows, 5% inserts"),
  WORKLOAD_E("workloade", Kind.YCSB,
    "YCSB core workload E: 95% short scans (1-100 rows, zipfian start), 5% inserts"),
  WORKLOAD_F("workloadf", Kind.YCSB,
    "YCSB core workload F: 50% reads, 50% read-modify-writes, zipfian"),
  META_WRITE("metaWrite", Kind.META,
    "put a made-up region of the table per row into hbase:meta, on a server that does not exist "
      + "(as hbase pe; remove them with cleanMeta; use a table of their own)"),
  META_RANDOM_READ("metaRandomRead", Kind.META,
    "look up the region of a random made-up region's start key in hbase:meta, past the "
      + "client's location cache"),
  CLEAN_META("cleanMeta", Kind.META,
    "delete the made-up regions metaWrite put into hbase:meta (only those)"),
  SEED_TABLE("seedTable", Kind.SUITE,
    "the seed's six experiments with 1,000-byte rows, next to HBase 0.19 and BigTable"),
  CACHED_READS("cachedReads", Kind.SUITE,
    "load, warm every block into the block cache, then randomRead and 100-row multi-gets "
      + "(the off-heap read path's experiment, HBASE-11425)"),
  ENCODING_COMPRESSION("encodingCompression", Kind.SUITE,
    "every --encodings x --compressions table: store file bytes, scan rows/s, get ops/s (seeds "
      + "000, 003); writes a .md and .csv table to --reportDir"),
  REPLICA_FAILOVER("replicaFailover", Kind.SUITE,
    "3 region servers, 3 replicas, open-loop reads at --rate; the primary's server aborted (or "
      + "--fault=stop) mid-run; latency over time per mode BASELINE (STRONG), UPSTREAM (TIMELINE),"
      + " PATCHED (timeline-reads' reader) (seed 004)"),
  THROTTLED_USERS("throttledUsers", Kind.SUITE,
    "two users read at once, one throttled to --throttle: ops/s, latency and refusals per user "
      + "(seed 004's quota experiment; --changes=quotas for the module's limiter)");

  /** Whether the command goes through the AsyncConnection, as hbase pe's async* commands. */
  public boolean isAsync() {
    return cliName.startsWith("async");
  }

  /** The named scenarios: each runs on its own and writes a table to --reportDir. */
  public boolean isScenario() {
    return this == ENCODING_COMPRESSION || this == REPLICA_FAILOVER || this == THROTTLED_USERS;
  }

  /** What a command does to the table; decides loading, flushing and verification. */
  public enum Kind {
    WRITE, READ, SCAN, MUTATE, DELETE, YCSB, META, SUITE
  }

  /** Rows a randomSeekScan reads at most from one region: hbase pe's page size. */
  static final int SEEK_SCAN_ROWS = 120;

  private final String cliName;
  private final Kind kind;
  private final String description;

  Command(String cliName, Kind kind, String description) {
    this.cliName = cliName;
    this.kind = kind;
    this.description = description;
  }

  public String cliName() {
    return cliName;
  }

  public Kind kind() {
    return kind;
  }

  public String description() {
    return description;
  }

  /** True when the command reads rows an earlier write must have put there. */
  public boolean needsLoadedTable() {
    return kind == Kind.READ || kind == Kind.SCAN || kind == Kind.DELETE || kind == Kind.YCSB;
  }

  public boolean writesRows() {
    return kind == Kind.WRITE;
  }

  /** Rows one scanRange operation asks for, or 0 for every other command. */
  public int scanRangeRows() {
    switch (this) {
      case SCAN_RANGE_10:
        return 10;
      case SCAN_RANGE_100:
        return 100;
      case SCAN_RANGE_1000:
        return 1000;
      case SCAN_RANGE_10000:
        return 10000;
      default:
        return 0;
    }
  }

  /**
   * Operations one client runs when neither --ops nor --duration says otherwise: one per row for
   * row-at-a-time commands, so that a command touches about --rows rows per client.
   */
  public long defaultOpsPerClient(PerfOptions options) {
    long rows = options.rows;
    switch (kind) {
      case READ:
        long sampled = Math.max(1, Math.round(rows * options.sampleRate));
        return options.multiGet > 1 ? Math.max(1, sampled / options.multiGet) : sampled;
      case SCAN:
        if (scanRangeRows() > 0) {
          return Math.max(1, rows / scanRangeRows());
        }
        return rows;
      default:
        return rows;
    }
  }

  public static Optional<Command> byName(String name) {
    return Arrays.stream(values()).filter(c -> c.cliName.equals(name)).findFirst();
  }

  /** The command whose name matches ignoring case, to suggest when the user mistyped one. */
  public static Optional<Command> byNameIgnoringCase(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    return Arrays.stream(values()).filter(c -> c.cliName.toLowerCase(Locale.ROOT).equals(lower))
      .findFirst();
  }

  public static String allNames() {
    return Arrays.stream(values()).map(Command::cliName).collect(Collectors.joining(", "));
  }
}
