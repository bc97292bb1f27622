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

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import dev.hbasepatches.jmh.HBaseBenchmark.Mode;
import java.io.IOException;
import org.junit.Test;

/**
 * What {@link OverlayBlockReadBenchmark} measures: in each mode HBase's reader runs the
 * {@code ChecksumUtil} the mode names, reads the same data blocks, and (PATCHED) verifies every
 * one of them through the overlay.
 */
public class OverlayReadsTest {

  private static final int CELLS = 20_000;

  @Test
  public void bothModesReadTheSameBlocksThroughTheirOwnChecksumUtil() throws Exception {
    for (String buffers : new String[] { "HEAP", "DIRECT", "MULTI" }) {
      ClassLoader before = Thread.currentThread().getContextClassLoader();
      long upstreamHash;
      int upstreamBlocks;
      try (OverlayReads upstream = OverlayReads.open(Mode.UPSTREAM, buffers, CELLS)) {
        assertEquals(buffers, -1, upstream.overlayVerifiedBlocks());
        upstreamBlocks = upstream.blockCount();
        upstreamHash = upstream.contentHash();
      }
      assertSame("context loader restored", before, Thread.currentThread().getContextClassLoader());
      try (OverlayReads patched = OverlayReads.open(Mode.PATCHED, buffers, CELLS)) {
        assertTrue(patched.checksumUtilSource(),
          patched.checksumUtilSource().endsWith(IsolatedHBase.OVERLAY_RESOURCE));
        assertTrue(buffers + ": a file of several blocks", upstreamBlocks > 10);
        assertEquals(buffers, upstreamBlocks, patched.blockCount());
        long verified = patched.overlayVerifiedBlocks();
        assertEquals(buffers, upstreamHash, patched.contentHash());
        assertEquals(buffers + ": every block read was verified by the overlay",
          verified + upstreamBlocks, patched.overlayVerifiedBlocks());
        long bytes = 0;
        for (int i = 0; i < upstreamBlocks; i++) {
          bytes += patched.next.getAsLong();
        }
        assertTrue(buffers + ": 64 KB blocks, " + bytes + " bytes",
          bytes >= 64L * 1024 * (upstreamBlocks - 1));
      }
    }
  }

  @Test
  public void baselineIsRefusedWithAReason() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
      () -> OverlayReads.open(Mode.BASELINE, "HEAP", CELLS));
    assertTrue(e.getMessage(), e.getMessage().contains("BlockChecksumBenchmark"));
  }

  @Test
  public void unknownBufferKindIsRefused() {
    Exception e = assertThrows(Exception.class,
      () -> OverlayReads.open(Mode.UPSTREAM, "OFFHEAP", CELLS));
    assertTrue(e.toString(), e.toString().contains("HEAP, DIRECT or MULTI"));
  }

  /** A PATCHED run whose overlay is switched off would measure HBase's path: it must not start. */
  @Test
  public void patchedRefusesAnOverlaySwitchedOff() {
    ClassLoader before = Thread.currentThread().getContextClassLoader();
    System.setProperty("hbasepatches.checksum.enabled", "false");
    try {
      IOException e = assertThrows(IOException.class,
        () -> OverlayReads.open(Mode.PATCHED, "HEAP", CELLS));
      assertTrue(e.getMessage(), e.getMessage().contains("switched off"));
      assertSame("context loader restored", before,
        Thread.currentThread().getContextClassLoader());
    } finally {
      System.clearProperty("hbasepatches.checksum.enabled");
    }
  }
}
