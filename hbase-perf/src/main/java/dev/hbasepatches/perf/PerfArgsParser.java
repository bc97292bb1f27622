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

import dev.hbasepatches.perf.PerfOptions.ChangeMode;
import dev.hbasepatches.perf.PerfOptions.KeyDistribution;
import dev.hbasepatches.perf.PerfOptions.ValueSizes;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.DefaultParser;
import org.apache.commons.cli.HelpFormatter;
import org.apache.commons.cli.MissingArgumentException;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.commons.cli.ParseException;
import org.apache.commons.cli.UnrecognizedOptionException;
import org.apache.commons.text.similarity.LevenshteinDistance;

/**
 * Reads {@code [options] <command>[,<command>...] [nclients]} into {@link PerfOptions}, in the
 * habit of {@code hbase pe}: {@code --name=value} or {@code --name value}, boolean options bare
 * ({@code --verify}) or with a value ({@code --autoFlush=true}), {@code -Dkey=value} for HBase
 * settings. commons-cli does the parsing from the {@link OptionSpec} table; every mistake becomes
 * a {@link ToolFailure#usage} naming the option and what it accepts, with the nearest known name
 * when one was mistyped.
 */
public final class PerfArgsParser {

  /** Largest key space the tool accepts. */
  static final long MAX_TOTAL_ROWS = RowKeys.MAX_ROWS;

  private static final int USAGE_WIDTH = 100;
  /** Names further than this from every known one get no suggestion. */
  private static final int SUGGEST_DISTANCE = 3;
  private static final LevenshteinDistance DISTANCE = new LevenshteinDistance(SUGGEST_DISTANCE);

  private PerfArgsParser() {
  }

  /** True when the user asked for the usage text, wherever in the line. */
  public static boolean wantsHelp(String... args) {
    return args.length == 0 || Arrays.stream(args)
      .anyMatch(a -> a.equals("-h") || a.equals("--help") || a.equals("help"));
  }

  public static PerfOptions parse(String... args) {
    PerfOptions o = new PerfOptions();
    CommandLine line;
    try {
      line = DefaultParser.builder().setAllowPartialMatching(false).build()
        .parse(OptionSpec.cliOptions(true), withFlagValues(args), false);
    } catch (UnrecognizedOptionException e) {
      throw unknownOption(e.getOption());
    } catch (MissingArgumentException e) {
      throw ToolFailure.usage(display(e.getOption()) + " needs a value");
    } catch (ParseException e) {
      throw ToolFailure.usage(e.getMessage());
    }
    for (Option given : line.getOptions()) {
      if (OptionSpec.SETTING.equals(given.getOpt())) {
        putSetting(o, given.getValues());
      } else {
        OptionSpec.named(given.getLongOpt()).apply(o, given.getValue());
      }
    }
    readPositional(o, line.getArgList());
    validate(o);
    return o;
  }

  /**
   * Bare boolean options get the value {@code true}, so every option takes exactly one value and
   * {@code --verify scan} cannot read {@code scan} as the flag's value.
   */
  private static String[] withFlagValues(String[] args) {
    String[] out = args.clone();
    for (int i = 0; i < out.length; i++) {
      String a = out[i];
      if (a.startsWith("--") && a.indexOf('=') < 0) {
        OptionSpec s = OptionSpec.byName(a.substring(2));
        if (s != null && s.isFlag()) {
          out[i] = a + "=true";
        }
      }
    }
    return out;
  }

  private static String display(Option o) {
    return o.getLongOpt() != null ? "--" + o.getLongOpt() : "-" + o.getOpt();
  }

  private static ToolFailure unknownOption(String typed) {
    if (!typed.startsWith("--")) {
      return ToolFailure.usage("unknown option '" + typed + "'; options start with --, "
        + "settings with -D (see --help)");
    }
    int eq = typed.indexOf('=');
    String name = typed.substring(2, eq < 0 ? typed.length() : eq);
    String hint = nearest(name, OptionSpec.ALL.stream().map(OptionSpec::name))
      .map(n -> "; did you mean --" + n + "?").orElse("");
    return ToolFailure.usage("unknown option '--" + name + "'" + hint + " (see --help)");
  }

