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
package dev.hbasepatches.rowindex;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.io.encoding.AbstractDataBlockEncoder;
import org.apache.hadoop.hbase.io.encoding.HFileBlockDecodingContext;
import org.apache.hadoop.hbase.io.encoding.HFileBlockDefaultEncodingContext;
import org.apache.hadoop.hbase.io.encoding.HFileBlockEncodingContext;
import org.apache.hadoop.hbase.nio.ByteBuff;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * A {@code DataBlockEncoder} that writes and reads the ROW_INDEX_V1 block layout (encoding id 7)
 * byte for byte, with a seeker ({@link RowIndexSeeker}) that does not allocate per seek or step.
 * It is put behind {@code DataBlockEncoding.ROW_INDEX_V1} by {@link RowIndexInstaller}.
 */
@InterfaceAudience.Private
public final class RowIndexEncoder extends AbstractDataBlockEncoder {

  @Override
  public void startBlockEncoding(HFileBlockEncodingContext ctx, DataOutputStream out)
    throws IOException {
    if (!(ctx instanceof HFileBlockDefaultEncodingContext)) {
      // The id prefix is written by this context type; any other would leave blocks unreadable.
      throw new IOException("ROW_INDEX_V1 needs an HFileBlockDefaultEncodingContext, got "
        + (ctx == null ? "null" : ctx.getClass().getName()));
    }
    ((HFileBlockDefaultEncodingContext) ctx).prepareEncoding(out);
    ctx.setEncodingState(new RowIndexBlockState(out, ctx.getHFileContext()));
  }

  @Override
  public void encode(Cell cell, HFileBlockEncodingContext ctx, DataOutputStream out)
    throws IOException {
    state(ctx).write(cell);
  }

  @Override
  public void endBlockEncoding(HFileBlockEncodingContext ctx, DataOutputStream out,
    byte[] uncompressedBytesWithHeader) throws IOException {
    state(ctx).finish();
    postEncoding(ctx);
  }

  private static RowIndexBlockState state(HFileBlockEncodingContext ctx) throws IOException {
    Object s = ctx.getEncodingState();
    if (!(s instanceof RowIndexBlockState)) {
      throw new IOException("ROW_INDEX_V1 block was not started by this encoder (state "
        + (s == null ? "null" : s.getClass().getName()) + ")");
    }
    return (RowIndexBlockState) s;
  }

  /**
   * The cell section of a ROW_INDEX_V1 block is already the unencoded layout for the file's
   * tags and MVCC settings, so decoding is cutting off the row index.
   */
  @Override
  public ByteBuffer decodeKeyValues(DataInputStream source, HFileBlockDecodingContext ctx)
    throws IOException {
    byte[] all = source.readAllBytes();
    if (all.length < RowIndexBlockState.TRAILER_INTS_SIZE) {
      throw new IOException(new CorruptRowIndexBlockException(
        "block of " + all.length + " bytes is shorter than its trailer"));
    }
    int dataSize = Bytes.toInt(all, all.length - Bytes.SIZEOF_INT);
    if (dataSize < 0 || dataSize > all.length - RowIndexBlockState.TRAILER_INTS_SIZE) {
      throw new IOException(new CorruptRowIndexBlockException(
        "cell section of " + dataSize + " bytes in a block of " + all.length));
    }
    return ByteBuffer.wrap(all, 0, dataSize).slice();
  }

  /** A copy of the first key, so it stays valid after the block's buffer is released. */
  @Override
  public Cell getFirstKeyCellInBlock(ByteBuff block) {
    int pos = block.position();
    int keyLength = block.getInt(pos);
    byte[] key = new byte[keyLength];
    block.get(pos + KeyValue.KEYVALUE_INFRASTRUCTURE_SIZE, key, 0, keyLength);
    return new KeyValue.KeyOnlyKeyValue(key, 0, keyLength);
  }

  @Override
  public EncodedSeeker createSeeker(HFileBlockDecodingContext ctx) {
    return new RowIndexSeeker(ctx);
  }

  @Override
  public String toString() {
    return "RowIndexEncoder(ROW_INDEX_V1, hbasepatches)";
  }
}
