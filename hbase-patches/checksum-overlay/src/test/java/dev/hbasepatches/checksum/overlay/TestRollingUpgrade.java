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
package dev.hbasepatches.checksum.overlay;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import dev.hbasepatches.checksum.BlockChecksummer;
import dev.hbasepatches.checksum.BlockLayout;
import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.hbase.io.hfile.ChecksumUtil;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.io.hfile.OverlayChecksummer;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * A rolling upgrade, and back: HFiles written by a RegionServer with the overlay are read by one
 * running stock HBase, and the other way round, for both CRC types and two chunk sizes. The stock
 * RegionServer is a class loader over this JVM's class path without the overlay's classes (the
 * platform loader as parent, so every HBase class is loaded afresh from the hbase-server jar);
 * the overlay one is the test's own loader. Both read every cell intact, with no checksum
 * failure. With the overlay turned off (the stock path inside the overlay), a damaged block is
 * still refused: HBase's own checksum-failure counter sees it.
 */
public class TestRollingUpgrade {

  private static final int ROWS = 3_000;
  private static Path dir;
  private static URLClassLoader stock;

  @BeforeClass
  public static void stockRegionServer() throws Exception {
    dir = Files.createTempDirectory("hbasepatches-rolling-");
    URL overlay = ChecksumUtil.class.getProtectionDomain().getCodeSource().getLocation();
    List<URL> urls = new ArrayList<>();
    boolean dropped = false;
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      if (entry.isEmpty()) {
        continue;
      }
      URL url = new File(entry).toURI().toURL();
      if (url.equals(overlay)) {
        dropped = true;
      } else {
        urls.add(url);
      }
    }
    assertTrue("the overlay's classes " + overlay + " are on the class path", dropped);
    stock = new URLClassLoader("stock-hbase", urls.toArray(new URL[0]),
      ClassLoader.getPlatformClassLoader());
  }

  @AfterClass
  public static void cleanUp() throws IOException {
    if (stock != null) {
      stock.close();
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  /**
   * Calls HFileRoundTrip's static method in the stock loader, which is also the thread's context
   * loader meanwhile (Hadoop's Configuration loads the classes it names through that).
   */
  private static Object inStock(String method, Object... args) throws Exception {
    Class<?> c = Class.forName(HFileRoundTrip.class.getName(), true, stock);
    Thread thread = Thread.currentThread();
    ClassLoader before = thread.getContextClassLoader();
    for (Method m : c.getMethods()) {
      if (m.getName().equals(method)) {
        thread.setContextClassLoader(stock);
        try {
          return m.invoke(null, args);
        } catch (InvocationTargetException e) {
          throw e.getCause() instanceof Exception ? (Exception) e.getCause() : e;
        } finally {
          thread.setContextClassLoader(before);
        }
      }
    }
    throw new AssertionError("no method " + method);
  }

  @Test
  public void theTwoRegionServersRunDifferentChecksumUtils() throws Exception {
    String ours = HFileRoundTrip.checksumUtilSource();
    String theirs = (String) inStock("checksumUtilSource");
    assertFalse(ours, ours.contains("hbase-server"));
    assertTrue(theirs, theirs.contains("hbase-server"));
  }

  @Test
  public void overlayWrittenFilesReadOnStockAndStockWrittenOnOverlay() throws Exception {
    OverlayChecksummer.use(BlockChecksummer.intrinsic());
    for (String type : new String[] { "CRC32C", "CRC32" }) {
      for (int chunk : new int[] { HFile.DEFAULT_BYTES_PER_CHECKSUM, 1000 }) {
        String what = type + " every " + chunk + " bytes";
        String byOverlay = dir.resolve("overlay-" + type + "-" + chunk).toString();
        String byStock = dir.resolve("stock-" + type + "-" + chunk).toString();
        HFileRoundTrip.write(byOverlay, type, chunk, ROWS, 7);
        inStock("write", byStock, type, chunk, ROWS, 7L);
        assertArrayEquals(what + ": the same bytes whoever wrote them",
          Files.readAllBytes(Path.of(byStock)), Files.readAllBytes(Path.of(byOverlay)));

        long[] stockReadsOverlays = (long[]) inStock("read", byOverlay);
        assertEquals(what + ": rows stock HBase read", ROWS, stockReadsOverlays[0]);
        assertEquals(what + ": stock HBase's checksum failures", 0, stockReadsOverlays[2]);

        long verified = ChecksumUtil.verifiedBlocks();
        long failed = ChecksumUtil.failedBlocks();
        long[] overlayReadsStocks = HFileRoundTrip.read(byStock);
        assertEquals(what + ": rows the overlay read", ROWS, overlayReadsStocks[0]);
        assertEquals(what + ": HBase's checksum failures with the overlay", 0,
          overlayReadsStocks[2]);
        assertEquals(what + ": cells", stockReadsOverlays[1], overlayReadsStocks[1]);
        assertTrue(what + ": the overlay verified the stock file's blocks",
          ChecksumUtil.verifiedBlocks() - verified > 10);
        assertEquals(what, failed, ChecksumUtil.failedBlocks());
      }
    }
  }

  @Test
  public void offPathRefusesADamagedBlock() throws Exception {
    String file = dir.resolve("damaged").toString();
    HFileRoundTrip.write(file, "CRC32C", HFile.DEFAULT_BYTES_PER_CHECKSUM, ROWS, 11);
    long intact = HFileRoundTrip.read(file)[1];
    try (RandomAccessFile f = new RandomAccessFile(file, "rw")) {
      long at = BlockLayout.HEADER_SIZE + 100; // inside the first data block's cells
      f.seek(at);
      int b = f.read();
      f.seek(at);
      f.write(b ^ 0x20);
    }
    OverlayChecksummer.use(null);
    try {
      long verified = ChecksumUtil.verifiedBlocks();
      long failed = ChecksumUtil.failedBlocks();
      long[] r = HFileRoundTrip.read(file);
      assertEquals("HBase counted the damaged block as a checksum failure", 1, r[2]);
      assertEquals("the overlay's checksummer was not asked", verified,
        ChecksumUtil.verifiedBlocks());
      assertEquals(failed, ChecksumUtil.failedBlocks());
      // What follows the refusal is HBase's fallback to the file system's checksums, of which a
      // local file system written through HFileSystem keeps none (TestChecksumUtilOverlay).
      assertTrue(r[1] != intact);
      // Stock HBase refuses the same block the same way.
      assertEquals(1, ((long[]) inStock("read", file))[2]);
    } finally {
      OverlayChecksummer.use(BlockChecksummer.intrinsic());
    }
  }
}
