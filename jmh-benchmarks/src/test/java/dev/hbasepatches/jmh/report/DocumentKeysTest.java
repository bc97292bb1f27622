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

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.Test;

/**
 * Every configuration key a document names ({@code hbasepatches.*}, in README, BUILDING, each
 * PATCH.md and every other Markdown file) is a string the code it documents holds, and every
 * class it names ({@code dev.hbasepatches.x.Y}) is a source file: a document cannot tell an
 * operator to set a key no code reads, or to load a class that does not exist. A module's
 * documents are checked against the sources of that module and of the project modules it depends
 * on; the root documents against every module's sources. A key may name alternatives
 * ({@code hbasepatches.<seekskip|rowindex>.mode}: each must exist), a placeholder
 * ({@code <change>}: any) or a prefix ({@code hbasepatches.timeline.*}: at least one).
 */
public class DocumentKeysTest {

  /** A key as documents write it; {@code -Dhbasepatches.x} counts, {@code dev.hbasepatches} not. */
  static final Pattern DOC_KEY = Pattern.compile(
    "(?:(?<=-D)|(?<![A-Za-z0-9_.$/-]))hbasepatches\\.[A-Za-z0-9_.<>|*-]*[A-Za-z0-9_>*]");
  static final Pattern LITERAL = Pattern.compile("\"(hbasepatches\\.[^\"\\\\]*)\"");
  static final Pattern CLASS = Pattern.compile(
    "(?<![A-Za-z0-9_.])dev\\.hbasepatches(?:\\.[a-z0-9_]+)+\\.[A-Z][A-Za-z0-9_]*");
  static final Pattern ALTERNATIVES = Pattern.compile("<([^<>]*)>");
  static final Pattern DEPENDENCY = Pattern.compile("<artifactId>(hbasepatches-[^<]+)</artifactId>");

  @Test
  public void everyKeyAndClassTheDocumentsNameExistsInTheCode() throws IOException {
    List<String> missing = check(DocumentLinksTest.projectRoot());
    assertEquals("keys or classes the documents name that the code does not have:\n"
      + String.join("\n", missing), 0, missing.size());
  }

  @Test
  public void aKeyTheCodeDoesNotReadIsFound() throws IOException {
    Path root = Files.createTempDirectory("dockeys");
    try {
      Files.writeString(root.resolve("pom.xml"), "<project/>\n");
      Path m = Files.createDirectories(root.resolve("hbase-patches/m"));
      Files.writeString(m.resolve("pom.xml"),
        "<project><parent><artifactId>hbasepatches-hbase-patches</artifactId></parent>"
          + "<artifactId>hbasepatches-m</artifactId></project>\n");
      Path src = Files.createDirectories(m.resolve("src/main/java/dev/hbasepatches/m"));
      Files.writeString(src.resolve("Settings.java"), "package dev.hbasepatches.m;\n"
        + "class Settings { static final String MODE = \"hbasepatches.m.mode\";"
        + " static final String SIZE = \"hbasepatches.m.size\"; }\n");
      Files.writeString(m.resolve("PATCH.md"), "Set `hbasepatches.m.mode` and"
        + " `-Dhbasepatches.m.size=1`, not `hbasepatches.m.sise`; the class"
        + " `dev.hbasepatches.m.Settings` and `dev.hbasepatches.m.Setings`; `hbasepatches.m.*`.\n");
      Files.writeString(root.resolve("README.md"), "`hbasepatches.<m|n>.mode`,"
        + " `hbasepatches.<change>.size`; package dev.hbasepatches.m\n");
      assertEquals(List.of(
        "README.md: hbasepatches.<m|n>.mode (hbasepatches.n.mode)",
        "hbase-patches/m/PATCH.md: dev.hbasepatches.m.Setings",
        "hbase-patches/m/PATCH.md: hbasepatches.m.sise"), check(root));
    } finally {
      try (Stream<Path> walk = Files.walk(root)) {
        walk.sorted((x, y) -> y.compareTo(x)).forEach(p -> p.toFile().delete());
      }
    }
  }

