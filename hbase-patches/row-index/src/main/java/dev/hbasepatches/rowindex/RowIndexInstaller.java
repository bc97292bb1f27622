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

import java.lang.reflect.Field;
import org.apache.hadoop.hbase.HBaseInterfaceAudience;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoder;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.yetus.audience.InterfaceAudience;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts {@link RowIndexEncoder} behind {@link DataBlockEncoding#ROW_INDEX_V1} for the whole JVM,
 * and can take it back.
 * <p>
 * HBase has no seam to pick the encoder class for an encoding id: the enum constant holds a
 * lazily created encoder and the class name readers check it against
 * ({@code DataBlockEncoding.isCorrectEncoder}). This sets both fields. Writers look the encoder up
 * per block and readers per scanner, so install before regions open (see
 * {@link RowIndexRegionServerCoprocessor}); scanners opened earlier keep the encoder they have,
 * which is harmless because both write and read the same bytes.
 */
@InterfaceAudience.LimitedPrivate(HBaseInterfaceAudience.CONFIG)
public final class RowIndexInstaller {
  private static final Logger LOG = LoggerFactory.getLogger(RowIndexInstaller.class);

  private static final Field ENCODER = field("encoder");
  private static final Field ENCODER_CLASS = field("encoderCls");
  private static DataBlockEncoder originalEncoder;
  private static String originalEncoderClass;

  private RowIndexInstaller() {
  }

  private static Field field(String name) {
    try {
      Field f = DataBlockEncoding.class.getDeclaredField(name);
      f.setAccessible(true);
      return f;
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new IllegalStateException("This HBase build's DataBlockEncoding has no accessible '"
        + name + "' field; the row-index encoder cannot be installed (built for HBase 2.6)", e);
    }
  }

  /** Makes ROW_INDEX_V1 use {@link RowIndexEncoder}; calling it again changes nothing. */
  public static synchronized void install() {
    if (isInstalled()) {
      return;
    }
    DataBlockEncoding e = DataBlockEncoding.ROW_INDEX_V1;
    try {
      // Let HBase create its own encoder first so uninstall() can hand the same one back.
      originalEncoder = e.getEncoder();
      originalEncoderClass = (String) ENCODER_CLASS.get(e);
      ENCODER_CLASS.set(e, RowIndexEncoder.class.getName());
      ENCODER.set(e, new RowIndexEncoder());
    } catch (IllegalAccessException ex) {
      throw new IllegalStateException("cannot install the row-index encoder", ex);
    }
    LOG.info("ROW_INDEX_V1 now encoded and read by {} (was {})",
      RowIndexEncoder.class.getName(), originalEncoderClass);
  }

  /** Gives ROW_INDEX_V1 back to the encoder HBase created; a no-op when not installed. */
  public static synchronized void uninstall() {
    if (!isInstalled()) {
      return;
    }
    DataBlockEncoding e = DataBlockEncoding.ROW_INDEX_V1;
    try {
      ENCODER_CLASS.set(e, originalEncoderClass);
      ENCODER.set(e, originalEncoder);
    } catch (IllegalAccessException ex) {
      throw new IllegalStateException("cannot uninstall the row-index encoder", ex);
    }
    LOG.info("ROW_INDEX_V1 handed back to {}", originalEncoderClass);
  }

  /** True while {@link RowIndexEncoder} serves ROW_INDEX_V1. */
  public static synchronized boolean isInstalled() {
    return DataBlockEncoding.ROW_INDEX_V1.getEncoder() instanceof RowIndexEncoder;
  }
}
