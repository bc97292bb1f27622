import org.junit.runner.Description;
import org.junit.runner.JUnitCore;
import org.junit.runner.Request;
import org.junit.runner.Result;
import org.junit.runner.notification.Failure;
import org.junit.runner.notification.RunListener;

/** Runs one test class and prints when each test starts and ends (wall clock). */
public class TimedRun {
  public static void main(String[] args) throws Exception {
    JUnitCore core = new JUnitCore();
    final long t0 = System.currentTimeMillis();
    core.addListener(new RunListener() {
      long start;
      @Override public void testStarted(Description d) {
        start = System.currentTimeMillis();
        System.out.printf("[timed] %7.1f s start %s%n", (start - t0) / 1e3, d.getMethodName());
      }
      @Override public void testFinished(Description d) {
        long now = System.currentTimeMillis();
        System.out.printf("[timed] %7.1f s end   %s (%.1f s)%n", (now - t0) / 1e3,
          d.getMethodName(), (now - start) / 1e3);
      }
      @Override public void testFailure(Failure f) {
        System.out.println("[timed] FAILED " + f.getDescription() + ": " + f.getMessage());
      }
    });
    Result r = core.run(Request.aClass(Class.forName(args[0])));
    System.out.printf("[timed] total %.1f s, run %d, failed %d%n",
      (System.currentTimeMillis() - t0) / 1e3, r.getRunCount(), r.getFailureCount());
    System.exit(r.wasSuccessful() ? 0 : 1);
  }
}
