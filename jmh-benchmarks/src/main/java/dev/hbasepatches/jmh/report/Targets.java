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
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Each change's targets as its issue states them (PATCHED against one other mode, a ratio where
 * above 1 means PATCHED is better), read from {@code targets.tsv} beside this class, so that the
 * report's headline judges a case against its own target instead of against 1.
 */
final class Targets {

  static final String RESOURCE = "targets.tsv";
  /** A case key that is JMH's thread count rather than a {@code @Param}. */
  static final String THREADS = "threads";

  /** One target: which cases and which comparison it applies to, and the ratio to clear. */
  record Target(String change, String benchmark, Map<String, String> when, String versus,
    double ratio, String text) {

    /** Whether this target judges the comparison of PATCHED with {@code mode} in this case. */
    boolean applies(String change, String shortName, Map<String, String> caseParams,
      int threads, String mode) {
      if (!this.change.equals(change) || !versus.equals(mode)) {
        return false;
      }
      if (!shortName.equals(benchmark) && !shortName.startsWith(benchmark + ".")) {
        return false;
      }
      for (Map.Entry<String, String> e : when.entrySet()) {
        String actual = THREADS.equals(e.getKey()) ? Integer.toString(threads)
          : caseParams.get(e.getKey());
        if (!e.getValue().equals(actual)) {
          return false;
        }
      }
      return true;
    }
  }

  private static volatile List<Target> builtIn;

  private Targets() {
  }

  /** The targets shipped with the benchmarks. */
  static List<Target> builtIn() {
    List<Target> t = builtIn;
    if (t == null) {
      try (InputStream in = Targets.class.getResourceAsStream(RESOURCE)) {
        if (in == null) {
          throw new IllegalStateException(RESOURCE + " is missing from the benchmarks jar");
        }
        t = parse(new InputStreamReader(in, StandardCharsets.UTF_8));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } catch (BadInputException e) {
        throw new IllegalStateException(RESOURCE + ": " + e.getMessage(), e);
      }
      builtIn = t;
    }
    return t;
  }

  static List<Target> parse(Reader reader) throws IOException, BadInputException {
    List<Target> out = new ArrayList<>();
    BufferedReader in = new BufferedReader(reader);
    int lineNo = 0;
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      lineNo++;
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] f = line.split("\t", -1);
      if (f.length != 6) {
        throw new BadInputException("line " + lineNo + ": expected 6 tab-separated columns"
          + " (change, benchmark, case, versus, target, text), got " + f.length);
      }
      Map<String, String> when = new LinkedHashMap<>();
      if (!"-".equals(f[2].trim())) {
        for (String kv : f[2].trim().split("\\s+")) {
          int eq = kv.indexOf('=');
          if (eq <= 0 || eq == kv.length() - 1) {
            throw new BadInputException("line " + lineNo + ": case '" + kv
              + "' is not key=value");
          }
          when.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
      }
      double ratio;
      try {
        ratio = Double.parseDouble(f[4].trim());
      } catch (NumberFormatException e) {
        throw new BadInputException("line " + lineNo + ": target '" + f[4] + "' is not a number");
      }
      if (!(ratio > 0) || Double.isInfinite(ratio)) {
        throw new BadInputException("line " + lineNo + ": target must be a positive ratio, got "
          + f[4]);
      }
      out.add(new Target(f[0].trim(), f[1].trim(), Collections.unmodifiableMap(when),
        f[3].trim(), ratio, f[5].trim()));
    }
    return Collections.unmodifiableList(out);
  }

  /** The target of {@code change} that judges this comparison, the most specific one, or null. */
  static Target find(List<Target> targets, String change, String shortName,
    Map<String, String> caseParams, int threads, String mode) {
    Target best = null;
    for (Target t : targets) {
      if (t.applies(change, shortName, caseParams, threads, mode)
        && (best == null || t.when().size() > best.when().size())) {
        best = t;
      }
    }
    return best;
  }

  static List<Target> ofChange(List<Target> targets, String change) {
    List<Target> out = new ArrayList<>();
    for (Target t : targets) {
      if (t.change().equals(change)) {
        out.add(t);
      }
    }
    return out;
  }
}
