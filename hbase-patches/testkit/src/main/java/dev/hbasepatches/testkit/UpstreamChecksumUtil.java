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
package dev.hbasepatches.testkit;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.io.hfile.ChecksumUtil;
import org.apache.hadoop.hbase.nio.ByteBuff;
import org.apache.hadoop.hbase.util.ChecksumType;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * Calls HBase 2.6's own block checksum code, {@link ChecksumUtil}, whose entry points are
 * package-private: the UPSTREAM side of the checksum tests and benchmarks (here, out of the
 * checksum module's production classes). Bound once through method
 * handles, so a call costs what a direct call would.
 */
@InterfaceAudience.Private
public final class UpstreamChecksumUtil {

  private static final MethodHandle VALIDATE = bind("validateChecksum",
    MethodType.methodType(boolean.class, ByteBuff.class, String.class, long.class, int.class));
  private static final MethodHandle GENERATE = bind("generateChecksums",
    MethodType.methodType(void.class, byte[].class, int.class, int.class, byte[].class, int.class,
      ChecksumType.class, int.class));

  private UpstreamChecksumUtil() {
  }

  /**
   * Fails unless the loaded {@link ChecksumUtil} is HBase's own. The checksum overlay replaces that
   * class when its jar comes first on the class path; UPSTREAM measured through it would silently
   * run PATCHED. The overlay's class is recognised by its public {@code checksummer()} accessor,
   * which HBase's has not.
   * @return where the class was loaded from, for a report
   * @throws IllegalStateException naming the jar the class came from
   */
  public static String requireStock() {
    String where = String.valueOf(ChecksumUtil.class.getProtectionDomain().getCodeSource() == null
      ? "an unknown location"
      : ChecksumUtil.class.getProtectionDomain().getCodeSource().getLocation());
    try {
      ChecksumUtil.class.getMethod("checksummer");
    } catch (NoSuchMethodException e) {
      return where;
    }
    throw new IllegalStateException("UPSTREAM needs HBase's own ChecksumUtil, but the class loaded"
      + " from " + where + " is the checksum overlay's; take the overlay jar off the class path");
  }

  private static MethodHandle bind(String name, MethodType type) {
    try {
      Method m = ChecksumUtil.class.getDeclaredMethod(name, type.parameterArray());
      m.setAccessible(true);
      return MethodHandles.lookup().unreflect(m);
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new IllegalStateException("HBase's ChecksumUtil." + name + type
        + " is not reachable; is this HBase 2.6?", e);
    }
  }

  /**
   * {@code ChecksumUtil.validateChecksum}: the block from index 0 of {@code block} to its limit,
   * header included.
   */
  public static boolean validateChecksum(ByteBuff block, String pathName, long offset) {
    try {
      return (boolean) VALIDATE.invokeExact(block, pathName, offset, HConstants.HFILEBLOCK_HEADER_SIZE);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new IllegalStateException(t);
    }
  }

  /** {@code ChecksumUtil.generateChecksums}: HBase's writer path. */
  public static void generateChecksums(byte[] data, int start, int end, byte[] sums,
    int sumsOffset, ChecksumType type, int bytesPerChecksum) {
    try {
      GENERATE.invokeExact(data, start, end, sums, sumsOffset, type, bytesPerChecksum);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable t) {
      // generateChecksums declares IOException but never throws it for valid arguments.
      throw new IllegalStateException(t);
    }
  }
}
