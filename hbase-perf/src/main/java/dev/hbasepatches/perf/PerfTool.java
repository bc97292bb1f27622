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

import java.io.PrintStream;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/**
 * hbase-perf: a load tool in the habit of {@code hbase pe}. {@link #main} is the command line;
 * {@link #run} does the same work with the exit code returned, for tests and embedding.
 */
public final class PerfTool {

  private static final String NETTY_REFLECTION =
    "org.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible";

  /** The embedded cluster this JVM's command line started, for {@link #main} to stop. */
  private static volatile EmbeddedCluster startedByMain;

  private final PerfOptions options;
  private final PrintStream out;
  private final PrintStream err;
  private final boolean terminal;

  private PerfTool(PerfOptions options, PrintStream out, PrintStream err, boolean terminal) {
    this.options = options;
    this.out = out;
    this.err = err;
    this.terminal = terminal;
  }

  public static void main(String[] args) {
    // What dev-support/hbase-perf.sh passes with -D, so that java -jar runs the same way.
    System.setProperty("java.net.preferIPv4Stack",
      System.getProperty("java.net.preferIPv4Stack", "true"));
    System.setProperty(NETTY_REFLECTION, System.getProperty(NETTY_REFLECTION, "true"));
    boolean verbose = Arrays.asList(args).contains("--verbose");
    CliEnvironment env = CliEnvironment.prepare(verbose, () -> {
      EmbeddedCluster c = startedByMain;
      if (c != null) {
        c.miniCluster().stop();
      }
    });
    int code = ToolFailure.EXIT_INTERNAL;
    try {
      code = run(args, env.out(), env.err(), System.console() != null);
    } catch (OutOfMemoryError e) {
      env.err().println("hbase-perf: the JVM ran out of heap (" + e.getMessage() + "); the "
        + "embedded cluster shares it: raise HBASE_PERF_HEAP or lower --rows / --valueSize");
    } finally {
      env.shutDown();
      // The log only matters when something went wrong with the cluster, or on request.
      boolean keepLog = verbose || (code != 0 && code != ToolFailure.EXIT_USAGE);
      if (keepLog && env.logFile() != null) {
        env.err().println("hbase-perf: HBase's own log is in " + env.logFile());
      } else {
        env.deleteLog();
      }
    }
    System.exit(code);
  }

  /**
   * Parses {@code args}, runs what they ask, prints the report to {@code out} and progress and
   * notes to {@code err}.
   * @return the exit code: 0, or one of the {@link ToolFailure} codes
   */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    return run(args, out, err, false);
  }

  static int run(String[] args, PrintStream out, PrintStream err, boolean terminal) {
    if (PerfArgsParser.wantsHelp(args)) {
      out.print(PerfArgsParser.usage());
      return 0;
    }
    PerfOptions options;
    try {
      options = PerfArgsParser.parse(args);
      JsonReport.checkWritable(options.jsonPath);
      if (!options.changes.isEmpty()) {
        // A named module missing from the classpath is refused before anything starts.
        ChangeModules.select(options.changes, options.changeMode);
      }
    } catch (ToolFailure f) {
      err.println("hbase-perf: " + f.getMessage());
      err.println("(hbase-perf --help lists the commands and options)");
      return f.exitCode();
    }
    return new PerfTool(options, out, err, terminal).execute();
  }

  private int execute() {
    Instant started = Instant.now();
    PrintStream report = "-".equals(options.jsonPath) ? err : out;
    ClusterSession cluster = null;
    PerfRun run = null;
    int code;
    String failure = null;
    Throwable trace = null;
    try {
      cluster = openCluster();
      err.println("cluster: " + cluster.summary());
      run = new PerfRun(options, cluster, err, terminal);
      run.runAll();
      cluster.closingNotes().forEach(err::println);
      code = run.results().stream().anyMatch(CommandResult::failed)
        ? ToolFailure.EXIT_RUN_ERRORS : 0;
    } catch (ToolFailure f) {
      code = f.exitCode();
      failure = f.getMessage();
      trace = f;
    } catch (Exception | LinkageError | AssertionError e) {
      code = ToolFailure.EXIT_INTERNAL;
      failure = "unexpected failure: " + ToolFailure.describe(e)
        + (options.verbose ? "" : " (rerun with --verbose for the stack trace)");
      trace = e;
    }
    try {
      if (run != null && !run.results().isEmpty()) {
        String where = cluster.summary();
        ResultTable.print(run.results(), where, report);
        if (run.seedTable() != null) {
          run.seedTable().print(report, where);
        }
        for (ScenarioReport s : run.scenarioReports()) {
          report.println();
          report.print(s.markdown());
        }
      }
      if (options.jsonPath != null) {
        List<CommandResult> results = run == null ? List.of() : run.results();
        JsonReport.write(options.jsonPath, JsonReport.build(options, cluster, results,
          run == null ? null : run.seedTable(), started, Instant.now(), code), out);
      }
    } catch (ToolFailure f) {
      code = code == 0 ? f.exitCode() : code;
      failure = failure == null ? f.getMessage() : failure + "; " + f.getMessage();
    } finally {
      if (cluster != null) {
        cluster.close();
      }
    }
    if (failure != null) {
      err.println("hbase-perf: " + failure);
      if (options.verbose && trace != null) {
        trace.printStackTrace(err);
      }
    } else if (code == ToolFailure.EXIT_RUN_ERRORS) {
      err.println("hbase-perf: some operations failed or verification found problems; see above");
    }
    return code;
  }

  private ClusterSession openCluster() {
    if (!options.embedded()) {
      return ExternalCluster.connect(options, err);
    }
    EmbeddedCluster c = EmbeddedCluster.start(options, err);
    if (CliEnvironment.active()) {
      startedByMain = c;
    }
    return c;
  }
}
