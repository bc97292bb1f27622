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
package dev.hbasepatches.testkit;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.io.hfile.BlockCacheFactory;
import org.apache.hadoop.hbase.io.hfile.bucket.BucketCache;
import org.apache.hadoop.hbase.mob.MobFileCache;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.RegionScanner;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.Pair;

/**
 * A real {@link HRegion} on the local file system, with no cluster, no WAL and its own block
 * cache. Built by {@link #builder(String)}; closing it closes the region and deletes its files.
 */
public final class LocalRegion implements Closeable {

  private final HRegion region;
  private final BlockCache blockCache;
  private final Path dir;
  private final boolean deleteOnClose;
  private final boolean ownsBlockCache;
  private final Configuration conf;
  private final MobFileCache mobFileCache;

  private LocalRegion(HRegion region, BlockCache blockCache, Path dir, boolean deleteOnClose,
    boolean ownsBlockCache, Configuration conf, MobFileCache mobFileCache) {
    this.conf = conf;
    this.mobFileCache = mobFileCache;
    this.region = region;
    this.blockCache = blockCache;
    this.dir = dir;
    this.deleteOnClose = deleteOnClose;
    this.ownsBlockCache = ownsBlockCache;
  }

  public static Builder builder(String tableName) {
    return new Builder(tableName);
  }

  public HRegion region() {
    return region;
  }

  /** The block cache the region reads through; null when it was built without one. */
  public BlockCache blockCache() {
    return blockCache;
  }

  public Path directory() {
    return dir;
  }

  public HStore store(byte[] family) {
    return region.getStore(family);
  }

  /** Writes the mutations to the memstore (no WAL), then leaves them there. */
  public void write(List<? extends Mutation> mutations) throws IOException {
    for (Mutation m : mutations) {
      m.setDurability(Durability.SKIP_WAL);
      region.batchMutate(new Mutation[] { m });
    }
  }

  /** Writes the mutations and flushes them into one new HFile per family. */
  public void writeAndFlush(List<? extends Mutation> mutations) throws IOException {
    write(mutations);
    flush();
  }

  public void flush() throws IOException {
    region.flush(true);
  }

  /**
   * Loads a batch layout: each inner list becomes its own flushed HFile, and {@code memstore}
   * stays unflushed.
   */
  public void load(List<? extends List<? extends Mutation>> files,
    List<? extends Mutation> memstore) throws IOException {
    for (List<? extends Mutation> file : files) {
      writeAndFlush(file);
    }
    write(memstore);
  }

  /**
   * Bulk loads the mutations as new HFiles (one per family they touch), the way a client's bulk
   * load does: they are written and flushed in a scratch region of the same table descriptor
   * (so the files carry the family's encoding and bloom), and those files are then moved into
   * this region under a new sequence id.
   */
  public void bulkLoad(List<? extends Mutation> mutations) throws IOException {
    Path scratch = Files.createTempDirectory("hbasepatches-bulk-");
    try {
      Configuration conf = new Configuration(this.conf);
      conf.set("hbase.rootdir", scratch.toUri().toString());
      // A bulk-loaded HFile holds its values inline, MOB family or not (as a client's bulk load
      // does): the scratch region writes with MOB off.
      TableDescriptorBuilder scratchTable =
        TableDescriptorBuilder.newBuilder(region.getTableDescriptor());
      for (ColumnFamilyDescriptor cf : region.getTableDescriptor().getColumnFamilies()) {
        if (cf.isMobEnabled()) {
          scratchTable.modifyColumnFamily(
            ColumnFamilyDescriptorBuilder.newBuilder(cf).setMobEnabled(false).build());
        }
      }
      TableDescriptor td = scratchTable.build();
      HRegion writer = HRegion.createHRegion(RegionInfoBuilder.newBuilder(td.getTableName()).build(),
        new org.apache.hadoop.fs.Path(scratch.toUri()), conf, td, null, true);
      List<Pair<byte[], String>> files = new ArrayList<>();
      try {
        for (Mutation m : mutations) {
          m.setDurability(Durability.SKIP_WAL);
          writer.batchMutate(new Mutation[] { m });
        }
        writer.flush(true);
        for (HStore store : writer.getStores()) {
          for (HStoreFile f : store.getStorefiles()) {
            // A flush under a TTL can write a file with no cell left; HBase refuses to bulk load
            // such a file ("First key can not be null"), and it holds nothing to load.
            if (f.getReader() != null && !f.getReader().getFirstKey().isPresent()) {
              continue;
            }
            files.add(new Pair<>(store.getColumnFamilyDescriptor().getName(),
              f.getPath().toString()));
          }
        }
      } finally {
        writer.close();
      }
      if (!files.isEmpty()) {
        region.bulkLoadHFiles(files, true, null);
      }
    } finally {
      deleteTree(scratch);
    }
  }

