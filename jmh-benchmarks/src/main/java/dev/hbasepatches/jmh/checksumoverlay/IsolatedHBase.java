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
package dev.hbasepatches.jmh.checksumoverlay;

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
import java.util.List;

/**
 * A class loader holding a whole HBase of its own, with the checksum overlay jar in front or not:
 * what {@code HBASE_CLASSPATH_PREFIX} does on a RegionServer, inside one JVM.
 * <p>
 * The overlay replaces {@code org.apache.hadoop.hbase.io.hfile.ChecksumUtil}, so its classes must
 * never sit on the benchmarks jar's own class path: the build copies the overlay jar into this
 * package as a resource ({@value #OVERLAY_RESOURCE}, a jar inside the jar, see the module's pom)
 * and this class writes it to a temporary file when a loader asks for it. The loader's parent is
 * the platform loader, so every HBase, Hadoop and project class is loaded afresh from the class
 * path (overlay first); only JDK types are shared with the caller.
 */
final class IsolatedHBase {

  /** The overlay jar, a resource next to this class. */
  static final String OVERLAY_RESOURCE = "hbasepatches-checksum-overlay.jar";

  private IsolatedHBase() {
  }

  /**
   * A loader over this JVM's class path, with the overlay jar (copied into {@code tempDir})
   * first when {@code withOverlay}.
   */
  static URLClassLoader loader(boolean withOverlay, Path tempDir) throws IOException {
    List<URL> urls = new ArrayList<>();
    if (withOverlay) {
      urls.add(extractOverlay(tempDir).toUri().toURL());
    }
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      if (!entry.isEmpty()) {
        urls.add(toUrl(entry));
      }
    }
    return new URLClassLoader("hbase-" + (withOverlay ? "with-overlay" : "stock"),
      urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
  }

  private static URL toUrl(String entry) throws MalformedURLException {
    return new File(entry).toURI().toURL();
  }

  private static Path extractOverlay(Path tempDir) throws IOException {
    try (InputStream in = IsolatedHBase.class.getResourceAsStream(OVERLAY_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("the checksum overlay jar is not packaged with the "
          + "benchmarks (no resource " + OVERLAY_RESOURCE + " next to "
          + IsolatedHBase.class.getName() + "); build with "
          + "`mvn package -pl jmh-benchmarks -am`, which copies it in");
      }
      Path jar = tempDir.resolve(OVERLAY_RESOURCE);
      Files.copy(in, jar, StandardCopyOption.REPLACE_EXISTING);
      return jar;
    }
  }
}
