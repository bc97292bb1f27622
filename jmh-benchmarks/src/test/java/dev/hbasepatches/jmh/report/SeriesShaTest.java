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
import java.util.stream.Stream;
import org.junit.Test;

/**
 * {@link SeriesSha} is {@code dev-support/series-sha.sh}'s definition: the diff content only, the
 * same digits as the script on every series in the tree.
 */
public class SeriesShaTest {

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
    assertEquals(sha256(diffs).substring(0, 16), SeriesSha.of(dir));
    assertEquals("60d0f22ef8265fa6", SeriesSha.of(dir));
    String before = SeriesSha.of(dir);

    Files.writeString(dir.resolve("0001-a.patch"),
      patch("A", "a").replace("From: Someone <someone@example.org>", "From: Another <x@y.z>")
        .replace("Subject: [PATCH] A", "Subject: [PATCH] HBASE-XXXXX A, reworded")
        .replace("2.39.5", "2.47.0"));
    assertEquals("the mail header, message and signature are not hashed", before, SeriesSha.of(dir));

    Files.writeString(dir.resolve("0002-b.patch"), patch("B", "c"));
    assertTrue("a changed diff changes the hash", !before.equals(SeriesSha.of(dir)));

    Path script = DocumentLinksTest.projectRoot().resolve("dev-support/series-sha.sh");
    for (Path series : seriesDirs()) {
      String byScript = runScript(script, series);
      assertEquals("dev-support/series-sha.sh and SeriesSha agree on " + series,
        byScript.substring(0, 16), SeriesSha.of(series));
    }
    assertEquals(runScript(script, dir).substring(0, 16), SeriesSha.of(dir));
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
    for (Path p : SeriesSha.patches(seriesDir)) {
      cmd.add(p.toString());
    }
    Process proc = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(proc.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertEquals(String.join(" ", cmd) + ": " + out, 0, proc.waitFor());
    assertTrue(out, out.matches("[0-9a-f]{64}"));
    return out;
  }
}
