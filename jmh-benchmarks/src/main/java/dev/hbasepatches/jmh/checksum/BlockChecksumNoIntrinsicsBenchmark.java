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
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@link BlockChecksumBenchmark#verify} at HBase's defaults (64 KB blocks, 16 KB chunks) in a JVM
 * with HotSpot's CRC intrinsics switched off: java.util.zip's CRC32C then runs as plain Java and
 * CRC32 as zlib's table code, which shows what the CPU's CRC instructions buy.
 */
@State(Scope.Thread)
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
// JMH takes the nearest @Fork whole, so the JDK 17 opens of HBaseBenchmark are repeated here.
@Fork(value = 1, jvmArgsAppend = { "-Xms2g", "-Xmx2g", "-XX:+AlwaysPreTouch",
  "-Djava.net.preferIPv4Stack=true",
  "-Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true",
  "--add-modules", "jdk.unsupported",
  "--add-opens", "java.base/java.nio=ALL-UNNAMED",
  "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
  "--add-opens", "java.base/java.lang=ALL-UNNAMED",
  "--add-opens", "java.base/jdk.internal.ref=ALL-UNNAMED",
  "--add-opens", "java.base/java.lang.reflect=ALL-UNNAMED",
  "--add-opens", "java.base/java.util=ALL-UNNAMED",
  "--add-opens", "java.base/java.util.concurrent=ALL-UNNAMED",
  "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
  "--add-exports", "java.security.jgss/sun.security.krb5=ALL-UNNAMED",
  "--add-opens", "java.base/jdk.internal.util.random=ALL-UNNAMED",
  "-XX:+UnlockDiagnosticVMOptions", "-XX:-UseCRC32Intrinsics", "-XX:-UseCRC32CIntrinsics" })
public class BlockChecksumNoIntrinsicsBenchmark extends HBaseBenchmark {

  @Param({ "BASELINE", "PATCHED", "UPSTREAM" })
  public Mode mode;

  @Param({ "HEAP", "DIRECT", "MULTI" })
  public BufferKind buffer;

  @Param({ "16384" })
  public int bytesPerChecksum;

  @Param({ "65536" })
  public int blockSize;

  @Param({ "CRC32C" })
  public ChecksumType checksumType;

  private ChecksumBlockFixture fixture;

  @Setup
  public void setUp() throws MalformedBlockException {
    fixture = new ChecksumBlockFixture(mode, buffer, checksumType, bytesPerChecksum, blockSize);
  }

  @Benchmark
  public boolean verify(ByteCounter t) throws MalformedBlockException {
    t.bytes += fixture.checksummedBytes();
    return fixture.verify();
  }
}
