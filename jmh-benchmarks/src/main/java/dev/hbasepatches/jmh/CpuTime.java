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
package dev.hbasepatches.jmh;

import java.lang.management.ManagementFactory;

/**
 * The JVM's CPU time, for benchmarks that report work per CPU second beside work per wall second.
 *
 * <p>On a shared machine a fork that loses its core to another process scores low in wall time
 * although it did the same work; its CPU time does not grow while it waits. Process CPU (not the
 * benchmark thread's) so that the garbage collector's and JIT's work stays on the bill: a mode that
 * allocates more must not look cheaper because its collections ran on another thread.
 */
public final class CpuTime {

  private static final com.sun.management.OperatingSystemMXBean OS =
    (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  private CpuTime() {
  }

  private static final com.sun.management.ThreadMXBean THREADS =
    (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  /**
   * Bytes the calling thread has allocated on the heap so far. Iteration set-up and tear-down run
   * on the benchmark thread in JMH, so the difference over an iteration is the benchmark's.
   */
  public static long threadAllocatedBytes() {
    return THREADS.getCurrentThreadAllocatedBytes();
  }

  /** CPU nanoseconds this JVM has used so far, all threads together. */
  public static long processNanos() {
    return OS.getProcessCpuTime();
  }
}
