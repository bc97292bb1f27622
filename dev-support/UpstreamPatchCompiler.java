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

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.StandardLocation;
import javax.tools.ToolProvider;

/**
 * Compiles the patched upstream trees that dev-support/upstream-patches.sh has applied, each on its
 * own, in one JVM: a javac process per tree and per main/test half cost most of the check's time
 * on a busy 2-core machine, and one file manager keeps upstream's jars open across the trees.
 * <p>
 * Usage: {@code java UpstreamPatchCompiler.java CLASSPATH_FILE RELEASE BASE...}, where each BASE
 * holds {@code tree/} (the patched files in upstream's layout). Main files
 * ({@code *}{@code /src/main/java/**}) compile against upstream's main jars into
 * {@code BASE/classes}; test files ({@code *}{@code /src/test/java/**}) against those classes and
 * upstream's test jars into {@code BASE/test-classes}. Exits 1 naming the first half that fails.
 */
public final class UpstreamPatchCompiler {

  private UpstreamPatchCompiler() {
  }

  public static void main(String[] args) throws IOException {
    if (args.length < 3) {
      System.err.println("usage: UpstreamPatchCompiler CLASSPATH_FILE RELEASE BASE...");
      System.exit(2);
    }
    String classpath = new String(Files.readAllBytes(Paths.get(args[0])), StandardCharsets.UTF_8)
      .trim();
    List<File> all = Arrays.stream(classpath.split(File.pathSeparator)).filter(s -> !s.isEmpty())
      .map(File::new).collect(Collectors.toList());
    List<File> mainJars =
      all.stream().filter(f -> !f.getName().endsWith("-tests.jar")).collect(Collectors.toList());
    String release = args[1];
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    try (StandardJavaFileManager files =
      javac.getStandardFileManager(null, null, StandardCharsets.UTF_8)) {
      for (int i = 2; i < args.length; i++) {
        Path base = Paths.get(args[i]);
        Path tree = base.resolve("tree");
        Path classes = base.resolve("classes");
        Path testClasses = base.resolve("test-classes");
        if (!compile(javac, files, release, sources(tree, "/src/main/java/"), mainJars, classes)) {
          System.err.println("upstream-patches: " + base
            + ": the patched main files do not compile against upstream's jars");
          System.exit(1);
        }
        List<File> testPath = new ArrayList<>();
        testPath.add(classes.toFile());
        testPath.addAll(all);
        // A branch's series may test with that branch's newer test API (a helper the release
        // lacks); those tests are built and run by dev-support/upstream-series.sh on the branch
        // itself, so here they are reported and left out, not failed. The main files above must
        // compile: they are what the project measures against the release.
        if (!compile(javac, files, release, sources(tree, "/src/test/java/"), testPath,
          testClasses)) {
          System.err.println("upstream-patches: " + base + ": the series' tests do not compile"
            + " against this release's test jars (javac above); they are left to"
            + " dev-support/upstream-series.sh, which runs them on the branch");
          deleteTree(testClasses);
          Files.createDirectories(testClasses);
        }
      }
    }
  }

  private static List<File> sources(Path tree, String half) throws IOException {
    try (Stream<Path> walk = Files.walk(tree)) {
      return walk.filter(p -> p.toString().endsWith(".java"))
        .filter(p -> p.toString().replace(File.separatorChar, '/').contains(half)).sorted()
        .map(Path::toFile).collect(Collectors.toList());
    }
  }

  private static boolean compile(JavaCompiler javac, StandardJavaFileManager files,
    String release, List<File> sources, List<File> classpath, Path out) throws IOException {
    Files.createDirectories(out);
    if (sources.isEmpty()) {
      return true;
    }
    files.setLocation(StandardLocation.CLASS_PATH, classpath);
    files.setLocation(StandardLocation.CLASS_OUTPUT, Arrays.asList(out.toFile()));
    Iterable<? extends JavaFileObject> units = files.getJavaFileObjectsFromFiles(sources);
    // What HBase 2.6 builds for (release 8); -implicit:none keeps upstream's own classes, found on
    // the class path, from being compiled into the output.
    List<String> options = Arrays.asList("--release", release, "-implicit:none", "-proc:none",
      "-nowarn", "-Xlint:none", "-XDsuppressNotes");
    return javac.getTask(null, files, null, options, null, units).call();
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).collect(Collectors.toList())) {
        Files.delete(p);
      }
    }
  }

}
