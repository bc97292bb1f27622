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

import dev.hbasepatches.checksum.BlockLayout;
import dev.hbasepatches.checksum.MalformedBlockException;
import dev.hbasepatches.jmh.AbbaSlots;
import dev.hbasepatches.jmh.AbbaToggleBenchmark;
import dev.hbasepatches.jmh.SideLines;
import java.util.Arrays;
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
 * {@link BlockChecksumBenchmark}'s per-block work, verify or generate, with two modes in one fork:
 * one block per slot, built the same way ({@link ChecksumBlockFixture}) for mode {@link #a} and
 * mode {@link #b}, and the iterations checksumming one or the other in blocks of four, A B B A
 * ({@link AbbaSchedule}), counted per slot in {@link AbbaSlots}. The report tool
 * {@code dev.hbasepatches.jmh.report.AbbaPairs} turns each block into one ratio B / A (above 1: B
 * checksums more blocks per second), each fork into the geometric mean of its blocks, and the
 * forks into a 95% interval (the fork is the unit: run five or more).
 * <p>
 * Set-up refuses to run unless both modes did the same work: after each mode's generate the two
 * blocks are byte for byte the same, both modes pass the block, and both fail it with a data byte
 * changed (at the first data byte and at the last).
 * <p>
 * Not in the quick {@code -Pjmh} run. E.g. {@code java -jar benchmarks.jar
 * ChecksumToggleBenchmark.verify -p a=UPSTREAM -p b=PATCHED -p buffer=DIRECT
 * -p bytesPerChecksum=16384 -f 5 -rf json -rff t.json}, then {@code java -cp benchmarks.jar
 * dev.hbasepatches.jmh.report.AbbaPairs t.json}. {@code a} = {@code b} is the control.
 */
@State(Scope.Thread)
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
// Warmup alternates too (three whole blocks), so both modes' code is compiled before the first
// measured block; six measured blocks per fork.
@Warmup(iterations = 12, time = 1)
@Measurement(iterations = 24, time = 1)
public class ChecksumToggleBenchmark extends AbbaToggleBenchmark {




  @Param({ "HEAP", "DIRECT", "MULTI" })
  public BufferKind buffer;

  @Param({ "512", "16384" })
  public int bytesPerChecksum;

  @Param({ "4096", "65536", "70001" })
  public int blockSize;

  @Param({ "CRC32C" })
  public ChecksumType checksumType;

  private Mode modeA;
  private Mode modeB;
  private ChecksumBlockFixture blockA;
  private ChecksumBlockFixture blockB;

  @Setup(Level.Trial)
  public void setUp() throws MalformedBlockException {
    startBlocks();
    modeA = Mode.parse("a", a);
    modeB = Mode.parse("b", b);
    blockA = new ChecksumBlockFixture(modeA, buffer, checksumType, bytesPerChecksum, blockSize);
    blockB = new ChecksumBlockFixture(modeB, buffer, checksumType, bytesPerChecksum, blockSize);
    checkSameWork(blockA, blockB);
    SideLines.print("A: " + blockA, "B: " + blockB, "both generate the same "
      + blockA.contents().length + "-byte block, pass it, and fail it with a data byte changed");
  }

  /**
   * Both fixtures checksum the same bytes to the same result: identical blocks after their
   * generate, both pass them, both catch a changed data byte.
   */
  static void checkSameWork(ChecksumBlockFixture x, ChecksumBlockFixture y)
    throws MalformedBlockException {
    if (x.checksummedBytes() != y.checksummedBytes()
      || !Arrays.equals(x.contents(), y.contents())) {
      throw new IllegalStateException(x + " and " + y + " generated different blocks");
    }
    int[] changed = { BlockLayout.HEADER_SIZE, x.checksummedBytes() - 1 };
    for (ChecksumBlockFixture f : new ChecksumBlockFixture[] { x, y }) {
      if (!f.verify()) {
        throw new IllegalStateException(f + " fails a block the other mode passes");
      }
      for (int offset : changed) {
        if (f.verifyWithByteChanged(offset)) {
          throw new IllegalStateException(f + " passes the block with byte " + offset
            + " changed: it does not checksum the data");
        }
      }
    }
  }

  /** The mode the running iteration checksums with. */
  Mode slotMode() {
    return inB ? modeB : modeA;
  }

  @Benchmark
  public boolean verify(AbbaSlots slots) throws MalformedBlockException {
    boolean passed = (inB ? blockB : blockA).verify();
    slots.count(inB);
    return passed;
  }

  @Benchmark
  public void generate(AbbaSlots slots) throws MalformedBlockException {
    (inB ? blockB : blockA).generate();
    slots.count(inB);
  }
}