  /** The known name closest to {@code typed} (case ignored), if any is close enough. */
  static Optional<String> nearest(String typed, Stream<String> known) {
    String lower = typed.toLowerCase(Locale.ROOT);
    return known
      .map(k -> new Object[] { k, DISTANCE.apply(lower, k.toLowerCase(Locale.ROOT)) })
      .filter(p -> (Integer) p[1] >= 0)
      .min(Comparator.comparingInt(p -> (Integer) p[1]))
      .map(p -> (String) p[0]);
  }

  private static void putSetting(PerfOptions o, String[] keyValue) {
    if (keyValue == null || keyValue.length != 2 || keyValue[0].isBlank()) {
      throw ToolFailure.usage("-D wants key=value, got '"
        + (keyValue == null ? "" : String.join("=", keyValue)) + "'");
    }
    o.settings.put(keyValue[0].trim(), keyValue[1].trim());
  }

  private static void readPositional(PerfOptions o, List<String> positional) {
    if (positional.isEmpty()) {
      throw ToolFailure.usage("no command given; commands: " + Command.allNames());
    }
    if (positional.size() > 2) {
      throw ToolFailure.usage("expected <command> [nclients], got extra arguments "
        + positional.subList(2, positional.size()));
    }
    for (String name : positional.get(0).split(",")) {
      String trimmed = name.trim();
      Command c = Command.byName(trimmed).orElseThrow(() -> unknownCommand(trimmed));
      o.commands.add(c);
    }
    if (positional.size() == 2) {
      o.clients = (int) ValueParsers.count("nclients", positional.get(1), 1, 1000);
    }
  }

  private static ToolFailure unknownCommand(String name) {
    String hint = nearest(name, Arrays.stream(Command.values()).map(Command::cliName))
      .map(c -> "; did you mean " + c + "?").orElse("");
    if (name.matches("\\d+")) {
      hint = "; the command comes before nclients";
    }
    return ToolFailure.usage("unknown command '" + name + "'" + hint + "\ncommands: "
      + Command.allNames());
  }

