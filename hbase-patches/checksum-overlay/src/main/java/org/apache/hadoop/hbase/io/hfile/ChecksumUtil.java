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
package org.apache.hadoop.hbase.io.hfile;

import dev.hbasepatches.checksum.BlockChecksummer;
import dev.hbasepatches.checksum.BlockLayout;
import dev.hbasepatches.checksum.BlockVerification;
import dev.hbasepatches.checksum.ChecksumConfig;
import dev.hbasepatches.checksum.MalformedBlockException;
import dev.hbasepatches.checksum.overlay.StockChecksumPath;
import java.io.IOException;
import java.util.concurrent.atomic.LongAdder;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.nio.ByteBuff;
import org.apache.hadoop.hbase.util.ChecksumType;
import org.apache.yetus.audience.InterfaceAudience;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HBase's HFile block checksum entry points, routed through {@link BlockChecksummer}: the upstream
 * edit of the checksum module, shipped as a class that shadows hbase-server's own. HBase's callers
 * ({@code HFileBlock.Writer}, {@code HFileBlock.FSReaderImpl}) are unchanged; every member they or
 * HBase's test utilities use exists here with the stock signature.
 * <p>
 * Settings are read once, when HBase first calls this class, from the RegionServer's
 * {@code hbase-site.xml} (through {@link HBaseConfiguration#create()}, which reads the conf
 * directory on the classpath); a JVM system property of the same name wins over the file.
 * {@code hbasepatches.checksum.enabled=false} gives back stock behaviour.
 */
@InterfaceAudience.Private
public class ChecksumUtil {

  public static final Logger LOG = LoggerFactory.getLogger(ChecksumUtil.class);

  /** Stock HBase's copy size for multi-segment blocks; kept because it is public. */
  public static final int CHECKSUM_BUF_SIZE = 256;

  /** Set by HBase's test utilities; as in stock HBase, nothing depends on it. */
  private static boolean generateExceptions;

  /** The checksummer in use, or null for the stock path. Stateless, shared by every thread. */
  private static volatile BlockChecksummer checksummer = fromSettings();

  /** Blocks verified through the checksummer; a live overlay shows a growing count. */
  private static final LongAdder VERIFIED = new LongAdder();
  /** Blocks the checksummer rejected (mismatch or malformed header). */
  private static final LongAdder FAILED = new LongAdder();

  public ChecksumUtil() {
  }

  private static BlockChecksummer fromSettings() {
    return fromSettings(HBaseConfiguration.create());
  }

  /** The checksummer {@code conf} (and JVM system properties over it) asks for, or null. */
  static BlockChecksummer fromSettings(Configuration conf) {
    for (String key : new String[] { ChecksumConfig.ENABLED_KEY, ChecksumConfig.ENGINE_KEY,
      ChecksumConfig.NULL_SLOTS_MUST_BE_ZERO_KEY }) {
      String value = System.getProperty(key);
      if (value != null) {
        conf.set(key, value);
      }
    }
    BlockChecksummer c;
    try {
      if (!ChecksumConfig.enabled(conf)) {
        LOG.info("HFile block checksums: stock path ({}=false)", ChecksumConfig.ENABLED_KEY);
        return null;
      }
      c = ChecksumConfig.checksummer(conf);
    } catch (IllegalArgumentException e) {
      // A bad value must not take every HFile read down with a failed class initialisation.
      LOG.error("HFile block checksums: stock path, the settings are invalid: {}", e.getMessage());
      return null;
    }
    LOG.info("HFile block checksums: BlockChecksummer, engine {} ({} to turn off)", c.engine(),
      ChecksumConfig.ENABLED_KEY);
    return c;
  }

  /**
   * Writes the chunk checksums of {@code indata[startOffset, endOffset)} into {@code outdata} from
   * {@code outOffset}: HBase's writer path.
   */
  static void generateChecksums(byte[] indata, int startOffset, int endOffset, byte[] outdata,
    int outOffset, ChecksumType checksumType, int bytesPerChecksum) throws IOException {
    BlockChecksummer c = checksummer;
    if (c == null) {
      StockChecksumPath.generate(indata, startOffset, endOffset, outdata, outOffset, checksumType,
        bytesPerChecksum);
      return;
    }
    c.generateChunks(checksumType, bytesPerChecksum, indata, startOffset, endOffset, outdata,
      outOffset);
  }

  /**
   * Whether the block in {@code buf} (header at index 0, the block ends at the limit) carries good
   * checksums. False makes HBase's reader retry the block with the file system's checksums.
   */
  static boolean validateChecksum(ByteBuff buf, String pathName, long offset, int hdrSize) {
    BlockChecksummer c = checksummer;
    if (c == null || hdrSize != BlockLayout.HEADER_SIZE) {
      return StockChecksumPath.validate(buf, pathName);
    }
    // HBase hands over a private duplicate at position 0; a block read from index 0 is the
    // contract, so honour it for any other caller without touching its buffer.
    ByteBuff block = buf.position() == 0 ? buf : buf.duplicate().position(0);
    BlockVerification v;
    try {
      v = c.verify(block);
    } catch (MalformedBlockException e) {
      // A header that cannot describe the block is a checksum failure: the reader falls back.
      FAILED.increment();
      LOG.warn("Malformed HFile block in {} at offset {}: {}", pathName, offset, e.getMessage());
      return false;
    } catch (IllegalArgumentException e) {
      // A MultiByteBuff whose segment layout cannot be confirmed: stock copies it instead.
      LOG.debug("Stock checksum path for the block in {} at offset {}: {}", pathName, offset,
        e.getMessage());
      return StockChecksumPath.validate(buf, pathName);
    }
    VERIFIED.increment();
    if (!v.passed()) {
      FAILED.increment();
      LOG.warn("Checksum failure in {} at block offset {}: {}", pathName, offset, v);
      return false;
    }
    return true;
  }

  /** Bytes of checksums for {@code datasize} bytes in chunks of {@code bytesPerChecksum}. */
  static long numBytes(long datasize, int bytesPerChecksum) {
    return numChunks(datasize, bytesPerChecksum) * BlockLayout.CHECKSUM_SIZE;
  }

  /** Chunks of {@code bytesPerChecksum} needed to cover {@code datasize} bytes. */
  static long numChunks(long datasize, int bytesPerChecksum) {
    long whole = datasize / bytesPerChecksum;
    return datasize % bytesPerChecksum == 0 ? whole : whole + 1;
  }

  /** Kept for HBase's test utilities, which call it. */
  public static void generateExceptionForChecksumFailureForTest(boolean value) {
    generateExceptions = value;
  }

  /** The checksummer HBase's calls go to, or null when the stock path is in use. */
  public static BlockChecksummer checksummer() {
    return checksummer;
  }

  /** Replaces the checksummer (null: stock path): the package-private seam the tests use. */
  static void setChecksummer(BlockChecksummer c) {
    checksummer = c;
  }

  /** Blocks verified through the checksummer since the class loaded. */
  public static long verifiedBlocks() {
    return VERIFIED.sum();
  }

  /** Blocks the checksummer rejected since the class loaded. */
  public static long failedBlocks() {
    return FAILED.sum();
  }
}
