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
package dev.hbasepatches.checksum;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;
import static org.junit.Assume.assumeTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.Checksum;
import org.apache.hadoop.hbase.nio.MultiByteBuff;
import org.apache.hadoop.hbase.util.ChecksumType;
import org.apache.hadoop.util.PureJavaCrc32C;
import org.junit.Test;

/**
 * The carrier that reads direct segments without duplicating them, and the duplicate path it falls
 * back to: multi-segment blocks give the same checksums, verdicts and bad chunks either way, the
 * caller's buffers keep their positions and limits, and a carrier at rest points at nothing.
 * <p>
 * The build runs this class twice (see the module's pom): as is, where the carrier is in use,
 * and with {@code -Dhbasepatches.checksum.direct-carrier=false}, where every direct segment goes
 * through a duplicate. Each test that is about one path runs in the run that has it.
 */
public class TestDirectCarrier {

  private static final int LEAD = 3;
  private static final int TRAIL = 2;

  /** Whether this JVM was started with the carrier switched off. */
  private static final boolean SWITCHED_OFF =
    !DirectCarrier.enabledByProperty(System.getProperty(DirectCarrier.ENABLED_PROPERTY));

  private final BlockChecksummer checksummer = BlockChecksummer.intrinsic();

  /** Runs the calling test only in the run whose path it is about. */
  private static void onlyWith(boolean fallback) {
    assumeTrue(fallback ? "runs with the carrier switched off" : "runs with the carrier on",
      fallback == SWITCHED_OFF);
  }

  @Test
  public void carrierPassesItsProbeOnThisJvm() {
    if (SWITCHED_OFF) {
      assertFalse("switched off, Unsafe is not touched", DirectCarrier.available());
      assertNull(DirectCarrier.acquire());
      return;
    }
    // HotSpot 11 and 17 have the fields and jdk.unsupported: if this fails, the fast path is
    // not in use.
    assertTrue(DirectCarrier.available());
    assertNotNull(DirectCarrier.acquire());
    assertTrue(DirectCarrier.acquire().parked());
  }