  /** "doc: key" for every key or class a document names that its code does not have. */
  static List<String> check(Path root) throws IOException {
    List<Path> all;
    try (Stream<Path> walk = Files.walk(root)) {
      all = walk.filter(p -> {
        String rel = root.relativize(p).toString().replace('\\', '/');
        return !rel.contains("target/") && !rel.startsWith(".git") && !rel.startsWith(".mvn")
          && Files.isRegularFile(p);
      }).sorted().collect(Collectors.toList());
    }
    // Modules: every directory below the root with a pom.xml, by artifactId.
    Map<String, Path> byArtifact = new LinkedHashMap<>();
    for (Path p : all) {
      if (p.getFileName().toString().equals("pom.xml") && !p.getParent().equals(root)) {
        String pom = Files.readString(p, StandardCharsets.UTF_8);
        int parentEnd = pom.indexOf("</parent>");
        Matcher a = Pattern.compile("<artifactId>([^<]+)</artifactId>")
          .matcher(pom.substring(Math.max(parentEnd, 0)));
        if (a.find()) {
          byArtifact.put(a.group(1), p.getParent());
        }
      }
    }
    Map<Path, Set<String>> literals = new LinkedHashMap<>();
    Set<String> classes = new TreeSet<>();
    for (Path p : all) {
      String rel = p.toString().replace('\\', '/');
      if (!rel.endsWith(".java")) {
        continue;
      }
      int at = rel.lastIndexOf("/dev/hbasepatches/");
      if (rel.contains("/src/") && at >= 0) {
        classes.add(rel.substring(at + 1, rel.length() - ".java".length()).replace('/', '.'));
      }
      Path module = owner(root, p);
      Matcher l = LITERAL.matcher(Files.readString(p, StandardCharsets.UTF_8));
      while (l.find()) {
        literals.computeIfAbsent(module, k -> new TreeSet<>()).add(l.group(1));
      }
    }
    List<String> missing = new ArrayList<>();
    for (Path doc : all) {
      if (!doc.toString().endsWith(".md")) {
        continue;
      }
      String text = Files.readString(doc, StandardCharsets.UTF_8);
      String where = root.relativize(doc).toString().replace('\\', '/') + ": ";
      Path module = owner(root, doc);
      Set<String> known = new TreeSet<>();
      if (module.equals(root)) {
        literals.values().forEach(known::addAll);
      } else {
        known.addAll(literals.getOrDefault(module, Set.of()));
        Matcher d = DEPENDENCY.matcher(Files.readString(module.resolve("pom.xml"),
          StandardCharsets.UTF_8));
        while (d.find()) {
          Path dep = byArtifact.get(d.group(1));
          if (dep != null) {
            known.addAll(literals.getOrDefault(dep, Set.of()));
          }
        }
      }
      Set<String> seen = new TreeSet<>();
      Matcher k = DOC_KEY.matcher(text);
      while (k.find()) {
        String key = k.group();
        if (!seen.add(key)) {
          continue;
        }
        for (String one : expand(key)) {
          Pattern p = Pattern.compile(toRegex(one));
          if (known.stream().noneMatch(s -> p.matcher(s).matches())) {
            missing.add(where + key + (one.equals(key) ? "" : " (" + one + ")"));
          }
        }
      }
      Matcher c = CLASS.matcher(text);
      while (c.find()) {
        if (seen.add(c.group()) && !classes.contains(c.group())) {
          missing.add(where + c.group());
        }
      }
    }
    missing.sort(null);
    return missing;
  }

  /** The module a file belongs to: its nearest folder below the root with a pom.xml, or root. */
  private static Path owner(Path root, Path file) {
    for (Path d = file.getParent(); d != null && !d.equals(root); d = d.getParent()) {
      if (Files.isRegularFile(d.resolve("pom.xml"))) {
        return d;
      }
    }
    return root;
  }

  /** {@code a.<x|y>.b} gives {@code a.x.b} and {@code a.y.b}; a {@code <word>} stays. */
  static List<String> expand(String key) {
    Matcher m = ALTERNATIVES.matcher(key);
    while (m.find()) {
      if (m.group(1).contains("|")) {
        List<String> out = new ArrayList<>();
        for (String alt : m.group(1).split("\\|")) {
          out.addAll(expand(key.substring(0, m.start()) + alt + key.substring(m.end())));
        }
        return out;
      }
    }
    return List.of(key);
  }

  /** A placeholder {@code <word>} is one or more key characters, {@code *} anything. */
  static String toRegex(String key) {
    StringBuilder s = new StringBuilder();
    Matcher m = Pattern.compile("<[^<>]*>|\\*").matcher(key);
    int last = 0;
    while (m.find()) {
      s.append(Pattern.quote(key.substring(last, m.start())));
      s.append(m.group().equals("*") ? ".*" : "[A-Za-z0-9_-]+");
      last = m.end();
    }
    s.append(Pattern.quote(key.substring(last)));
    return s.toString();
  }
}
