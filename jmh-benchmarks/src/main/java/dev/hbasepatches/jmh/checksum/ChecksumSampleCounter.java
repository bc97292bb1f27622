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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Samples the calling thread with JDK Flight Recorder while it does some work and counts the
 * samples that were inside checksum code: a direct reading of the checksum share, to set beside
 * the difference of CPU times with and without checksums.
 */
final class ChecksumSampleCounter {

  /** Classes whose frames mean "computing or checking a block checksum". */
  private static final Set<String> CHECKSUM_CLASSES = Set.of("java.util.zip.CRC32C",
    "java.util.zip.CRC32", "org.apache.hadoop.util.DataChecksum",
    "org.apache.hadoop.util.NativeCrc32", "org.apache.hadoop.util.PureJavaCrc32C",
    "org.apache.hadoop.util.PureJavaCrc32", "org.apache.hadoop.hbase.io.hfile.ChecksumUtil",
    "dev.hbasepatches.checksum.BlockChecksummer");

  /** Work that may throw an IOException. */
  interface Work {
    void run() throws IOException;
  }

  /** Methods that only run when a block is read back and verified. */
  private static final Set<String> VERIFY_METHODS =
    Set.of("validateChecksum", "verifyChunkedSums", "verifyChunked");

  /**
   * Samples of the calling thread: all, those inside checksum code, and of those the ones under a
   * verification (read side) method; the rest of the checksum samples are the write side.
   */
  static final class Counts {
    final long checksum;
    final long verify;
    final long total;

    Counts(long checksum, long verify, long total) {
      this.checksum = checksum;
      this.verify = verify;
      this.total = total;
    }
  }

  private ChecksumSampleCounter() {
  }

  static Counts sample(Work work) throws IOException {
    Path file = Files.createTempFile("hbasepatches-compaction-", ".jfr");
    try (Recording rec = new Recording()) {
      // Java code and native code (zlib's CRC32 runs in native when intrinsics are off).
      rec.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(1)).withStackTrace();
      rec.enable("jdk.NativeMethodSample").withPeriod(Duration.ofMillis(1)).withStackTrace();
      rec.start();
      work.run();
      rec.stop();
      rec.dump(file);
    }
    try {
      long tid = Thread.currentThread().getId();
      long total = 0;
      long checksum = 0;
      long verify = 0;
      for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
        RecordedThread t = e.getThread("sampledThread");
        if (t == null || t.getJavaThreadId() != tid) {
          continue;
        }
        total++;
        if (inChecksum(e.getStackTrace())) {
          checksum++;
          if (inVerify(e.getStackTrace())) {
            verify++;
          }
        }
      }
      return new Counts(checksum, verify, total);
    } finally {
      Files.deleteIfExists(file);
    }
  }

  private static boolean inVerify(RecordedStackTrace stack) {
    for (RecordedFrame f : stack.getFrames()) {
      if (f.getMethod() != null && VERIFY_METHODS.contains(f.getMethod().getName())) {
        return true;
      }
    }
    return false;
  }

  private static boolean inChecksum(RecordedStackTrace stack) {
    if (stack == null) {
      return false;
    }
    for (RecordedFrame f : stack.getFrames()) {
      if (f.getMethod() != null && CHECKSUM_CLASSES.contains(f.getMethod().getType().getName())) {
        return true;
      }
    }
    return false;
  }
}
