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

import dev.hbasepatches.jmh.ByteCounter;
import dev.hbasepatches.jmh.HBaseBenchmark;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.Checksum;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The machine's single-core CRC ceiling: one java.util.zip CRC over a whole contiguous region, no
 * chunking, no block layout. Block checksumming cannot beat this; the PATCHED target is to come
 * within 10% of it at 16 KB chunks.
 * <p>
 * {@code crcTwoPieces} feeds the same bytes as two CRC calls over two separate buffers, cut 13
 * bytes past the middle as {@link BufferKind#MULTI} cuts a block: the floor for any checksum that
 * reads a chunk split across two segments without copying it.
 */
@State(Scope.Thread)
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
public class CrcLimitBenchmark extends HBaseBenchmark {

  @Param({ "CRC32C", "CRC32" })
  public String algorithm;

  @Param({ "HEAP", "DIRECT" })
  public String memory;

  @Param({ "65536" })
  public int size;

  /**
   * Where the region starts in its array or buffer (whose storage is 8-byte aligned); a chunk of a
   * block cut into segments can start anywhere.
   */
  @Param({ "0" })
  public int offset;

  private byte[] array;
  private ByteBuffer direct;
  private Checksum crc;
  private byte[] headArray;
  private byte[] tailArray;
  private ByteBuffer headDirect;
  private ByteBuffer tailDirect;

  @Setup
  public void setUp() {
    array = new byte[offset + size];
    new Random(1).nextBytes(array);
    direct = ByteBuffer.allocateDirect(offset + size);
    direct.put(array).clear();
    crc = "CRC32C".equals(algorithm) ? new CRC32C() : new CRC32();
    int cut = size / 2 + 13;
    headArray = Arrays.copyOfRange(array, offset, offset + cut);
    tailArray = Arrays.copyOfRange(array, offset + cut, offset + size);
    headDirect = ByteBuffer.allocateDirect(headArray.length);
    headDirect.put(headArray).clear();
    tailDirect = ByteBuffer.allocateDirect(tailArray.length);
    tailDirect.put(tailArray).clear();
  }

  @Benchmark
  public long crc(ByteCounter t) {
    t.bytes += size;
    crc.reset();
    if ("HEAP".equals(memory)) {
      crc.update(array, offset, size);
    } else {
      direct.clear().position(offset);
      crc.update(direct);
    }
    return crc.getValue();
  }

  @Benchmark
  public long crcTwoPieces(ByteCounter t) {
    t.bytes += size;
    crc.reset();
    if ("HEAP".equals(memory)) {
      crc.update(headArray, 0, headArray.length);
      crc.update(tailArray, 0, tailArray.length);
    } else {
      headDirect.clear();
      crc.update(headDirect);
      tailDirect.clear();
      crc.update(tailDirect);
    }
    return crc.getValue();
  }
}
