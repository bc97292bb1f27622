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

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.regionserver.BloomType;

/**
 * One command-line option: its name, the names {@code hbase pe} users may type instead, what it
 * takes, its help line, and how it sets {@link PerfOptions}. {@link #ALL} is the whole table, in
 * the order --help lists it; {@link #cliOptions} hands it to commons-cli.
 */
final class OptionSpec {

  private static final String DATA = "Data";
  private static final String TABLE = "Table";
  private static final String CLIENT = "Client";
  private static final String RUN = "How long and how fast";
  private static final String OUTPUT = "Checks and output";
  private static final String CLUSTER = "Cluster";
  private static final String SCENARIOS = "Scenarios";

  private final String group;
  private final String name;
  private final List<String> aliases;
  private final String valueHint;
  private final String help;
  private final BiConsumer<PerfOptions, String> setter;

  private OptionSpec(String group, String name, List<String> aliases, String valueHint,
    String help, BiConsumer<PerfOptions, String> setter) {
    this.group = group;
    this.name = name;
    this.aliases = aliases;
    this.valueHint = valueHint;
    this.help = help;
    this.setter = setter;
  }

  private static OptionSpec value(String group, String name, String hint, String help,
    BiConsumer<PerfOptions, String> setter, String... aliases) {
    return new OptionSpec(group, name, List.of(aliases), hint, help, setter);
  }

  private static OptionSpec flag(String group, String name, String help,
    BiConsumer<PerfOptions, Boolean> setter, String... aliases) {
    return new OptionSpec(group, name, List.of(aliases), null, help,
      (o, v) -> setter.accept(o, ValueParsers.bool("--" + name, v)));
  }

