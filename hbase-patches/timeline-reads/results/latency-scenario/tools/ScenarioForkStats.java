import dev.hbasepatches.jmh.report.ForkStats;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Per-round intervals of the timeline scenario with ForkStats: args = the output directory
 * (runs.md, reads/). Steady faults: PATCHED p50 and p99, RPCs per read and its ratio to UPSTREAM,
 * p99 ratios. Failover: the slowest read per round before the fault and from the fault on.
 */
public class ScenarioForkStats {
  static final Pattern RUN = Pattern.compile("(\\w+) round (\\d+) (\\w+): reads=\\d+ p50=([\\d.]+)ms"
    + " p99=([\\d.]+)ms p99.9=[\\d.]+ms max=([\\d.]+)ms extra/read=([\\d.]+) .* within50ms=([\\d.]+)");

  public static void main(String[] args) throws Exception {
    Path dir = Paths.get(args[0]);
    // fault -> mode -> round -> {p50, p99, max, rpcs, within50}
    Map<String, Map<String, TreeMap<Integer, double[]>>> v = new LinkedHashMap<>();
    for (String line : Files.readAllLines(dir.resolve("runs.md"))) {
      Matcher m = RUN.matcher(line);
      if (m.find()) {
        v.computeIfAbsent(m.group(1), k -> new LinkedHashMap<>())
          .computeIfAbsent(m.group(3), k -> new TreeMap<>()).put(Integer.parseInt(m.group(2)),
            new double[] { d(m.group(4)), d(m.group(5)), d(m.group(6)), 1 + d(m.group(7)),
              d(m.group(8)) });
      }
    }
    for (String fault : new String[] { "healthy", "pause3pct200ms", "slowPrimary20ms" }) {
      if (!v.containsKey(fault)) {
        continue;
      }
      System.out.println("== " + fault);
      for (String mode : new String[] { "BASELINE", "UPSTREAM", "PATCHED" }) {
        print(fault + " " + mode + " p50 ms", ForkStats.mean(col(v, fault, mode, 0)), col(v, fault, mode, 0));
        print(fault + " " + mode + " p99 ms", ForkStats.mean(col(v, fault, mode, 1)), col(v, fault, mode, 1));
        print(fault + " " + mode + " RPCs/read", ForkStats.mean(col(v, fault, mode, 3)), col(v, fault, mode, 3));
      }
      print(fault + " RPCs/read PATCHED/UPSTREAM", ForkStats.pairedRatio(div(col(v, fault, "PATCHED", 3),
        col(v, fault, "UPSTREAM", 3))), div(col(v, fault, "PATCHED", 3), col(v, fault, "UPSTREAM", 3)));
      double[] xp = minus1(col(v, fault, "PATCHED", 3));
      double[] xu = minus1(col(v, fault, "UPSTREAM", 3));
      print(fault + " extra RPCs/read PATCHED", ForkStats.mean(xp), xp);
      print(fault + " extra RPCs/read UPSTREAM", ForkStats.mean(xu), xu);
      print(fault + " extra RPCs/read PATCHED/UPSTREAM", ForkStats.pairedRatio(div(xp, xu)), div(xp, xu));
      print(fault + " p99 PATCHED/BASELINE", ForkStats.pairedRatio(div(col(v, fault, "PATCHED", 1),
        col(v, fault, "BASELINE", 1))), div(col(v, fault, "PATCHED", 1), col(v, fault, "BASELINE", 1)));
      print(fault + " p99 PATCHED/UPSTREAM", ForkStats.pairedRatio(div(col(v, fault, "PATCHED", 1),
        col(v, fault, "UPSTREAM", 1))), div(col(v, fault, "PATCHED", 1), col(v, fault, "UPSTREAM", 1)));
      if (!fault.equals("healthy") && v.containsKey("healthy")) {
        double[] r = div(col(v, fault, "PATCHED", 1), col(v, "healthy", "BASELINE", 1));
        print(fault + " PATCHED p99 / healthy BASELINE p99 (same round)", ForkStats.pairedRatio(r), r);
      }
    }
    for (String fault : new String[] { "gracefulStop", "abort" }) {
      if (!v.containsKey(fault)) {
        continue;
      }
      System.out.println("== " + fault);
      for (String mode : new String[] { "BASELINE", "UPSTREAM", "PATCHED" }) {
        List<double[]> split = new ArrayList<>();
        for (int round : v.get(fault).get(mode).keySet()) {
          split.add(beforeAfter(dir.resolve("reads").resolve(fault + "-" + mode + "-round" + round + ".csv.gz")));
        }
        double[] before = split.stream().mapToDouble(x -> x[0]).toArray();
        double[] after = split.stream().mapToDouble(x -> x[1]).toArray();
        double[] after2 = split.stream().mapToDouble(x -> x[2]).toArray();
        print(fault + " " + mode + " slowest read, whole run ms", ForkStats.mean(col(v, fault, mode, 2)), col(v, fault, mode, 2));
        print(fault + " " + mode + " reads within 50 ms", ForkStats.mean(col(v, fault, mode, 4)), col(v, fault, mode, 4));
        print(fault + " " + mode + " slowest read before the fault ms", ForkStats.mean(before), before);
        print(fault + " " + mode + " slowest read started in the 2 s from the fault ms", ForkStats.mean(after), after);
        print(fault + " " + mode + " slowest read started 2 s or more after the fault ms", ForkStats.mean(after2), after2);
        double[] r = div(after, before);
        print(fault + " " + mode + " slowest in the 2 s from the fault / before it", ForkStats.pairedRatio(r), r);
      }
    }
  }

