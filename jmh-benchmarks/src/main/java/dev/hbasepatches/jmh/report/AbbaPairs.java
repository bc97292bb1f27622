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

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hbase.thirdparty.com.google.gson.JsonArray;
import org.apache.hbase.thirdparty.com.google.gson.JsonElement;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;
import org.apache.hbase.thirdparty.com.google.gson.JsonParseException;
import org.apache.hbase.thirdparty.com.google.gson.JsonParser;

/**
 * Pairs the iterations of a benchmark that alternates two states inside one fork in ABBA blocks
 * ({@code QuotaToggleBenchmark}): each fork's measured iterations, from its first, form blocks
 * of four in slots A, B, B, A (or B, A, A, B, when the benchmark alternates the two orders), and
 * each block gives one ratio B / A = (B1 + B2) / (A1 + A2), which a drift linear over the block
 * leaves unchanged. The fork is the unit: blocks of one fork share its JIT decisions and its
 * level, so they are not independent. Each fork's ratio is the geometric mean of its blocks', and
 * the forks' ratios are summarised by {@link ForkStats#pairedRatio} (95% Student t interval over
 * forks, log scale); fewer than {@link ForkStats#MIN_FORKS} forks is flagged as not quotable.
 * <p>
 * The slot of every iteration is read from the JSON, not assumed: the benchmark counts each
 * read in the {@code aReads} or {@code bReads} counter of the slot in force, so exactly one of
 * them must be non-zero per iteration, and every block must be A B B A or B A A B; anything else
 * is an error. An incomplete last block is left out and counted. With a {@code cpuNanos}
 * counter (process CPU per iteration, in the score's per-second unit) the same is done for
 * reads per CPU second; with a {@code backgroundCpuNanos} counter as well, its share of the
 * process CPU is given per slot: one share per fork, summarised on the logit scale
 * ({@link ForkStats#share(double[])}), so its interval stays between 0 and 100%.
 * <p>
 * Usage: {@code java -cp benchmarks.jar dev.hbasepatches.jmh.report.AbbaPairs RESULT.json...};
 * prints one Markdown section per benchmark and parameter combination in each file, then, for a
 * combination found in several files, the summary of all their blocks together.
 */
public final class AbbaPairs {

  static final String A_COUNTER = "aReads";
  static final String B_COUNTER = "bReads";
  static final String CPU_COUNTER = "cpuNanos";
  static final String BACKGROUND_COUNTER = "backgroundCpuNanos";
  static final String ALLOC_COUNTER = "allocBytes";
  private static final boolean[] BLOCK_IS_B = { false, true, true, false };

  private AbbaPairs() {
  }

  /**
   * One block: the four iterations' values in order, A B B A, or B A A B when {@code mirrored},
   * and B / A.
   */
  record Block(int fork, int index, boolean mirrored, double v1, double v2, double v3, double v4) {
    double ratio() {
      return mirrored ? (v1 + v4) / (v2 + v3) : (v2 + v3) / (v1 + v4);
    }

    String order() {
      return mirrored ? "BAAB" : "ABBA";
    }
  }