  @Test
  public void switchValues() {
    assertTrue(DirectCarrier.enabledByProperty(null));
    assertTrue(DirectCarrier.enabledByProperty(" TRUE "));
    assertFalse(DirectCarrier.enabledByProperty("false"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
      () -> DirectCarrier.enabledByProperty("no"));
    assertTrue(e.getMessage(), e.getMessage().contains(DirectCarrier.ENABLED_PROPERTY));
  }

  /**
   * A JVM started with a value of the switch that is not a boolean still loads the class (the
   * carrier off, an ERROR naming the property): before, the parse failed the class's static
   * initialiser and every later use met NoClassDefFoundError. Loaded afresh in a class loader of
   * its own, with the property set to "yes".
   */
  @Test
  public void aSwitchThatIsNotABooleanTurnsTheCarrierOffInsteadOfFailingTheClass()
    throws Exception {
    java.net.URL classes =
      DirectCarrier.class.getProtectionDomain().getCodeSource().getLocation();
    java.net.URL slf4j =
      org.slf4j.LoggerFactory.class.getProtectionDomain().getCodeSource().getLocation();
    String before = System.getProperty(DirectCarrier.ENABLED_PROPERTY);
    System.setProperty(DirectCarrier.ENABLED_PROPERTY, "yes");
    try (java.net.URLClassLoader own = new java.net.URLClassLoader(
      new java.net.URL[] { classes, slf4j }, ClassLoader.getPlatformClassLoader())) {
      Class<?> fresh = Class.forName(DirectCarrier.class.getName(), true, own);
      assertNotEquals(DirectCarrier.class, fresh);
      java.lang.reflect.Method available = fresh.getDeclaredMethod("available");
      available.setAccessible(true);
      assertFalse((Boolean) available.invoke(null));
    } finally {
      if (before == null) {
        System.clearProperty(DirectCarrier.ENABLED_PROPERTY);
      } else {
        System.setProperty(DirectCarrier.ENABLED_PROPERTY, before);
      }
    }
    assertFalse(DirectCarrier.wanted("yes"));
    assertTrue(DirectCarrier.wanted(null));
    assertFalse(DirectCarrier.wanted("false"));
  }

  @Test
  public void addressOnlyForDirectBuffers() {
    onlyWith(false);
    assertEquals(0, DirectCarrier.addressOf(ByteBuffer.allocate(16)));
    assertEquals(0, DirectCarrier.addressOf(ByteBuffer.allocate(16).asReadOnlyBuffer()));
    assertNotEquals(0, DirectCarrier.addressOf(ByteBuffer.allocateDirect(16)));
    assertNotEquals(0, DirectCarrier.addressOf(ByteBuffer.allocateDirect(16).asReadOnlyBuffer()));
  }

  @Test
  public void carrierReadsRegionsWithoutMovingTheSource() {
    byte[] bytes = new byte[1001];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) (i * 37 + 11);
    }
    ByteBuffer source = ByteBuffer.allocateDirect(bytes.length);
    source.put(bytes).clear();
    source.limit(600).position(100).mark();
    source.position(250);
    onlyWith(false);
    DirectCarrier carrier = DirectCarrier.acquire();
    for (ByteBuffer b : new ByteBuffer[] { source, source.asReadOnlyBuffer() }) {
      long address = DirectCarrier.addressOf(b);
      // Regions past the source's limit are fine: indexes are absolute, bounded by capacity.
      int[][] regions = { { 0, 1001 }, { 0, 0 }, { 1, 2 }, { 599, 1001 }, { 13, 777 } };
      for (int[] r : regions) {
        for (Checksum[] pair : new Checksum[][] { { new CRC32C(), new CRC32C() },
          { new CRC32(), new CRC32() }, { new PureJavaCrc32C(), new CRC32C() } }) {
          carrier.update(pair[0], b, address, r[0], r[1]);
          pair[1].update(bytes, r[0], r[1] - r[0]);
          assertEquals(Arrays.toString(r), pair[1].getValue(), pair[0].getValue());
          assertTrue(carrier.parked());
        }
      }
      assertEquals(250, b.position());
      assertEquals(600, b.limit());
      b.reset();
      assertEquals(100, b.position());
      b.position(250);
    }
  }

  @Test
  public void carrierIsParkedAfterFailures() {
    ByteBuffer source = ByteBuffer.allocateDirect(64);
    long address = DirectCarrier.addressOf(source);
    onlyWith(false);
    DirectCarrier carrier = DirectCarrier.acquire();
    assertThrows(IndexOutOfBoundsException.class,
      () -> carrier.update(new CRC32C(), source, address, 10, 65));
    assertThrows(IndexOutOfBoundsException.class,
      () -> carrier.update(new CRC32C(), source, address, -1, 5));
    assertThrows(IndexOutOfBoundsException.class,
      () -> carrier.update(new CRC32C(), source, address, 9, 8));
    assertTrue(carrier.parked());
    AtomicReference<ByteBuffer> seen = new AtomicReference<>();
    Checksum failing = new Checksum() {
      @Override
      public void update(ByteBuffer buffer) {
        seen.set(buffer);
        assertEquals(30, buffer.remaining());
        throw new IllegalStateException("CRC failed");
      }

      @Override
      public void update(int b) {
      }

      @Override
      public void update(byte[] b, int off, int len) {
      }

      @Override
      public long getValue() {
        return 0;
      }

      @Override
      public void reset() {
      }
    };
    assertThrows(IllegalStateException.class,
      () -> carrier.update(failing, source, address, 10, 40));
    assertTrue(carrier.parked());
    // Even a checksum that kept the buffer it was given holds nothing that reaches the source.
    assertEquals(0, seen.get().capacity());
    assertEquals(0, seen.get().remaining());
    assertEquals(64, source.limit());
    assertEquals(0, source.position());
  }

  @Test
  public void multiSegmentBlocksThroughTheCarrier() throws Exception {
    multiSegmentBlocks(false, checksummer);
  }

  @Test
  public void multiSegmentBlocksThroughDuplicates() throws Exception {
    multiSegmentBlocks(true, checksummer);
  }

  @Test
  public void pureJavaEngineEitherWay() throws Exception {
    multiSegmentBlocks(SWITCHED_OFF, new BlockChecksummer(CrcEngine.PURE_JAVA, true));
  }

  private void multiSegmentBlocks(boolean fallback, BlockChecksummer c) throws Exception {
    onlyWith(fallback);
    assertEquals(fallback, DirectCarrier.acquire() == null);
    int[][] sizes = { { 33, 7 }, { 34, 1 }, { 4096, 16384 }, { 5001, 512 }, { 5001, 7 },
      { 70001, 16384 }, { 65536, 16384 } };
    long seed = 1;
    for (ChecksumType type : new ChecksumType[] { ChecksumType.CRC32C, ChecksumType.CRC32 }) {
      for (int[] size : sizes) {
        int dataSize = size[0];
        int bpc = size[1];
        byte[] block = TestBlocks.upstreamBlock(type, bpc, dataSize, seed++);
        for (int[] cuts : layouts(block.length, dataSize, bpc)) {
          for (boolean heapTail : new boolean[] { false, true }) {
            String what = (fallback ? "duplicates " : "carrier ") + type + " size=" + dataSize
              + " bpc=" + bpc + " cuts=" + Arrays.toString(cuts) + " heapTail=" + heapTail;
            check(c, block, dataSize, bpc, cuts, heapTail, what);
          }
        }
      }
    }
    if (!fallback) {
      assertTrue(DirectCarrier.acquire().parked());
    }
  }

  /** Cut points (block offsets): mid-chunk, in the header, on a chunk edge, in the checksums. */
  private static List<int[]> layouts(int length, int dataSize, int bpc) {
    List<int[]> out = new ArrayList<>();
    out.add(new int[] { length / 2 + 13 });
    out.add(new int[] { 20, length / 2 + 13 });
    if (bpc < dataSize) {
      out.add(new int[] { bpc, Math.min(length - 1, bpc + 1) });
    }
    out.add(new int[] { dataSize + 2 });
    out.add(new int[] { 1, 1000 % length, 1001 % length, length - 1 });
    return out;
  }

  private void check(BlockChecksummer c, byte[] block, int dataSize, int bpc, int[] cuts,
    boolean heapTail, String what) throws Exception {
    MultiByteBuff good = place(block, cuts, heapTail);
    int[] state = state(good);
    assertTrue(what, c.verify(good).passed());
    assertArrayEquals(what, state, state(good));

    byte[] unsummed = block.clone();
    Arrays.fill(unsummed, dataSize, unsummed.length, (byte) 0x5A);
    MultiByteBuff fresh = place(unsummed, cuts, heapTail);
    state = state(fresh);
    assertEquals(what, dataSize, c.fillChecksums(fresh).dataSizeWithHeader());
    assertArrayEquals(what, state, state(fresh));
    assertArrayEquals(what, block, bytes(fresh, block.length));

    // Damage on both sides of every cut, in the first data byte and in the last checksum byte.
    List<Integer> spots = new ArrayList<>();
    for (int cut : cuts) {
      spots.add(Math.max(BlockLayout.HEADER_SIZE, cut - 1));
      spots.add(Math.max(BlockLayout.HEADER_SIZE, cut));
    }
    spots.add(BlockLayout.HEADER_SIZE);
    spots.add(block.length - 1);
    MultiByteBuff damaged = place(block, cuts, heapTail);
    state = state(damaged);
    for (int at : spots) {
      if (at >= block.length) {
        continue;
      }
      int p = LEAD + at;
      damaged.put(p, (byte) (damaged.get(p) ^ 0x10));
      BlockVerification v = c.verify(damaged);
      assertFalse(what + " damage at " + at, v.passed());
      if (at < dataSize) {
        assertEquals(what + " damage at " + at, at / bpc, v.badChunk());
        byte[] bad = block.clone();
        bad[at] ^= 0x10;
        Checksum crc = type(block) == ChecksumType.CRC32 ? new CRC32() : new CRC32C();
        int start = at / bpc * bpc;
        crc.update(bad, start, Math.min(bpc, dataSize - start));
        assertEquals(what + " damage at " + at, (int) crc.getValue(), v.computedChecksum());
      } else {
        assertEquals(what + " damage at " + at, (at - dataSize) / 4, v.badChunk());
      }
      assertArrayEquals(what, state, state(damaged));
      damaged.put(p, (byte) (damaged.get(p) ^ 0x10));
    }
    assertTrue(what + " restored", c.verify(damaged).passed());
    assertArrayEquals(what, state, state(damaged));
  }

  private static ChecksumType type(byte[] block) {
    return BlockLayout.typeOf(block[BlockLayout.CHECKSUM_TYPE_OFFSET]);
  }

  /**
   * The block with LEAD bytes before and TRAIL after, cut at the given block offsets into direct
   * segments (the last one on the heap with {@code heapTail}); position and limit frame the block.
   */
  private static MultiByteBuff place(byte[] block, int[] cuts, boolean heapTail) {
    byte[] padded = new byte[LEAD + block.length + TRAIL];
    Arrays.fill(padded, (byte) 0xC3);
    System.arraycopy(block, 0, padded, LEAD, block.length);
    List<ByteBuffer> segments = new ArrayList<>();
    int from = 0;
    for (int i = 0; i <= cuts.length; i++) {
      int to = i < cuts.length ? LEAD + cuts[i] : padded.length;
      if (to <= from) {
        continue;
      }
      byte[] part = Arrays.copyOfRange(padded, from, to);
      if (i == cuts.length && heapTail) {
        segments.add(ByteBuffer.wrap(part));
      } else {
        ByteBuffer d = ByteBuffer.allocateDirect(part.length);
        d.put(part).clear();
        segments.add(d);
      }
      from = to;
    }
    MultiByteBuff mbb = new MultiByteBuff(segments.toArray(new ByteBuffer[0]));
    mbb.position(LEAD);
    mbb.limit(LEAD + block.length);
    return mbb;
  }

  /** Position and limit of the MultiByteBuff and of each of its segments. */
  private static int[] state(MultiByteBuff mbb) {
    ByteBuffer[] segs = mbb.nioByteBuffers();
    int[] out = new int[2 + 2 * segs.length];
    out[0] = mbb.position();
    out[1] = mbb.limit();
    for (int i = 0; i < segs.length; i++) {
      out[2 + 2 * i] = segs[i].position();
      out[3 + 2 * i] = segs[i].limit();
    }
    return out;
  }

  private static byte[] bytes(MultiByteBuff mbb, int length) {
    byte[] out = new byte[length];
    for (int i = 0; i < length; i++) {
      out[i] = mbb.get(LEAD + i);
    }
    return out;
  }

  @Test
  public void everyPlacementThroughTheCarrier() throws Exception {
    everyPlacement(false);
  }

  @Test
  public void everyPlacementThroughDuplicates() throws Exception {
    everyPlacement(true);
  }

  /**
   * Single direct buffers take the carrier too: every kind of storage gives upstream's checksums,
   * the bad chunk of damage on each side of every chunk edge, and unmoved buffers, either way.
   */
  private void everyPlacement(boolean fallback) throws Exception {
    onlyWith(fallback);
    for (ChecksumType type : new ChecksumType[] { ChecksumType.CRC32C, ChecksumType.CRC32 }) {
      for (int[] size : new int[][] { { 5001, 512 }, { 70001, 16384 }, { 100, 7 } }) {
        int dataSize = size[0];
        int bpc = size[1];
        byte[] block = TestBlocks.upstreamBlock(type, bpc, dataSize, dataSize + bpc);
        byte[] unsummed = block.clone();
        Arrays.fill(unsummed, dataSize, unsummed.length, (byte) 0x5A);
        for (BlockPlacement p : BlockPlacement.values()) {
          String what = (fallback ? "duplicates " : "carrier ") + type + " " + p + " size="
            + dataSize + " bpc=" + bpc;
          BlockPlacement.Placed placed = p.place(block);
          int[] state = placed.positionAndLimit();
          assertTrue(what, placed.verify(checksummer).passed());
          assertArrayEquals(what, state, placed.positionAndLimit());
          if (p.readOnly()) {
            continue;
          }
          BlockPlacement.Placed fresh = p.place(unsummed);
          fresh.fill(checksummer);
          assertArrayEquals(what, block, fresh.bytes());
          assertArrayEquals(what, state, fresh.positionAndLimit());
          for (int edge = bpc; edge < dataSize; edge += bpc) {
            for (int at : new int[] { edge - 1, edge }) {
              if (at < BlockLayout.HEADER_SIZE) {
                continue; // header damage is TestCorruptionDetection's
              }
              placed.flipBit(at * 8 + 3);
              BlockVerification v = placed.verify(checksummer);
              assertEquals(what + " damage at " + at, at / bpc, v.badChunk());
              placed.flipBit(at * 8 + 3);
            }
          }
          assertTrue(what, placed.verify(checksummer).passed());
          assertArrayEquals(what, state, placed.positionAndLimit());
        }
      }
    }
  }

  /**
   * Threads verifying their own MultiByteBuffs over the same direct segments at once (each thread
   * has its own carrier): every verification passes and the shared segments never move.
   */
  @Test
  public void threadsSharingSegmentsThroughTheCarrier() throws Exception {
    sharedSegments(false);
  }

  @Test
  public void threadsSharingSegmentsThroughDuplicates() throws Exception {
    sharedSegments(true);
  }

  private void sharedSegments(boolean fallback) throws Exception {
    onlyWith(fallback);
    byte[] block = TestBlocks.upstreamBlock(ChecksumType.CRC32C, 16384, 70001, 99);
    MultiByteBuff template = place(block, new int[] { 20, 35000, 35001, 70003 }, false);
    ByteBuffer[] shared = template.nioByteBuffers();
    int[] state = state(template);
    int threads = 3;
    List<MultiByteBuff> views = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      MultiByteBuff view = new MultiByteBuff(shared);
      view.position(LEAD);
      view.limit(LEAD + block.length);
      views.add(view);
    }
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> running = new ArrayList<>();
    for (MultiByteBuff view : views) {
      Thread thread = new Thread(() -> {
        try {
          for (int i = 0; i < 2000; i++) {
            if (!checksummer.verify(view).passed()) {
              throw new AssertionError("verification " + i + " failed");
            }
          }
          if (!fallback && !DirectCarrier.acquire().parked()) {
            throw new AssertionError("carrier not parked");
          }
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
        }
      });
      thread.start();
      running.add(thread);
    }
    for (Thread thread : running) {
      thread.join();
    }
    if (failure.get() != null) {
      throw new AssertionError(failure.get());
    }
    assertArrayEquals(state, state(template));
  }
}
