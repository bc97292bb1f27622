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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Reads {@code [options] <command>[,<command>...] [nclients]} into {@link PerfOptions}, in the
 * habit of {@code hbase pe}: {@code --name=value} or {@code --name value}, boolean options as
 * bare flags, {@code -Dkey=value} for HBase settings. Every mistake becomes a
 * {@link ToolFailure#usage} naming the option and what it accepts.
 */
public final class PerfArgsParser {

  /** Largest key space: row keys are {@link RowKeys#WIDTH} decimal digits. */
  static final long MAX_TOTAL_ROWS = 9_999_999_999L;

  private static final int USAGE_WIDTH = 100;

  private PerfArgsParser() {
  }

  /** True when the user asked for the usage text, wherever in the line. */
  public static boolean wantsHelp(String... args) {
    return args.length == 0 || Arrays.stream(args)
      .anyMatch(a -> a.equals("-h") || a.equals("--help") || a.equals("help"));
  }

  public static PerfOptions parse(String... args) {
    PerfOptions o = new PerfOptions();
    List<String> positional = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (arg.startsWith("-D")) {
        String setting = arg.length() > 2 ? arg.substring(2) : nextValue(args, i++, "-D");
        putSetting(o, setting);
      } else if (arg.startsWith("--")) {
        int eq = arg.indexOf('=');
        String name = eq < 0 ? arg.substring(2) : arg.substring(2, eq);
        OptionSpec spec = find(name);
        String value;
        if (eq >= 0) {
          value = arg.substring(eq + 1);
        } else if (spec.isFlag()) {
          value = "true";
        } else {
          value = nextValue(args, i++, arg);
        }
        spec.apply(o, value);
      } else if (arg.startsWith("-") && arg.length() > 1) {
        throw ToolFailure.usage("unknown option '" + arg + "'; options start with --, "
          + "settings with -D (see --help)");
      } else {
        positional.add(arg);
      }
    }
    readPositional(o, positional);
    validate(o);
    return o;
  }

  private static String nextValue(String[] args, int i, String option) {
    if (i + 1 >= args.length || args[i + 1].startsWith("--")) {
      throw ToolFailure.usage(option + " needs a value");
    }
    return args[i + 1];
  }

  private static void putSetting(PerfOptions o, String setting) {
    int eq = setting.indexOf('=');
    if (eq <= 0) {
      throw ToolFailure.usage("-D wants key=value, got '" + setting + "'");
    }
    o.settings.put(setting.substring(0, eq).trim(), setting.substring(eq + 1).trim());
  }

  private static OptionSpec find(String name) {
    for (OptionSpec s : OptionSpec.ALL) {
      if (s.answersTo(name)) {
        return s;
      }
    }
    String hint = closest(name).map(s -> "; did you mean --" + s.name() + "?").orElse("");
    throw ToolFailure.usage("unknown option '--" + name + "'" + hint + " (see --help)");
  }

  private static Optional<OptionSpec> closest(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    return OptionSpec.ALL.stream()
      .min(Comparator.comparingInt(s -> editDistance(lower, s.name().toLowerCase(Locale.ROOT))))
      .filter(s -> editDistance(lower, s.name().toLowerCase(Locale.ROOT)) <= 3);
  }

  static int editDistance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitute = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        cur[j] = Math.min(substitute, Math.min(prev[j] + 1, cur[j - 1] + 1));
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
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
    String hint = Command.byNameIgnoringCase(name).map(c -> "; did you mean " + c.cliName() + "?")
      .orElse("");
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
    if (o.commands.contains(Command.CACHED_READS) && o.totalRows() < CachedReads.MULTI_GET) {
      throw ToolFailure.usage("cachedReads multi-gets " + CachedReads.MULTI_GET + " rows at a "
        + "time; use --rows x nclients of at least that");
    }
    if (o.rows > MAX_TOTAL_ROWS / o.clients) {
      throw ToolFailure.usage("--rows x nclients must be at most " + MAX_TOTAL_ROWS
        + " (row keys are " + RowKeys.WIDTH + " digits)");
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
      if (!o.changes.isEmpty()) {
        throw ToolFailure.usage("--changes/--patched turn change modules on in the embedded "
          + "cluster only; on a real cluster set them in the region servers' hbase-site.xml");
      }
    }
    if (o.verify && o.commands.contains(Command.INCREMENT) && o.totalRows() > 50_000_000L) {
      throw ToolFailure.usage("--verify with increment keeps a counter per row; use at most "
        + "50,000,000 rows x nclients");
    }
    boolean writes = o.commands.stream().anyMatch(Command::writesRows)
      || o.commands.contains(Command.SEED_TABLE)
      || o.commands.contains(Command.CACHED_READS);
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
    String group = null;
    for (OptionSpec s : OptionSpec.ALL) {
      if (!s.group().equals(group)) {
        group = s.group();
        b.append('\n').append(group).append(":\n");
      }
      b.append(wrap(String.format(Locale.ROOT, "  %-28s %s", s.synopsis(), s.help()), 31));
    }
    b.append(wrap(String.format(Locale.ROOT, "  %-28s %s", "-Dkey=value",
      "an HBase setting, for the client and the embedded cluster"), 31));
    b.append("\nExit codes: 0 ok; 1 operations failed or verification found lost/wrong values;\n");
    b.append("2 bad command line; 3 cluster unreachable or table not prepared; 4 internal "
      + "error.\n");
    b.append("\nExample: hbase-perf --rows=100000 --verify sequentialWrite,randomRead 2\n");
    return b.toString();
  }

  /** Breaks a help line at spaces to fit 100 columns, continuing under its description. */
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

  static void setChangeMode(PerfOptions o, String v) {
    o.changeMode = ValueParsers.choice("changeMode", v, ChangeMode.class);
  }

  static void setChanges(PerfOptions o, String v) {
    o.changes.clear();
    for (String name : v.split(",")) {
      String n = name.trim();
      if (n.isEmpty() || n.equals("none")) {
        continue;
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
