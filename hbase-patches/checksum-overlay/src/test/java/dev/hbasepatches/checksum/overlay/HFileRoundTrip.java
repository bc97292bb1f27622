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

import java.io.IOException;
import java.util.Random;
import java.util.zip.CRC32;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.fs.HFileSystem;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.io.hfile.HFileContext;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;
import org.apache.hadoop.hbase.io.hfile.HFileScanner;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.ChecksumType;

/**
 * Writes and reads an HFile through HBase's own writer and reader, using only stock HBase API, so
 * that the same class can run in a class loader with the overlay first and in one holding stock
 * HBase alone (TestRollingUpgrade calls it by reflection with plain arguments, in both).
 */
public final class HFileRoundTrip {

  private static final byte[] FAMILY = Bytes.toBytes("f");
  private static final byte[] QUALIFIER = Bytes.toBytes("q");

  private HFileRoundTrip() {
  }

  /** Where the loader's ChecksumUtil came from (the overlay's classes or the hbase-server jar). */
  public static String checksumUtilSource() throws ClassNotFoundException {
    Class<?> c = Class.forName("org.apache.hadoop.hbase.io.hfile.ChecksumUtil", false,
      HFileRoundTrip.class.getClassLoader());
    return c.getProtectionDomain().getCodeSource().getLocation().toString();
  }

  private static Configuration conf() {
    Configuration conf = HBaseConfiguration.create();
    conf.set(FileSystem.FS_DEFAULT_NAME_KEY, "file:///");
    conf.setBoolean(HConstants.HBASE_CHECKSUM_VERIFICATION, true);
    return conf;
  }

  /** {@code rows} cells with seeded values, blocks checksummed as asked. */
  public static void write(String file, String checksumType, int bytesPerChecksum, int rows,
    long seed) throws IOException {
    Configuration conf = conf();
    HFileContext ctx = new HFileContextBuilder().withChecksumType(ChecksumType.valueOf(checksumType))
      .withBytesPerCheckSum(bytesPerChecksum).withBlockSize(16 * 1024).build();
    Random random = new Random(seed);
    try (HFileSystem fs = new HFileSystem(conf, true);
      HFile.Writer w = HFile.getWriterFactory(conf, CacheConfig.DISABLED)
        .withPath(fs, new Path(file)).withFileContext(ctx).create()) {
      for (int r = 0; r < rows; r++) {
        byte[] v = new byte[20 + random.nextInt(200)];
        random.nextBytes(v);
        w.append(new KeyValue(Bytes.toBytes(String.format("row-%08d", r)), FAMILY, QUALIFIER,
          1L, v));
      }
    }
  }

  /**
   * Reads every cell with HBase verifying block checksums itself: {rows, a CRC of every row and
   * value, the blocks whose checksum HBase found wrong during the read (its own counter)}.
   */
  public static long[] read(String file) throws IOException {
    Configuration conf = conf();
    long failuresBefore = HFile.getChecksumFailuresCount();
    try (HFileSystem fs = new HFileSystem(conf, true)) {
      HFile.Reader reader = HFile.createReader(fs, new Path(file), CacheConfig.DISABLED, true,
        conf);
      try {
        HFileScanner s = reader.getScanner(conf, false, false);
        CRC32 crc = new CRC32();
        long n = 0;
        if (s.seekTo()) {
          do {
            Cell c = s.getCell();
            crc.update(c.getRowArray(), c.getRowOffset(), c.getRowLength());
            crc.update(c.getValueArray(), c.getValueOffset(), c.getValueLength());
            n++;
          } while (s.next());
        }
        return new long[] { n, crc.getValue(), HFile.getChecksumFailuresCount() - failuresBefore };
      } finally {
        reader.close(true);
      }
    }
  }
}