  /** Number of store files the family holds now. */
  public int storeFileCount(byte[] family) {
    return region.getStore(family).getStorefilesCount();
  }

  /** Runs the scan to the end and returns every cell, in the order the region returned them. */
  public List<Cell> scanAll(Scan scan) throws IOException {
    return scanAll(region, scan);
  }

  /** Runs the scan to the end on any region and returns every cell in order. */
  public static List<Cell> scanAll(HRegion region, Scan scan) throws IOException {
    List<Cell> all = new ArrayList<>();
    scan(region, scan, Integer.MAX_VALUE, all::addAll);
    return all;
  }

  /**
   * The cells of the scan's first {@code maxRows} rows, as a client's {@code Scan.setLimit} would
   * return them: a bare region ignores the limit (the RPC layer applies it), so count rows here.
   */
  public List<Cell> scanRows(Scan scan, int maxRows) throws IOException {
    List<Cell> all = new ArrayList<>();
    scan(region, scan, maxRows, all::addAll);
    return all;
  }

  /**
   * Runs the scan for at most {@code maxRows} non-empty rows, handing each row's cells to
   * {@code sink} (the list is reused afterwards: copy what you keep); returns the cells seen.
   */
  public long scan(Scan scan, int maxRows, Consumer<List<Cell>> sink) throws IOException {
    return scan(region, scan, maxRows, sink);
  }

  private static long scan(HRegion region, Scan scan, int maxRows, Consumer<List<Cell>> sink)
    throws IOException {
    List<Cell> batch = new ArrayList<>();
    long cells = 0;
    int rows = 0;
    try (RegionScanner scanner = region.getScanner(scan)) {
      boolean more;
      do {
        more = scanner.next(batch);
        if (!batch.isEmpty()) {
          rows++;
          cells += batch.size();
          sink.accept(batch);
          batch.clear();
        }
      } while (more && rows < maxRows);
    }
    return cells;
  }

  /** Pulls every block of every store file into the block cache by scanning everything. */
  public long warm() throws IOException {
    Scan scan = new Scan().readAllVersions().setRaw(true).setCacheBlocks(true);
    return scanAll(scan).size();
  }

  /** Whether this region's block cache is or holds a BucketCache. */
  public boolean hasBucketCache() {
    return Builder.hasBucketCache(blockCache);
  }