  /**
   * The ABBA (or BAAB) blocks of one fork. {@code a} and {@code b} are the per-iteration slot counters,
   * {@code values} what is compared (the score, or the score per CPU second). Returns the
   * complete blocks; {@code leftOver} receives the number of iterations after the last one.
   */
  static List<Block> blocks(int fork, double[] a, double[] b, double[] values, int[] leftOver)
    throws BadInputException {
    if (a.length != b.length || a.length != values.length) {
      throw new BadInputException("fork " + fork + ": " + a.length + " " + A_COUNTER + ", "
        + b.length + " " + B_COUNTER + " and " + values.length + " scores; expected one each per"
        + " iteration");
    }
    boolean[] inB = new boolean[a.length];
    for (int i = 0; i < a.length; i++) {
      inB[i] = b[i] > 0;
      if ((a[i] > 0) == inB[i]) {
        throw new BadInputException("fork " + fork + ", iteration " + (i + 1) + ": " + A_COUNTER
          + " = " + a[i] + ", " + B_COUNTER + " = " + b[i] + "; exactly one must be non-zero");
      }
    }
    List<Block> out = new ArrayList<>();
    int complete = values.length / 4;
    for (int k = 0; k < complete; k++) {
      int i = 4 * k;
      // ABBA, or BAAB (mirrored): the first iteration's slot says which, the rest must follow.
      boolean mirrored = inB[i];
      for (int j = 0; j < 4; j++) {
        if (inB[i + j] != (BLOCK_IS_B[j] != mirrored)) {
          StringBuilder seen = new StringBuilder();
          for (int m = 0; m < 4; m++) {
            seen.append(inB[i + m] ? 'B' : 'A');
          }
          throw new BadInputException("fork " + fork + ", iterations " + (i + 1) + " to " + (i + 4)
            + " were in slots " + seen + ", neither ABBA nor BAAB");
        }
      }
      out.add(new Block(fork, k + 1, mirrored, values[i], values[i + 1], values[i + 2],
        values[i + 3]));
    }
    leftOver[0] = values.length - 4 * complete;
    return out;
  }

  /**
   * One ratio per fork, the geometric mean of its blocks' ratios, in fork order; {@code fork} in
   * the blocks tells forks apart (forks from several files must be numbered apart by the caller).
   */
  static double[] forkRatios(List<Block> blocks) {
    Map<Integer, double[]> logSums = new LinkedHashMap<>();
    for (Block b : blocks) {
      double[] s = logSums.computeIfAbsent(b.fork(), k -> new double[2]);
      s[0] += Math.log(b.ratio());
      s[1]++;
    }
    double[] out = new double[logSums.size()];
    int i = 0;
    for (double[] s : logSums.values()) {
      out[i++] = Math.exp(s[0] / s[1]);
    }
    return out;
  }

  /** The summary over forks that every report of this tool quotes. */
  static ForkStats.Interval summary(List<Block> blocks) {
    return ForkStats.pairedRatio(forkRatios(blocks));
  }

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  static int run(String[] args, PrintStream out, PrintStream err) {
    boolean summary = args.length > 0 && args[0].equals("--summary");
    if (args.length == (summary ? 1 : 0)) {
      err.println("Usage: AbbaPairs [--summary] RESULT.json... (JMH -rf json of an ABBA "
        + "benchmark); --summary prints one line per case and file instead of every block");
      return 2;
    }
    try {
      Map<String, Pooled> pooled = new LinkedHashMap<>();
      if (summary) {
        out.println("| case | file | forks | B / A | 95% interval over forks | verdict |"
          + " B / A per CPU second | 95% interval | verdict |");
        out.println("|---|---|---:|---:|---|---|---:|---|---|");
        estimates.clear();
        allocRows.setLength(0);
        for (int i = 1; i < args.length; i++) {
          report(Path.of(args[i]), null, pooled, out);
        }
        out.println();
        gaps(out);
        if (allocRows.length() > 0) {
          out.println("Heap bytes the benchmark thread allocated per operation, over every measured "
            + "iteration of each slot (A, B):");
          out.println();
          out.println("| case | file | A: bytes / op | B: bytes / op |");
          out.println("|---|---|---:|---:|");
          out.print(allocRows);
          out.println();
        }
        return 0;
      }
      for (String file : args) {
        report(Path.of(file), out, pooled, null);
      }
      for (Map.Entry<String, Pooled> e : pooled.entrySet()) {
        Pooled p = e.getValue();
        if (p.files < 2) {
          continue;
        }
        out.printf(Locale.ROOT, "### Pooled over %d files: %s%n%n", p.files, e.getKey());
        header(out);
        line(out, "B / A, score", p.blocks);
        if (!p.cpuBlocks.isEmpty()) {
          line(out, "B / A, per CPU second", p.cpuBlocks);
        }
        out.println();
      }
      return 0;
    } catch (BadInputException e) {
      err.println(e.getMessage());
      return 1;
    }
  }