  static final List<OptionSpec> ALL = List.of(
    value(DATA, "rows", "N", "rows each client writes or reads (default 1,048,576, as hbase pe)",
      (o, v) -> o.rows = ValueParsers.count("--rows", v, 1, Long.MAX_VALUE)),
    value(DATA, "valueSize", "BYTES", "bytes per cell value (default 1000)",
      (o, v) -> o.valueSize = (int) ValueParsers.bytes("--valueSize", v, 1, 64L << 20)),
    value(DATA, "valueSizes", "KIND", "fixed (default), uniform or zipf sizes in 1..valueSize",
      PerfArgsParser::setValueSizes),
    flag(DATA, "valueRandom", "same as --valueSizes=uniform",
      (o, b) -> o.valueSizes = b ? PerfOptions.ValueSizes.UNIFORM : o.valueSizes),
    flag(DATA, "valueZipf", "same as --valueSizes=zipf",
      (o, b) -> o.valueSizes = b ? PerfOptions.ValueSizes.ZIPF : o.valueSizes),
    value(DATA, "families", "N", "column families (default 1)",
      (o, v) -> o.families = (int) ValueParsers.count("--families", v, 1, 100)),
    value(DATA, "columns", "N", "columns per family per row (default 1)",
      (o, v) -> o.columns = (int) ValueParsers.count("--columns", v, 1, 10_000)),
    value(DATA, "keys", "KIND", "uniform (default) or zipf keys for the random commands",
      PerfArgsParser::setKeys),
    value(DATA, "zipfExponent", "X", "skew of zipf keys and sizes, in (0, 1) (default 0.99)",
      (o, v) -> o.zipfExponent = zipfExponent(v)),
    value(DATA, "seed", "N", "seed of keys and values; reads must use the writer's (default 0)",
      (o, v) -> o.seed = ValueParsers.count("--seed", v, 0, Long.MAX_VALUE)),

    value(TABLE, "table", "NAME", "table name (default TestTable)", OptionSpec::setTable),
    value(TABLE, "presplit", "N", "create the table with N regions (default 0: one region)",
      (o, v) -> o.presplit = (int) ValueParsers.count("--presplit", v, 0, 10_000)),
    value(TABLE, "compression", "ALGO",
      "family compression: " + ValueParsers.names(Compression.Algorithm.class) + " (default none)",
      (o, v) -> o.compression = ValueParsers.choice("--compression", v,
        Compression.Algorithm.class).name(), "compress"),
    value(TABLE, "blockEncoding", "ENC",
      "data block encoding: " + ValueParsers.names(DataBlockEncoding.class) + " (default none)",
      (o, v) -> o.blockEncoding = ValueParsers.choice("--blockEncoding", v,
        DataBlockEncoding.class).name()),
    value(TABLE, "bloomFilter", "TYPE", "none, row (default) or rowcol",
      (o, v) -> o.bloomFilter = bloomType(v)),
    flag(TABLE, "inMemory", "mark the families IN_MEMORY", (o, b) -> o.inMemory = b, "inmemory"),
    value(TABLE, "replicas", "N", "region replicas; above 1, reads use TIMELINE consistency",
      (o, v) -> o.replicas = (int) ValueParsers.count("--replicas", v, 1, 10)),
    flag(TABLE, "recreate", "drop and recreate the table if it exists", (o, b) -> o.recreate = b),
    flag(TABLE, "dropTable", "drop the table when done", (o, b) -> o.dropTable = b),
    flag(TABLE, "flush", "flush the table to store files after each write command",
      (o, b) -> o.flush = b),

    value(CLIENT, "multiGet", "N", "reads get N rows per call (default 0: one Get per call)",
      (o, v) -> o.multiGet = (int) ValueParsers.count("--multiGet", v, 0, 10_000)),
    flag(CLIENT, "oneCon", "all clients share one Connection (default false: one Connection "
      + "per client, as hbase pe)", (o, b) -> o.oneCon = b),
    flag(CLIENT, "autoFlush", "send every put at once instead of through a write buffer (the "
      + "async* writes do so unless given --autoFlush=false, as hbase pe's)", (o, b) -> {
        o.autoFlush = b;
        o.autoFlushGiven = true;
      }),
    value(CLIENT, "writeBuffer", "SIZE", "client write buffer (default 2m)",
      (o, v) -> o.writeBuffer = ValueParsers.bytes("--writeBuffer", v, 1, 1L << 30), "bufferSize"),
    flag(CLIENT, "writeToWAL", "write the WAL (default true; false = SKIP_WAL)",
      (o, b) -> o.writeToWal = b),
    value(CLIENT, "caching", "N", "rows per scanner RPC (default 30)",
      (o, v) -> o.caching = (int) ValueParsers.count("--caching", v, 1, 1_000_000)),
    flag(CLIENT, "addColumns", "Gets and scans name every column (default true, as hbase pe; "
      + "false asks for whole families)", (o, b) -> o.addColumns = b),
    flag(CLIENT, "cacheBlocks", "reads fill the block cache (default true)",
      (o, b) -> o.cacheBlocks = b),
    value(CLIENT, "sampleRate", "F", "reads touch this fraction of the rows (default 1.0)",
      (o, v) -> o.sampleRate = ValueParsers.decimal("--sampleRate", v, 0, 1)),

    value(RUN, "ops", "N", "operations per client (default: one per row)",
      (o, v) -> o.opsPerClient = ValueParsers.count("--ops", v, 1, Long.MAX_VALUE)),
    value(RUN, "duration", "TIME", "run each command this long (30s, 5m); stops early at --ops",
      PerfArgsParser::setDuration),
    value(RUN, "rate", "OPS", "target ops/s over all clients; latency counts from each "
      + "operation's scheduled start", (o, v) -> o.targetRate = ValueParsers.decimal("--rate", v,
        0, 1e9)),
    value(RUN, "warmup", "TIME", "run this long first without counting it (default 0)",
      (o, v) -> o.warmup = ValueParsers.duration("--warmup", v, true)),
    value(RUN, "measureAfter", "N", "as hbase pe: each client's first N operations are not "
      + "counted (default 0)",
      (o, v) -> o.measureAfter = ValueParsers.count("--measureAfter", v, 0, Long.MAX_VALUE)),
    value(RUN, "requestDistribution", "KIND", "rows the YCSB workloads read and update: zipfian "
      + "(default), latest (workloadd's default) or uniform",
      (o, v) -> o.requestDistribution = ValueParsers.choice("--requestDistribution", v,
        PerfOptions.RequestDistribution.class)),

    flag(OUTPUT, "verify", "check every value read back; read back every row written",
      (o, b) -> o.verify = b),
    value(OUTPUT, "json", "FILE", "also write results as JSON ('-' = JSON alone on stdout)",
      (o, v) -> o.jsonPath = v),
    value(OUTPUT, "progress", "TIME",
      "progress line interval (default 2s, 10s when not a terminal; 0 = off)",
      PerfArgsParser::setProgress),
    flag(OUTPUT, "verbose", "HBase logs at INFO, and stack traces for failures",
      (o, b) -> o.verbose = b),

    value(CLUSTER, "regionServers", "N", "region servers of the embedded cluster (default 1)",
      (o, v) -> o.regionServers = (int) ValueParsers.count("--regionServers", v, 1, 16)),
    value(CLUSTER, "zk", "HOSTS", "ZooKeeper quorum of a real cluster: host[:port][,host...]",
      (o, v) -> o.zkQuorum = nonEmpty("--zk", v)),
    value(CLUSTER, "zkParent", "ZNODE", "zookeeper.znode.parent of the real cluster",
      (o, v) -> o.zkParent = nonEmpty("--zkParent", v)),
    value(CLUSTER, "siteXml", "FILE", "hbase-site.xml of a real cluster",
      (o, v) -> o.siteXml = nonEmpty("--siteXml", v)),
    value(CLUSTER, "connectTimeout", "TIME", "give up reaching a real cluster after (default 60s)",
      (o, v) -> o.connectTimeout = ValueParsers.duration("--connectTimeout", v, false)),
    value(CLUSTER, "changes", "LIST", "turn on change modules: all (the embedded cluster's), or "
      + "names (" + ChangeModules.names() + ")", PerfArgsParser::setChanges, "change"),
    value(CLUSTER, "changeMode", "MODE", "mode for those modules: baseline, patched (default), "
      + "upstream", PerfArgsParser::setChangeMode, "mode"),
    flag(CLUSTER, "patched", "same as --changes=all --changeMode=patched", (o, b) -> {
      if (b) {
        PerfArgsParser.setChanges(o, "all");
        o.changeMode = PerfOptions.ChangeMode.PATCHED;
      }
    }),
    value(SCENARIOS, "reportDir", "DIR", "where scenarios write their .md and .csv tables "
      + "(default hbase-perf-results)", (o, v) -> o.reportDir = nonEmpty("--reportDir", v)),
    value(SCENARIOS, "encodings", "LIST", "encodingCompression's encodings (default none,prefix,"
      + "diff,fast_diff,row_index_v1)", (o, v) -> PerfArgsParser.setList(o.encodings,
        "--encodings", v, DataBlockEncoding.class)),
    value(SCENARIOS, "compressions", "LIST", "encodingCompression's codecs (default none,snappy,"
      + "gz,zstd)", (o, v) -> PerfArgsParser.setList(o.compressions, "--compressions", v,
        Compression.Algorithm.class)),
    value(SCENARIOS, "fault", "KIND", "replicaFailover: abort (default) or stop the primary's "
      + "region server", (o, v) -> o.fault = PerfArgsParser.fault(v)),
    value(SCENARIOS, "faultAfter", "TIME", "replicaFailover: when in each run (default 30% of "
      + "--duration)", (o, v) -> o.faultAfter = ValueParsers.duration("--faultAfter", v, false)),
    value(SCENARIOS, "failoverModes", "LIST", "replicaFailover: modes in run order (default "
      + "baseline,upstream,patched)", PerfArgsParser::setFailoverModes),
    value(SCENARIOS, "throttle", "LIMIT", "throttledUsers: the throttled user's request limit "
      + "(default 50req/sec; also 1000req/min)", (o, v) -> o.throttle = PerfArgsParser.throttle(v)),

    flag(CLUSTER, "nomapred", "accepted for hbase pe habits; clients are always threads here",
      (o, b) -> { }));

