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
package dev.hbasepatches.jmh.jdk;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.Test;

/**
 * Every class of every change module (the jars that go onto a RegionServer or a Phoenix server)
 * is built for JDK 11: class file version 55. HBase 2.6 and Phoenix 5.2 run on JDK 11, and a class
 * built for 17 (version 61) fails there with UnsupportedClassVersionError once it is loaded.
 */
public class ChangeModuleBytecodeTest {

  /** Class file major version of Java 11. */
  static final int JAVA_11 = 55;

  /** One class of each change module: the module's classes are found where it was loaded from. */
  private static final String[] PROBES = {
    "dev.hbasepatches.seekskip.SeekSkipRegion",
    "dev.hbasepatches.checksum.BlockChecksummer",
    "dev.hbasepatches.checksum.overlay.StockChecksumPath",
    "dev.hbasepatches.rowindex.RowIndexEncoder",
    "dev.hbasepatches.quotas.ThrottlingRegionServer",
    "dev.hbasepatches.offheap.OffHeapBlockCache",
    "dev.hbasepatches.timeline.TimelineReader",
    "dev.hbasepatches.localindex.PruningScanGrouper",
  };

  @Test
  public void everyChangeModuleIsBuiltForJava11() throws Exception {
    List<String> wrong = new ArrayList<>();
    for (String probe : PROBES) {
      Class<?> c = Class.forName(probe, false, getClass().getClassLoader());
      URL where = c.getProtectionDomain().getCodeSource().getLocation();
      assertNotNull(probe, where);
      Path path = Paths.get(where.toURI());
      List<String> found = new ArrayList<>();
      int classes = Files.isDirectory(path) ? checkDirectory(path, found) : checkJar(path, found);
      assertTrue(probe + ": no classes found in " + path, classes > 0);
      wrong.addAll(found);
    }
    assertTrue("classes not built for Java 11 (major " + JAVA_11 + "):\n"
      + String.join("\n", wrong), wrong.isEmpty());
  }

  @Test
  public void readsTheMajorVersion() throws Exception {
    // This test class is built for the build's JDK (17): the reader must see that, not 55.
    try (InputStream in = getClass().getResourceAsStream("ChangeModuleBytecodeTest.class")) {
      assertEquals(61, major(in));
    }
  }

  private static int checkDirectory(Path dir, List<String> wrong) throws IOException {
    List<Path> files;
    try (Stream<Path> walk = Files.walk(dir)) {
      files = walk.filter(p -> p.toString().endsWith(".class")).collect(Collectors.toList());
    }
    for (Path f : files) {
      try (InputStream in = Files.newInputStream(f)) {
        note(dir.relativize(f).toString(), major(in), wrong);
      }
    }
    return files.size();
  }

  private static int checkJar(Path jar, List<String> wrong) throws IOException {
    int n = 0;
    try (JarFile j = new JarFile(jar.toFile())) {
      Enumeration<JarEntry> e = j.entries();
      while (e.hasMoreElements()) {
        JarEntry entry = e.nextElement();
        if (!entry.getName().endsWith(".class") || entry.getName().startsWith("META-INF/")) {
          continue;
        }
        try (InputStream in = j.getInputStream(entry)) {
          note(jar.getFileName() + "!" + entry.getName(), major(in), wrong);
        }
        n++;
      }
    }
    return n;
  }

  private static void note(String name, int major, List<String> wrong) {
    if (major != JAVA_11) {
      wrong.add(name + ": major " + major);
    }
  }

  private static int major(InputStream in) throws IOException {
    DataInputStream d = new DataInputStream(in);
    if (d.readInt() != 0xCAFEBABE) {
      throw new IOException("not a class file");
    }
    d.readUnsignedShort(); // minor
    return d.readUnsignedShort();
  }
}
