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

import dev.hbasepatches.jmh.HBaseBenchmark.Mode;
import dev.hbasepatches.testkit.LocalRegion;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongSupplier;

/**
 * A {@link BlockReadDriver} in its own HBase class loader: UPSTREAM with HBase's
 * {@code ChecksumUtil}, PATCHED with the overlay's. Opening checks that the loader really
 * resolved the class the mode names, and for PATCHED that the overlay is switched on and
 * verifying blocks, so a mislabelled run fails instead of measuring the wrong thing.
 * <p>
 * Used from the thread that created it: that thread's context class loader is the HBase loader
 * until {@link #close()}.
 */
final class OverlayReads implements AutoCloseable {

  private final Path dir;
  private final Object driver;
  private final Thread owner;
  private final ClassLoader previousContextLoader;
  /** Reads the next data block; returns its on-disk bytes. */
  final LongSupplier next;

  private OverlayReads(Path dir, Object driver, Thread owner, ClassLoader previousContextLoader) {
    this.dir = dir;
    this.driver = driver;
    this.owner = owner;
    this.previousContextLoader = previousContextLoader;
    this.next = (LongSupplier) driver;
  }

  static OverlayReads open(Mode mode, String buffers, int cells) throws IOException {
    if (mode == Mode.BASELINE) {
      throw new IllegalArgumentException("the overlay has no BASELINE: the pre-change checksum "
        + "(Hadoop's PureJavaCrc32C per chunk) is measured per block by BlockChecksumBenchmark");
    }
    boolean overlay = mode == Mode.PATCHED;
    Path dir = Files.createTempDirectory("hbasepatches-overlay-bench-");
    Thread me = Thread.currentThread();
    ClassLoader previous = me.getContextClassLoader();
    Object driver = null;
    try {
      // Never closed: see close().
      URLClassLoader loader = IsolatedHBase.loader(overlay, dir);
      me.setContextClassLoader(loader);
      driver = loader.loadClass(BlockReadDriver.class.getName())
        .getConstructor(String.class, String.class, int.class)
        .newInstance(dir.resolve("blocks.hfile").toString(), buffers, cells);
      OverlayReads reads = new OverlayReads(dir, driver, me, previous);
      reads.checkMode(mode);
      return reads;
    } catch (Exception | Error e) {
      Throwable failure = e instanceof InvocationTargetException ? e.getCause() : e;
      IOException error = new IOException(
        "could not open the block reader in " + mode + " mode: " + failure, failure);
      try {
        if (driver != null) {
          ((AutoCloseable) driver).close();
        }
      } catch (Exception closing) {
        error.addSuppressed(closing);
      } finally {
        me.setContextClassLoader(previous);
        LocalRegion.deleteTree(dir);
      }
      throw error;
    }
  }

  private void checkMode(Mode mode) throws IOException {
    String source = checksumUtilSource();
    long verified = overlayVerifiedBlocks();
    if (mode == Mode.PATCHED) {
      boolean fromOverlay = source.endsWith(IsolatedHBase.OVERLAY_RESOURCE);
      if (!fromOverlay || verified < 0) {
        throw new IllegalStateException("PATCHED must run the overlay's ChecksumUtil; the loader "
          + "resolved the one from " + source);
      }
      next.getAsLong();
      if (overlayVerifiedBlocks() == verified) {
        throw new IllegalStateException("the overlay is loaded but verified no block: is it "
          + "switched off (hbasepatches.checksum.enabled=false)?");
      }
    } else if (verified >= 0) {
      throw new IllegalStateException("UPSTREAM must run HBase's own ChecksumUtil; the loader "
        + "resolved the overlay's from " + source + " (is the overlay on the class path?)");
    }
  }

  int blockCount() {
    return (Integer) call("blockCount");
  }

  long contentHash() {
    return (Long) call("contentHash");
  }

  String checksumUtilSource() {
    return (String) call("checksumUtilSource");
  }

  /** Blocks the overlay has verified so far; -1 when HBase's own ChecksumUtil is loaded. */
  long overlayVerifiedBlocks() {
    return (Long) call("overlayVerifiedBlocks");
  }

  private Object call(String method) {
    try {
      return driver.getClass().getMethod(method).invoke(driver);
    } catch (InvocationTargetException e) {
      throw new IllegalStateException(method + " failed: " + e.getCause(), e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(method + ": " + e, e);
    }
  }

  /**
   * Closes the reader and its file system and deletes the file. The class loader stays open:
   * Hadoop registers JVM shutdown hooks from classes in it, and they still load classes at exit.
   */
  @Override
  public void close() throws Exception {
    try {
      ((AutoCloseable) driver).close();
    } finally {
      owner.setContextClassLoader(previousContextLoader);
      LocalRegion.deleteTree(dir);
    }
  }

}