  /** Checks that hold between options, once all are read. */
  private static void validate(PerfOptions o) {
    if (o.commands.contains(Command.SEED_TABLE) && o.commands.size() > 1) {
      throw ToolFailure.usage("seedTable runs its own six commands; give it on its own");
    }
    if (o.commands.contains(Command.CACHED_READS) && o.commands.size() > 1) {
      throw ToolFailure.usage("cachedReads runs its own load, warm-up and reads; give it on its "
        + "own");
    }
    for (Command c : o.commands) {
      if (c.isScenario() && o.commands.size() > 1) {
        throw ToolFailure.usage(c.cliName() + " is a scenario that runs its own commands; give "
          + "it on its own");
      }
      if (c.isScenario() && !o.embedded()) {
        throw ToolFailure.usage(c.cliName() + " runs on the embedded cluster only (it measures "
          + "store files, or stops region servers); drop --zk / --siteXml");
      }
    }
    if (o.commands.contains(Command.REPLICA_FAILOVER)) {
      if (o.regionServers == 1) {
        o.regionServers = ReplicaFailover.SERVERS;
      } else if (o.regionServers < ReplicaFailover.SERVERS) {
        throw ToolFailure.usage("replicaFailover needs --regionServers of at least "
          + ReplicaFailover.SERVERS + " (one per replica)");
      }
      o.replicas = ReplicaFailover.SERVERS;
    }
    if (o.commands.contains(Command.REPLICA_FAILOVER) && o.changes.contains("timeline-reads")) {
      throw ToolFailure.usage("replicaFailover reads through timeline-reads' reader in its own "
        + "modes (--failoverModes); drop --changes=timeline-reads");
    }
    if (o.commands.contains(Command.CACHED_READS) && o.totalRows() < CachedReads.MULTI_GET) {
      throw ToolFailure.usage("cachedReads multi-gets " + CachedReads.MULTI_GET + " rows at a "
        + "time; use --rows x nclients of at least that");
    }
    if (o.rows > MAX_TOTAL_ROWS / o.clients) {
      throw ToolFailure.usage("--rows x nclients must be at most " + MAX_TOTAL_ROWS);
    }
    if (o.presplit > o.totalRows()) {
      throw ToolFailure.usage("--presplit=" + o.presplit + " asks for more regions than the "
        + o.totalRows() + " rows to spread over them");
    }
    if (!o.embedded()) {
      if (o.regionServers != 1) {
        throw ToolFailure.usage("--regionServers sizes the embedded cluster; it cannot be used "
          + "with --zk or --siteXml");
      }
      boolean serverSide = o.changes.stream().anyMatch(n -> n.equals("all")
        || !ChangeModules.byName(n).get().isClientSide());
      if (serverSide) {
        throw ToolFailure.usage("--changes/--patched turn server-side change modules on in the "
          + "embedded cluster only; on a real cluster set them in the region servers' "
          + "hbase-site.xml (client-side ones, such as timeline-reads, may be named alone)");
      }
    }
    boolean rowIndex = o.changes.contains("row-index")
      || (o.changes.contains("all") && ChangeModules.byName("row-index").get().onClasspath());
    if (rowIndex && o.changeMode != ChangeMode.BASELINE) {
      // The change works through the family's encoding: the table is created with it.
      if (o.blockEncoding.equals("NONE")) {
        o.blockEncoding = "ROW_INDEX_V1";
      } else if (!o.blockEncoding.equals("ROW_INDEX_V1")) {
        throw ToolFailure.usage("--changes=row-index works through ROW_INDEX_V1; --blockEncoding="
          + o.blockEncoding + " would not use it");
      }
    }
    if (o.verify && o.commands.contains(Command.INCREMENT) && o.totalRows() > 50_000_000L) {
      throw ToolFailure.usage("--verify with increment keeps a counter per row; use at most "
        + "50,000,000 rows x nclients");
    }
    boolean writes = o.commands.stream().anyMatch(Command::writesRows)
      || o.commands.contains(Command.SEED_TABLE)
      || o.commands.contains(Command.CACHED_READS)
      || o.commands.contains(Command.ENCODING_COMPRESSION);
    if (o.verify && writes && o.totalRows() > RowSet.MAX_ROWS) {
      throw ToolFailure.usage("--verify of writes keeps a bit per row; use at most "
        + RowSet.MAX_ROWS + " rows x nclients");
    }
    if (o.multiGet > 1 && o.multiGet > o.totalRows()) {
      throw ToolFailure.usage("--multiGet=" + o.multiGet + " is larger than the " + o.totalRows()
        + " rows in the table");
    }
  }

  /** The text {@code --help} prints. */
  public static String usage() {
    StringBuilder b = new StringBuilder();
    b.append("Usage: hbase-perf [options] <command>[,<command>...] [nclients]\n\n");
    b.append("Runs nclients client threads (default 1) against an embedded minicluster, or a\n");
    b.append("real cluster given --zk or --siteXml. Each client owns --rows rows.\n\n");
    b.append("Commands:\n");
    for (Command c : Command.values()) {
      b.append(wrap(String.format(Locale.ROOT, "  %-16s %s", c.cliName(), c.description()), 19));
    }
    HelpFormatter help = new HelpFormatter();
    help.setOptionComparator(null);
    help.setLongOptSeparator("=");
    for (String group : OptionSpec.groups()) {
      b.append('\n').append(group).append(":\n");
      StringWriter text = new StringWriter();
      try (PrintWriter w = new PrintWriter(text)) {
        help.printOptions(w, USAGE_WIDTH, OptionSpec.cliOptions(group), 2, 2);
      }
      b.append(text);
    }
    b.append("\nExit codes: 0 ok; 1 operations failed or verification found lost/wrong values;\n");
    b.append("2 bad command line; 3 cluster unreachable or table not prepared; 4 internal "
      + "error.\n");
    b.append("\nExample: hbase-perf --rows=100000 --verify sequentialWrite,randomRead 2\n");
    return b.toString();
  }

