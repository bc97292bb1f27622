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
package dev.hbasepatches.jmh.seekskip;

import dev.hbasepatches.jmh.HBaseBenchmark.Mode;
import dev.hbasepatches.seekskip.BoundedSkipPolicy;
import dev.hbasepatches.seekskip.SeekSkipCompactor;
import dev.hbasepatches.seekskip.SeekSkipMode;
import dev.hbasepatches.seekskip.SeekSkipRegion;
import dev.hbasepatches.seekskip.SeekSkipStoreFlusher;
import dev.hbasepatches.testkit.LocalRegion;
import dev.hbasepatches.testkit.ScanShape;
import java.io.Closeable;
import java.io.IOException;
import java.util.List;
import java.util.function.Consumer;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.regionserver.DefaultStoreEngine;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * One seek-skip benchmark region: a real local HRegion of {@link SeekSkipRegion} in one mode,
 * loaded with a shape's data in the asked number of flushed files (flushed and compacted through
 * the module's flusher and compactor, as a cluster with the module's keys would), its blocks
 * pulled into the cache. The benchmarks of this package build their regions here and nowhere
 * else, so that every mode and every benchmark scans the same kind of region.
 */
final class ShapeRegion implements Closeable {
  private final LocalRegion region;
  private final ScanShape shape;
  private final ScanShape.ShapeData data;

  private ShapeRegion(LocalRegion region, ScanShape shape, ScanShape.ShapeData data) {
    this.region = region;
    this.shape = shape;
    this.data = data;
  }

  /**
   * Builds and loads the region. {@code maxSkips} is the PATCHED policy's step budget, or empty
   * for the module's default. Fails if the data did not land in exactly {@code files} files.
   */
  static ShapeRegion open(Mode mode, String shapeName, int files, int cells, String layout,
    long seed, String maxSkips) throws IOException {
    ScanShape shape = ScanShape.of(shapeName);
    ScanShape.Layout fileLayout = ScanShape.Layout.of(layout);
    LocalRegion.Builder b = LocalRegion.builder("seekskip_" + shapeName + "_" + mode)
      .regionClass(SeekSkipRegion.class).family(Bytes.toString(ScanShape.FAMILY))
      .maxVersions(shape.versions()).blockSize(64 * 1024)
      .conf(SeekSkipMode.MODE_KEY, mode.name())
      .conf(DefaultStoreEngine.DEFAULT_COMPACTOR_CLASS_KEY, SeekSkipCompactor.class.getName())
      .conf(DefaultStoreEngine.DEFAULT_STORE_FLUSHER_CLASS_KEY,
        SeekSkipStoreFlusher.class.getName());
    if (!maxSkips.isEmpty()) {
      b.conf(BoundedSkipPolicy.MAX_SKIPS_KEY, maxSkips);
    }
    return load(b.build(), shape, fileLayout, files, cells, seed);
  }

  /**
   * The same region as {@link #open} with none of the module's classes: a stock {@code HRegion},
   * flusher and compactor, with {@code conf} added to the region's configuration (the upstream
   * series' key, for its SERIES side). Fails if the data did not land in exactly {@code files}
   * files.
   */
  static ShapeRegion openStock(String name, String shapeName, int files, int cells,
    String layout, long seed, java.util.Map<String, String> conf) throws IOException {
    ScanShape shape = ScanShape.of(shapeName);
    ScanShape.Layout fileLayout = ScanShape.Layout.of(layout);
    LocalRegion.Builder b = LocalRegion.builder(name).family(Bytes.toString(ScanShape.FAMILY))
      .maxVersions(shape.versions()).blockSize(64 * 1024);
    conf.forEach(b::conf);
    return load(b.build(), shape, fileLayout, files, cells, seed);
  }

  private static ShapeRegion load(LocalRegion region, ScanShape shape, ScanShape.Layout layout,
    int files, int cells, long seed) throws IOException {
    try {
      ScanShape.ShapeData data = shape.generate(cells, files, 0, seed, layout);
      data.loadInto(region);
      int fileCount = region.storeFileCount(ScanShape.FAMILY);
      if (fileCount != files) {
        throw new IllegalStateException("expected " + files + " store files, found " + fileCount);
      }
      region.warm();
      return new ShapeRegion(region, shape, data);
    } catch (IOException | RuntimeException e) {
      region.close();
      throw e;
    }
  }

  /** The region, for checks of its stores' settings. */
  LocalRegion region() {
    return region;
  }

  /** Cells written to the region, delete markers included: what one scan crosses. */
  long storedCells() {
    return data.storedCells();
  }

  ScanShape.ShapeData data() {
    return data;
  }

  /** Runs the shape's scan over the whole region; returns the cells it returned. */
  long scan(Consumer<List<Cell>> sink) throws IOException {
    return region.scan(shape.scan(), Integer.MAX_VALUE, sink);
  }

  @Override
  public void close() throws IOException {
    region.close();
  }
}