  /** The blocks of one benchmark and parameter combination over several result files. */
  private static final class Pooled {
    int files;
    /** Forks seen so far, so the next file's forks are numbered after them. */
    int forks;
    final List<Block> blocks = new ArrayList<>();
    final List<Block> cpuBlocks = new ArrayList<>();
  }

  /**
   * Reads one result file: every ABBA entry's blocks to {@code out}, or, with {@code summary}
   * instead, one table row per entry.
   */
  static void report(Path file, PrintStream out, Map<String, Pooled> pooled, PrintStream summary)
    throws BadInputException {
    JsonArray entries;
    try {
      JsonElement root = JsonParser.parseString(Files.readString(file, StandardCharsets.UTF_8));
      if (!root.isJsonArray()) {
        throw new BadInputException(file + ": not a JMH JSON result file (no top-level array)");
      }
      entries = root.getAsJsonArray();
    } catch (NoSuchFileException e) {
      throw new BadInputException(file + ": no such file");
    } catch (IOException | JsonParseException e) {
      throw new BadInputException(file + ": cannot read as JMH JSON (" + e.getMessage() + ")");
    }
    int used = 0;
    for (JsonElement e : entries) {
      JsonObject o = e.getAsJsonObject();
      JsonObject secondary = o.getAsJsonObject("secondaryMetrics");
      if (secondary == null || !secondary.has(A_COUNTER) || !secondary.has(B_COUNTER)) {
        continue;
      }
      used++;
      section(file, o, secondary, out, pooled, summary);
    }
    if (used == 0) {
      throw new BadInputException(file + ": no entry has the " + A_COUNTER + " and " + B_COUNTER
        + " counters of an ABBA benchmark");
    }
  }

