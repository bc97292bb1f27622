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
 * java -cp benchmarks.jar dev.hbasepatches.jmh.report.Compare --modes UPSTREAM,PATCHED --paired \
 *   r01-UPSTREAM.json r01-PATCHED.json r02-UPSTREAM.json r02-PATCHED.json ...
 * </pre>
 *
 * With {@code --modes}, several files are one run: each case's forks are taken in file order.
 * {@code --paired} pairs fork i of one mode with fork i of the other (paired single forks run back
 * to back, one pair per round) and summarises the pair ratios ({@link ForkStats#pairedRatio});
 * without it the two sides are independent samples of forks ({@link ForkStats#ratio}).
 * {@code --cpu NAME} compares work per CPU second (score divided by a CPU-nanoseconds counter in
 * the score's time unit, per iteration); {@code --metric NAME} compares a secondary metric (such as
 * {@code gc.alloc.rate.norm}) instead of the score.
 */
public final class Compare {

  /** One benchmark case's per-fork scores. */
  record Side(String unit, String jmhMode, double[] forks) {
    Side plus(Side more) {
      double[] all = java.util.Arrays.copyOf(forks, forks.length + more.forks.length);
      System.arraycopy(more.forks, 0, all, forks.length, more.forks.length);
      return new Side(unit, jmhMode, all);
    }
  }

  /** What is compared: the primary score, a secondary metric, or the score per CPU second. */
  record Measure(String metric, String cpu) {
    static final Measure SCORE = new Measure(null, null);
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
    options.addOption(Option.builder().longOpt("paired").desc("with --modes: fork i of A and"
      + " fork i of B are a pair (paired single forks); summarise the pair ratios").build());
    options.addOption(Option.builder().longOpt("cpu").hasArg().argName("COUNTER")
      .desc("compare score per CPU second, COUNTER holding CPU nanoseconds per score time unit"
        + " (e.g. cpuNanos)").build());
    options.addOption(Option.builder().longOpt("metric").hasArg().argName("NAME")
      .desc("compare this secondary metric instead of the score (e.g. gc.alloc.rate.norm)")
      .build());
    options.addOption(Option.builder("h").longOpt("help").desc("this text").build());
    try {
      CommandLine cl = new DefaultParser().parse(options, args);
      if (cl.hasOption("help")) {
        usage(options);
        return;
      }
      Double target = cl.hasOption("target") ? parseTarget(cl.getOptionValue("target")) : null;
      if (cl.hasOption("cpu") && cl.hasOption("metric")) {
        throw new BadInputException("--cpu and --metric cannot be combined");
      }
      Measure measure = new Measure(cl.getOptionValue("metric"), cl.getOptionValue("cpu"));
      boolean paired = cl.hasOption("paired");
      List<String> files = cl.getArgList();
      List<Row> rows;
      if (cl.hasOption("modes")) {
        String[] modes = cl.getOptionValue("modes").split(",");
        if (modes.length != 2 || files.isEmpty()) {
          throw new BadInputException("--modes takes two modes (A,B) and one or more result files");
        }
        Map<String, Side> run = new LinkedHashMap<>();
        for (String f : files) {
          Path path = Paths.get(f);
          if (Files.isRegularFile(path) && sizeOf(path) == 0) {
            System.err.println("compare: " + f + " is empty (a fork that never finished); skipped");
            continue;
          }
          read(path, measure).forEach((k, v) -> run.merge(k, v, Side::plus));
        }
        rows = compareModes(run, modes[0].trim(), modes[1].trim(), target, paired);
      } else {
        if (files.size() != 2) {
          throw new BadInputException("expected two result files (old new), got " + files.size());
        }
        if (paired) {
          throw new BadInputException("--paired needs --modes");
        }
        rows = compareFiles(read(Paths.get(files.get(0)), measure),
          read(Paths.get(files.get(1)), measure), target);
      }
      print(System.out, rows, target);
    } catch (ParseException | BadInputException e) {
      System.err.println("compare: " + e.getMessage());
      usage(options);
      System.exit(2);
    }
  }

  private static void usage(Options options) {
    new HelpFormatter().printHelp("Compare [--target R] [--cpu C | --metric M] OLD.json NEW.json"
      + " | --modes A,B [--paired] RUN.json...", options);
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

  private static long sizeOf(Path p) {
    try {
      return Files.size(p);
    } catch (java.io.IOException e) {
      return -1;
    }
  }

  /** Every case of a JMH JSON file, keyed by benchmark and all params in file order. */
  static Map<String, Side> read(Path file, Measure measure) throws BadInputException {
    String text;
    try {
      text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
    } catch (java.io.IOException e) {
      throw new BadInputException("cannot read " + file + ": " + e);
    }
    return read(text, file.toString(), measure);
  }

  static Map<String, Side> read(String text, String source) throws BadInputException {
    return read(text, source, Measure.SCORE);
  }

  static Map<String, Side> read(String text, String source, Measure measure)
    throws BadInputException {
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
      JsonObject sm = o.has("secondaryMetrics") ? o.getAsJsonObject("secondaryMetrics")
        : new JsonObject();
      JsonObject m = pm;
      if (measure.metric() != null) {
        if (!sm.has(measure.metric())) {
          throw new BadInputException(where + ": no secondary metric " + measure.metric());
        }
        m = sm.getAsJsonObject(measure.metric());
      }
      double[][] its = JmhJsonParser.forkIterations(m, where);
      String unit = m.get("scoreUnit").getAsString();
      if (measure.cpu() != null) {
        if (!sm.has(measure.cpu())) {
          throw new BadInputException(where + ": no CPU counter " + measure.cpu());
        }
        if (Ratio.lowerIsBetter(unit)) {
          throw new BadInputException(where + ": --cpu needs a throughput score, not " + unit);
        }
        double[][] cpu = JmhJsonParser.forkIterations(sm.getAsJsonObject(measure.cpu()), where);
        if (cpu.length != its.length) {
          throw new BadInputException(where + ": " + measure.cpu() + " and the score have"
            + " different forks");
        }
        for (int f = 0; f < its.length; f++) {
          if (cpu[f].length != its[f].length) {
            throw new BadInputException(where + ": " + measure.cpu() + " and the score have"
              + " different iterations in fork " + (f + 1));
          }
          for (int k = 0; k < its[f].length; k++) {
            its[f][k] = its[f][k] / (cpu[f][k] / 1e9);
          }
        }
        unit = unit + " per CPU s";
      }
      String key = o.get("benchmark").getAsString() + " " + params(o);
      out.put(key, new Side(unit, o.get("mode").getAsString(), ForkStats.forkMeans(its)));
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
    return compareModes(run, modeA, modeB, target, false);
  }

  static List<Row> compareModes(Map<String, Side> run, String modeA, String modeB,
    Double target, boolean paired) throws BadInputException {
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
        rows.add(paired ? pairedRow(key.substring(0, sp), params, e.getValue(), b, target)
          : row(key.substring(0, sp), params, e.getValue(), b, target));
      }
    }
    if (rows.isEmpty()) {
      throw new BadInputException("no case has both mode=" + modeA + " and mode=" + modeB);
    }
    return rows;
  }

  private static Row row(String benchmark, String params, Side a, Side b, Double target) {
    boolean lowerBetter = lowerIsBetter(a.unit());
    ForkStats.Interval r = lowerBetter ? ForkStats.ratio(a.forks(), b.forks())
      : ForkStats.ratio(b.forks(), a.forks());
    return withVerdict(benchmark, params, a, b, r, target);
  }

  /** Time per op, and bytes allocated per op ({@code gc.alloc.rate.norm}): lower is better. */
  static boolean lowerIsBetter(String unit) {
    return Ratio.lowerIsBetter(unit) || "B/op".equals(unit);
  }

  /** Fork i of A against fork i of B, one ratio per pair (second side better when above 1). */
  private static Row pairedRow(String benchmark, String params, Side a, Side b, Double target) {
    if (a.forks().length != b.forks().length) {
      // A round where one mode's fork failed: which forks pair up is no longer known.
      ForkStats.Interval none = new ForkStats.Interval(0, Double.NaN, Double.NaN, Double.NaN);
      return new Row(benchmark, params, a, b, none, "n/a (--paired needs as many forks of each"
        + " mode, got " + a.forks().length + " and " + b.forks().length + ")");
    }
    boolean lowerBetter = lowerIsBetter(a.unit());
    double[] ratios = new double[a.forks().length];
    for (int i = 0; i < ratios.length; i++) {
      ratios[i] = lowerBetter ? a.forks()[i] / b.forks()[i] : b.forks()[i] / a.forks()[i];
    }
    return withVerdict(benchmark, params, a, b, ForkStats.pairedRatio(ratios), target);
  }

  private static Row withVerdict(String benchmark, String params, Side a, Side b,
    ForkStats.Interval r, Double target) {
    String verdict;
    if (target != null) {
      // Under MIN_FORKS the interval is not to be trusted: no target is met or missed on it.
      verdict = r.quotable() ? r.against(target).toString()
        : ForkStats.Verdict.INCONCLUSIVE.toString();
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
    out.println("Ratio > 1: the second side is better. A and B: geometric mean over forks. 95%"
      + " interval over forks, log scale (Welch for two samples of forks, over the pair ratios"
      + " with --paired)"
      + (target != null ? "; verdict against target " + target : "") + ".");
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

  /**
   * A side's forks as one figure: their geometric mean, the figure the ratio is formed from; the
   * arithmetic mean where a fork scored 0 (bytes per op), which has no geometric mean.
   */
  private static double mean(double[] v) {
    double g = ForkStats.positiveMean(v).estimate();
    if (Double.isFinite(g) || v.length == 0) {
      return g;
    }
    double s = 0;
    for (double x : v) {
      s += x;
    }
    return s / v.length;
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
