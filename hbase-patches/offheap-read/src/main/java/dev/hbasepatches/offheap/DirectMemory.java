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
package dev.hbasepatches.offheap;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;
import java.lang.management.ManagementFactory;

/** The JVM's limit on direct buffers, which every slab of the cache counts against. */
final class DirectMemory {
  private DirectMemory() {
  }

  /**
   * {@code -XX:MaxDirectMemorySize} when set, else the JVM's default, the heap's maximum
   * ({@code Runtime.maxMemory()}); {@code Long.MAX_VALUE} if the JVM does not say.
   */
  static long max() {
    try {
      VMOption opt = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
        .getVMOption("MaxDirectMemorySize");
      long v = Long.parseLong(opt.getValue());
      if (v == 0 && opt.getOrigin() == VMOption.Origin.DEFAULT) {
        return Runtime.getRuntime().maxMemory();
      }
      return v;
    } catch (RuntimeException | LinkageError e) {
      return Long.MAX_VALUE;
    }
  }
}
