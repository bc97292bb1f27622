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

import java.io.IOException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Random;
import java.util.function.LongSupplier;
import java.util.zip.CRC32;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.fs.HFileSystem;
import org.apache.hadoop.hbase.io.ByteBuffAllocator;
import org.apache.hadoop.hbase.io.hfile.BlockType;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.FixedFileTrailer;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.io.hfile.HFileBlock;
import org.apache.hadoop.hbase.io.hfile.HFileContext;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;
import org.apache.hadoop.hbase.nio.ByteBuff;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.ChecksumType;

/**
 * HBase's own block read path over one real HFile, as a RegionServer takes it on a block cache
 * miss: {@code HFile.Reader.readBlock} reads a data block from the local file system (pread) and
 * verifies its HBase checksums through whichever {@code ChecksumUtil} this class's loader
 * resolves. The checksum workload ({@link Workloads}) builds it inside a side's loader: HBase's
 * own {@code ChecksumUtil} (UPSTREAM), the overlay's in front of it (PATCHED) or the upstream
 * series' {@code HFileBlock} (SERIES), so the sides run the same bytecode except for the classes
 * the side puts in front.
 */
final class BlockReadDriver implements LongSupplier, AutoCloseable {

  private static final byte[] FAMILY = Bytes.toBytes("f");
  private static final byte[] QUALIFIER = Bytes.toBytes("q");

  private final HFileSystem fs;
  private final HFile.Reader reader;
  private final long[] offsets;
  private final int[] sizes;
  private int next;

  /**
   * Writes {@code cells} cells into {@code file} (64 KB blocks, CRC32C per 16 KB chunk, HBase's
   * defaults) and opens it for uncached block reads into {@code buffers}: {@code HEAP}, or
   * {@code DIRECT} / {@code MULTI}, pooled direct buffers of a RegionServer's default size
   * (65 KB: a block fits in one) or of 16 KB (a block spans five).
   */
  public BlockReadDriver(String file, String buffers, int cells) throws IOException {
    Configuration conf = HBaseConfiguration.create();
    // Hadoop resolves classes through the thread's context loader unless told otherwise; keep
    // every class of this read path in this driver's loader.
    conf.setClassLoader(BlockReadDriver.class.getClassLoader());
    conf.set(FileSystem.FS_DEFAULT_NAME_KEY, "file:///");
    conf.setBoolean(HConstants.HBASE_CHECKSUM_VERIFICATION, true);
    int poolBuffer;
    switch (buffers) {
      case "HEAP":
        poolBuffer = 0;
        break;
      case "DIRECT":
        poolBuffer = ByteBuffAllocator.DEFAULT_BUFFER_SIZE;
        break;
      case "MULTI":
        poolBuffer = 16 * 1024;
        break;
      default:
        throw new IllegalArgumentException(
          "buffers must be HEAP, DIRECT or MULTI, not '" + buffers + "'");
    }
    if (cells < 1) {
      throw new IllegalArgumentException("cells must be at least 1, not " + cells);
    }
    // A RegionServer's file system: HBase verifies its block checksums itself.
    this.fs = new HFileSystem(conf, true);
    Path path = new Path(new java.io.File(file).toURI());
    write(conf, path, cells);
    CacheConfig cacheConf = CacheConfig.DISABLED;
    if (poolBuffer > 0) {
      Configuration poolConf = new Configuration(conf);
      poolConf.setInt(ByteBuffAllocator.BUFFER_SIZE_KEY, poolBuffer);
      cacheConf = new CacheConfig(poolConf, null, null, ByteBuffAllocator.create(poolConf, true));
    }
    this.reader = HFile.createReader(fs, path, cacheConf, true, conf);
    FixedFileTrailer trailer = reader.getTrailer();
    long[] offs = new long[64];
    int[] lens = new int[64];
    int n = 0;
    for (long off = trailer.getFirstDataBlockOffset(); off <= trailer.getLastDataBlockOffset();) {
      HFileBlock b = read(off, -1, null);
      try {
        if (b.getBlockType() == BlockType.DATA) {
          if (n == offs.length) {
            offs = Arrays.copyOf(offs, 2 * n);
            lens = Arrays.copyOf(lens, 2 * n);
          }
          offs[n] = off;
          lens[n] = b.getOnDiskSizeWithHeader();
          n++;
        }
        off += b.getOnDiskSizeWithHeader();
      } finally {
        b.release();
      }
    }
    if (n == 0) {
      throw new IllegalStateException(path + " has no data blocks");
    }
    this.offsets = Arrays.copyOf(offs, n);
    this.sizes = Arrays.copyOf(lens, n);
  }