  /**
   * Waits until a BucketCache in this region's block cache has written every block queued for it
   * (BucketCache caches through writer threads: until then a hit is served from its on-heap RAM
   * queue), so that the next reads of those blocks come from the cache's IO engine. Does nothing
   * without a BucketCache; fails after {@code limit}.
   */
  public void awaitCacheWrites(Duration limit) {
    List<BucketCache> buckets = new ArrayList<>();
    if (blockCache instanceof BucketCache) {
      buckets.add((BucketCache) blockCache);
    } else if (blockCache != null && blockCache.getBlockCaches() != null) {
      for (BlockCache c : blockCache.getBlockCaches()) {
        if (c instanceof BucketCache) {
          buckets.add((BucketCache) c);
        }
      }
    }
    long deadline = System.nanoTime() + limit.toNanos();
    for (BucketCache b : buckets) {
      // heapSize() is what the RAM queue holds: 0 once the writers have drained it.
      while (b.heapSize() > 0) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("BucketCache still holds " + b.heapSize()
            + " bytes of queued blocks after " + limit.toMillis() + " ms");
        }
        try {
          Thread.sleep(2);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted waiting for BucketCache writes", e);
        }
      }
    }
  }

  @Override
  public void close() throws IOException {
    try {
      region.close();
    } finally {
      if (mobFileCache != null) {
        mobFileCache.shutdown();
      }
      if (blockCache != null && ownsBlockCache) {
        blockCache.shutdown();
      }
      if (deleteOnClose) {
        deleteTree(dir);
      }
    }
  }

  /** Deletes a directory tree, or nothing if it is not there (for benchmarks' scratch files too). */
  public static void deleteTree(Path root) {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(root)) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> {
        try {
          Files.deleteIfExists(p);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Settings for a {@link LocalRegion}; every family shares the defaults set here. */
  public static final class Builder {
    private final String tableName;
    private final List<String> families = new ArrayList<>();
    private final List<Consumer<ColumnFamilyDescriptorBuilder>> familyTweaks = new ArrayList<>();
    private final Configuration conf = HBaseConfiguration.create();
    private Class<? extends HRegion> regionClass;
    private DataBlockEncoding encoding = DataBlockEncoding.NONE;
    private Compression.Algorithm compression = Compression.Algorithm.NONE;
    private int blockSize = 64 * 1024;
    private BloomType bloomType = BloomType.ROW;
    private int maxVersions = 1;
    private boolean withBlockCache = true;
    private long blockCacheBytes = 256L * 1024 * 1024;
    private BlockCache sharedCache;
    private int bucketMegabytes;
    private Path dir;

    private Builder(String tableName) {
      this.tableName = Objects.requireNonNull(tableName, "tableName");
      // A standalone region has no chunk pool; MSLAB would need one.
      conf.setBoolean("hbase.hregion.memstore.mslab.enabled", false);
      // Keep flushes in our hands: no size- or time-triggered flush while a test loads data.
      conf.setLong("hbase.hregion.memstore.flush.size", 1024L * 1024 * 1024);
    }

    public Builder family(String name) {
      families.add(name);
      return this;
    }

    public Builder families(String... names) {
      Collections.addAll(families, names);
      return this;
    }

    /** A per-family adjustment applied after the shared defaults (e.g. MOB, TTL, min versions). */
    public Builder familyTweak(Consumer<ColumnFamilyDescriptorBuilder> tweak) {
      familyTweaks.add(tweak);
      return this;
    }

    public Builder regionClass(Class<? extends HRegion> cls) {
      this.regionClass = cls;
      return this;
    }

    public Builder encoding(DataBlockEncoding encoding) {
      this.encoding = encoding;
      return this;
    }

    public Builder compression(Compression.Algorithm compression) {
      this.compression = compression;
      return this;
    }

    public Builder blockSize(int blockSize) {
      if (blockSize <= 0) {
        throw new IllegalArgumentException("block size must be positive, was " + blockSize);
      }
      this.blockSize = blockSize;
      return this;
    }

    public Builder bloomType(BloomType bloomType) {
      this.bloomType = bloomType;
      return this;
    }

    public Builder maxVersions(int maxVersions) {
      this.maxVersions = maxVersions;
      return this;
    }

    /** An on-heap LRU block cache of the given size; 0 turns the block cache off. */
    public Builder blockCacheBytes(long bytes) {
      this.withBlockCache = bytes > 0;
      this.blockCacheBytes = bytes;
      return this;
    }

    /**
     * Reads through a cache of its own made as a RegionServer with an off-heap BucketCache makes
     * it ({@code hbase.bucketcache.ioengine=offheap}): a CombinedBlockCache whose L1 (an LRU of
     * {@code l1Bytes}) keeps index and bloom blocks and whose L2, a BucketCache of
     * {@code bucketMegabytes} MB in direct memory with buckets of 5 to 65 KB, keeps data blocks.
     * A hit on a block the BucketCache has written (see {@link LocalRegion#awaitCacheWrites})
     * hands the scanner cells that point into direct memory.
     */
    public Builder offHeapBucketCache(long l1Bytes, int bucketMegabytes) {
      if (bucketMegabytes < 2) {
        throw new IllegalArgumentException(
          "a BucketCache of at least 2 MB, was " + bucketMegabytes);
      }
      this.withBlockCache = true;
      this.blockCacheBytes = l1Bytes;
      this.bucketMegabytes = bucketMegabytes;
      return this;
    }

    /**
     * Reads through the given cache instead of a cache of its own (e.g. one cache shared by
     * several regions); the caller shuts it down, closing the region does not.
     */
    public Builder blockCache(BlockCache cache) {
      this.sharedCache = Objects.requireNonNull(cache, "cache");
      this.withBlockCache = true;
      return this;
    }

    public Builder conf(String key, String value) {
      conf.set(key, value);
      return this;
    }

    public Builder directory(Path dir) {
      this.dir = dir;
      return this;
    }

    public Configuration configuration() {
      return conf;
    }

    public LocalRegion build() throws IOException {
      if (families.isEmpty()) {
        throw new IllegalStateException("a region needs at least one column family");
      }
      boolean deleteOnClose = dir == null;
      Path root = dir != null ? dir : Files.createTempDirectory("hbasepatches-region-");
      if (regionClass != null) {
        conf.setClass(org.apache.hadoop.hbase.HConstants.REGION_IMPL, regionClass, HRegion.class);
      }
      conf.set("hbase.rootdir", root.toUri().toString());
      TableDescriptorBuilder table = TableDescriptorBuilder.newBuilder(TableName.valueOf(tableName))
        .setDurability(Durability.SKIP_WAL);
      for (String f : families) {
        ColumnFamilyDescriptorBuilder cf = ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes(f))
          .setDataBlockEncoding(encoding).setCompressionType(compression).setBlocksize(blockSize)
          .setBloomFilterType(bloomType).setMaxVersions(maxVersions)
          .setBlockCacheEnabled(withBlockCache);
        for (Consumer<ColumnFamilyDescriptorBuilder> t : familyTweaks) {
          t.accept(cf);
        }
        ColumnFamilyDescriptor d = cf.build();
        table.setColumnFamily(d);
      }
      TableDescriptor td = table.build();
      RegionInfo info = RegionInfoBuilder.newBuilder(td.getTableName()).build();
      BlockCache cache = sharedCache;
      if (withBlockCache && cache == null) {
        Configuration cacheConf = new Configuration(conf);
        long heap = Runtime.getRuntime().maxMemory();
        cacheConf.setFloat("hfile.block.cache.size", (float) Math.min(0.8, (double) blockCacheBytes / heap));
        if (bucketMegabytes > 0) {
          cacheConf.set(HConstants.BUCKET_CACHE_IOENGINE_KEY, "offheap");
          cacheConf.setInt(HConstants.BUCKET_CACHE_SIZE_KEY, bucketMegabytes);
          cacheConf.set(BlockCacheFactory.BUCKET_CACHE_BUCKETS_KEY, "5120,9216,17408,33792,66560");
        }
        cache = BlockCacheFactory.createBlockCache(cacheConf);
        if (bucketMegabytes > 0 && !hasBucketCache(cache)) {
          throw new IllegalStateException(
            "asked for an off-heap BucketCache, HBase built " + cache);
        }
      }
      HRegion region = HRegion.createHRegion(info, new org.apache.hadoop.fs.Path(root.toUri()),
        conf, td, null, false);
      if (cache != null) {
        region.setBlockCache(cache);
      }
      // A MOB store reads its MOB files through the RegionServer's MobFileCache: give the region
      // one of its own when a family is MOB.
      MobFileCache mobFiles = null;
      for (ColumnFamilyDescriptor cf : td.getColumnFamilies()) {
        if (cf.isMobEnabled() && mobFiles == null) {
          mobFiles = new MobFileCache(conf);
          region.setMobFileCache(mobFiles);
        }
      }
      try {
        region.initialize();
      } catch (IOException | RuntimeException e) {
        if (mobFiles != null) {
          mobFiles.shutdown();
        }
        throw e;
      }
      return new LocalRegion(region, cache, root, deleteOnClose, sharedCache == null, conf,
        mobFiles);
    }

    private static boolean hasBucketCache(BlockCache cache) {
      if (cache instanceof BucketCache) {
        return true;
      }
      if (cache != null && cache.getBlockCaches() != null) {
        for (BlockCache c : cache.getBlockCaches()) {
          if (c instanceof BucketCache) {
            return true;
          }
        }
      }
      return false;
    }
  }
}
