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
package dev.hbasepatches.jmh.checksum;

import dev.hbasepatches.jmh.HBaseBenchmark;
import dev.hbasepatches.jmh.report.ForkStats;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.hbase.util.ChecksumType;

/**
 * How much of a major compaction's CPU goes to HFile block checksums (the HBASE-11927 table):
 * compactions of a real HRegion with checksum type NULL, CRC32 and CRC32C, measured as compacting
 * thread CPU time (not wall), in one JVM with HotSpot's CRC intrinsics and one without.
 * <p>
 * The share is read two ways: (CPU with checksums - CPU with NULL) / CPU with checksums, over
 * interleaved rounds; and JFR samples of the compacting thread that were inside checksum code, from
 * separate sampled rounds (the sampler's own cost stays out of the CPU times). Intervals come from
 * {@link ForkStats}, on the scale of each quantity: CPU times as geometric means (log scale), the
 * checksum CPU as the paired difference per round, the CPU-difference share as one minus the
 * paired ratio NULL / checksum (log scale; a share cannot be negative, so its lower bound stops at
 * 0), the JFR share of one JVM's pooled samples with Wilson's interval.
 * <p>
 * Run: {@code java -cp benchmarks.jar dev.hbasepatches.jmh.checksum.CompactionChecksumShare
 * [--files 4] [--rows 30000] [--value 200] [--warmup 1] [--rounds 3]}. It forks three JVMs: CRC
 * intrinsics on with blocks read into heap buffers (a standalone region's default), intrinsics on
 * with blocks read into pooled direct buffers (a RegionServer's default), and intrinsics off. The
 * defaults keep a run to about three minutes; use more rounds for tighter intervals.
 * <p>
 * The intrinsics-off fork shows what the CPU's CRC instructions buy upstream's own path; it is not
 * BASELINE. BASELINE, everywhere in the checksum benchmarks, is the pre-HBASE-11927 code: Hadoop's
 * PureJavaCrc32C per chunk ({@code CrcEngine.PURE_JAVA}, {@link BlockChecksumBenchmark}).
 */
public final class CompactionChecksumShare {

  /** The JDK 17 opens HBase needs: exactly what HBaseBenchmark's forks get. */
  private static final List<String> JDK17_OPENS = HBaseBenchmark.forkJvmArgs();
  private static final List<String> NO_CRC_INTRINSICS = List.of("-XX:+UnlockDiagnosticVMOptions",
    "-XX:-UseCRC32Intrinsics", "-XX:-UseCRC32CIntrinsics");

  private static final ChecksumType[] TYPES =
    { ChecksumType.NULL, ChecksumType.CRC32, ChecksumType.CRC32C };

  private final int files;
  private final int rows;
  private final int valueBytes;
  private final int warmup;
  private final int rounds;

  private CompactionChecksumShare(int files, int rows, int valueBytes, int warmup, int rounds) {
    if (files < 2 || rows < 1 || valueBytes < 2 || warmup < 0 || rounds < 2) {
      throw new IllegalArgumentException("need files >= 2, rows >= 1, value >= 2, warmup >= 0,"
        + " rounds >= 2; got files=" + files + " rows=" + rows + " value=" + valueBytes
        + " warmup=" + warmup + " rounds=" + rounds);
    }
    this.files = files;
    this.rows = rows;
    this.valueBytes = valueBytes;
    this.warmup = warmup;
    this.rounds = rounds;
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> opts = parse(args);
    CompactionChecksumShare run = new CompactionChecksumShare(
      Integer.parseInt(opts.getOrDefault("files", "4")),
      Integer.parseInt(opts.getOrDefault("rows", "30000")),
      Integer.parseInt(opts.getOrDefault("value", "200")),
      Integer.parseInt(opts.getOrDefault("warmup", "1")),
      Integer.parseInt(opts.getOrDefault("rounds", "3")));
    if (opts.containsKey("in-process")) {
      String allocator = opts.getOrDefault("allocator", "heap");
      if (allocator.equals("pooled")) {
        CompactionRegion.usePooledDirectReads();
      } else if (!allocator.equals("heap")) {
        throw new IllegalArgumentException("--allocator is heap or pooled, not " + allocator);
      }
      run.measure(opts.getOrDefault("intrinsics", "on"), allocator);
    } else {
      run.forkBoth(args);
    }
  }

