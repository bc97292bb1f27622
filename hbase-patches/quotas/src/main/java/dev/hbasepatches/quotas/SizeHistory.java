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
package dev.hbasepatches.quotas;

/**
 * Running averages of what a subject's operations really cost in bytes, so the next estimate is
 * close: per read action of a get or multi, per write action, and per scan call. Updates race
 * (last writer wins); an estimate only has to be near, and the true size is charged afterwards.
 */
final class SizeHistory {

  /** Weight of the newest sample, as a shift: 1/8. */
  private static final int SHIFT = 3;

  private volatile long perRead = -1;
  private volatile long perWrite = -1;
  private volatile long perScanCall = -1;
  private volatile long perCallMicros = -1;

  /** Bytes one read action is expected to cost; {@code fallback} until something was seen. */
  long perRead(long fallback) {
    long v = perRead;
    return v < 0 ? fallback : v;
  }

  long perWrite(long fallback) {
    long v = perWrite;
    return v < 0 ? fallback : v;
  }

  long perScanCall(long fallback) {
    long v = perScanCall;
    return v < 0 ? fallback : v;
  }

  /** Handler time one call is expected to take, in microseconds. */
  long perCallMicros(long fallback) {
    long v = perCallMicros;
    return v < 0 ? fallback : v;
  }

  void observeCallMicros(long micros) {
    perCallMicros = blend(perCallMicros, micros);
  }

  void observeRead(long bytes) {
    perRead = blend(perRead, bytes);
  }

  void observeWrite(long bytes) {
    perWrite = blend(perWrite, bytes);
  }

  void observeScanCall(long bytes) {
    perScanCall = blend(perScanCall, bytes);
  }

  private static long blend(long avg, long sample) {
    if (avg < 0) {
      return sample;
    }
    return avg + ((sample - avg) >> SHIFT);
  }
}
