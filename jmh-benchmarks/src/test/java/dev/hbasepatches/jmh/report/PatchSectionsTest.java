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
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.Test;

/**
 * Every change's PATCH.md has the same sections in the same order, so that a reviewer who has
 * read one finds the same answer in the same place in the next. checksum-overlay's PATCH.md is
 * the companion of checksum's and says only how the overlay differs.
 */
public class PatchSectionsTest {

  static final List<String> SECTIONS = List.of("Summary", "Problem", "The change",
    "How to turn it on", "How to check it is on", "Combined with other changes", "Results",
    "Limits", "Upstream");

  static List<String> sections(String markdown) {
    List<String> out = new ArrayList<>();
    boolean fenced = false;
    for (String line : markdown.split("\n")) {
      if (line.startsWith("```")) {
        fenced = !fenced;
      } else if (!fenced && line.startsWith("## ")) {
        out.add(line.substring(3).strip());
      }
    }
    return out;
  }

  @Test
  public void everyPatchHasTheSameSectionsInTheSameOrder() throws IOException {
    Path root = DocumentLinksTest.projectRoot();
    List<Path> patches;
    try (Stream<Path> s = Stream.concat(Files.list(root.resolve("hbase-patches")),
      Files.list(root.resolve("phoenix-patches")))) {
      patches = s.map(d -> d.resolve("PATCH.md")).filter(Files::isRegularFile)
        .filter(p -> !p.getParent().getFileName().toString().equals("checksum-overlay"))
        .sorted().collect(Collectors.toList());
    }
    assertTrue("fewer PATCH.md files than changes: " + patches, patches.size() >= 7);
    List<String> wrong = new ArrayList<>();
    for (Path p : patches) {
      List<String> got = sections(Files.readString(p, StandardCharsets.UTF_8));
      if (!got.equals(SECTIONS)) {
        wrong.add(root.relativize(p) + ": " + got);
      }
    }
    assertEquals("PATCH.md sections must be " + SECTIONS + ":\n" + String.join("\n", wrong), 0,
      wrong.size());
  }

  /** The text of section {@code name} (to the next "## " heading). */
  static String section(String markdown, String name) {
    StringBuilder out = new StringBuilder();
    boolean in = false;
    for (String line : markdown.split("\n")) {
      if (line.startsWith("## ")) {
        in = line.substring(3).strip().equals(name);
      } else if (in) {
        out.append(line).append('\n');
      }
    }
    return out.toString();
  }

  /** A reviewer reads the summary in a minute: it quotes at most two measured intervals. */
  @Test
  public void everySummaryQuotesAtMostTwoIntervals() throws IOException {
    Path root = DocumentLinksTest.projectRoot();
    List<String> wrong = new ArrayList<>();
    try (Stream<Path> s = Stream.concat(Files.list(root.resolve("hbase-patches")),
      Files.list(root.resolve("phoenix-patches")))) {
      for (Path p : (Iterable<Path>) s.map(d -> d.resolve("PATCH.md"))
        .filter(Files::isRegularFile).sorted()::iterator) {
        String summary = section(Files.readString(p, StandardCharsets.UTF_8), "Summary");
        int n = QuotedNumbersTest.intervals(summary, false).size();
        if (n > 2) {
          wrong.add(root.relativize(p) + ": " + n + " intervals");
        }
      }
    }
    assertEquals("PATCH.md summaries with more than two numbers:\n" + String.join("\n", wrong), 0,
      wrong.size());
  }

  @Test
  public void headingsInsideCodeBlocksAreNotSections() {
    assertEquals(List.of("Summary", "Limits"),
      sections("# T\n## Summary\ntext\n```\n## not a heading\n```\n### sub\n## Limits\n"));
  }
}
