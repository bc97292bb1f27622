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

import dev.hbasepatches.checksum.MalformedBlockException;
import dev.hbasepatches.jmh.ByteCounter;
import dev.hbasepatches.jmh.HBaseBenchmark;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.util.ChecksumType;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * HFile block checksums, generated and verified, per mode and buffer kind: BASELINE (Hadoop's
 * PureJavaCrc32C / PureJavaCrc32 per chunk, the pre-HBASE-11927 code), UPSTREAM (HBase 2.6's
 * ChecksumUtil over Hadoop's DataChecksum) and PATCHED (BlockChecksummer, intrinsic CRC, no copies). The primary score is blocks per second;
 * the {@code bytes} secondary score is checksummed bytes per second (divide by 1e6 for MB/s).
 * {@code blockSize} is header plus data, the bytes the checksums cover.
 */
@State(Scope.Thread)
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
public class BlockChecksumBenchmark extends HBaseBenchmark {

  @Param({ "BASELINE", "PATCHED", "UPSTREAM" })
  public Mode mode;

  @Param({ "HEAP", "DIRECT", "MULTI" })
  public BufferKind buffer;

  @Param({ "512", "16384" })
  public int bytesPerChecksum;

  @Param({ "4096", "65536", "70001" })
  public int blockSize;

  @Param({ "CRC32C" })
  public ChecksumType checksumType;

  private ChecksumBlockFixture fixture;

  @Setup(Level.Trial)
  public void setUp() throws MalformedBlockException {
    fixture = new ChecksumBlockFixture(mode, buffer, checksumType, bytesPerChecksum, blockSize);
  }

  @Benchmark
  public boolean verify(ByteCounter t) throws MalformedBlockException {
    t.bytes += fixture.checksummedBytes();
    return fixture.verify();
  }

  @Benchmark
  public void generate(ByteCounter t) throws MalformedBlockException {
    t.bytes += fixture.checksummedBytes();
    fixture.generate();
  }
}