  private static void section(Path file, JsonObject o, JsonObject secondary, PrintStream out,
    Map<String, Pooled> pooled, PrintStream summary) throws BadInputException {
    String where = file + " (" + o.get("benchmark").getAsString() + ")";
    StringBuilder params = new StringBuilder();
    JsonObject p = o.getAsJsonObject("params");
    if (p != null) {
      for (Map.Entry<String, JsonElement> kv : p.entrySet()) {
        params.append(params.length() == 0 ? "" : ", ").append(kv.getKey()).append('=')
          .append(kv.getValue().getAsString());
      }
    }
    double[][] score = JmhJsonParser.forkIterations(o.getAsJsonObject("primaryMetric"), where);
    double[][] a = JmhJsonParser.forkIterations(secondary.getAsJsonObject(A_COUNTER), where);
    double[][] b = JmhJsonParser.forkIterations(secondary.getAsJsonObject(B_COUNTER), where);
    double[][] cpu = secondary.has(CPU_COUNTER)
      ? JmhJsonParser.forkIterations(secondary.getAsJsonObject(CPU_COUNTER), where)
      : null;
    if (a.length != score.length || b.length != score.length
      || (cpu != null && cpu.length != score.length)) {
      throw new BadInputException(where + ": the counters and the score have different forks");
    }
    String key = o.get("benchmark").getAsString() + " (" + params + ")";
    Pooled pool = pooled.computeIfAbsent(key, k -> new Pooled());
    List<Block> blocks = new ArrayList<>();
    List<Block> cpuBlocks = new ArrayList<>();
    int leftOver = 0;
    for (int f = 0; f < score.length; f++) {
      int[] rest = new int[1];
      try {
        blocks.addAll(blocks(f + 1, a[f], b[f], score[f], rest));
        if (cpu != null) {
          cpuBlocks.addAll(blocks(f + 1, a[f], b[f], perCpuSecond(score[f], cpu[f]), rest));
        }
      } catch (BadInputException e) {
        throw new BadInputException(where + ": " + e.getMessage());
      }
      leftOver += rest[0];
    }
    pool.files++;
    for (Block k : blocks) {
      pool.blocks.add(renumber(k, pool.forks));
    }
    for (Block k : cpuBlocks) {
      pool.cpuBlocks.add(renumber(k, pool.forks));
    }
    pool.forks += score.length;
    if (summary != null) {
      JsonObject ps = o.getAsJsonObject("params");
      if (ps != null && ps.has("target") && ps.has("a") && ps.has("b")) {
        estimates.computeIfAbsent(ps.get("target").getAsString() + " against "
          + ps.get("a").getAsString(), k -> new LinkedHashMap<>())
          .put(ps.get("b").getAsString(), ForkStats.pairedRatio(forkRatios(blocks)).estimate());
      }
      if (secondary.has(ALLOC_COUNTER)) {
        double[][] alloc =
          JmhJsonParser.forkIterations(secondary.getAsJsonObject(ALLOC_COUNTER), where);
        double[] perOp = bytesPerOperation(a, b, alloc);
        allocRows.append(String.format(Locale.ROOT, "| %s | %s | %.0f | %.0f |%n", params,
          file.getFileName(), perOp[0], perOp[1]));
      }
      summary.printf(Locale.ROOT, "| %s | %s | %d | %s |%n", params, file.getFileName(),
        score.length, cells(blocks) + " | " + (cpu == null ? "- | - | -" : cells(cpuBlocks)));
      return;
    }
    out.printf(Locale.ROOT, "### %s%n%n", key);
    out.printf(Locale.ROOT, "%s; %d fork(s), %d blocks, %d iteration(s) after the last"
      + " complete block left out%n%n", file.getFileName(), score.length, blocks.size(), leftOver);
    out.println("| fork | block | order | 1 | 2 | 3 | 4 | B / A | per CPU s: B / A |");
    out.println("|---:|---:|---|---:|---:|---:|---:|---:|---:|");
    for (int i = 0; i < blocks.size(); i++) {
      Block k = blocks.get(i);
      out.printf(Locale.ROOT, "| %d | %d | %s | %.1f | %.1f | %.1f | %.1f | %.4f | %s |%n",
        k.fork(), k.index(), k.order(), k.v1(), k.v2(), k.v3(), k.v4(), k.ratio(),
        cpu == null ? "-" : String.format(Locale.ROOT, "%.4f", cpuBlocks.get(i).ratio()));
    }
    out.println();
    header(out);
    line(out, "B / A, score", blocks);
    if (cpu != null) {
      line(out, "B / A, per CPU second", cpuBlocks);
    }
    out.println();
    if (cpu != null && secondary.has(BACKGROUND_COUNTER)) {
      double[][] bg =
        JmhJsonParser.forkIterations(secondary.getAsJsonObject(BACKGROUND_COUNTER), where);
      double[][] shares = backgroundShares(a, b, cpu, bg);
      out.printf(Locale.ROOT, "Background CPU (%s) / process CPU, one share per fork, over forks"
        + " (logit scale, 95%% interval): slot A %s, slot B %s%n%n", BACKGROUND_COUNTER,
        percent(ForkStats.share(shares[0])), percent(ForkStats.share(shares[1])));
    }
  }

  /**
   * Background / process CPU per fork, for slot A ({@code [0]}) and slot B ({@code [1]}): each
   * fork's background CPU over its slot's iterations divided by its process CPU over them (the
   * fork is the unit, as for the ratios).
   */
  static double[][] backgroundShares(double[][] a, double[][] b, double[][] cpu, double[][] bg) {
    double[][] out = new double[2][cpu.length];
    for (int f = 0; f < cpu.length; f++) {
      double[] background = new double[2];
      double[] process = new double[2];
      for (int i = 0; i < cpu[f].length; i++) {
        int slot = b[f][i] > 0 ? 1 : 0;
        background[slot] += bg[f][i];
        process[slot] += cpu[f][i];
      }
      out[0][f] = background[0] / process[0];
      out[1][f] = background[1] / process[1];
    }
    return out;
  }

  /** A share in percent with its interval, or without one when it has none. */
  static String percent(ForkStats.Interval share) {
    String est = Compare.sig3(100 * share.estimate()) + "%";
    if (!Double.isFinite(share.low())) {
      return est + " (" + share.n() + (share.n() == 1 ? " fork" : " forks") + ", no interval)";
    }
    return est + " [" + Compare.sig3(100 * share.low()) + "%, " + Compare.sig3(100 * share.high())
      + "%] over " + share.n() + " forks";
  }

