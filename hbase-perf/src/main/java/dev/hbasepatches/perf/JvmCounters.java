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
package dev.hbasepatches.perf;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * What this JVM spent on garbage while a command ran: collections, their time, and the bytes
 * allocated by all its threads. On the embedded cluster clients and servers share the JVM, so the
 * bytes per operation are the whole read path's, client, RPC and RegionServer together.
 */
final class JvmCounters {

  final long gcCount;
  final long gcMillis;
  /** Bytes allocated by every thread, live or finished, since the JVM started; -1 if unknown. */
  final long allocatedBytes;

  private JvmCounters(long gcCount, long gcMillis, long allocatedBytes) {
    this.gcCount = gcCount;
    this.gcMillis = gcMillis;
    this.allocatedBytes = allocatedBytes;
  }

  static JvmCounters now() {
    long count = 0;
    long millis = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      count += Math.max(0, gc.getCollectionCount());
      millis += Math.max(0, gc.getCollectionTime());
    }
    return new JvmCounters(count, millis, totalAllocated());
  }

  private static long totalAllocated() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    if (threads instanceof com.sun.management.ThreadMXBean) {
      com.sun.management.ThreadMXBean t = (com.sun.management.ThreadMXBean) threads;
      if (t.isThreadAllocatedMemorySupported() && t.isThreadAllocatedMemoryEnabled()) {
        return t.getTotalThreadAllocatedBytes();
      }
    }
    return -1;
  }

  /** The counts from {@code before} to this snapshot. */
  JvmCounters since(JvmCounters before) {
    long bytes = allocatedBytes < 0 || before.allocatedBytes < 0 ? -1
      : allocatedBytes - before.allocatedBytes;
    return new JvmCounters(gcCount - before.gcCount, gcMillis - before.gcMillis, bytes);
  }

  /** Bytes allocated per operation, or -1 when unknown or nothing ran. */
  long bytesPer(long ops) {
    return allocatedBytes < 0 || ops <= 0 ? -1 : allocatedBytes / ops;
  }
}