  private static Map<String, String> parse(String[] args) {
    Map<String, String> opts = new java.util.HashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (!args[i].startsWith("--")) {
        throw new IllegalArgumentException("unexpected argument '" + args[i] + "'");
      }
      String key = args[i].substring(2);
      if (key.equals("in-process")) {
        opts.put(key, "true");
      } else if (i + 1 < args.length) {
        opts.put(key, args[++i]);
      } else {
        throw new IllegalArgumentException("--" + key + " needs a value");
      }
    }
    return opts;
  }

  private void forkBoth(String[] args) throws IOException, InterruptedException {
    System.out.printf("Compaction checksum share: %d HFiles x %d rows (values %d-%d B), %d warmup"
      + " + %d measured rounds per type, date %s%n", files, rows, valueBytes / 2, valueBytes,
      warmup, rounds, ZonedDateTime.now());
    System.out.printf("JVM %s %s, %d CPUs%n%n", System.getProperty("java.vm.name"),
      System.getProperty("java.runtime.version"), Runtime.getRuntime().availableProcessors());
    String[][] forks = { { "on", "heap" }, { "on", "pooled" }, { "off", "heap" } };
    for (String[] fork : forks) {
      String intrinsics = fork[0];
      List<String> cmd = new ArrayList<>();
      cmd.add(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
      cmd.addAll(JDK17_OPENS);
      if (intrinsics.equals("off")) {
        cmd.addAll(NO_CRC_INTRINSICS);
      }
      cmd.add("-cp");
      cmd.add(System.getProperty("java.class.path"));
      cmd.add(CompactionChecksumShare.class.getName());
      cmd.addAll(Arrays.asList(args));
      cmd.add("--in-process");
      cmd.add("--intrinsics");
      cmd.add(intrinsics);
      cmd.add("--allocator");
      cmd.add(fork[1]);
      Process p = new ProcessBuilder(cmd).inheritIO().start();
      int rc = p.waitFor();
      if (rc != 0) {
        throw new IOException("fork " + Arrays.toString(fork) + " exited " + rc);
      }
    }
  }

  private void measure(String intrinsics, String allocator) throws IOException {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    Map<ChecksumType, List<Long>> cpu = new EnumMap<>(ChecksumType.class);
    Map<ChecksumType, List<Long>> wall = new EnumMap<>(ChecksumType.class);
    Map<ChecksumType, Long> bytes = new EnumMap<>(ChecksumType.class);
    for (ChecksumType t : TYPES) {
      cpu.put(t, new ArrayList<>());
      wall.put(t, new ArrayList<>());
    }
    for (int round = 0; round < warmup + rounds; round++) {
      for (int k = 0; k < TYPES.length; k++) {
        // Rotate the order each round so drift does not favour one type.
        ChecksumType type = TYPES[(k + round) % TYPES.length];
        try (CompactionRegion region = CompactionRegion.create(type)) {
          region.load(files, rows, valueBytes, round);
          long in = region.storeFileBytes();
          System.gc();
          long c0 = mx.getCurrentThreadCpuTime();
          long w0 = System.nanoTime();
          region.majorCompact();
          long w1 = System.nanoTime();
          long c1 = mx.getCurrentThreadCpuTime();
          if (region.storeFileCount() != 1) {
            throw new IllegalStateException("major compaction left " + region.storeFileCount()
              + " files");
          }
          if (round >= warmup) {
            cpu.get(type).add(c1 - c0);
            wall.get(type).add(w1 - w0);
            bytes.put(type, in + region.storeFileBytes());
          }
        }
      }
    }
    // Sampled rounds, separate so the recorder's own cost stays out of the CPU times above.
    Map<ChecksumType, long[]> samples = new EnumMap<>(ChecksumType.class);
    for (ChecksumType t : TYPES) {
      samples.put(t, new long[3]);
    }
    for (int round = 0; round < rounds; round++) {
      for (ChecksumType type : TYPES) {
        try (CompactionRegion region = CompactionRegion.create(type)) {
          region.load(files, rows, valueBytes, 1000 + round);
          System.gc();
          ChecksumSampleCounter.Counts c = ChecksumSampleCounter.sample(region::majorCompact);
          samples.get(type)[0] += c.checksum;
          samples.get(type)[1] += c.total;
          samples.get(type)[2] += c.verify;
        }
      }
    }
    report(intrinsics, allocator, cpu, wall, bytes, samples);
  }

  private void report(String intrinsics, String allocator, Map<ChecksumType, List<Long>> cpu,
    Map<ChecksumType, List<Long>> wall, Map<ChecksumType, Long> bytes,
    Map<ChecksumType, long[]> samples) {
    double[] none = millis(cpu.get(ChecksumType.NULL));
    System.out.printf(Locale.ROOT, "CRC intrinsics %s, blocks read into %s buffers (%s)%n%n",
      intrinsics, allocator.equals("pooled") ? "pooled direct" : "heap",
      ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(a -> a.startsWith("-XX:")).reduce((a, b) -> a + " " + b).orElse("defaults"));
    System.out.println("ChecksumUtil loaded from " + checksumUtilSource() + "\n");
    System.out.println("| checksum | compaction thread CPU ms, geometric mean [95% interval] (n) |"
      + " wall ms, geometric mean | MB read+written | checksum CPU ms (vs NULL, paired by round)"
      + " [95% interval] | checksum share, CPU difference [95% interval] |"
      + " checksum share, JFR samples [95% Wilson interval] (checksum of all) |"
      + " of which verify on read |");
    System.out.println("|---|---|---|---|---|---|---|---|");
    for (ChecksumType type : TYPES) {
      double[] ms = millis(cpu.get(type));
      ForkStats.Interval s = ForkStats.positiveMean(ms);
      ForkStats.Interval w = ForkStats.positiveMean(millis(wall.get(type)));
      long[] c = samples.get(type);
      String diff;
      String share;
      if (type == ChecksumType.NULL) {
        diff = "-";
        share = "-";
      } else {
        diff = bracketed(ForkStats.mean(differences(ms, none)), "%.0f", 1);
        share = cpuShare(ForkStats.pairedRatio(quotients(none, ms)));
      }
      ForkStats.Interval jfr = ForkStats.wilson(c[0], c[1]);
      System.out.printf(Locale.ROOT, "| %s | %s (n=%d) | %.0f | %.1f | %s | %s |"
        + " %s (%d of %d) | %d |%n", type, bracketed(s, "%.0f", 1), s.n(), w.estimate(),
        bytes.get(type) / 1e6, diff, share, bracketed(jfr, "%.1f%%", 100), c[0], c[1], c[2]);
    }
    System.out.println();
  }

  private static double[] millis(List<Long> nanos) {
    return nanos.stream().mapToDouble(v -> v / 1e6).toArray();
  }

  /** Round by round {@code a[i] - b[i]}: the rounds compacted each type once, in rotated order. */
  static double[] differences(double[] a, double[] b) {
    double[] out = new double[Math.min(a.length, b.length)];
    for (int i = 0; i < out.length; i++) {
      out[i] = a[i] - b[i];
    }
    return out;
  }

  /** Round by round {@code a[i] / b[i]}. */
  static double[] quotients(double[] a, double[] b) {
    double[] out = new double[Math.min(a.length, b.length)];
    for (int i = 0; i < out.length; i++) {
      out[i] = a[i] / b[i];
    }
    return out;
  }

  /**
   * The share of a compaction's CPU that checksums take, 1 - NULL / checksum, from the paired
   * ratio NULL / checksum: [1 - high, 1 - low], where a bound or estimate below 0 (NULL as slow as
   * the checksum type, within the noise) reads 0, since a share cannot be negative.
   */
  static String cpuShare(ForkStats.Interval nullOverChecksum) {
    ForkStats.Interval r = nullOverChecksum;
    ForkStats.Interval share = new ForkStats.Interval(r.n(), Math.max(0, 1 - r.estimate()),
      Math.max(0, 1 - r.high()), Math.max(0, 1 - r.low()));
    return bracketed(share, "%.1f%%", 100);
  }

  /** {@code estimate [low, high]} scaled and formatted, or the estimate alone without bounds. */
  static String bracketed(ForkStats.Interval i, String format, double scale) {
    String est = String.format(Locale.ROOT, format, scale * i.estimate());
    if (!Double.isFinite(i.low())) {
      return est;
    }
    return est + " [" + String.format(Locale.ROOT, format, scale * i.low()) + ", "
      + String.format(Locale.ROOT, format, scale * i.high()) + "]";
  }

  /**
   * Where HBase's ChecksumUtil came from: hbase-server's jar (UPSTREAM) or the checksum overlay
   * jar put ahead of it on the classpath (PATCHED), and whether the overlay routes through
   * BlockChecksummer.
   */
  private static String checksumUtilSource() {
    try {
      Class<?> c = Class.forName("org.apache.hadoop.hbase.io.hfile.ChecksumUtil");
      String where = String.valueOf(c.getProtectionDomain().getCodeSource().getLocation());
      try {
        Object checksummer = c.getMethod("checksummer").invoke(null);
        return where + " (overlay, " + (checksummer != null ? "BlockChecksummer)" : "stock path)");
      } catch (NoSuchMethodException e) {
        return where + " (HBase's own)";
      }
    } catch (ReflectiveOperationException e) {
      return "unknown: " + e;
    }
  }
}
