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

import dev.hbasepatches.jmh.ByteCounter;
import dev.hbasepatches.jmh.HBaseBenchmark;
import java.util.concurrent.TimeUnit;
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

/**
 * The checksum overlay on HBase's real read path: a RegionServer's block cache miss
 * ({@code HFile.Reader.readBlock}, pread from a local HFile in the page cache, HBase checksum
 * verification on), one data block per operation, round robin over a file of about 400 blocks
 * of 64 KB with CRC32C per 16 KB chunk. UPSTREAM runs HBase's own {@code ChecksumUtil}, PATCHED
 * the overlay's (which hands the block to {@code BlockChecksummer}); each in a class loader of
 * its own holding the same classes otherwise ({@link IsolatedHBase}). The primary score is
 * blocks per second; {@code bytes} is on-disk bytes read and verified per second.
 * <p>
 * {@code buffers}: HEAP (a region without a pool), DIRECT (a RegionServer's default pool of
 * 65 KB direct buffers: a block in one buffer), MULTI (16 KB pooled buffers: a block in five).
 * Per block the read itself (a system call and a copy out of the page cache) costs more than the
 * checksum, so this shows what the overlay is worth end to end; the checksum alone is
 * {@code BlockChecksumBenchmark}.
 */
@State(Scope.Thread)
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
public class OverlayBlockReadBenchmark extends HBaseBenchmark {

  @Param({ "UPSTREAM", "PATCHED" })
  public Mode mode;

  @Param({ "HEAP", "DIRECT", "MULTI" })
  public String buffers;

  /** Cells in the file, 100 to 300 bytes of value each: 200,000 make about 400 blocks. */
  @Param({ "200000" })
  public int cells;

  private OverlayReads reads;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    reads = OverlayReads.open(mode, buffers, cells);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws Exception {
    if (reads != null) {
      reads.close();
    }
  }

  @Benchmark
  public long readBlock(ByteCounter t) {
    long n = reads.next.getAsLong();
    t.bytes += n;
    return n;
  }
}