  /** Breaks a command's help line at spaces to fit 100 columns, under its description. */
  static String wrap(String line, int indent) {
    StringBuilder b = new StringBuilder();
    String rest = line;
    while (rest.length() > USAGE_WIDTH) {
      int cut = rest.lastIndexOf(' ', USAGE_WIDTH);
      if (cut <= indent) {
        break;
      }
      b.append(rest, 0, cut).append('\n');
      rest = " ".repeat(indent) + rest.substring(cut + 1);
    }
    return b.append(rest).append('\n').toString();
  }

  /** Setters the option table uses; each names the option in its error. */
  static void setValueSizes(PerfOptions o, String v) {
    o.valueSizes = ValueParsers.choice("valueSizes", v, ValueSizes.class);
  }

  static void setKeys(PerfOptions o, String v) {
    o.keyDistribution = ValueParsers.choice("keys", v, KeyDistribution.class);
  }

  /** Replaces {@code list} with the comma-separated enum names in {@code v}, checked. */
  static <E extends Enum<E>> void setList(List<String> list, String option, String v,
    Class<E> type) {
    List<String> names = new ArrayList<>();
    for (String part : v.split(",")) {
      String name = ValueParsers.choice(option, part.trim(), type).name();
      if (names.contains(name)) {
        throw ToolFailure.usage(option + " names " + name + " twice");
      }
      names.add(name);
    }
    list.clear();
    list.addAll(names);
  }

  static void setFailoverModes(PerfOptions o, String v) {
    List<ChangeMode> modes = new ArrayList<>();
    for (String part : v.split(",")) {
      ChangeMode m = ValueParsers.choice("--failoverModes", part.trim(), ChangeMode.class);
      if (modes.contains(m)) {
        throw ToolFailure.usage("--failoverModes names " + m + " twice");
      }
      modes.add(m);
    }
    o.failoverModes.clear();
    o.failoverModes.addAll(modes);
  }

  static String fault(String v) {
    String f = v.trim().toLowerCase(Locale.ROOT);
    if (!f.equals("abort") && !f.equals("stop")) {
      throw ToolFailure.usage("--fault must be abort or stop, not '" + v + "'");
    }
    return f;
  }

  /** A request limit as set_quota writes it: N req/sec|min|hour|day. */
  static String throttle(String v) {
    String t = v.trim().toLowerCase(Locale.ROOT).replace(" ", "");
    if (!t.matches("[1-9][0-9]{0,8}req/(sec|min|hour|day)")) {
      throw ToolFailure.usage("--throttle must look like 50req/sec (req per sec, min, hour or "
        + "day), not '" + v + "'");
    }
    return t;
  }

  static void setChangeMode(PerfOptions o, String v) {
    o.changeMode = ValueParsers.choice("--changeMode", v, ChangeMode.class);
  }

  static void setChanges(PerfOptions o, String v) {
    o.changes.clear();
    for (String name : v.split(",")) {
      String n = name.trim();
      if (n.isEmpty() || n.equals("none")) {
        continue;
      }
      Optional<String> elsewhere = ChangeModules.elsewhere(n);
      if (elsewhere.isPresent()) {
        throw ToolFailure.usage("--changes=" + n + " is not run by hbase-perf: "
          + elsewhere.get());
      }
      if (!n.equals("all") && ChangeModules.byName(n).isEmpty()) {
        throw ToolFailure.usage("--changes: unknown change module '" + n + "'; known: all, "
          + ChangeModules.names());
      }
      o.changes.add(n);
    }
  }

  static void setDuration(PerfOptions o, String v) {
    o.duration = ValueParsers.duration("--duration", v, false);
  }

  static void setProgress(PerfOptions o, String v) {
    o.progressInterval = ValueParsers.duration("--progress", v, true);
  }
}
