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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The machine the report is written on, from {@code /proc}. JMH's JSON does not record the
 * hardware, so this is the best available proxy; the report says it was read at report time,
 * because rendering a copied result file elsewhere would describe the wrong machine.
 *
 * @param cpuModel     the first "model name" in cpuinfo, or null if unknown
 * @param logicalCores the number of "processor" entries in cpuinfo, or -1 if unknown
 * @param memTotalKb   MemTotal from meminfo in kB, or -1 if unknown
 */
record MachineInfo(String cpuModel, int logicalCores, long memTotalKb) {

  static final Path CPUINFO = Path.of("/proc/cpuinfo");
  static final Path MEMINFO = Path.of("/proc/meminfo");

  /** Reads this machine's /proc; fields it cannot read stay unknown rather than failing. */
  static MachineInfo fromProc() {
    return read(CPUINFO, MEMINFO);
  }

  static MachineInfo read(Path cpuinfo, Path meminfo) {
    String model = null;
    int cores = -1;
    List<String> cpuLines = lines(cpuinfo);
    if (cpuLines != null) {
      cores = 0;
      for (String line : cpuLines) {
        String key = key(line);
        if (key.equals("processor")) {
          cores++;
        } else if (model == null && key.equals("model name")) {
          model = value(line);
        }
      }
      if (cores == 0) {
        cores = -1;
      }
    }
    long memKb = -1;
    List<String> memLines = lines(meminfo);
    if (memLines != null) {
      for (String line : memLines) {
        if (key(line).equals("MemTotal")) {
          memKb = parseKb(value(line));
          break;
        }
      }
    }
    return new MachineInfo(model, cores, memKb);
  }

  String describeCpu() {
    return cpuModel == null || cpuModel.isEmpty() ? "unknown (no \"model name\" in /proc/cpuinfo)"
      : cpuModel;
  }

  String describeCores() {
    return logicalCores < 0 ? "unknown" : Integer.toString(logicalCores);
  }

  String describeMemory() {
    if (memTotalKb < 0) {
      return "unknown";
    }
    return String.format(Locale.ROOT, "%.1f GiB (MemTotal %d kB)", memTotalKb / (1024.0 * 1024.0),
      memTotalKb);
  }

  private static List<String> lines(Path file) {
    try {
      return Files.readAllLines(file);
    } catch (IOException | RuntimeException e) {
      // Not Linux, or /proc hidden: the report still renders, with "unknown".
      return null;
    }
  }

  private static String key(String line) {
    int colon = line.indexOf(':');
    return colon < 0 ? "" : line.substring(0, colon).trim();
  }

  private static String value(String line) {
    return line.substring(line.indexOf(':') + 1).trim();
  }

  private static long parseKb(String value) {
    String[] parts = value.split("\\s+");
    try {
      long n = Long.parseLong(parts[0]);
      // meminfo always says kB today; anything else would be a format we do not know.
      return parts.length == 1 || parts[1].equalsIgnoreCase("kB") ? n : -1;
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
