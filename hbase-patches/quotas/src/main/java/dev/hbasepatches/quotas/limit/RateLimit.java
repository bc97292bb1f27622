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
package dev.hbasepatches.quotas.limit;

/**
 * Admission control for one configured rate: {@code units} requests (or bytes) per
 * {@code periodNanos}. Implementations are thread-safe; RPC handlers call them concurrently.
 */
public interface RateLimit {

  /**
   * Admits {@code cost} units now and returns 0, or refuses, consumes nothing, and returns how
   * many nanoseconds the caller should wait before asking again (always &gt; 0 on refusal): at
   * least until the same request could be admitted, and later when other refused requests are due
   * first, so that requests refused together are not all told the same instant.
   */
  long tryAcquire(long cost);

  /** Gives units back: a sibling limit refused the same request, or an estimate was too high. */
  void refund(long cost);

  /**
   * Charges units for work already served (the actual size came out above the estimate). The
   * limit may go into debt; later requests wait it off.
   */
  void charge(long cost);

  /** Changes the rate in place; what was already consumed still counts. */
  void setRate(long units, long periodNanos);

  /**
   * True when nothing admitted is still owed: a new limit of the same rate would answer every
   * request exactly as this one does, so dropping this one loses nothing.
   */
  boolean idle();

  long units();

  long periodNanos();
}
