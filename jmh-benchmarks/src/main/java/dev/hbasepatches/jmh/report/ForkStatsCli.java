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

import dev.hbasepatches.testkit.Intervals;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@link ForkStats} for shell scripts: labelled values in, one Markdown row per label out. The
 * scripts ({@code dev-support/paired-forks.sh}, scenario summaries) hand over one value per unit (a
 * pair of forks run back to back, one fork of a toggle benchmark, one round of a scenario); this
 * class does the statistics, so there is one method per kind of quantity.
 *
 * <pre>
 * printf 'PATCHED / UPSTREAM\t1.02\nPATCHED / UPSTREAM\t0.97\n...' |
 *   java -cp benchmarks.jar dev.hbasepatches.jmh.report.ForkStatsCli [--target 1.0]
 * </pre>
 *
 * Each input line is {@code LABEL<TAB>VALUE}; blank lines are skipped. Values of one label form
 * one sample, labels keep the order of their first line. What the values are decides the method:
 * <ul>
 * <li>(default) paired ratios: {@link ForkStats#pairedRatio} (geometric mean, 95% Student t
 * interval on the log scale), verdict against {@code --target} (met / not met / inconclusive),
 * else where the interval lies against 1.0;</li>
 * <li>{@code --mean}: a positive quantity per unit (a time, a latency):
 * {@link ForkStats#positiveMean}, geometric mean and log-scale interval; or a rate per unit as
 * counts {@code EVENTS/EXPOSURE} (extra RPCs in a round's reads, zero allowed):
 * {@link ForkStats#rate}, log scale;</li>
 * <li>{@code --share}: a share per unit, as counts {@code HITS/TOTAL} (zero hits allowed) or as a
 * fraction strictly between 0 and 1: {@link ForkStats#share}, logit scale;</li>
 * <li>{@code --percentile}: a percentile measured once per round (p50, p99, the slowest read):
 * {@link ForkStats#percentile}, median over rounds with a percentile bootstrap interval;</li>
 * <li>{@code --signed}: a difference, which can be zero or negative: {@link ForkStats#mean},
 * arithmetic mean and Student t interval.</li>
 * </ul>
 * The last four take {@code --at-most LIMIT} for a target where lower is better
 * ({@link ForkStats.Interval#atMost}). Fewer than {@link ForkStats#MIN_FORKS} units is said in
 * the verdict, since such a value is not to be quoted; against a target it is then inconclusive.
 */
public final class ForkStatsCli {

  /** What the input values are, and so how they are summarised. */
  enum Kind {
    RATIO("ratio", "pairs", "geometric mean", "95% interval"),
    MEAN("value", "units", "geometric mean", "95% interval (log scale)"),
    SHARE("share", "units", "share", "95% interval (logit scale)"),
    PERCENTILE("percentile", "rounds", "median over rounds",
      "95% bootstrap interval (" + String.format(Locale.ROOT, "%,d",
        Intervals.BOOTSTRAP_RESAMPLES) + " resamples)"),
    SIGNED("value", "units", "mean", "95% interval");

    final String what;
    final String units;
    final String estimate;
    final String interval;

    Kind(String what, String units, String estimate, String interval) {
      this.what = what;
      this.units = units;
      this.estimate = estimate;
      this.interval = interval;
    }

    String header() {
      return "| " + what + " | " + units + " | " + estimate + " | " + interval + " | verdict |";
    }
  }

  private ForkStatsCli() {
  }

  public static void main(String[] args) {
    System.exit(run(args, System.in, System.out, System.err));
  }

  static int run(String[] args, InputStream in, PrintStream out, PrintStream err) {
    Double target = null;
    Double atMost = null;
    Kind kind = Kind.RATIO;
    boolean header = true;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--target":
          if (i + 1 >= args.length) {
            return usage(err, "--target needs a ratio");
          }
          try {
            target = Double.parseDouble(args[++i]);
          } catch (NumberFormatException e) {
            target = Double.NaN;
          }
          if (!(target > 0) || target.isInfinite()) {
            return usage(err, "--target must be a positive ratio, got '" + args[i] + "'");
          }
          break;
        case "--no-header":
          header = false;
          break;
        case "--mean":
        case "--share":
        case "--percentile":
        case "--signed":
          Kind k = Kind.valueOf(args[i].substring(2).toUpperCase(Locale.ROOT));
          if (kind != Kind.RATIO && kind != k) {
            return usage(err, "--mean, --share, --percentile and --signed exclude each other");
          }
          kind = k;
          break;
        case "--at-most":
          if (i + 1 >= args.length) {
            return usage(err, "--at-most needs a limit");
          }
          try {
            atMost = Double.parseDouble(args[++i]);
          } catch (NumberFormatException e) {
            atMost = Double.NaN;
          }
          if (!Double.isFinite(atMost)) {
            return usage(err, "--at-most must be a number, got '" + args[i] + "'");
          }
          break;
        case "-h":
        case "--help":
          usage(out, null);
          return 0;
        default:
          return usage(err, "unknown argument '" + args[i] + "'");
      }
    }
    if (kind != Kind.RATIO && target != null || kind == Kind.RATIO && atMost != null) {
      return usage(err, "--target goes with ratios, --at-most with --mean, --share,"
        + " --percentile or --signed");
    }
    Map<String, List<String>> samples;
    try {
      samples = readRaw(in);
    } catch (BadInputException e) {
      err.println("ForkStatsCli: " + e.getMessage());
      return 1;
    } catch (IOException e) {
      err.println("ForkStatsCli: cannot read the input: " + e);
      return 1;
    }
    List<String> rows = new ArrayList<>();
    try {
      for (Map.Entry<String, List<String>> e : samples.entrySet()) {
        rows.add(kind == Kind.RATIO ? row(e.getKey(), parse(e, Kind.RATIO), target)
          : valueRow(kind, e.getKey(), summarise(kind, e), atMost));
      }
    } catch (BadInputException e) {
      err.println("ForkStatsCli: " + e.getMessage());
      return 1;
    }
    if (header) {
      out.println(kind.header());
      out.println("|---|---:|---:|---|---|");
    }
    rows.forEach(out::println);
    return 0;
  }

  private static int usage(PrintStream to, String problem) {
    if (problem != null) {
      to.println("ForkStatsCli: " + problem);
    }
    to.println("Usage: ... | java -cp benchmarks.jar dev.hbasepatches.jmh.report.ForkStatsCli"
      + " [--target RATIO | (--mean | --share | --percentile | --signed) [--at-most LIMIT]]"
      + " [--no-header]");
    to.println("stdin: one LABEL<TAB>RATIO line per pair of forks (or per toggle fork); with"
      + " --mean a positive value or EVENTS/EXPOSURE counts per unit, --share HITS/TOTAL or a"
      + " fraction per unit,"
      + " --percentile one percentile per round, --signed any number per unit");
    return problem == null ? 0 : 2;
  }

  /** The samples of the input, by label in order of first appearance (ratios). */
  static Map<String, List<Double>> read(InputStream in) throws IOException, BadInputException {
    Map<String, List<Double>> out = new LinkedHashMap<>();
    for (Map.Entry<String, List<String>> e : readRaw(in).entrySet()) {
      List<Double> v = new ArrayList<>();
      for (double x : parse(e, Kind.RATIO)) {
        v.add(x);
      }
      out.put(e.getKey(), v);
    }
    return out;
  }

  /** Each label's values as written (with their line numbers kept in the text for messages). */
  private static Map<String, List<String>> readRaw(InputStream in)
    throws IOException, BadInputException {
    Map<String, List<String>> out = new LinkedHashMap<>();
    BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    String line;
    int n = 0;
    while ((line = r.readLine()) != null) {
      n++;
      if (line.isBlank()) {
        continue;
      }
      int tab = line.lastIndexOf('\t');
      if (tab <= 0) {
        throw new BadInputException("line " + n + ": expected LABEL<TAB>RATIO, got '" + line + "'");
      }
      String label = line.substring(0, tab).trim();
      out.computeIfAbsent(label, k -> new ArrayList<>())
        .add(n + "\t" + line.substring(tab + 1).trim());
    }
    return out;
  }

  /** One label's values as numbers, checked for what {@code kind} accepts. */
  private static double[] parse(Map.Entry<String, List<String>> sample, Kind kind)
    throws BadInputException {
    double[] out = new double[sample.getValue().size()];
    for (int i = 0; i < out.length; i++) {
      String[] lineAndValue = sample.getValue().get(i).split("\t", 2);
      String value = lineAndValue[1];
      double v;
      try {
        v = Double.parseDouble(value);
      } catch (NumberFormatException e) {
        v = Double.NaN;
      }
      String where = "line " + lineAndValue[0] + ": ";
      if (!Double.isFinite(v)) {
        throw new BadInputException(where + (kind == Kind.RATIO
          ? "a ratio must be a positive number" : "a value must be a finite number") + ", got '"
          + value + "' for " + sample.getKey());
      }
      if ((kind == Kind.RATIO || kind == Kind.MEAN) && !(v > 0)) {
        throw new BadInputException(where + (kind == Kind.RATIO
          ? "a ratio must be a positive number, got '" + value + "'"
          : "--mean takes positive values (geometric mean, log scale), got '" + value
            + "'; a share goes with --share, a value that can be zero or negative with --signed")
          + " for " + sample.getKey());
      }
      if (kind == Kind.PERCENTILE && v < 0) {
        throw new BadInputException(where + "a percentile of a time or size cannot be negative,"
          + " got '" + value + "' for " + sample.getKey());
      }
      out[i] = v;
    }
    return out;
  }

  /** The interval of one label's values for the non-ratio kinds. */
  private static ForkStats.Interval summarise(Kind kind, Map.Entry<String, List<String>> sample)
    throws BadInputException {
    switch (kind) {
      case MEAN:
        return counted(sample) ? rate(sample) : ForkStats.positiveMean(parse(sample, kind));
      case PERCENTILE:
        return ForkStats.percentile(parse(sample, kind));
      case SIGNED:
        return ForkStats.mean(parse(sample, kind));
      case SHARE:
        return share(sample);
      default:
        throw new IllegalArgumentException(kind.name());
    }
  }

  /** Whether a label's values are counts ({@code K/N}); a mix of counts and numbers is refused. */
  private static boolean counted(Map.Entry<String, List<String>> sample)
    throws BadInputException {
    int counted = 0;
    for (String v : sample.getValue()) {
      counted += v.contains("/") ? 1 : 0;
    }
    if (counted != 0 && counted != sample.getValue().size()) {
      throw new BadInputException(sample.getKey() + ": values given both as counts and as"
        + " numbers; use one form per label");
    }
    return counted > 0;
  }

  /** {@code K/N} counts: {@code [0]} the K, {@code [1]} the N, each checked. */
  private static long[][] counts(Map.Entry<String, List<String>> sample, boolean share)
    throws BadInputException {
    List<String> values = sample.getValue();
    long[][] out = new long[2][values.size()];
    for (int i = 0; i < values.size(); i++) {
      String[] lineAndValue = values.get(i).split("\t", 2);
      String value = lineAndValue[1];
      int slash = value.indexOf('/');
      long k;
      long n;
      try {
        k = Long.parseLong(value.substring(0, slash).trim());
        n = Long.parseLong(value.substring(slash + 1).trim());
      } catch (NumberFormatException e) {
        k = -1;
        n = -1;
      }
      if (n <= 0 || k < 0 || share && k > n) {
        throw new BadInputException("line " + lineAndValue[0] + ": " + (share
          ? "a share as counts is HITS/TOTAL with 0 <= HITS <= TOTAL and TOTAL > 0"
          : "a rate as counts is EVENTS/EXPOSURE with EVENTS >= 0 and EXPOSURE > 0")
          + ", got '" + value + "' for " + sample.getKey());
      }
      out[0][i] = k;
      out[1][i] = n;
    }
    return out;
  }

  private static ForkStats.Interval rate(Map.Entry<String, List<String>> sample)
    throws BadInputException {
    long[][] c = counts(sample, false);
    return ForkStats.rate(c[0], c[1]);
  }

  /** Shares as {@code HITS/TOTAL} counts, or as fractions strictly between 0 and 1; not mixed. */
  private static ForkStats.Interval share(Map.Entry<String, List<String>> sample)
    throws BadInputException {
    if (counted(sample)) {
      long[][] c = counts(sample, true);
      return ForkStats.share(c[0], c[1]);
    }
    List<String> values = sample.getValue();
    double[] fractions = new double[values.size()];
    for (int i = 0; i < values.size(); i++) {
      String[] lineAndValue = values.get(i).split("\t", 2);
      String value = lineAndValue[1];
      double f;
      try {
        f = Double.parseDouble(value);
      } catch (NumberFormatException e) {
        f = Double.NaN;
      }
      if (!(f > 0 && f < 1)) {
        throw new BadInputException("line " + lineAndValue[0] + ": a share as a fraction must lie"
          + " strictly between 0 and 1 (give HITS/TOTAL counts when a unit can have none), got '"
          + value + "' for " + sample.getKey());
      }
      fractions[i] = f;
    }
    return ForkStats.share(fractions);
  }

  /** One Markdown row: label, pairs, geometric mean, 95% interval, verdict. */
  static String row(String label, List<Double> ratios, Double target) {
    double[] v = new double[ratios.size()];
    for (int i = 0; i < v.length; i++) {
      v[i] = ratios.get(i);
    }
    return row(label, v, target);
  }

  private static String row(String label, double[] ratios, Double target) {
    ForkStats.Interval r = ForkStats.pairedRatio(ratios);
    return String.format(Locale.ROOT, "| %s | %d | %s | %s | %s |", label, r.n(),
      Compare.sig3(r.estimate()), interval(r), verdict(r, target));
  }

  /** One Markdown row for a non-ratio sample: label, units, estimate, 95% interval, verdict. */
  static String valueRow(Kind kind, String label, ForkStats.Interval r, Double atMost) {
    String verdict;
    if (atMost == null) {
      verdict = "-";
    } else {
      // Under MIN_FORKS the interval is not to be trusted, so no limit is met or missed on it.
      ForkStats.Verdict v = r.quotable() ? r.atMost(atMost) : ForkStats.Verdict.INCONCLUSIVE;
      verdict = v + " (at most " + Compare.sig3(atMost) + ")";
    }
    if (!r.quotable()) {
      verdict += " (" + r.n() + " < " + ForkStats.MIN_FORKS + ": not quotable)";
    }
    return String.format(Locale.ROOT, "| %s | %d | %s | %s | %s |", label, r.n(),
      Compare.sig3(r.estimate()), interval(r), verdict);
  }

  static String interval(ForkStats.Interval r) {
    return Double.isFinite(r.low()) ? Compare.sig3(r.low()) + " to " + Compare.sig3(r.high())
      : "-";
  }

  /** Against the target if given, else where the interval lies against 1.0. */
  static String verdict(ForkStats.Interval r, Double target) {
    String v;
    if (target != null) {
      // Under MIN_FORKS the interval is not to be trusted, so no target is met or missed on it.
      v = r.quotable() ? r.against(target).toString() : ForkStats.Verdict.INCONCLUSIVE.toString();
    } else if (!Double.isFinite(r.low())) {
      v = "n/a";
    } else if (r.low() > 1) {
      v = "above 1";
    } else if (r.high() < 1) {
      v = "below 1";
    } else {
      v = "contains 1";
    }
    if (!r.quotable()) {
      v += " (" + r.n() + " < " + ForkStats.MIN_FORKS + ": not quotable)";
    }
    return v;
  }
}
