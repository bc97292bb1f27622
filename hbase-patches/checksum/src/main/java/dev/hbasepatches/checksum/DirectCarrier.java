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

import java.lang.ref.Reference;
import java.lang.reflect.Field;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.Checksum;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Feeds a region of a caller's direct {@link ByteBuffer} to a {@link Checksum} without taking a
 * duplicate of that buffer and without touching its position, limit or mark.
 * <p>
 * The JDK's {@code CRC32C.update(ByteBuffer)} and {@code CRC32.update(ByteBuffer)} read a direct
 * buffer by address, but only from its position to its limit, and leave the position at the limit.
 * To give them one region of a buffer that belongs to the caller there were two ways: move the
 * caller's position and limit (this package promises not to; a segment may be read by another
 * thread through another ByteBuff at the same time), or take a duplicate, a new buffer object per
 * direct segment per call, which measurably dominates the non-CRC cost of small multi-segment
 * blocks. A carrier is a third way: one direct buffer per thread, owned by this class, whose
 * address, capacity, limit and position are written (through {@code sun.misc.Unsafe}, module
 * jdk.unsupported, no JVM flags) so that it describes exactly the region to read; the CRC reads it
 * and the carrier is parked again before {@link #update} returns.
 * <p>
 * Why this is safe:
 * <ul>
 * <li><b>Thread confinement.</b> Each thread has its own carrier. It is reachable only from this
 * class's {@link ThreadLocal} and from the stack of {@link #update}, is never returned or stored
 * elsewhere, and is handed only to {@link Checksum#update(ByteBuffer)}. The checksums this package
 * makes (java.util.zip's {@link CRC32C} and {@link CRC32}, and Hadoop's pure-Java CRCs through
 * {@code Checksum}'s default {@code update(ByteBuffer)}) read the buffer during that call and keep
 * no reference to it. Nothing inside the call can reach this class
 * again, so a carrier is never used by two calls at once.</li>
 * <li><b>Bounds.</b> The region is checked against the source buffer's capacity before the carrier
 * is pointed at it, and the carrier's capacity is the region's length, so no read through the
 * carrier can leave memory the source buffer owns.</li>
 * <li><b>Lifetime.</b> The source buffer is kept reachable until the CRC has returned
 * ({@link Reference#reachabilityFence}), so the memory the carrier points into cannot be freed
 * under it; after that the carrier no longer points there.</li>
 * <li><b>No stale address.</b> After every use, also when the CRC throws, the carrier's capacity,
 * limit and position are set to 0 and its address back to a small buffer of this class's own, so a
 * carrier at rest points at nothing of anyone else's and any access through it fails its bounds
 * check.</li>
 * <li><b>No freeing, no leaking.</b> A carrier is a duplicate of a small static direct buffer, so
 * it has no cleaner of its own: rewriting its address can neither free nor leak memory.</li>
 * <li><b>Buffers it does not take.</b> A buffer backed by a foreign memory segment (whose accesses
 * the JDK checks against the segment's lifetime) gets no address from {@link #addressOf} and takes
 * the duplicate path, as does everything that is not direct.</li>
 * <li><b>Off switch.</b> With the JVM system property {@value #ENABLED_PROPERTY}{@code =false}
 * this class never touches {@code sun.misc.Unsafe} (whose memory methods are deprecated for
 * removal and warned about by newer JDKs) and every direct segment takes the duplicate path. The
 * module's build runs its tests both ways.</li>
 * <li><b>Capability probe.</b> When this class loads it looks up the four fields of
 * {@link Buffer} it writes and then checks itself: CRC32C and CRC32 of several regions of a test
 * buffer through a carrier must equal the same CRCs through a duplicate and through a heap copy,
 * the test buffer's position and limit must be unchanged, and the carrier must be parked
 * afterwards. If any step fails (another JVM, a renamed field, a missing jdk.unsupported), it logs
 * once at debug and {@link #acquire} returns null: callers take the duplicate path, which gives the
 * same results.</li>
 * </ul>
 */
final class DirectCarrier {

  private static final Logger LOG = LoggerFactory.getLogger(DirectCarrier.class);

  private static final sun.misc.Unsafe UNSAFE;
  private static final long ADDRESS;
  private static final long CAPACITY;
  private static final long LIMIT;
  private static final long POSITION;
  /** Offset of the buffer's foreign memory segment field, or -1 when this JDK has none. */
  private static final long SEGMENT;
  /** What a parked carrier points at: memory of this class's own. */
  private static final ByteBuffer HOME;
  private static final long HOME_ADDRESS;
  private static final boolean AVAILABLE;
  private static final ThreadLocal<DirectCarrier> CARRIERS =
    ThreadLocal.withInitial(DirectCarrier::new);

  /**
   * JVM system property: {@code false} keeps this class off {@code sun.misc.Unsafe} altogether
   * (direct segments are read through duplicates); {@code true}, the default, uses the carrier
   * where its probe passes.
   */
  static final String ENABLED_PROPERTY = "hbasepatches.checksum.direct-carrier";

  static {
    sun.misc.Unsafe unsafe = null;
    long address = -1;
    long capacity = -1;
    long limit = -1;
    long position = -1;
    long segment = -1;
    ByteBuffer home = null;
    long homeAddress = 0;
    boolean available = false;
    boolean wanted = wanted(System.getProperty(ENABLED_PROPERTY));
    try {
      if (!wanted) {
        throw new IllegalStateException(ENABLED_PROPERTY + "=false");
      }
      Field theUnsafe = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
      theUnsafe.setAccessible(true);
      unsafe = (sun.misc.Unsafe) theUnsafe.get(null);
      address = unsafe.objectFieldOffset(Buffer.class.getDeclaredField("address"));
      capacity = unsafe.objectFieldOffset(Buffer.class.getDeclaredField("capacity"));
      limit = unsafe.objectFieldOffset(Buffer.class.getDeclaredField("limit"));
      position = unsafe.objectFieldOffset(Buffer.class.getDeclaredField("position"));
      segment = segmentFieldOffset(unsafe);
      home = ByteBuffer.allocateDirect(8);
      homeAddress = unsafe.getLong(home, address);
      available = true;
    } catch (Throwable t) {
      LOG.debug("Direct-buffer carrier unavailable ({}); direct segments are read through"
        + " duplicates", t.toString());
    }
    UNSAFE = unsafe;
    ADDRESS = address;
    CAPACITY = capacity;
    LIMIT = limit;
    POSITION = position;
    SEGMENT = segment;
    HOME = home;
    HOME_ADDRESS = homeAddress;
    boolean passed = false;
    if (available) {
      try {
        selfTest();
        passed = true;
      } catch (Throwable t) {
        LOG.debug("Direct-buffer carrier failed its self-test ({}); direct segments are read"
          + " through duplicates", t.toString());
      }
    }
    AVAILABLE = passed;
  }

  private final ByteBuffer carrier;

  private DirectCarrier() {
    carrier = HOME.duplicate();
    park();
  }

  /**
   * Whether the carrier is wanted: {@link #enabledByProperty}, except that a value that is not a
   * boolean turns it off with an ERROR naming the property and the value (the duplicates path
   * reads the same bytes), so a typo in a JVM flag never fails this class's initialisation.
   */
  static boolean wanted(String value) {
    try {
      return enabledByProperty(value);
    } catch (IllegalArgumentException e) {
      LOG.error("{}; the direct-buffer carrier is off, direct segments are read through"
        + " duplicates", e.getMessage());
      return false;
    }
  }

  /**
   * {@code true}/{@code false} in any case, true when unset.
   * @throws IllegalArgumentException naming the property for anything else
   */
  static boolean enabledByProperty(String value) {
    if (value == null || "true".equalsIgnoreCase(value.trim())) {
      return true;
    }
    if ("false".equalsIgnoreCase(value.trim())) {
      return false;
    }
    throw new IllegalArgumentException("-D" + ENABLED_PROPERTY + "=" + value
      + " is not a boolean; expected true or false");
  }

  private static long segmentFieldOffset(sun.misc.Unsafe unsafe) {
    try {
      return unsafe.objectFieldOffset(Buffer.class.getDeclaredField("segment"));
    } catch (NoSuchFieldException e) {
      return -1;
    }
  }

  /** Whether the carrier is in use on this JVM: switched on and passed its probe. */
  static boolean available() {
    return AVAILABLE;
  }

  /**
   * This thread's carrier, or null when there is none (switched off, or the probe failed): the
   * caller then reads direct buffers through duplicates. Use it only within the calling method
   * and never store it.
   */
  static DirectCarrier acquire() {
    return AVAILABLE ? CARRIERS.get() : null;
  }

  /**
   * The address of index 0 of a direct buffer, for {@link #update}; 0 when the buffer must be read
   * through a duplicate instead (not direct, or backed by a foreign memory segment).
   */
  static long addressOf(ByteBuffer buffer) {
    if (!AVAILABLE || !buffer.isDirect()
      || SEGMENT >= 0 && UNSAFE.getObject(buffer, SEGMENT) != null) {
      return 0;
    }
    return UNSAFE.getLong(buffer, ADDRESS);
  }

  /**
   * Feeds bytes {@code [from, to)} of {@code source} (absolute indexes, as its absolute
   * {@code get} takes them) to {@code crc}. {@code address} is {@link #addressOf} of
   * {@code source} and not 0. The source's position, limit and mark are not touched, and the
   * carrier is parked again before this returns, normally or not.
   */
  void update(Checksum crc, ByteBuffer source, long address, int from, int to) {
    if (from < 0 || from > to || to > source.capacity()) {
      throw new IndexOutOfBoundsException("region [" + from + ", " + to + ") of a "
        + source.capacity() + "-byte buffer");
    }
    ByteBuffer c = carrier;
    int length = to - from;
    // Position 0 <= limit == capacity at every step, the order Buffer's invariant wants.
    UNSAFE.putInt(c, POSITION, 0);
    UNSAFE.putLong(c, ADDRESS, address + from);
    UNSAFE.putInt(c, CAPACITY, length);
    UNSAFE.putInt(c, LIMIT, length);
    try {
      crc.update(c);
    } finally {
      park();
      Reference.reachabilityFence(source);
    }
  }

  /** Points the carrier at nothing: no capacity, and an address of this class's own. */
  private void park() {
    ByteBuffer c = carrier;
    UNSAFE.putInt(c, POSITION, 0);
    UNSAFE.putInt(c, LIMIT, 0);
    UNSAFE.putInt(c, CAPACITY, 0);
    UNSAFE.putLong(c, ADDRESS, HOME_ADDRESS);
  }

  /** Whether this carrier is parked; for tests. */
  boolean parked() {
    ByteBuffer c = carrier;
    return c.capacity() == 0 && c.limit() == 0 && c.position() == 0
      && UNSAFE.getLong(c, ADDRESS) == HOME_ADDRESS;
  }

  /**
   * CRCs through a fresh carrier must equal CRCs through a duplicate and through a heap copy, for
   * regions at odd offsets and lengths, and must leave the source and the carrier as they were.
   */
  private static void selfTest() {
    int size = 4099;
    byte[] bytes = new byte[size];
    for (int i = 0; i < size; i++) {
      bytes[i] = (byte) (i * 131 + 7 ^ i >>> 3);
    }
    ByteBuffer source = ByteBuffer.allocateDirect(size);
    source.put(bytes).clear();
    source.limit(3001).position(5);
    long address = UNSAFE.getLong(source, ADDRESS);
    DirectCarrier carrier = new DirectCarrier();
    int[][] regions = { { 0, size }, { 1, 2050 }, { 2050, size }, { 17, 17 }, { 3, 1000 },
      { size - 1, size } };
    for (int[] r : regions) {
      for (int kind = 0; kind < 2; kind++) {
        Checksum viaCarrier = kind == 0 ? new CRC32C() : new CRC32();
        Checksum viaDuplicate = kind == 0 ? new CRC32C() : new CRC32();
        Checksum viaArray = kind == 0 ? new CRC32C() : new CRC32();
        carrier.update(viaCarrier, source, address, r[0], r[1]);
        ByteBuffer d = source.duplicate();
        d.clear().limit(r[1]).position(r[0]);
        viaDuplicate.update(d);
        viaArray.update(bytes, r[0], r[1] - r[0]);
        if (viaCarrier.getValue() != viaDuplicate.getValue()
          || viaCarrier.getValue() != viaArray.getValue()) {
          throw new IllegalStateException("CRC through the carrier differs for [" + r[0] + ", "
            + r[1] + ")");
        }
        if (!carrier.parked()) {
          throw new IllegalStateException("carrier not parked after use");
        }
      }
    }
    if (source.position() != 5 || source.limit() != 3001 || source.capacity() != size) {
      throw new IllegalStateException("the carrier moved its source buffer");
    }
  }
}
