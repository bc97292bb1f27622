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
package dev.hbasepatches.jmh.series;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * A class loader holding a whole HBase of its own: the release the benchmarks were built on, with
 * one change's upstream series in front of it or not. It does inside one JVM what putting the
 * patched jar first on a RegionServer's class path does, so that two sides of a comparison each
 * run their own copy of HBase's classes (and their own JIT profile of them) in one fork.
 * <p>
 * A change's series is the jar {@code hbase-patches/upstream-patches} builds from its
 * {@code upstream/branch-2.6} series applied to the release's sources: the build copies it into
 * this package as a resource ({@code hbasepatches-upstream-patches-series-CHANGE.jar}), because
 * it must never sit on the benchmarks jar's own class path. A Phoenix change's series is the jar
 * {@code phoenix-patches/upstream-patches} builds from its {@code upstream/5.2.1} series applied
 * to Phoenix 5.2.1's sources ({@code hbasepatches-phoenix-upstream-patches-series-CHANGE.jar}):
 * Phoenix's client rides in the benchmarks jar, so the same loader holds a whole Phoenix too.
 * The checksum change is installed as a class overlay (module {@code checksum-overlay}, its own
 * {@code ChecksumUtil}), packed here the same way ({@value #CHECKSUM_OVERLAY_RESOURCE}); its
 * PATCHED side is the release with that jar in front. The loader's parent is the platform
 * loader: every HBase, Hadoop and project class is loaded afresh (the front jar first), and only
 * JDK types are shared with the caller.
 */
public final class SideLoader {

  private SideLoader() {
  }

  /** Changes to Phoenix: their series jar comes from {@code phoenix-patches/upstream-patches}. */
  static final List<String> PHOENIX_CHANGES = List.of("local-index-pruning");

  /** The resource name of a change's series jar, next to this class. */
  static String seriesResource(String change) {
    return (PHOENIX_CHANGES.contains(change) ? "hbasepatches-phoenix-upstream-patches"
      : "hbasepatches-upstream-patches") + "-series-" + change + ".jar";
  }

  /**
   * The checksum change's overlay jar (its own {@code ChecksumUtil}), a resource next to this
   * class: the checksum workload's PATCHED side puts it in front, as {@code HBASE_CLASSPATH_PREFIX}
   * does on a RegionServer.
   */
  static final String CHECKSUM_OVERLAY_RESOURCE = "hbasepatches-checksum-overlay.jar";

  /**
   * A loader over this JVM's class path, with {@code change}'s series jar (copied into
   * {@code tempDir}) first when {@code withSeries}.
   *
   * @throws IllegalStateException when the series jar is not packaged or holds no class (the
   *   build skipped the upstream-patches check), naming the change and how to build it
   */
  public static URLClassLoader loader(String change, boolean withSeries, Path tempDir)
    throws IOException {
    return withSeries ? inFront(change + "-series", extractSeries(change, tempDir))
      : inFront(change + "-stock", null);
  }

  /**
   * A loader over this JVM's class path with the checksum overlay jar (copied into
   * {@code tempDir}) first: the checksum change as a RegionServer installs it.
   *
   * @throws IllegalStateException when the overlay jar is not packaged, naming how to build it
   */
  static URLClassLoader withChecksumOverlay(Path tempDir) throws IOException {
    return inFront("checksum-overlay", extract(CHECKSUM_OVERLAY_RESOURCE, tempDir,
      "the checksum overlay jar is not packaged with the benchmarks"));
  }

  private static URLClassLoader inFront(String name, Path jar) throws IOException {
    List<URL> urls = new ArrayList<>();
    if (jar != null) {
      urls.add(jar.toUri().toURL());
    }
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      if (!entry.isEmpty()) {
        urls.add(toUrl(entry));
      }
    }
    return new URLClassLoader(name, urls.toArray(new URL[0]),
      ClassLoader.getPlatformClassLoader());
  }

  /** The classes (binary names) a change's series jar replaces or adds; never empty. */
  public static List<String> seriesClasses(String change, Path tempDir) throws IOException {
    Path jar = extractSeries(change, tempDir);
    List<String> names = new ArrayList<>();
    try (JarFile file = new JarFile(jar.toFile())) {
      for (Enumeration<JarEntry> e = file.entries(); e.hasMoreElements();) {
        String name = e.nextElement().getName();
        if (name.endsWith(".class")) {
          names.add(name.substring(0, name.length() - ".class".length()).replace('/', '.'));
        }
      }
    }
    if (names.isEmpty()) {
      throw new IllegalStateException("the " + change + " series jar holds no class: the build "
        + "skipped the upstream-patches check (-Dupstream.patches.skip=true?); build with "
        + "`mvn package -pl jmh-benchmarks -am` to compile the series");
    }
    return names;
  }

  private static URL toUrl(String entry) throws MalformedURLException {
    return new File(entry).toURI().toURL();
  }

  private static Path extractSeries(String change, Path tempDir) throws IOException {
    return extract(seriesResource(change), tempDir, "no upstream series is packaged for change '"
      + change + "'; changes with a series: checksum, local-index-pruning, offheap-read, "
      + "quotas, row-index, seek-skip, timeline-reads");
  }

  private static Path extract(String resource, Path tempDir, String missing) throws IOException {
    Path jar = tempDir.resolve(resource);
    if (Files.exists(jar)) {
      return jar;
    }
    try (InputStream in = SideLoader.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException(missing + " (no resource " + resource + " next to "
          + SideLoader.class.getName() + "); build with `mvn package -pl jmh-benchmarks -am`");
      }
      Files.copy(in, jar, StandardCopyOption.REPLACE_EXISTING);
      return jar;
    }
  }
}
