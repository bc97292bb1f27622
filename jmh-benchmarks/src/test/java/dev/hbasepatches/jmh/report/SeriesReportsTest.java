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
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.Test;

/**
 * Each change's series report ({@code hbase-patches/CHANGE/results/series/report.md}, written by
 * {@code dev-support/series-bench.sh}) describes the series in the tree, quotes five forks or
 * more per row, and is what the change's PATCH.md quotes between its series-report markers.
 */
public class SeriesReportsTest {

  /** The changes with a series benchmark: each must have a current report. */
  static final List<String> CHANGES = List.of("seek-skip", "row-index", "checksum", "offheap-read");

  private static final String BEGIN = "<!-- series-report:begin -->";
  private static final String END = "<!-- series-report:end -->";
  private static final Pattern SERIES_SHA = Pattern.compile("series sha256 ([0-9a-f]{16})");

  @Test
  public void everySeriesReportIsCurrentAndQuotedAsIs() throws Exception {
    Path root = DocumentLinksTest.projectRoot();
    List<String> problems = new ArrayList<>();
    for (String change : CHANGES) {
      Path dir = root.resolve("hbase-patches").resolve(change);
      Path report = dir.resolve("results/series/report.md");
      if (!Files.isRegularFile(report)) {
        problems.add(change + ": no " + root.relativize(report)
          + "; run dev-support/series-bench.sh " + change);
        continue;
      }
      String text = Files.readString(report, StandardCharsets.UTF_8);
      Matcher m = SERIES_SHA.matcher(text);
      String now = seriesSha(dir.resolve("upstream/branch-2.6"));
      if (!m.find() || !m.group(1).equals(now)) {
        problems.add(change + ": the report measured series " + (m.find(0) ? m.group(1) : "?")
          + ", the tree holds " + now + "; run dev-support/series-bench.sh " + change);
      }
      String summary = section(text, "## Summary", "## Every block");
      for (String row : summary.split("\n")) {
        String[] cells = row.split("\\|");
        // The main table's rows (nine columns); the tables after it have four.
        if (cells.length >= 10 && cells[3].trim().matches("\\d+")
          && Integer.parseInt(cells[3].trim()) < ForkStats.MIN_FORKS) {
          problems.add(change + ": fewer than " + ForkStats.MIN_FORKS + " forks: " + row);
        }
      }
      String patch = Files.readString(dir.resolve("PATCH.md"), StandardCharsets.UTF_8);
      if (!patch.contains(BEGIN) || !patch.contains(END)) {
        problems.add(change + ": PATCH.md has no " + BEGIN + " ... " + END + " block");
        continue;
      }
      String quoted = patch.substring(patch.indexOf(BEGIN) + BEGIN.length(), patch.indexOf(END));
      if (!quoted.strip().equals(summary.strip())) {
        problems.add(change + ": PATCH.md's series summary is not the report's; run "
          + "dev-support/series-bench.sh " + change + " or copy the report's Summary");
      }
    }
    assertEquals(String.join("\n", problems), 0, problems.size());
  }

  @Test
  public void theShaIsTheScriptsAndSeesEveryPatch() throws Exception {
    Path dir = Files.createTempDirectory("series-sha");
    Files.writeString(dir.resolve("0002-b.patch"), "b\n");
    Files.writeString(dir.resolve("0001-a.patch"), "a\n");
    Files.writeString(dir.resolve("check.txt"), "not a patch\n");
    // printf 'a\nb\n' | sha256sum | cut -c1-16
    assertEquals("911169ddaaf146af", seriesSha(dir));
    String before = seriesSha(dir);
    Files.writeString(dir.resolve("0002-b.patch"), "c\n");
    assertTrue("a changed patch changes the hash", !before.equals(seriesSha(dir)));
  }

  /** sha256 of the series' patches concatenated in name order, its first 16 hex digits. */
  static String seriesSha(Path seriesDir) throws IOException, NoSuchAlgorithmException {
    MessageDigest sha = MessageDigest.getInstance("SHA-256");
    List<Path> patches;
    try (Stream<Path> list = Files.list(seriesDir)) {
      patches = list.filter(p -> p.getFileName().toString().endsWith(".patch")).sorted()
        .collect(Collectors.toList());
    }
    for (Path p : patches) {
      sha.update(Files.readAllBytes(p));
    }
    return HexFormat.of().formatHex(sha.digest()).substring(0, 16);
  }

  private static String section(String text, String from, String to) {
    int i = text.indexOf(from);
    int j = text.indexOf(to);
    return i < 0 || j < i ? "" : text.substring(i + from.length(), j);
  }
}
