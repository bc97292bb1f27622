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

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.Test;

/**
 * Every interval a user document quotes, "1.62x [1.45, 1.82]", is in a result file the project
 * commits (a report under some {@code results/} folder): a number typed by hand, or left behind
 * when its report was re-run, fails here. The documents are the README and BUILDING files, every
 * PATCH.md and README outside {@code results/} and {@code dev-support/} (whose README records
 * command output, like a result), and {@code docs/}; a result file may write the
 * same interval as a table's cells ("| 1.62 | [1.45, 1.82] |") or as "1.45 to 1.82", on one line
 * or two.
 */
public class QuotedNumbersTest {

  private static final String NUM = "(-?\\d[\\d,]*(?:\\.\\d+)?)";
  /**
   * "E [L, H]", "Ex [L, H]", "E | [L, H]", "Ex UPSTREAM [L, H]" (a side's name between), "E ns
   * [L, H]" (a unit between), over a line break too.
   */
  private static final Pattern BRACKETED = Pattern.compile(NUM
    + "x?(?:\\s|\\|)+(?:(?:UPSTREAM|BASELINE|PATCHED|SERIES|ns|us|µs|ms|s|%)\\s+)?\\["
    + NUM + ", " + NUM + "\\]");
  /** "E | L to H" (the older reports' tables). */
  private static final Pattern TO = Pattern.compile(NUM + "x?(?:\\s|\\|)+" + NUM + " to " + NUM);

  static Set<String> intervals(String text, boolean results) {
    Set<String> out = new HashSet<>();
    for (Pattern p : results ? List.of(BRACKETED, TO) : List.of(BRACKETED)) {
      Matcher m = p.matcher(text);
      while (m.find()) {
        out.add(key(m.group(1), m.group(2), m.group(3)));
      }
    }
    return out;
  }

  private static String key(String e, String l, String h) {
    return e.replace(",", "") + " [" + l.replace(",", "") + ", " + h.replace(",", "") + "]";
  }

  private static List<Path> files(Path root) throws IOException {
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.filter(Files::isRegularFile)
        .filter(p -> {
          String rel = root.relativize(p).toString().replace('\\', '/');
          return !rel.startsWith(".git/") && !rel.contains("/target/")
            && !rel.startsWith("target/");
        }).sorted().collect(Collectors.toList());
    }
  }

  @Test
  public void everyQuotedIntervalIsInACommittedResult() throws IOException {
    Path root = DocumentLinksTest.projectRoot();
    Set<String> known = new HashSet<>();
    List<Path> docs = new ArrayList<>();
    for (Path p : files(root)) {
      String rel = root.relativize(p).toString().replace('\\', '/');
      String name = p.getFileName().toString();
      boolean inResults = rel.contains("/results/");
      if (inResults && (name.endsWith(".md") || name.endsWith(".txt") || name.endsWith(".tsv"))) {
        known.addAll(intervals(Files.readString(p, StandardCharsets.UTF_8), true));
      } else if (!inResults && !rel.startsWith("dev-support/") && name.endsWith(".md")
        && (rel.startsWith("docs/")
        || name.equals("README.md") || name.equals("PATCH.md") || name.equals("BUILDING.md"))) {
        docs.add(p);
      }
    }
    assertTrue("no result files found under " + root, !known.isEmpty());
    List<String> missing = new ArrayList<>();
    for (Path doc : docs) {
      for (String i : intervals(Files.readString(doc, StandardCharsets.UTF_8), false)) {
        if (!known.contains(i)) {
          missing.add(root.relativize(doc) + ": " + i);
        }
      }
    }
    missing.sort(null);
    assertEquals("intervals quoted in documents but in no committed result file (re-quote them"
      + " from the current report):\n" + String.join("\n", missing), 0, missing.size());
  }

  @Test
  public void readsEveryWayAResultWritesAnInterval() {
    assertEquals(Set.of("1.62 [1.45, 1.82]"),
      intervals("gains **1.62x [1.45, 1.82]** here", false));
    assertEquals(Set.of("102 [91, 113]"), intervals("| 102 | [91, 113] |", true));
    assertEquals(Set.of("1.63 [1.54, 1.73]"),
      intervals("**1.63x\n  BASELINE [1.54, 1.73]**", false));
    assertEquals(Set.of("0.83 [0.41, 1.66]"), intervals("is 0.83\n  [0.41, 1.66].", true));
    assertEquals(Set.of("0.769 [0.755, 0.783]"), intervals("| 0.769 | 0.755 to 0.783 |", true));
    assertEquals(Set.of("1500 [1200, 1800]"), intervals("1,500 [1,200, 1,800]", false));
    assertEquals(Set.of("121 [116, 127]"), intervals("costs **121 ns [116, 127]** per", false));
    assertEquals(Set.of("3.9 [3.5, 4.4]"), intervals("p50 3.9 ms [3.5, 4.4]", false));
    assertTrue("a document's 'to' is not an interval it quotes",
      intervals("1.2 | 1.1 to 1.3", false).isEmpty());
  }
}
