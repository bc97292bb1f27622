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
package dev.hbasepatches.offheap;

import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.StringUtils.TraditionalBinaryPrefix;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * The cache's settings, validated once: a bad value is refused with a message naming its key and
 * value, never replaced by a default.
 */
@InterfaceAudience.LimitedPrivate("Configuration")
public final class OffHeapCacheConfig {

  /** Total direct memory for cached blocks, e.g. {@code 4g}; required. */
  public static final String SIZE_KEY = "hbasepatches.offheap.size";
  /** Size of each direct slab the size classes carve their slots from. */
  public static final String SLAB_SIZE_KEY = "hbasepatches.offheap.slab.size";
  public static final long DEFAULT_SLAB_SIZE = 8L * 1024 * 1024;
  /** Slot sizes in bytes, ascending; a block goes to the smallest slot it fits. */
  public static final String SIZE_CLASSES_KEY = "hbasepatches.offheap.size.classes";
  /**
   * Defaults sized around HBase's block sizes: a 64 KB block of 1 KB cells ends up to ~1.1 KB past
   * 64 KB plus header, checksums and metadata, which the 69 KB class holds.
   */
  static final int[] DEFAULT_SIZE_CLASSES = { 5 * 1024, 9 * 1024, 17 * 1024, 33 * 1024,
    49 * 1024, 66 * 1024, 69 * 1024, 97 * 1024, 129 * 1024, 257 * 1024, 513 * 1024 };

  /** Smallest slot and slab: a slot must hold a block header and checksums. */
  static final int MIN_SLOT_SIZE = 256;
  /** Most slots one size class can index (an int, and the largest Java array). */
  static final int MAX_SLOTS = Integer.MAX_VALUE - 8;

  private final long capacity;
  private final int slabSize;
  private final int[] sizeClasses;

  /** Checks the settings against this JVM's maximum direct memory. */
  public OffHeapCacheConfig(long capacity, int slabSize, int[] sizeClasses) {
    this(capacity, slabSize, sizeClasses, DirectMemory.max());
  }

  /**
   * Checks the settings; {@code maxDirectMemory} is the JVM's limit on direct buffers
   * ({@code -XX:MaxDirectMemorySize}), which the cache's slabs must fit in.
   */
  OffHeapCacheConfig(long capacity, int slabSize, int[] sizeClasses, long maxDirectMemory) {
    if (slabSize < MIN_SLOT_SIZE) {
      throw new IllegalArgumentException(SLAB_SIZE_KEY + "=" + slabSize
        + " is out of range: at least " + MIN_SLOT_SIZE + " and at most " + Integer.MAX_VALUE
        + " bytes");
    }
    if (capacity < slabSize) {
      throw new IllegalArgumentException(SIZE_KEY + "=" + capacity
        + " is less than one slab: at least " + SLAB_SIZE_KEY + "=" + slabSize + " bytes");
    }
    if (sizeClasses.length == 0) {
      throw new IllegalArgumentException(SIZE_CLASSES_KEY + " is empty");
    }
    for (int i = 0; i < sizeClasses.length; i++) {
      if (sizeClasses[i] < MIN_SLOT_SIZE || sizeClasses[i] > slabSize) {
        throw new IllegalArgumentException(SIZE_CLASSES_KEY + "=" + Arrays.toString(sizeClasses)
          + ": " + sizeClasses[i] + " is out of range: at least " + MIN_SLOT_SIZE + " and at most "
          + SLAB_SIZE_KEY + "=" + slabSize + " bytes");
      }
      if (i > 0 && sizeClasses[i] <= sizeClasses[i - 1]) {
        throw new IllegalArgumentException(SIZE_CLASSES_KEY + "=" + Arrays.toString(sizeClasses)
          + ": sizes must be ascending");
      }
    }
    long slabs = capacity / slabSize;
    if (slabs > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(SIZE_KEY + "=" + capacity + " is " + slabs + " slabs of "
        + SLAB_SIZE_KEY + "=" + slabSize + " bytes: at most " + Integer.MAX_VALUE + " slabs");
    }
    long slots = slabs * (slabSize / sizeClasses[0]);
    if (slots > MAX_SLOTS) {
      throw new IllegalArgumentException(SIZE_KEY + "=" + capacity + " is " + slots + " slots of "
        + sizeClasses[0] + " bytes (the smallest of " + SIZE_CLASSES_KEY + "): at most " + MAX_SLOTS
        + " slots; raise the smallest size or lower the size");
    }
    long usable = slabs * slabSize;
    if (usable > maxDirectMemory) {
      throw new IllegalArgumentException(SIZE_KEY + "=" + capacity + " is more than this JVM's "
        + "maximum direct memory, " + maxDirectMemory + " bytes (-XX:MaxDirectMemorySize, which "
        + "defaults to -Xmx): lower the size or raise -XX:MaxDirectMemorySize, leaving room for "
        + "RPC and HDFS buffers");
    }
    this.capacity = usable;
    this.slabSize = slabSize;
    this.sizeClasses = sizeClasses.clone();
  }

