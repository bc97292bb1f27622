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
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.Test;

/**
 * Every relative link in the project's Markdown (README, BUILDING, each PATCH.md and results
 * README) names a file or folder that is committed: a number quoted in a PATCH.md points at its
 * result file, and a result that was never committed fails the build instead of the reader.
 */
public class DocumentLinksTest {

  /** {@code [text](target)}; the target has no blanks (Markdown link syntax). */
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
  /** A scheme ({@code https:}, {@code mailto:}) means the link leaves the project. */
  private static final Pattern SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:");

  /** The project root: this module's parent directory (surefire runs in the module). */
  public static Path projectRoot() {
    Path root = Paths.get("").toAbsolutePath().getParent();
    assertTrue("not the project root: " + root, Files.isRegularFile(root.resolve("pom.xml"))
      && Files.isDirectory(root.resolve("hbase-patches")));
    return root;
  }

  static List<String> brokenLinks(Path root) throws IOException {
    List<Path> docs;
    try (Stream<Path> walk = Files.walk(root)) {
      docs = walk.filter(p -> p.toString().endsWith(".md"))
        .filter(p -> !root.relativize(p).toString().contains("target" + p.getFileSystem()
          .getSeparator()) && !root.relativize(p).startsWith(".git"))
        .sorted().collect(Collectors.toList());
    }
    List<String> broken = new ArrayList<>();
    for (Path doc : docs) {
      String text = new String(Files.readAllBytes(doc), StandardCharsets.UTF_8);
      Matcher m = LINK.matcher(text);
      while (m.find()) {
        String target = m.group(1);
        if (target.startsWith("#") || SCHEME.matcher(target).find()) {
          continue;
        }
        int hash = target.indexOf('#');
        String file = hash >= 0 ? target.substring(0, hash) : target;
        if (!Files.exists(doc.getParent().resolve(file).normalize())) {
          broken.add(root.relativize(doc) + " -> " + target);
        }
      }
    }
    return broken;
  }

  @Test
  public void everyRelativeLinkInTheDocsNamesACommittedFile() throws IOException {
    List<String> broken = brokenLinks(projectRoot());
    assertEquals("links to files that do not exist:\n" + String.join("\n", broken), 0,
      broken.size());
  }

  @Test
  public void aMissingResultFileIsFound() throws IOException {
    Path dir = Files.createTempDirectory("doclinks");
    try {
      Path results = Files.createDirectories(dir.resolve("mod/results/run1"));
      Files.write(results.resolve("a.json"), new byte[] { '{', '}' });
      Files.write(dir.resolve("mod/PATCH.md"), ("1.5x ([json](results/run1/a.json)), 2x"
        + " ([json](results/run2/b.json)), [jira](https://issues.apache.org/x), [s](#results)\n")
          .getBytes(StandardCharsets.UTF_8));
      assertEquals(List.of("mod/PATCH.md -> results/run2/b.json"), brokenLinks(dir));
    } finally {
      try (Stream<Path> walk = Files.walk(dir)) {
        walk.sorted((a, b) -> b.compareTo(a)).forEach(p -> p.toFile().delete());
      }
    }
  }
}
