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

import dev.hbasepatches.jmh.CpuTime;
import dev.hbasepatches.jmh.HBaseBenchmark;
import dev.hbasepatches.seekskip.SeekSkipCompactor;
import dev.hbasepatches.seekskip.SeekSkipMode;
import dev.hbasepatches.seekskip.SeekSkipRegion;
import dev.hbasepatches.seekskip.SeekSkipStoreFlusher;
import dev.hbasepatches.testkit.LocalRegion;
import java.io.IOException;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.regionserver.DefaultStoreEngine;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.util.Bytes;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Point reads, the read the scan benchmarks miss (issue 24): Gets of two columns of a row, and
 * multi-gets of five such Gets (what a client multi does on a region server: one region Get per
 * row), over rows whose columns are spread over 1, 4 or 8 flushed files, with newer versions of
 * some columns in the last file, without and with ROW / ROWCOL blooms, block cache warm. Lazy
 * seek and the blooms decide how many files a Get really reads; the {@code blocks} counter
 * reports data blocks read per operation beside the time ({@code -prof gc} for B/op), and
 * {@code cpuNanos} the CPU time of the measured calls.
 */
@State(Scope.Benchmark)
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
public class SeekSkipGetBenchmark extends HBaseBenchmark {
  private static final byte[] FAMILY = Bytes.toBytes("f");
  private static final int ROWS = 5_000;
  private static final int COLUMNS = 10;
  private static final int MULTI = 5;

  @Param({ "BASELINE", "PATCHED", "UPSTREAM" })
  public Mode mode;

  /** Flushed files the rows' columns are spread over (named apart from the scan benchmarks'). */
  @Param({ "1", "4", "8" })
  public int getFiles;

  @Param({ "NONE", "ROW", "ROWCOL" })
  public BloomType bloom;

  private LocalRegion region;
  private Get[] gets;
  private int next;

  @AuxCounters(AuxCounters.Type.OPERATIONS)
  @State(Scope.Thread)
  public static class Reads {
    public long rows;
    public long blocks;
    public long cpuNanos;

    @Setup(Level.Iteration)
    public void reset() {
      rows = 0;
      blocks = 0;
      cpuNanos = 0;
    }
  }

  private static byte[] row(int r) {
    return Bytes.toBytes(String.format("row%06d", r));
  }

  private static byte[] column(int c) {
    return Bytes.toBytes("c" + c);
  }

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    region = LocalRegion.builder("seekskip_get_" + mode + "_" + getFiles + "_" + bloom)
      .regionClass(SeekSkipRegion.class).family("f").bloomType(bloom).maxVersions(3)
      .conf(SeekSkipMode.MODE_KEY, mode.name())
      .conf(DefaultStoreEngine.DEFAULT_COMPACTOR_CLASS_KEY, SeekSkipCompactor.class.getName())
      .conf(DefaultStoreEngine.DEFAULT_STORE_FLUSHER_CLASS_KEY,
        SeekSkipStoreFlusher.class.getName())
      .build();
    Random random = new Random(24);
    HRegion r = region.region();
    for (int f = 0; f < getFiles; f++) {
      long ts = 1000 + f;
      for (int i = 0; i < ROWS; i++) {
        Put put = new Put(row(i));
        for (int c = 0; c < COLUMNS; c++) {
          boolean home = (i + c) % getFiles == f;
          boolean newer = getFiles > 1 && f == getFiles - 1 && (i + c) % 3 == 0;
          if (home || newer) {
            byte[] value = new byte[100];
            random.nextBytes(value);
            put.addColumn(FAMILY, column(c), ts, value);
          }
        }
        if (!put.isEmpty()) {
          r.put(put);
        }
      }
      r.flush(true);
    }
    if (region.storeFileCount(FAMILY) != getFiles) {
      throw new IllegalStateException("expected " + getFiles + " files, region has "
        + region.storeFileCount(FAMILY));
    }
    gets = new Get[4096];
    for (int i = 0; i < gets.length; i++) {
      int c = random.nextInt(COLUMNS);
      gets[i] = new Get(row(random.nextInt(ROWS))).addColumn(FAMILY, column(c))
        .addColumn(FAMILY, column((c + 3) % COLUMNS));
    }
    region.warm();
    long cells = 0;
    for (Get g : gets) {
      cells += r.get(g).size();
    }
    System.out.println("# files=" + getFiles + " bloom=" + bloom + " mode=" + mode + " cells from "
      + gets.length + " Gets=" + cells);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    if (region != null) {
      region.close();
    }
  }

  private Get nextGet() {
    Get g = gets[next];
    next = (next + 1) & (gets.length - 1);
    return g;
  }

  @Benchmark
  public void get(Blackhole bh, Reads counter) throws IOException {
    long cpu = CpuTime.processNanos();
    long blocks = HFile.DATABLOCK_READ_COUNT.sum();
    Result result = region.region().get(nextGet());
    counter.blocks += HFile.DATABLOCK_READ_COUNT.sum() - blocks;
    counter.cpuNanos += CpuTime.processNanos() - cpu;
    counter.rows++;
    bh.consume(result);
  }

  @Benchmark
  public void multiGet(Blackhole bh, Reads counter) throws IOException {
    long cpu = CpuTime.processNanos();
    long blocks = HFile.DATABLOCK_READ_COUNT.sum();
    HRegion r = region.region();
    for (int i = 0; i < MULTI; i++) {
      bh.consume(r.get(nextGet()));
    }
    counter.blocks += HFile.DATABLOCK_READ_COUNT.sum() - blocks;
    counter.cpuNanos += CpuTime.processNanos() - cpu;
    counter.rows += MULTI;
  }
}
