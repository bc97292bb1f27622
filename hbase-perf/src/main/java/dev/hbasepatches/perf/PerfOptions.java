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

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Everything one invocation of the tool was asked to do. {@link PerfArgsParser} fills it in once
 * and validates it; everything else only reads it.
 */
public final class PerfOptions {

  /** How cell value sizes vary from cell to cell. */
  public enum ValueSizes {
    /** Every value is --valueSize bytes. */
    FIXED,
    /** Sizes uniform in 1..valueSize. */
    UNIFORM,
    /** Sizes in 1..valueSize, small ones far more common (Zipf). */
    ZIPF
  }

  /** How random commands pick their row keys. */
  public enum KeyDistribution {
    UNIFORM, ZIPF
  }

  /** How the YCSB workloads pick the rows they read and update (YCSB's requestdistribution). */
  public enum RequestDistribution {
    ZIPFIAN, LATEST, UNIFORM
  }

  /** The value each change module's {@code hbasepatches.<change>.mode} key is given. */
  public enum ChangeMode {
    BASELINE, PATCHED, UPSTREAM
  }

  // What to run.
  final List<Command> commands = new ArrayList<>();
  int clients = 1;

  // The data.
  /** hbase pe's default: 1 GB of 1,000-byte values (1,048,576,000 / 1000). */
  long rows = 1_048_576;
  int valueSize = 1000;
  ValueSizes valueSizes = ValueSizes.FIXED;
  int families = 1;
  int columns = 1;
  KeyDistribution keyDistribution = KeyDistribution.UNIFORM;
  double zipfExponent = 0.99;
  long seed = 0;

  // The table.
  String table = "TestTable";
  int presplit = 0;
  String compression = "NONE";
  String blockEncoding = "NONE";
  String bloomFilter = "ROW";
  boolean inMemory;
  int replicas = 1;
  boolean recreate;
  boolean dropTable;
  boolean flush;

  // The client.
  int multiGet = 0;
  /** hbase pe's --oneCon: all clients share one Connection (default: one each, as pe). */
  boolean oneCon = false;
  boolean autoFlush;
  /** Whether --autoFlush was on the command line (the async* writes default to true). */
  boolean autoFlushGiven;
  long writeBuffer = 2L * 1024 * 1024;
  boolean writeToWal = true;
  int caching = 30;
  boolean cacheBlocks = true;
  /** hbase pe's --addColumns: reads name each column (true, pe's default) or whole families. */
  boolean addColumns = true;
  double sampleRate = 1.0;

  // How long and how fast.
  Long opsPerClient;
  Duration duration;
  double targetRate;
  java.time.Duration warmup;
  long measureAfter;
  /** Null: each YCSB workload's own (zipfian; latest for workloadd). */
  RequestDistribution requestDistribution;

  // Checks and output.
  boolean verify;
  String jsonPath;
  /** Null picks by where progress goes (2 s on a terminal, 10 s into a file); zero is off. */
  Duration progressInterval;
  boolean verbose;

  // The named scenarios.
  /** Where scenarios write their markdown and CSV tables. */
  String reportDir = "hbase-perf-results";
  /** encodingCompression's encodings and codecs, in table order. */
  final List<String> encodings = new ArrayList<>(List.of("NONE", "PREFIX", "DIFF", "FAST_DIFF",
    "ROW_INDEX_V1"));
  final List<String> compressions = new ArrayList<>(List.of("NONE", "SNAPPY", "GZ", "ZSTD"));
  /** replicaFailover: what happens to the primary's server, and when. */
  String fault = "abort";
  Duration faultAfter;
  /** replicaFailover: the modes, in run order. */
  final List<ChangeMode> failoverModes = new ArrayList<>(List.of(ChangeMode.BASELINE,
    ChangeMode.UPSTREAM, ChangeMode.PATCHED));
  /** throttledUsers: the throttled user's limit, as for set_quota (e.g. 50req/sec). */
  String throttle = "50req/sec";

  // The cluster.
  int regionServers = 1;
  String zkQuorum;
  String zkParent;
  String siteXml;
  Duration connectTimeout = Duration.ofSeconds(60);
  final List<String> changes = new ArrayList<>();
  ChangeMode changeMode = ChangeMode.PATCHED;
  final Map<String, String> settings = new LinkedHashMap<>();

  /** True when the tool starts its own minicluster rather than connecting to one. */
  public boolean embedded() {
    return zkQuorum == null && siteXml == null;
  }

  /** Rows every client together covers: client {@code c} owns rows [c*rows, (c+1)*rows). */
  public long totalRows() {
    return rows * clients;
  }

  /** Whether reads go with {@code Consistency.TIMELINE}, so a region replica may answer. */
  public boolean timelineReads() {
    return replicas > 1;
  }

  public List<Command> commands() {
    return commands;
  }

  public int clients() {
    return clients;
  }

  public String table() {
    return table;
  }

  public String jsonPath() {
    return jsonPath;
  }

  public boolean verbose() {
    return verbose;
  }

  /** Every option as name → value, for the JSON report; names as on the command line. */
  Map<String, Object> asMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("clients", clients);
    m.put("rows", rows);
    m.put("valueSize", valueSize);
    m.put("valueSizes", valueSizes.name().toLowerCase(Locale.ROOT));
    m.put("families", families);
    m.put("columns", columns);
    m.put("keys", keyDistribution.name().toLowerCase(Locale.ROOT));
    m.put("zipfExponent", zipfExponent);
    m.put("seed", seed);
    m.put("table", table);
    m.put("presplit", presplit);
    m.put("compression", compression);
    m.put("blockEncoding", blockEncoding);
    m.put("bloomFilter", bloomFilter);
    m.put("inMemory", inMemory);
    m.put("replicas", replicas);
    m.put("multiGet", multiGet);
    m.put("oneCon", oneCon);
    m.put("autoFlush", autoFlush);
    m.put("writeBuffer", writeBuffer);
    m.put("writeToWAL", writeToWal);
    m.put("caching", caching);
    m.put("cacheBlocks", cacheBlocks);
    m.put("addColumns", addColumns);
    m.put("sampleRate", sampleRate);
    m.put("ops", opsPerClient);
    m.put("durationSeconds", duration == null ? null : duration.toMillis() / 1000.0);
    m.put("rate", targetRate);
    m.put("warmupSeconds", warmup == null ? null : warmup.toMillis() / 1000.0);
    m.put("measureAfter", measureAfter);
    m.put("requestDistribution", requestDistribution == null ? null
      : requestDistribution.name().toLowerCase(Locale.ROOT));
    m.put("verify", verify);
    m.put("flush", flush);
    return m;
  }
}
