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
 * operator to set a key no code reads, or to load a class that does not exist. A key belongs to
 * the modules whose code holds keys of its namespace ({@code hbasepatches.seekskip.*}: seek-skip),
 * and must be a literal of their main code ({@code src/main*}); a {@code -Dhbasepatches.*} system
 * property may be one of their tests. A key may name alternatives
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
      Path test = Files.createDirectories(m.resolve("src/test/java/dev/hbasepatches/m"));
      Files.writeString(test.resolve("SettingsTest.java"), "package dev.hbasepatches.m;\n"
        + "class SettingsTest { String seed = System.getProperty(\"hbasepatches.m.seed\"); }\n");
      Files.writeString(m.resolve("PATCH.md"), "Set `hbasepatches.m.mode` and"
        + " `-Dhbasepatches.m.seed=5` (tests), not `hbasepatches.m.seed` (a setting)"
        + " `-Dhbasepatches.m.size=1`, not `hbasepatches.m.sise`; the class"
        + " `dev.hbasepatches.m.Settings` and `dev.hbasepatches.m.Setings`; `hbasepatches.m.*`.\n");
      Files.writeString(root.resolve("README.md"), "`hbasepatches.<m|n>.mode`,"
        + " `hbasepatches.<change>.size`; package dev.hbasepatches.m\n");
      assertEquals(List.of(
        "README.md: hbasepatches.<m|n>.mode (hbasepatches.n.mode)",
        "hbase-patches/m/PATCH.md: dev.hbasepatches.m.Setings",
        "hbase-patches/m/PATCH.md: hbasepatches.m.seed",
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
    // Literals of main code (src/main*: what a deployment reads) and of any code (tests read
    // system properties given with -D).
    Map<Path, Set<String>> mainLiterals = new LinkedHashMap<>();
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
      boolean main = rel.substring(module.toString().length()).startsWith("/src/main");
      while (l.find()) {
        literals.computeIfAbsent(module, k -> new TreeSet<>()).add(l.group(1));
        if (main) {
          mainLiterals.computeIfAbsent(module, k -> new TreeSet<>()).add(l.group(1));
        }
      }
    }
    List<String> missing = new ArrayList<>();
    for (Path doc : all) {
      if (!doc.toString().endsWith(".md")) {
        continue;
      }
      String text = Files.readString(doc, StandardCharsets.UTF_8);
      String where = root.relativize(doc).toString().replace('\\', '/') + ": ";
      Set<String> seen = new TreeSet<>();
      Matcher k = DOC_KEY.matcher(text);
      while (k.find()) {
        String key = k.group();
        boolean property = k.start() >= 2 && text.startsWith("-D", k.start() - 2);
        if (!seen.add((property ? "-D" : "") + key)) {
          continue;
        }
        for (String one : expand(key)) {
          Pattern p = Pattern.compile(toRegex(one));
          Set<String> known = owners(one, property ? literals : mainLiterals);
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

  /**
   * The literals of the modules a key belongs to: those whose code holds a key of the same
   * namespace ({@code hbasepatches.seekskip.}: seek-skip); every module's for a placeholder.
   */
  private static Set<String> owners(String key, Map<Path, Set<String>> literals) {
    String rest = key.substring("hbasepatches.".length());
    int dot = rest.indexOf('.');
    String ns = dot < 0 ? rest : rest.substring(0, dot);
    Set<String> known = new TreeSet<>();
    for (Set<String> module : literals.values()) {
      if (ns.contains("<") || ns.contains("*")
        || module.stream().anyMatch(s -> s.startsWith("hbasepatches." + ns + "."))) {
        known.addAll(module);
      }
    }
    return known;
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
