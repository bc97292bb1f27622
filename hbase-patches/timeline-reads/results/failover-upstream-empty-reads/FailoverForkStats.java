import dev.hbasepatches.jmh.report.ForkStats;
import java.util.Arrays;

/** Args: label v1,v2,... (one per series); prints ForkStats.mean over the rounds. */
public class FailoverForkStats {
  public static void main(String[] args) {
    for (int i = 0; i + 1 < args.length; i += 2) {
      double[] v = Arrays.stream(args[i + 1].split(",")).mapToDouble(Double::parseDouble).toArray();
      ForkStats.Interval in = ForkStats.mean(v);
      System.out.printf("%-40s n=%d mean %.4f [%.4f, %.4f]  values %s%n", args[i], in.n(),
        in.estimate(), in.low(), in.high(), args[i + 1]);
    }
  }
}
