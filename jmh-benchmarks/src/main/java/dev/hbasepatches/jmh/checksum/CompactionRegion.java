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
package dev.hbasepatches.jmh.checksum;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.fs.HFileSystem;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.ChecksumType;
import org.apache.hadoop.hbase.util.CommonFSUtils;

/**
 * A real HRegion on the local disk, set up the way a RegionServer reads HFiles: through an
 * {@link HFileSystem} with HBase checksums on, so every block a compaction reads is verified by
 * HBase and every block it writes gets checksums. (A region opened on a bare FileSystem skips
 * HBase's verification and lets the local file system write .crc side files instead, which would
 * hide the cost being measured.) No WAL, no block cache: compaction reads go to the files.
 */
final class CompactionRegion implements Closeable {

  static final byte[] FAMILY = Bytes.toBytes("f");
  private static final byte[] QUALIFIER = Bytes.toBytes("q");

  private final HRegion region;
  private final java.nio.file.Path dir;

  private CompactionRegion(HRegion region, java.nio.file.Path dir) {
    this.region = region;
    this.dir = dir;
  }

  /**
   * Makes HBase read blocks into pooled off-heap buffers, as a RegionServer does: its compaction
   * reads (not cached, so not bound for the on-heap LRU) come from the RPC server's
   * ByteBuffAllocator, 65 KB direct buffers by default. A region with no RegionServer takes its
   * allocator from a private static in RegionServicesForStores that defaults to heap-only, so this
   * sets that field to the allocator HRegionServer would build. Call once, before any region opens.
   */
  static void usePooledDirectReads() {
    try {
      java.lang.reflect.Field f = org.apache.hadoop.hbase.regionserver.RegionServicesForStores.class
        .getDeclaredField("ALLOCATOR_FOR_TEST");
      f.setAccessible(true);
      f.set(null, org.apache.hadoop.hbase.io.ByteBuffAllocator.create(HBaseConfiguration.create(),
        true));
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot install a pooled allocator; is this HBase 2.6?", e);
    }
  }

  static CompactionRegion create(ChecksumType type) throws IOException {
    java.nio.file.Path dir = Files.createTempDirectory("hbasepatches-compaction-");
    Configuration conf = HBaseConfiguration.create();
    conf.set(HConstants.CHECKSUM_TYPE_NAME, type.getName());
    conf.setBoolean(HConstants.HBASE_CHECKSUM_VERIFICATION, true);
    conf.set(HConstants.HBASE_DIR, dir.toUri().toString());
    conf.set(FileSystem.FS_DEFAULT_NAME_KEY, "file:///");
    // Standalone region: no chunk pool for MSLAB, and flushes only when asked.
    conf.setBoolean("hbase.hregion.memstore.mslab.enabled", false);
    conf.setLong(HConstants.HREGION_MEMSTORE_FLUSH_SIZE, 1L << 30);
    TableDescriptor td = TableDescriptorBuilder.newBuilder(TableName.valueOf("compaction"))
      .setDurability(Durability.SKIP_WAL)
      .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(FAMILY).setBlocksize(64 * 1024)
        .setBlockCacheEnabled(false).setMaxVersions(1).build())
      .build();
    RegionInfo info = RegionInfoBuilder.newBuilder(td.getTableName()).build();
    HFileSystem fs = new HFileSystem(conf, true);
    Path tableDir = CommonFSUtils.getTableDir(new Path(dir.toUri()), td.getTableName());
    HRegion region = HRegion.createHRegion(conf, info, fs, tableDir, td);
    region.initialize();
    return new CompactionRegion(region, dir);
  }

  /**
   * Flushes {@code files} HFiles of {@code rowsPerFile} rows each; file f holds rows f, f + files,
   * ..., so a compaction must merge them all.
   */
  void load(int files, int rowsPerFile, int maxValueBytes, long seed) throws IOException {
    Random rnd = new Random(seed);
    for (int f = 0; f < files; f++) {
      List<Mutation> batch = new ArrayList<>(1000);
      for (int r = 0; r < rowsPerFile; r++) {
        byte[] value = new byte[maxValueBytes / 2 + rnd.nextInt(maxValueBytes / 2 + 1)];
        rnd.nextBytes(value);
        Put put = new Put(Bytes.toBytes(String.format("row-%010d", (long) r * files + f)));
        put.addColumn(FAMILY, QUALIFIER, value).setDurability(Durability.SKIP_WAL);
        batch.add(put);
        if (batch.size() == 1000) {
          region.batchMutate(batch.toArray(new Mutation[0]));
          batch.clear();
        }
      }
      if (!batch.isEmpty()) {
        region.batchMutate(batch.toArray(new Mutation[0]));
      }
      region.flush(true);
    }
  }

  /** Bytes of all current store files. */
  long storeFileBytes() {
    long total = 0;
    HStore store = region.getStore(FAMILY);
    for (HStoreFile f : store.getStorefiles()) {
      total += f.getReader().length();
    }
    return total;
  }

  int storeFileCount() {
    return region.getStore(FAMILY).getStorefilesCount();
  }

  /** A major compaction, run on the calling thread. */
  void majorCompact() throws IOException {
    region.compact(true);
  }

  @Override
  public void close() throws IOException {
    try {
      region.close();
    } finally {
      try (java.util.stream.Stream<java.nio.file.Path> walk = Files.walk(dir)) {
        walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }
}
