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
package dev.hbasepatches.jmh.report;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hbase.thirdparty.com.google.gson.JsonArray;
import org.apache.hbase.thirdparty.com.google.gson.JsonElement;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;
import org.apache.hbase.thirdparty.com.google.gson.JsonParser;
import org.apache.hbase.thirdparty.org.apache.commons.cli.CommandLine;
import org.apache.hbase.thirdparty.org.apache.commons.cli.DefaultParser;
import org.apache.hbase.thirdparty.org.apache.commons.cli.HelpFormatter;
import org.apache.hbase.thirdparty.org.apache.commons.cli.Option;
import org.apache.hbase.thirdparty.org.apache.commons.cli.Options;
import org.apache.hbase.thirdparty.org.apache.commons.cli.ParseException;

/**
 * What a committer runs after a rebase, in the spirit of Go's {@code benchstat}: two JMH JSON
 * result files in (or two modes of one file), per benchmark case the ratio with its 95% interval
 * over forks ({@link ForkStats#ratio}) and a verdict out. A ratio above 1 always means the second
 * side is better (higher throughput, or lower time per operation).
 *
 * <pre>
 * java -cp benchmarks.jar dev.hbasepatches.jmh.report.Compare old.json new.json
 * java -cp benchmarks.jar dev.hbasepatches.jmh.report.Compare --modes UPSTREAM,PATCHED run.json
 * </pre>
 */
public final class Compare {

  /** One benchmark case's per-fork scores. */
  record Side(String unit, String jmhMode, double[] forks) {
  }

  /** One line of the comparison. */
  record Row(String benchmark, String params, Side a, Side b, ForkStats.Interval ratio,
    String verdict) {
  }

  private Compare() {
  }

  public static void main(String[] args) {
    Options options = new Options();
    options.addOption(Option.builder().longOpt("modes").hasArg().argName("A,B")
      .desc("compare mode B against mode A inside one result file (the @Param named mode)")
      .build());
    options.addOption(Option.builder().longOpt("target").hasArg().argName("RATIO")
      .desc("judge every ratio against this target: met / not met / inconclusive").build());
    options.addOption(Option.builder("h").longOpt("help").desc("this text").build());
    try {
      CommandLine cl = new DefaultParser().parse(options, args);
      if (cl.hasOption("help")) {
        usage(options);
        return;
      }
      Double target = cl.hasOption("target") ? parseTarget(cl.getOptionValue("target")) : null;
      List<String> files = cl.getArgList();
      List<Row> rows;
      if (cl.hasOption("modes")) {
        String[] modes = cl.getOptionValue("modes").split(",");
        if (modes.length != 2 || files.size() != 1) {
          throw new BadInputException("--modes takes two modes (A,B) and one result file");
        }
        rows = compareModes(read(Paths.get(files.get(0))), modes[0].trim(), modes[1].trim(),
          target);
      } else {
        if (files.size() != 2) {
          throw new BadInputException("expected two result files (old new), got " + files.size());
        }
        rows = compareFiles(read(Paths.get(files.get(0))), read(Paths.get(files.get(1))), target);
      }
      print(System.out, rows, target);
    } catch (ParseException | BadInputException e) {
      System.err.println("compare: " + e.getMessage());
      usage(options);
      System.exit(2);
    }
  }

  private static void usage(Options options) {
    new HelpFormatter().printHelp("Compare [--target R] OLD.json NEW.json | --modes A,B RUN.json",
      options);
  }

  private static double parseTarget(String s) throws BadInputException {
    try {
      double t = Double.parseDouble(s);
      if (t > 0 && Double.isFinite(t)) {
        return t;
      }
    } catch (NumberFormatException e) {
      // fall through to the message below
    }
    throw new BadInputException("--target must be a positive ratio, got '" + s + "'");
  }

  /** Every case of a JMH JSON file, keyed by benchmark and all params in file order. */
  static Map<String, Side> read(Path file) throws BadInputException {
    String text;
    try {
      text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
    } catch (java.io.IOException e) {
      throw new BadInputException("cannot read " + file + ": " + e);
    }
    return read(text, file.toString());
  }

  static Map<String, Side> read(String text, String source) throws BadInputException {
    JsonElement root;
    try {
      root = JsonParser.parseString(text);
    } catch (RuntimeException e) {
      throw new BadInputException(source + " is not JSON: " + e.getMessage());
    }
    if (!root.isJsonArray()) {
      throw new BadInputException(source + " is not a JMH result file (expected a JSON array)");
    }
    Map<String, Side> out = new LinkedHashMap<>();
    int i = 0;
    for (JsonElement e : root.getAsJsonArray()) {
      String where = source + " entry " + i++;
      if (!e.isJsonObject() || !e.getAsJsonObject().has("benchmark")
        || !e.getAsJsonObject().has("primaryMetric")) {
        throw new BadInputException(where + ": no benchmark / primaryMetric");
      }
      JsonObject o = e.getAsJsonObject();
      JsonObject pm = o.getAsJsonObject("primaryMetric");
      JsonElement raw = pm.get("rawData");
      if (raw == null || !raw.isJsonArray()) {
        throw new BadInputException(where + ": primaryMetric has no rawData");
      }
      JsonArray forks = raw.getAsJsonArray();
      double[][] its = new double[forks.size()][];
      for (int f = 0; f < its.length; f++) {
        JsonArray it = forks.get(f).getAsJsonArray();
        its[f] = new double[it.size()];
        for (int k = 0; k < its[f].length; k++) {
          its[f][k] = it.get(k).getAsDouble();
        }
      }
      String key = o.get("benchmark").getAsString() + " " + params(o);
      out.put(key, new Side(pm.get("scoreUnit").getAsString(), o.get("mode").getAsString(),
        ForkStats.forkMeans(its)));
    }
    return out;
  }