  private static Block renumber(Block k, int forksBefore) {
    return new Block(k.fork() + forksBefore, k.index(), k.mirrored(), k.v1(), k.v2(), k.v3(),
      k.v4());
  }

  private static void header(PrintStream out) {
    out.println("| ratio | forks | blocks | per-fork ratios | geometric mean over forks |"
      + " 95% interval over forks | verdict |");
    out.println("|---|---:|---:|---|---:|---|---|");
  }

  private static void line(PrintStream out, String what, List<Block> blocks) {
    double[] forks = forkRatios(blocks);
    ForkStats.Interval s = ForkStats.pairedRatio(forks);
    StringBuilder each = new StringBuilder();
    for (double f : forks) {
      each.append(each.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.4f", f));
    }
    out.printf(Locale.ROOT, "| %s | %d | %d | %s | %s | %s | %s |%n", what, s.n(), blocks.size(),
      each, Compare.sig3(s.estimate()), ForkStatsCli.interval(s),
      ForkStatsCli.verdict(s, null));
  }

  /** Summary mode: one row per case with an allocation counter. */
  private static final StringBuilder allocRows = new StringBuilder();

  /**
   * Bytes per operation of slot A and slot B over every measured iteration: the allocation
   * counter's sum over a slot's iterations divided by the operations counted in them (both are
   * per second of the same iterations, so the time cancels).
   */
  static double[] bytesPerOperation(double[][] a, double[][] b, double[][] alloc) {
    double[] bytes = new double[2];
    double[] ops = new double[2];
    for (int f = 0; f < alloc.length; f++) {
      for (int i = 0; i < alloc[f].length; i++) {
        int slot = b[f][i] > 0 ? 1 : 0;
        bytes[slot] += alloc[f][i];
        ops[slot] += slot == 1 ? b[f][i] : a[f][i];
      }
    }
    return new double[] { bytes[0] / ops[0], bytes[1] / ops[1] };
  }

  /** Per case and reference side (summary mode): each B side's estimate of B / A. */
  private static final Map<String, Map<String, Double>> estimates = new LinkedHashMap<>();

  /**
   * Where one case was run with SERIES and with PATCHED against the same side: the quotient of
   * the two estimates, how much of the module's gain the series delivers. A point figure only:
   * the two ratios come from different runs, so no interval pairs them.
   */
  private static void gaps(PrintStream out) {
    StringBuilder rows = new StringBuilder();
    for (Map.Entry<String, Map<String, Double>> e : estimates.entrySet()) {
      Double series = e.getValue().get("SERIES");
      Double patched = e.getValue().get("PATCHED");
      if (series != null && patched != null) {
        rows.append(String.format(Locale.ROOT, "| %s | %s | %s | %s |%n", e.getKey(),
          Compare.sig3(series), Compare.sig3(patched), Compare.sig3(series / patched)));
      }
    }
    if (rows.length() > 0) {
      out.println("SERIES beside PATCHED, case by case: the quotient of the two estimates above "
        + "(a point figure: the two come from separate runs, so no interval pairs them; below 1 "
        + "the series delivers less than the module).");
      out.println();
      out.println("| case | SERIES / A | PATCHED / A | SERIES / PATCHED |");
      out.println("|---|---:|---:|---:|");
      out.print(rows);
      out.println();
    }
  }

  /** Geometric mean over forks, its interval and verdict: three table cells. */
  private static String cells(List<Block> blocks) {
    ForkStats.Interval s = ForkStats.pairedRatio(forkRatios(blocks));
    return Compare.sig3(s.estimate()) + " | " + ForkStatsCli.interval(s) + " | "
      + ForkStatsCli.verdict(s, null);
  }

  /** Score per CPU second: both are per wall second, so wall time cancels. */
  static double[] perCpuSecond(double[] score, double[] cpuNanosPerSecond) {
    double[] out = new double[score.length];
    for (int i = 0; i < score.length; i++) {
      out[i] = score[i] / (cpuNanosPerSecond[i] / 1e9);
    }
    return out;
  }
}
