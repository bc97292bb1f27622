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
import java.io.UncheckedIOException;
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
  public void theShaIsTheScriptsAndSeesOnlyTheDiffs() throws Exception {
    Path dir = Files.createTempDirectory("series-sha");
    Files.writeString(dir.resolve("0002-b.patch"), patch("B", "b"));
    Files.writeString(dir.resolve("0001-a.patch"), patch("A", "a"));
    Files.writeString(dir.resolve("check.txt"), "not a patch\n");
    // The diff content of 0001 then 0002, what dev-support/series-sha.sh hashes: the same as
    // printf 'diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-- old\n+a\n' (then +b)
    //   | sha256sum | cut -c1-16
    String diffs = diff("a") + diff("b");
    assertEquals(sha256(diffs).substring(0, 16), seriesSha(dir));
    assertEquals("60d0f22ef8265fa6", seriesSha(dir));
    String before = seriesSha(dir);

    Files.writeString(dir.resolve("0001-a.patch"),
      patch("A", "a").replace("From: Someone <someone@example.org>", "From: Another <x@y.z>")
        .replace("Subject: [PATCH] A", "Subject: [PATCH] HBASE-XXXXX A, reworded")
        .replace("2.39.5", "2.47.0"));
    assertEquals("the mail header, message and signature are not hashed", before, seriesSha(dir));

    Files.writeString(dir.resolve("0002-b.patch"), patch("B", "c"));
    assertTrue("a changed diff changes the hash", !before.equals(seriesSha(dir)));

    Path script = DocumentLinksTest.projectRoot().resolve("dev-support/series-sha.sh");
    for (Path series : seriesDirs()) {
      String byScript = runScript(script, series);
      assertEquals("dev-support/series-sha.sh and seriesSha agree on " + series,
        byScript.substring(0, 16), seriesSha(series));
    }
    assertEquals(runScript(script, dir).substring(0, 16), seriesSha(dir));
  }

  /** A format-patch file: mail header, message, diffstat, the diff and the signature. */
  private static String patch(String subject, String added) {
    return "From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001\n"
      + "From: Someone <someone@example.org>\n" + "Date: Sat, 28 Nov 2026 17:34:07 +0000\n"
      + "Subject: [PATCH] " + subject + "\n\n" + "The message.\n" + "---\n"
      + " f | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n\n" + diff(added)
      + "-- \n" + "2.39.5\n\n";
  }

  /** A diff whose removed line reads "- old", so that a line "-- old" is diff content. */
  private static String diff(String added) {
    return "diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-- old\n+" + added + "\n";
  }

  private static String sha256(String s) throws NoSuchAlgorithmException {
    return HexFormat.of().formatHex(
      MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.ISO_8859_1)));
  }

  /** Every upstream series directory of the project (HBase and Phoenix, every target). */
  private static List<Path> seriesDirs() throws IOException {
    Path root = DocumentLinksTest.projectRoot();
    List<Path> dirs = new ArrayList<>();
    for (String group : List.of("hbase-patches", "phoenix-patches")) {
      try (Stream<Path> s = Files.walk(root.resolve(group), 3)) {
        s.filter(p -> p.getParent() != null && p.getParent().getFileName().toString().equals("upstream")
          && Files.isDirectory(p)).sorted().forEach(dirs::add);
      }
    }
    dirs.removeIf(d -> {
      try (Stream<Path> l = Files.list(d)) {
        return l.noneMatch(p -> p.getFileName().toString().endsWith(".patch"));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
    assertTrue("no upstream series found under " + root, !dirs.isEmpty());
    return dirs;
  }

  /** dev-support/series-sha.sh over the directory's patches in name order, as its callers run it. */
  private static String runScript(Path script, Path seriesDir) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("bash", script.toString()));
    for (Path p : patches(seriesDir)) {
      cmd.add(p.toString());
    }
    Process proc = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(proc.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertEquals(String.join(" ", cmd) + ": " + out, 0, proc.waitFor());
    assertTrue(out, out.matches("[0-9a-f]{64}"));
    return out;
  }

  /**
   * The series' hash, as dev-support/series-sha.sh defines it: sha256 of the diff content of its
   * patches in name order (of each, the lines from the first starting with {@code diff --git } up
   * to, not including, the last line that is exactly {@code "-- "}, each followed by a newline),
   * its first 16 hex digits. The mail header, the commit message, the diffstat and the signature
   * are not hashed, so a report stays current when only those change.
   */
  static String seriesSha(Path seriesDir) throws IOException, NoSuchAlgorithmException {
    MessageDigest sha = MessageDigest.getInstance("SHA-256");
    for (Path p : patches(seriesDir)) {
      // ISO-8859-1 maps every byte to one char and back: the bytes as they are.
      String text = new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1);
      List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
      if (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
        lines.remove(lines.size() - 1); // the newline that ends the last line starts no line
      }
      int first = -1;
      int signature = -1;
      for (int i = 0; i < lines.size(); i++) {
        if (first < 0 && lines.get(i).startsWith("diff --git ")) {
          first = i;
        }
        if (first >= 0 && lines.get(i).equals("-- ")) {
          signature = i;
        }
      }
      if (first < 0) {
        continue;
      }
      int end = signature >= 0 ? signature : lines.size();
      for (int i = first; i < end; i++) {
        sha.update((lines.get(i) + "\n").getBytes(StandardCharsets.ISO_8859_1));
      }
    }
    return HexFormat.of().formatHex(sha.digest()).substring(0, 16);
  }

  /** The directory's {@code .patch} files in name order (the order {@code git am} applies). */
  private static List<Path> patches(Path seriesDir) throws IOException {
    try (Stream<Path> list = Files.list(seriesDir)) {
      return list.filter(p -> p.getFileName().toString().endsWith(".patch")).sorted()
        .collect(Collectors.toList());
    }
  }

  private static String section(String text, String from, String to) {
    int i = text.indexOf(from);
    int j = text.indexOf(to);
    return i < 0 || j < i ? "" : text.substring(i + from.length(), j);
  }
}