  /** Reads and checks {@link #SIZE_KEY}, {@link #SLAB_SIZE_KEY} and {@link #SIZE_CLASSES_KEY}. */
  public static OffHeapCacheConfig from(Configuration conf) {
    return from(conf, DirectMemory.max());
  }

  static OffHeapCacheConfig from(Configuration conf, long maxDirectMemory) {
    String size = conf.get(SIZE_KEY);
    if (size == null || size.trim().isEmpty()) {
      throw new IllegalArgumentException(SIZE_KEY + " is not set: give the off-heap cache's size, "
        + "e.g. 4g (-XX:MaxDirectMemorySize must leave room for it)");
    }
    long capacity = parseBytes(SIZE_KEY, size);
    String slab = conf.get(SLAB_SIZE_KEY);
    long slabSize = slab == null ? DEFAULT_SLAB_SIZE : parseBytes(SLAB_SIZE_KEY, slab);
    if (slabSize < MIN_SLOT_SIZE || slabSize > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(SLAB_SIZE_KEY + "=" + slab + " (" + slabSize + " bytes) "
        + "is out of range: at least " + MIN_SLOT_SIZE + " and at most " + Integer.MAX_VALUE
        + " bytes (the largest direct buffer)");
    }
    int[] classes = DEFAULT_SIZE_CLASSES;
    String list = conf.get(SIZE_CLASSES_KEY);
    if (list != null && !list.trim().isEmpty()) {
      String[] parts = list.split(",", -1);
      classes = new int[parts.length];
      for (int i = 0; i < parts.length; i++) {
        if (parts[i].trim().isEmpty()) {
          throw new IllegalArgumentException(SIZE_CLASSES_KEY + "=" + list + ": size " + (i + 1)
            + " is empty");
        }
        long v;
        try {
          v = parseBytes(SIZE_CLASSES_KEY, parts[i]);
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(SIZE_CLASSES_KEY + "=" + list + ": " + e.getMessage(),
            e);
        }
        if (v < MIN_SLOT_SIZE || v > slabSize) {
          throw new IllegalArgumentException(SIZE_CLASSES_KEY + "=" + list + ": " + v
            + " is out of range: at least " + MIN_SLOT_SIZE + " and at most " + SLAB_SIZE_KEY + "="
            + slabSize + " bytes (at most " + Integer.MAX_VALUE + ")");
        }
        classes[i] = (int) v;
      }
    }
    return new OffHeapCacheConfig(capacity, (int) slabSize, classes, maxDirectMemory);
  }

  /** A size in bytes ({@code 4g}, {@code 8m}, {@code 5120}); any long, checked by the caller. */
  static long parseBytes(String key, String value) {
    try {
      return TraditionalBinaryPrefix.string2long(value.trim());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(key + "=" + value + " is not a size in bytes (e.g. 4g): "
        + "a whole number with an optional k, m, g, t, p or e, at most " + Long.MAX_VALUE, e);
    }
  }

  /** Usable capacity: the configured size rounded down to whole slabs. */
  public long capacity() {
    return capacity;
  }

  public int slabSize() {
    return slabSize;
  }

  public int slabCount() {
    return Math.toIntExact(capacity / slabSize);
  }

  public int[] sizeClasses() {
    return sizeClasses.clone();
  }

  @Override
  public String toString() {
    return SIZE_KEY + "=" + capacity + ", " + SLAB_SIZE_KEY + "=" + slabSize + ", "
      + SIZE_CLASSES_KEY + "=" + Arrays.toString(sizeClasses);
  }
}
