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

import dev.hbasepatches.testkit.LocalRegion;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.List;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * One side of a comparison, in a class loader of its own ({@link SideLoader}): UPSTREAM (the
 * release as shipped), SERIES (the release with the change's upstream series in front and the
 * series' key on), PATCHED or BASELINE (this project's module in that mode, on the release; for
 * checksum, PATCHED is the release with the module's overlay jar in front). The
 * workload is built inside the loader by {@code Workloads} and reached through JDK types only.
 * <p>
 * Opening checks what the side claims: in SERIES every class of the series jar resolves from the
 * jar, in every other side none does; a mislabelled run fails instead of measuring the wrong
 * thing. Used from the thread that created it; {@link #run()} makes the side's loader the
 * thread's context class loader for the call, as a RegionServer's handler would see it.
 */
public final class Side implements AutoCloseable {

  /** The sides a comparison can name. */
  public static final List<String> NAMES = List.of("BASELINE", "PATCHED", "UPSTREAM", "SERIES");

  private final String name;
  private final Path dir;
  private final URLClassLoader loader;
  private final Object workload;
  private final LongSupplier op;

  private Side(String name, Path dir, URLClassLoader loader, Object workload) {
    this.name = name;
    this.dir = dir;
    this.loader = loader;
    this.workload = workload;
    this.op = (LongSupplier) workload;
  }

  /**
   * Builds {@code change}'s workload for {@code caseSpec} on side {@code side}.
   *
   * @throws IllegalArgumentException for an unknown side, change or case
   */
  public static Side open(String change, String side, String caseSpec) throws IOException {
    String name = side.toUpperCase(Locale.ROOT);
    if (!NAMES.contains(name)) {
      throw new IllegalArgumentException("side must be one of " + NAMES + ": " + side);
    }
    boolean series = name.equals("SERIES");
    Path dir = Files.createTempDirectory("hbasepatches-" + change + "-" + name + "-");
    Thread me = Thread.currentThread();
    ClassLoader previous = me.getContextClassLoader();
    Object workload = null;
    try {
      // Never closed: Hadoop registers JVM shutdown hooks from classes in it.
      List<String> seriesClasses = SideLoader.seriesClasses(change, dir);
      boolean overlay = change.equals("checksum") && name.equals("PATCHED");
      URLClassLoader loader = overlay ? SideLoader.withChecksumOverlay(dir)
        : SideLoader.loader(change, series, dir);
      me.setContextClassLoader(loader);
      checkSource(change, name, loader, seriesClasses);
      if (change.equals("checksum")) {
        checkOverlay(name, loader);
      }
      workload = loader.loadClass("dev.hbasepatches.jmh.series.Workloads")
        .getMethod("open", String.class, String.class, String.class, String.class)
        .invoke(null, change, name, caseSpec, dir.toString());
      return new Side(name, dir, loader, workload);
    } catch (InvocationTargetException e) {
      throw failure(change, name, dir, workload, e.getCause());
    } catch (ReflectiveOperationException | IOException | RuntimeException | Error e) {
      throw failure(change, name, dir, workload, e);
    } finally {
      me.setContextClassLoader(previous);
    }
  }

  private static IOException failure(String change, String side, Path dir, Object workload,
    Throwable cause) {
    IOException error = new IOException(
      "could not open " + change + " on side " + side + ": " + cause, cause);
    try {
      if (workload instanceof AutoCloseable) {
        ((AutoCloseable) workload).close();
      }
    } catch (Exception closing) {
      error.addSuppressed(closing);
    } finally {
      try {
        LocalRegion.deleteTree(dir);
      } catch (RuntimeException deleting) {
        error.addSuppressed(deleting);
      }
    }
    return error;
  }

  /** SERIES must resolve every series class from the series jar; other sides none of them
   * (classes the series adds do not exist there). */
  private static void checkSource(String change, String side, ClassLoader loader,
    List<String> seriesClasses) throws ClassNotFoundException {
    String jar = SideLoader.seriesResource(change);
    for (String cls : seriesClasses) {
      Class<?> c;
      try {
        c = Class.forName(cls, false, loader);
      } catch (ClassNotFoundException e) {
        if (side.equals("SERIES")) {
          throw e;
        }
        // A class the series adds: the release does not have it.
        continue;
      }
      CodeSource source = c.getProtectionDomain().getCodeSource();
      URL where = source == null ? null : source.getLocation();
      boolean fromSeries = where != null && where.getPath().endsWith(jar);
      if (fromSeries != side.equals("SERIES")) {
        throw new IllegalStateException(side + " resolved " + cls + " from " + where
          + (side.equals("SERIES") ? ", not the series jar " + jar
            : ": the series jar must not be on this side's class path"));
      }
    }
  }

  /**
   * The checksum change's PATCHED side must resolve {@code ChecksumUtil} from the overlay jar,
   * every other side HBase's own (the overlay must never be on the benchmarks' class path).
   */
  private static void checkOverlay(String side, ClassLoader loader)
    throws ClassNotFoundException {
    Class<?> c = Class.forName("org.apache.hadoop.hbase.io.hfile.ChecksumUtil", false, loader);
    CodeSource source = c.getProtectionDomain().getCodeSource();
    URL where = source == null ? null : source.getLocation();
    boolean fromOverlay =
      where != null && where.getPath().endsWith(SideLoader.CHECKSUM_OVERLAY_RESOURCE);
    if (fromOverlay != side.equals("PATCHED")) {
      throw new IllegalStateException(side + " resolved ChecksumUtil from " + where
        + (side.equals("PATCHED") ? ", not the overlay jar " + SideLoader.CHECKSUM_OVERLAY_RESOURCE
          : ": the checksum overlay must not be on this side's class path"));
    }
  }

  /** The side's name: BASELINE, PATCHED, UPSTREAM or SERIES. */
  public String name() {
    return name;
  }

  /** One operation of the workload; returns what it returned (cells, bytes or rows). */
  public long run() {
    Thread me = Thread.currentThread();
    ClassLoader previous = me.getContextClassLoader();
    me.setContextClassLoader(loader);
    try {
      return op.getAsLong();
    } finally {
      me.setContextClassLoader(previous);
    }
  }

  /** The workload's own description of what it built (data, sizes, keys set). */
  public String describe() {
    return workload.toString();
  }

  @Override
  public void close() throws Exception {
    Thread me = Thread.currentThread();
    ClassLoader previous = me.getContextClassLoader();
    me.setContextClassLoader(loader);
    try {
      ((AutoCloseable) workload).close();
    } finally {
      me.setContextClassLoader(previous);
      LocalRegion.deleteTree(dir);
    }
  }
}