  /** {slowest before the fault, slowest in [fault, fault + 2 s), slowest after that}. */
  static double[] beforeAfter(Path csv) throws Exception {
    List<String> lines;
    try (java.io.BufferedReader r = new java.io.BufferedReader(new java.io.InputStreamReader(
      new java.util.zip.GZIPInputStream(Files.newInputStream(csv)),
      java.nio.charset.StandardCharsets.UTF_8))) {
      lines = r.lines().collect(java.util.stream.Collectors.toList());
    }
    Matcher m = Pattern.compile("fault at ([\\d.]+) ms").matcher(lines.get(0));
    double at = m.find() ? d(m.group(1)) : Double.NaN;
    double[] out = new double[3];
    for (String l : lines.subList(2, lines.size())) {
      String[] f = l.split(",");
      double start = d(f[1]);
      double lat = d(f[3]);
      int k = start < at ? 0 : start < at + 2000 ? 1 : 2;
      out[k] = Math.max(out[k], lat);
    }
    return out;
  }

  static double[] minus1(double[] a) {
    double[] r = new double[a.length];
    for (int i = 0; i < a.length; i++) {
      r[i] = a[i] - 1;
    }
    return r;
  }

  static double d(String s) {
    return Double.parseDouble(s);
  }

  static double[] col(Map<String, Map<String, TreeMap<Integer, double[]>>> v, String fault,
    String mode, int i) {
    return v.get(fault).get(mode).values().stream().mapToDouble(x -> x[i]).toArray();
  }

  static double[] div(double[] a, double[] b) {
    double[] r = new double[a.length];
    for (int i = 0; i < a.length; i++) {
      r[i] = a[i] / b[i];
    }
    return r;
  }

  static void print(String label, ForkStats.Interval in, double[] values) {
    StringBuilder s = new StringBuilder();
    for (double x : values) {
      s.append(s.length() == 0 ? "" : ", ").append(String.format("%.3f", x));
    }
    System.out.printf("%-62s n=%d %.3f [%.3f, %.3f]  per round: %s%n", label, in.n(), in.estimate(),
      in.low(), in.high(), s);
  }
}