  private void write(Configuration conf, Path path, int cells) throws IOException {
    HFileContext ctx = new HFileContextBuilder().withChecksumType(ChecksumType.CRC32C)
      .withBytesPerCheckSum(HFile.DEFAULT_BYTES_PER_CHECKSUM).withBlockSize(64 * 1024).build();
    Random rnd = new Random(42);
    try (HFile.Writer w = HFile.getWriterFactory(conf, CacheConfig.DISABLED).withPath(fs, path)
      .withFileContext(ctx).create()) {
      for (int i = 0; i < cells; i++) {
        byte[] value = new byte[100 + rnd.nextInt(200)];
        rnd.nextBytes(value);
        w.append(new KeyValue(Bytes.toBytes(String.format("row-%09d", i)), FAMILY, QUALIFIER,
          1L, value));
      }
    }
  }

  /**
   * One uncached read: no block cache, so the reader allocates from its pool (direct buffers)
   * when it has one and from the heap otherwise, as a RegionServer without a cache would.
   */
  private HFileBlock read(long offset, int onDiskSize, BlockType expected) throws IOException {
    return reader.readBlock(offset, onDiskSize, false, true, false, false, expected, null);
  }

  /** Data blocks in the file. */
  public int blockCount() {
    return offsets.length;
  }

  /**
   * Reads the next data block (round robin over the file) with checksum verification and
   * returns the bytes it covers on disk. A block that fails verification is re-read by HBase
   * with the file system's checksums, which a clean file never triggers.
   */
  @Override
  public long getAsLong() {
    int i = next;
    next = i + 1 == offsets.length ? 0 : i + 1;
    try {
      HFileBlock b = read(offsets[i], sizes[i], BlockType.DATA);
      try {
        return b.getOnDiskSizeWithHeader();
      } finally {
        b.release();
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** A CRC32 over every data block's bytes after its header, in file order. */
  public long contentHash() throws IOException {
    CRC32 crc = new CRC32();
    byte[] chunk = new byte[8192];
    for (int i = 0; i < offsets.length; i++) {
      HFileBlock b = read(offsets[i], sizes[i], BlockType.DATA);
      try {
        ByteBuff data = b.getBufferWithoutHeader();
        while (data.hasRemaining()) {
          int len = Math.min(chunk.length, data.remaining());
          data.get(chunk, 0, len);
          crc.update(chunk, 0, len);
        }
      } finally {
        b.release();
      }
    }
    return crc.getValue();
  }

  /** Where the {@code ChecksumUtil} this driver's HBase classes resolve was loaded from. */
  public String checksumUtilSource() throws ClassNotFoundException {
    Class<?> c = Class.forName("org.apache.hadoop.hbase.io.hfile.ChecksumUtil", false,
      HFileBlock.class.getClassLoader());
    return String.valueOf(c.getProtectionDomain().getCodeSource().getLocation());
  }

  /**
   * Blocks the overlay has verified in this loader, or -1 if the loaded {@code ChecksumUtil} is
   * HBase's own (it has no such counter).
   */
  public long overlayVerifiedBlocks() throws ReflectiveOperationException {
    Class<?> c = Class.forName("org.apache.hadoop.hbase.io.hfile.ChecksumUtil", false,
      HFileBlock.class.getClassLoader());
    Method m;
    try {
      m = c.getMethod("verifiedBlocks");
    } catch (NoSuchMethodException e) {
      return -1;
    }
    return (Long) m.invoke(null);
  }

  @Override
  public void close() throws IOException {
    try {
      reader.close(true);
    } finally {
      fs.close();
    }
  }
}