  private static String params(JsonObject o) {
    if (!o.has("params")) {
      return "";
    }
    Map<String, String> p = new TreeMap<>();
    for (Map.Entry<String, JsonElement> e : o.getAsJsonObject("params").entrySet()) {
      p.put(e.getKey(), e.getValue().getAsString());
    }
    StringBuilder sb = new StringBuilder();
    p.forEach((k, v) -> sb.append(sb.length() == 0 ? "" : " ").append(k).append('=').append(v));
    return sb.toString();
  }

  static List<Row> compareFiles(Map<String, Side> old, Map<String, Side> now, Double target) {
    List<Row> rows = new ArrayList<>();
    for (Map.Entry<String, Side> e : old.entrySet()) {
      Side b = now.get(e.getKey());
      if (b != null) {
        int sp = e.getKey().indexOf(' ');
        rows.add(row(e.getKey().substring(0, sp), e.getKey().substring(sp + 1), e.getValue(), b,
          target));
      }
    }
    return rows;
  }

  static List<Row> compareModes(Map<String, Side> run, String modeA, String modeB,
    Double target) throws BadInputException {
    List<Row> rows = new ArrayList<>();
    String tagA = "mode=" + modeA;
    for (Map.Entry<String, Side> e : run.entrySet()) {
      String key = e.getKey();
      if (!(" " + key + " ").contains(" " + tagA + " ")) {
        continue;
      }
      Side b = run.get((key + " ").replace(" " + tagA + " ", " mode=" + modeB + " ").trim());
      if (b != null) {
        int sp = key.indexOf(' ');
        String params = (" " + key.substring(sp + 1) + " ").replace(" " + tagA + " ", " ").trim();
        rows.add(row(key.substring(0, sp), params, e.getValue(), b, target));
      }
    }
    if (rows.isEmpty()) {
      throw new BadInputException("no case has both mode=" + modeA + " and mode=" + modeB);
    }
    return rows;
  }

  private static Row row(String benchmark, String params, Side a, Side b, Double target) {
    boolean lowerBetter = Ratio.lowerIsBetter(a.unit());
    ForkStats.Interval r = lowerBetter ? ForkStats.ratio(a.forks(), b.forks())
      : ForkStats.ratio(b.forks(), a.forks());
    String verdict;
    if (target != null) {
      verdict = r.against(target).toString();
    } else if (r.low() > 1) {
      verdict = "better";
    } else if (r.high() < 1) {
      verdict = "worse";
    } else {
      verdict = Double.isFinite(r.low()) ? "no change" : "n/a";
    }
    if (!r.quotable()) {
      verdict += " (" + Math.min(a.forks().length, b.forks().length) + " forks < "
        + ForkStats.MIN_FORKS + ")";
    }
    return new Row(benchmark, params, a, b, r, verdict);
  }

  static void print(PrintStream out, List<Row> rows, Double target) {
    out.println("Ratio > 1: the second side is better. 95% interval over forks (Welch, log"
      + " scale)" + (target != null ? "; verdict against target " + target : "") + ".");
    out.println();
    out.println("| benchmark | params | unit | A (forks) | B (forks) | B vs A | 95% interval |"
      + " verdict |");
    out.println("|---|---|---|---|---|---|---|---|");
    for (Row r : rows) {
      out.printf(Locale.ROOT, "| %s | %s | %s | %s (%d) | %s (%d) | %s | %s to %s | %s |%n",
        r.benchmark().substring(r.benchmark().lastIndexOf('.', r.benchmark().lastIndexOf('.') - 1)
          + 1), r.params(), r.a().unit(), sig3(mean(r.a().forks())), r.a().forks().length,
        sig3(mean(r.b().forks())), r.b().forks().length, sig3(r.ratio().estimate()),
        sig3(r.ratio().low()), sig3(r.ratio().high()), r.verdict());
    }
  }

  private static double mean(double[] v) {
    double s = 0;
    for (double x : v) {
      s += x;
    }
    return v.length == 0 ? Double.NaN : s / v.length;
  }

  /** Three significant figures, the precision a benchmark interval can carry. */
  static String sig3(double v) {
    if (!Double.isFinite(v)) {
      return "n/a";
    }
    return new java.math.BigDecimal(v).round(new java.math.MathContext(3)).stripTrailingZeros()
      .toPlainString();
  }
}
