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

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import org.apache.log4j.FileAppender;
import org.apache.log4j.Level;
import org.apache.log4j.LogManager;
import org.apache.log4j.Logger;
import org.apache.log4j.PatternLayout;

/**
 * What the command line sets up around a run and takes down after it, Ctrl-C included. HBase's
 * logging, and whatever HBase prints straight to System.out or System.err (thread dumps when a
 * server will not start), go to one log file; the report and the progress line keep the real
 * stdout and stderr. The embedded cluster's data goes to a temporary directory deleted at the
 * end.
 */
final class CliEnvironment {

  /** Where the minicluster puts its data; read by HBase's testing utility. */
  static final String DATA_DIR_PROPERTY = "test.build.data.basedirectory";

  private static volatile boolean active;

  private final PrintStream out;
  private final PrintStream err;
  private final File logFile;
  private final Path dataDir;
  private final Runnable stopCluster;
  private final Thread hook;
  private boolean shutDown;

  private CliEnvironment(PrintStream out, PrintStream err, File logFile, Path dataDir,
    Runnable stopCluster) {
    this.out = out;
    this.err = err;
    this.logFile = logFile;
    this.dataDir = dataDir;
    this.stopCluster = stopCluster;
    this.hook = new Thread(this::shutDown, "hbase-perf-shutdown");
  }

  /** True in a JVM the command line started, false when a test calls {@link PerfTool#run}. */
  static boolean active() {
    return active;
  }

  static CliEnvironment prepare(boolean verbose, Runnable stopCluster) {
    active = true;
    PrintStream realOut = System.out;
    PrintStream realErr = System.err;
    File log = openLog(verbose);
    Path data = null;
    if (System.getProperty(DATA_DIR_PROPERTY) == null) {
      try {
        data = Files.createTempDirectory("hbase-perf-data-");
        System.setProperty(DATA_DIR_PROPERTY, data.toString());
      } catch (IOException e) {
        // The testing utility falls back to target/test-data under the working directory.
      }
    }
    CliEnvironment env = new CliEnvironment(realOut, realErr, log, data, stopCluster);
    Runtime.getRuntime().addShutdownHook(env.hook);
    return env;
  }

  /**
   * Starts the log file and points log4j, System.out and System.err at it. Both writers append,
   * so their lines interleave instead of overwriting each other.
   * @return the file, or null when it could not be created (logging is then dropped)
   */
  private static File openLog(boolean verbose) {
    String configured = System.getProperty("hbase.perf.log");
    File file = configured != null ? new File(configured)
      : new File(System.getProperty("java.io.tmpdir"), "hbase-perf-" + ProcessHandle.current().pid()
        + ".log");
    LogManager.resetConfiguration();
    Logger root = Logger.getRootLogger();
    root.setLevel(verbose ? Level.INFO : Level.WARN);
    try {
      new FileOutputStream(file, false).close();
      root.addAppender(new FileAppender(new PatternLayout("%d{ISO8601} %-5p [%t] %c{1}: %m%n"),
        file.getPath(), true));
      PrintStream stray = new PrintStream(new FileOutputStream(file, true), true,
        StandardCharsets.UTF_8);
      System.setOut(stray);
      System.setErr(stray);
      return file;
    } catch (IOException e) {
      return null;
    }
  }

  /** The real stdout, for the report. */
  PrintStream out() {
    return out;
  }

  /** The real stderr, for progress and messages. */
  PrintStream err() {
    return err;
  }

  File logFile() {
    return logFile;
  }

  void deleteLog() {
    if (logFile != null) {
      LogManager.shutdown();
      logFile.delete();
    }
  }

  /** Stops the embedded cluster and deletes its data; safe to call more than once. */
  synchronized void shutDown() {
    if (shutDown) {
      return;
    }
    shutDown = true;
    try {
      stopCluster.run();
    } catch (RuntimeException e) {
      // Shutting down anyway; the data directory below goes with it.
    }
    if (dataDir != null) {
      deleteTree(dataDir);
    }
    if (Thread.currentThread() != hook) {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // Already shutting down.
      }
    }
  }

  private static void deleteTree(Path root) {
    try {
      Files.walkFileTree(root, new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult visitFile(Path f, BasicFileAttributes a) throws IOException {
          Files.deleteIfExists(f);
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
          Files.deleteIfExists(d);
          return FileVisitResult.CONTINUE;
        }
      });
    } catch (IOException e) {
      // Best effort: it is a temporary directory.
    }
  }
}
