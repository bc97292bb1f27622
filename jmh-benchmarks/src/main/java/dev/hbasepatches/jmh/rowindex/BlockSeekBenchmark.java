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
package dev.hbasepatches.jmh.rowindex;

import dev.hbasepatches.jmh.HBaseBenchmark;
import dev.hbasepatches.rowindex.RowIndexEncoder;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparatorImpl;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.PrivateCellUtil;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoder;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.io.encoding.HFileBlockEncodingContext;
import org.apache.hadoop.hbase.io.encoding.RowIndexCodecV1;
import org.apache.hadoop.hbase.io.hfile.HFileContext;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;
import org.apache.hadoop.hbase.nio.SingleByteBuff;
import org.apache.hadoop.hbase.util.Bytes;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * One ~64 KB data block, encoded for real by the encoder under test, read by its real
 * {@code EncodedSeeker}: {@link #seek} is a random {@code seekToKeyInBlock} after a
 * {@code rewind()} (what the HFile reader does), for a cell's own key or a first-on-row,
 * last-on-row or first-on-next-row key in equal parts; {@link #scanBlock} steps through every
 * cell with {@code next()} and reads each with {@code getCell()}. Run with {@code -prof gc} for
 * {@code gc.alloc.rate.norm}.
 * <p>
 * {@code mode}: BASELINE is the {@code baseline} encoding (PREFIX or FAST_DIFF; NONE has no
 * encoded seeker, its in-block seek lives inside HFileReaderImpl and is measured by
 * {@code RegionReadBenchmark}), UPSTREAM is {@code RowIndexCodecV1}, PATCHED is
 * {@link RowIndexEncoder}. {@code baseline} only changes BASELINE runs; the report writer groups
 * by every other parameter, so each baseline gets its three columns.
 */
@State(Scope.Thread)
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
public class BlockSeekBenchmark extends HBaseBenchmark {

  @Param({ "BASELINE", "PATCHED", "UPSTREAM" })
  public Mode mode;

  @Param({ "FAST_DIFF", "PREFIX" })
  public String baseline;

  /** Approximate serialized size of one cell, in bytes. */
  @Param({ "30", "100", "1000" })
  public int cellSize;

  @Param({ "65536" })
  public int blockBytes;

  private DataBlockEncoder.EncodedSeeker seeker;
  private Cell[] keys;
  private int next;

  @Setup
  public void setUp() throws IOException {
    DataBlockEncoding encoding;
    DataBlockEncoder encoder;
    switch (mode) {
      case PATCHED:
        encoding = DataBlockEncoding.ROW_INDEX_V1;
        encoder = new RowIndexEncoder();
        break;
      case UPSTREAM:
        encoding = DataBlockEncoding.ROW_INDEX_V1;
        encoder = new RowIndexCodecV1();
        break;
      default:
        encoding = DataBlockEncoding.valueOf(baseline);
        if (encoding == DataBlockEncoding.NONE || encoding == DataBlockEncoding.ROW_INDEX_V1) {
          throw new IllegalArgumentException("baseline must be an encoding with a seeker "
            + "other than ROW_INDEX_V1 (PREFIX, FAST_DIFF, DIFF), was " + baseline);
        }
        encoder = encoding.getEncoder();
    }
    Configuration conf = HBaseConfiguration.create();
    HFileContext ctx = new HFileContextBuilder().withIncludesMvcc(true).withIncludesTags(false)
      .withCellComparator(CellComparatorImpl.COMPARATOR).withDataBlockEncoding(encoding).build();
    List<Cell> cells = cells(cellSize, blockBytes, new Random(42));
    HFileBlockEncodingContext ectx = encoder.newDataBlockEncodingContext(conf, encoding,
      HConstants.HFILEBLOCK_DUMMY_HEADER, ctx);
    ByteArrayOutputStream baos = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(baos);
    // As the HFile writer does: a header in front, which some encoders patch at the end
    // (FAST_DIFF/PREFIX store the unencoded size there) while others append a trailer.
    out.write(HConstants.HFILEBLOCK_DUMMY_HEADER);
    encoder.startBlockEncoding(ectx, out);
    for (Cell c : cells) {
      encoder.encode(c, ectx, out);
    }
    byte[] beforeEnd = baos.toByteArray();
    encoder.endBlockEncoding(ectx, out, beforeEnd);
    byte[] block = baos.toByteArray();
    System.arraycopy(beforeEnd, 0, block, 0, beforeEnd.length);
    int start = HConstants.HFILEBLOCK_HEADER_SIZE + DataBlockEncoding.ID_SIZE;
    ByteBuffer data = ByteBuffer.wrap(block, start, block.length - start).slice();
    seeker = encoder.createSeeker(encoder.newDataBlockDecodingContext(conf, ctx));
    seeker.setCurrentBuffer(new SingleByteBuff(data));
    Random rnd = new Random(7);
    keys = new Cell[4096];
    for (int i = 0; i < keys.length; i++) {
      Cell c = cells.get(rnd.nextInt(cells.size()));
      // What store scanners seek with: a cell's own key, and the fake keys of row-level seeks
      // (a Get or a row start, skipping the rest of a row, the first key after a row).
      switch (i & 3) {
        case 0:
          keys[i] = c;
          break;
        case 1:
          keys[i] = PrivateCellUtil.createFirstOnRow(c);
          break;
        case 2:
          keys[i] = PrivateCellUtil.createLastOnRow(c);
          break;
        default:
          keys[i] = PrivateCellUtil.createFirstOnNextRow(c);
      }
    }
  }

  /** Rows of four cells with 8-byte row keys; values sized so a cell is about cellSize bytes. */
  static List<Cell> cells(int cellSize, int blockBytes, Random rnd) {
    byte[] family = Bytes.toBytes("f");
    List<Cell> cells = new ArrayList<>();
    int total = 0;
    for (long row = 0; total < blockBytes; row++) {
      for (int q = 0; q < 4 && total < blockBytes; q++) {
        // 8 lengths + 2 row length + 8 row + 1 family length + 1 family + 2 qualifier + 9 ts/type
        int valueLength = Math.max(1, cellSize - 31);
        byte[] value = new byte[valueLength];
        rnd.nextBytes(value);
        KeyValue kv = new KeyValue(Bytes.toBytes(row * 7919), family, Bytes.toBytes("q" + q),
          1L, KeyValue.Type.Put, value);
        kv.setSequenceId(row);
        cells.add(kv);
        total += kv.getSerializedSize() + 1;
      }
    }
    return cells;
  }

  @Benchmark
  public int seek() {
    Cell key = keys[next++ & (keys.length - 1)];
    seeker.rewind();
    return seeker.seekToKeyInBlock(key, false);
  }

  /**
   * Every cell of the block, each handed to the caller as a scanner hands it on
   * ({@code getCell()}, consumed): stepping alone would leave out the cell objects both seekers
   * create and overstate the difference.
   */
  @Benchmark
  public int scanBlock(Blackhole bh) {
    seeker.rewind();
    int n = 0;
    do {
      bh.consume(seeker.getCell());
      n++;
    } while (seeker.next());
    return n;
  }
}