  /** commons-cli's name of the {@code -Dkey=value} option. */
  static final String SETTING = "D";

  String group() {
    return group;
  }

  String name() {
    return name;
  }

  String help() {
    return help;
  }

  boolean isFlag() {
    return valueHint == null;
  }

  void apply(PerfOptions o, String value) {
    setter.accept(o, value);
  }

  /** The option a name (or an alias) on the command line stands for, or null. */
  static OptionSpec byName(String typed) {
    for (OptionSpec s : ALL) {
      if (s.name.equals(typed) || s.aliases.contains(typed)) {
        return s;
      }
    }
    return null;
  }

  /** The option commons-cli reported under {@code longName}; it only reports ours. */
  static OptionSpec named(String longName) {
    OptionSpec s = byName(longName);
    if (s == null) {
      throw new IllegalStateException("no option table entry for --" + longName);
    }
    return s;
  }

  static Set<String> groups() {
    Set<String> g = new LinkedHashSet<>();
    ALL.forEach(s -> g.add(s.group));
    return g;
  }

  /**
   * The table as commons-cli options. Every option takes one value (a bare boolean flag is
   * given {@code true} before parsing); aliases are options of their own with the same setter.
   */
  static Options cliOptions(boolean withAliases) {
    Options all = new Options();
    for (OptionSpec s : ALL) {
      all.addOption(s.cliOption(s.name, false));
      if (withAliases) {
        s.aliases.forEach(a -> all.addOption(s.cliOption(a, false)));
      }
    }
    all.addOption(Option.builder(SETTING).argName("key=value").numberOfArgs(2).valueSeparator('=')
      .desc("an HBase setting, for the client and the embedded cluster").build());
    return all;
  }

