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
 * {@link ForkStats} for shell scripts: paired ratios in, one Markdown row per ratio out. The
 * scripts ({@code dev-support/paired-forks.sh}, the results folders' helpers) pair their forks
 * themselves and hand over one ratio per pair (the unit: a pair of forks run back to back, or one
 * fork of a toggle benchmark); this class does the statistics, so there is one method.
 *
 * <pre>
 * printf 'PATCHED / UPSTREAM\t1.02\nPATCHED / UPSTREAM\t0.97\n...' |
 *   java -cp benchmarks.jar dev.hbasepatches.jmh.report.ForkStatsCli [--target 1.0]
 * </pre>
 *
 * Each input line is {@code LABEL<TAB>RATIO}; blank lines are skipped. Ratios of one label form
 * one sample, labels keep the order of their first line. Each is summarised by
 * {@link ForkStats#pairedRatio} (geometric mean, 95% Student t interval on the log scale), and
 * gets a verdict: against {@code --target} (met / not met / inconclusive), else against 1.0
 * (above 1 / below 1 / contains 1). Fewer than {@link ForkStats#MIN_FORKS} pairs is said in the
 * verdict, since such a ratio is not to be quoted; against a target it is then inconclusive.
 * <p>
 * {@code --mean} reads plain values instead (one per fork: a share, a latency; zero and negative
 * allowed), summarised by {@link ForkStats#mean} (arithmetic mean, 95% Student t interval), with
 * {@code --at-most LIMIT} for a target where lower is better: met when the upper bound is at or
 * under the limit, not met when the lower bound is above it, inconclusive otherwise.
 */
public final class ForkStatsCli {

  private ForkStatsCli() {
  }

  public static void main(String[] args) {
    System.exit(run(args, System.in, System.out, System.err));
  }

  static int run(String[] args, InputStream in, PrintStream out, PrintStream err) {
    Double target = null;
    Double atMost = null;
    boolean mean = false;
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
          mean = true;
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
    if (mean && target != null || !mean && atMost != null) {
      return usage(err, "--target goes with ratios, --at-most with --mean");
    }
    Map<String, List<Double>> samples;
    try {
      samples = read(in, mean);
    } catch (BadInputException e) {
      err.println("ForkStatsCli: " + e.getMessage());
      return 1;
    } catch (IOException e) {
      err.println("ForkStatsCli: cannot read the input: " + e);
      return 1;
    }
    if (header) {
      out.println(mean ? "| value | forks | mean | 95% interval | verdict |"
        : "| ratio | pairs | geometric mean | 95% interval | verdict |");
      out.println("|---|---:|---:|---|---|");
    }
    for (Map.Entry<String, List<Double>> e : samples.entrySet()) {
      out.println(mean ? meanRow(e.getKey(), e.getValue(), atMost)
        : row(e.getKey(), e.getValue(), target));
    }
    return 0;
  }

  private static int usage(PrintStream to, String problem) {
    if (problem != null) {
      to.println("ForkStatsCli: " + problem);
    }
    to.println("Usage: ... | java -cp benchmarks.jar dev.hbasepatches.jmh.report.ForkStatsCli"
      + " [--target RATIO | --mean [--at-most LIMIT]] [--no-header]");
    to.println("stdin: one LABEL<TAB>RATIO line per pair of forks (or per toggle fork),"
      + " or with --mean one LABEL<TAB>VALUE line per fork");
    return problem == null ? 0 : 2;
  }

  /** The samples of the input, by label in order of first appearance. */
  static Map<String, List<Double>> read(InputStream in) throws IOException, BadInputException {
    return read(in, false);
  }

  /** As {@link #read(InputStream)}; with {@code anyNumber} values need only be finite. */
  static Map<String, List<Double>> read(InputStream in, boolean anyNumber)
    throws IOException, BadInputException {
    Map<String, List<Double>> out = new LinkedHashMap<>();
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
      String value = line.substring(tab + 1).trim();
      double v;
      try {
        v = Double.parseDouble(value);
      } catch (NumberFormatException e) {
        v = Double.NaN;
      }
      if (anyNumber && !Double.isFinite(v)) {
        throw new BadInputException("line " + n + ": a value must be a finite number, got '"
          + value + "' for " + label);
      }
      if (!anyNumber && (!(v > 0) || Double.isInfinite(v))) {
        throw new BadInputException("line " + n + ": a ratio must be a positive number, got '"
          + value + "' for " + label);
      }
      out.computeIfAbsent(label, k -> new ArrayList<>()).add(v);
    }
    return out;
  }

  /** One Markdown row: label, pairs, geometric mean, 95% interval, verdict. */
  static String row(String label, List<Double> ratios, Double target) {
    double[] v = new double[ratios.size()];
    for (int i = 0; i < v.length; i++) {
      v[i] = ratios.get(i);
    }
    ForkStats.Interval r = ForkStats.pairedRatio(v);
    return String.format(Locale.ROOT, "| %s | %d | %s | %s | %s |", label, r.n(),
      Compare.sig3(r.estimate()), interval(r), verdict(r, target));
  }

  /** One Markdown row for plain values: label, forks, mean, 95% interval, verdict. */
  static String meanRow(String label, List<Double> values, Double atMost) {
    double[] v = new double[values.size()];
    for (int i = 0; i < v.length; i++) {
      v[i] = values.get(i);
    }
    ForkStats.Interval r = ForkStats.mean(v);
    String verdict;
    if (atMost == null) {
      verdict = "-";
    } else if (!r.quotable() || !Double.isFinite(r.high())) {
      verdict = ForkStats.Verdict.INCONCLUSIVE.toString();
    } else if (r.high() <= atMost) {
      verdict = ForkStats.Verdict.MET + " (at most " + Compare.sig3(atMost) + ")";
    } else if (r.low() > atMost) {
      verdict = ForkStats.Verdict.NOT_MET + " (at most " + Compare.sig3(atMost) + ")";
    } else {
      verdict = ForkStats.Verdict.INCONCLUSIVE + " (at most " + Compare.sig3(atMost) + ")";
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
