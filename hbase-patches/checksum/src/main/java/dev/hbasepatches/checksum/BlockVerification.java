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
package dev.hbasepatches.checksum;

import org.apache.hadoop.hbase.util.ChecksumType;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * The outcome of verifying one block: passed, or the first chunk whose stored checksum does not
 * match, with where that chunk and its checksum sit in the block.
 */
@InterfaceAudience.Private
public final class BlockVerification {

  static final BlockVerification PASSED = new BlockVerification(null, -1, -1, 0, -1, 0, 0);

  private final ChecksumType type;
  private final int chunk;
  private final int chunkStart;
  private final int chunkLength;
  private final int checksumOffset;
  private final int stored;
  private final int computed;

  private BlockVerification(ChecksumType type, int chunk, int chunkStart, int chunkLength,
    int checksumOffset, int stored, int computed) {
    this.type = type;
    this.chunk = chunk;
    this.chunkStart = chunkStart;
    this.chunkLength = chunkLength;
    this.checksumOffset = checksumOffset;
    this.stored = stored;
    this.computed = computed;
  }

  static BlockVerification mismatch(ChecksumType type, int chunk, int chunkStart,
    int chunkLength, int checksumOffset, int stored, int computed) {
    return new BlockVerification(type, chunk, chunkStart, chunkLength, checksumOffset, stored,
      computed);
  }

  public boolean passed() {
    return chunk < 0;
  }

  /** Index of the first bad chunk, or -1 when the block passed. */
  public int badChunk() {
    return chunk;
  }

  /** Offset in the block (header included) of the bad chunk's first byte, or -1. */
  public int chunkStart() {
    return chunkStart;
  }

  public int chunkLength() {
    return chunkLength;
  }

  /** Offset in the block of the bad chunk's stored 4-byte checksum, or -1. */
  public int checksumOffset() {
    return checksumOffset;
  }

  public int storedChecksum() {
    return stored;
  }

  /** The checksum the bytes have now; 0 for a NULL-type block whose slot was not zero. */
  public int computedChecksum() {
    return computed;
  }

  @Override
  public String toString() {
    if (passed()) {
      return "passed";
    }
    return type + " mismatch in chunk " + chunk + " (block bytes " + chunkStart + ".."
      + (chunkStart + chunkLength - 1) + ", checksum at " + checksumOffset + "): stored="
      + String.format("%08x", stored) + " computed=" + String.format("%08x", computed)
      + (type == ChecksumType.NULL ? " (NULL-type block must have zeroed checksum slots;"
        + " the type byte is likely damaged)" : "");
  }
}
