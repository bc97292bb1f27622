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
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Properties;

/**
 * The machine as it was when the benchmarks ran: the {@code -Pjmh} build runs {@link #main}
 * before the benchmarks (CPU, cores, memory, JDK, load average) and again after them (load
 * average), into {@code <result>.json.machine} beside the JMH result, and the report reads it
 * from there. Without such a file the report falls back to reading this machine at report time,
 * and says so.
 *
 * @param startUtc  when the capture before the run was taken
 * @param startLoad /proc/loadavg's 1, 5 and 15 minute averages then, or "unknown"
 * @param endUtc    when the capture after the run was taken, or null if there was none
 * @param endLoad   the load averages then, or null
 * @param java      the JDK the build ran ({@code java.version}, {@code java.vm.name})
 */
record RunMachine(MachineInfo machine, String startUtc, String startLoad, String endUtc,
  String endLoad, String java) {

  static final String SUFFIX = ".machine";
  private static final Path LOADAVG = Path.of("/proc/loadavg");

  /** {@code RunMachine RESULT.json.machine [--end]}: capture before the run, or after it. */
  public static void main(String[] args) {
    if (args.length < 1 || args.length > 2 || (args.length == 2 && !"--end".equals(args[1]))) {
      System.err.println("usage: RunMachine FILE [--end]");
      System.exit(2);
    }
    try {
      capture(Path.of(args[0]), args.length == 2, MachineInfo.fromProc(), loadavg(LOADAVG),
        Instant.now());
    } catch (IOException e) {
      System.err.println("RunMachine: cannot write " + args[0] + ": " + e);
      System.exit(1);
    }
  }

  static void capture(Path file, boolean end, MachineInfo m, String load, Instant now)
    throws IOException {
    Properties p = new Properties();
    if (end && Files.exists(file)) {
      try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
        p.load(r);
      }
      p.setProperty("end.utc", utc(now));
      p.setProperty("end.loadavg", load);
    } else {
      p.setProperty("cpu", m.cpuModel() == null ? "" : m.cpuModel());
      p.setProperty("cores", Integer.toString(m.logicalCores()));
      p.setProperty("memTotalKb", Long.toString(m.memTotalKb()));
      p.setProperty("java", System.getProperty("java.version") + ", "
        + System.getProperty("java.vm.name"));
      p.setProperty("start.utc", utc(now));
      p.setProperty("start.loadavg", load);
    }
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      p.store(w, "machine captured around the JMH run (dev.hbasepatches.jmh.report.RunMachine)");
    }
  }

  /** The capture beside {@code json}, or null if there is none or it cannot be read. */
  static RunMachine besides(Path json) {
    Path file = Path.of(json.toString() + SUFFIX);
    if (!Files.isRegularFile(file)) {
      return null;
    }
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(r);
    } catch (IOException | IllegalArgumentException e) {
      return null;
    }
    String cpu = p.getProperty("cpu", "");
    MachineInfo m = new MachineInfo(cpu.isEmpty() ? null : cpu, intOr(p.getProperty("cores"), -1),
      longOr(p.getProperty("memTotalKb"), -1));
    return new RunMachine(m, p.getProperty("start.utc", "unknown"),
      p.getProperty("start.loadavg", "unknown"), p.getProperty("end.utc"),
      p.getProperty("end.loadavg"), p.getProperty("java", "unknown"));
  }

  /** The three load averages from /proc/loadavg, or "unknown". */
  static String loadavg(Path file) {
    try {
      String[] f = Files.readString(file, StandardCharsets.UTF_8).trim().split("\\s+");
      return f.length >= 3 ? f[0] + " " + f[1] + " " + f[2] : "unknown";
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }

  private static String utc(Instant t) {
    return ChangeReport.DATE.format(t.atZone(ZoneOffset.UTC));
  }

  private static int intOr(String s, int dflt) {
    try {
      return s == null ? dflt : Integer.parseInt(s.trim());
    } catch (NumberFormatException e) {
      return dflt;
    }
  }

  private static long longOr(String s, long dflt) {
    try {
      return s == null ? dflt : Long.parseLong(s.trim());
    } catch (NumberFormatException e) {
      return dflt;
    }
  }
}