  /** One --help group's options, with the -D setting under the last group. */
  static Options cliOptions(String group) {
    Options some = new Options();
    ALL.stream().filter(s -> s.group.equals(group)).forEach(s -> some.addOption(
      s.cliOption(s.name, true)));
    if (group.equals(ALL.get(ALL.size() - 1).group)) {
      some.addOption(cliOptions(false).getOption(SETTING));
    }
    return some;
  }

  /** @param forHelp true to show a boolean flag bare, as users mostly type it */
  private Option cliOption(String longName, boolean forHelp) {
    Option.Builder b = Option.builder().longOpt(longName).desc(help);
    if (!isFlag() || !forHelp) {
      b.hasArg().argName(isFlag() ? "true|false" : valueHint);
    }
    return b.build();
  }

  private static String nonEmpty(String option, String v) {
    if (v.isBlank()) {
      throw ToolFailure.usage(option + " needs a value");
    }
    return v.trim();
  }

  private static double zipfExponent(String v) {
    double x = ValueParsers.decimal("--zipfExponent", v, 0, 1);
    if (x >= 1.0) {
      throw ToolFailure.usage("--zipfExponent: " + v + " must be below 1");
    }
    return x;
  }

  private static String bloomType(String v) {
    BloomType t = ValueParsers.choice("--bloomFilter", v, BloomType.class);
    if (t == BloomType.ROWPREFIX_FIXED_LENGTH) {
      throw ToolFailure.usage("--bloomFilter: rowprefix_fixed_length is not supported here; use "
        + "none, row or rowcol");
    }
    return t.name();
  }

  private static void setTable(PerfOptions o, String v) {
    try {
      TableName.valueOf(v);
    } catch (IllegalArgumentException e) {
      throw ToolFailure.usage("--table: '" + v + "' is not a valid table name: " + e.getMessage());
    }
    o.table = v;
  }
}
