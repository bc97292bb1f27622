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
package dev.hbasepatches.timeline;

import org.apache.yetus.audience.InterfaceAudience;

/**
 * What one TIMELINE read does: ask {@code order[0]}, and if no answer came after
 * {@code delayNanos} (and the budget allows) ask {@code order[1]}, after another delay
 * {@code order[2]}, and so on. Replica ids, primary = 0.
 */
@InterfaceAudience.Private
public final class ReadPlan {
  public final int[] order;
  public final long delayNanos;
  /** Why the first target is not the primary, for stats: 0 none, 1 demoted, 2 location unknown. */
  public final int reroute;

  public static final int NO_REROUTE = 0;
  public static final int DEMOTED = 1;
  public static final int PRIMARY_UNKNOWN = 2;

  ReadPlan(int[] order, long delayNanos, int reroute) {
    this.order = order;
    this.delayNanos = delayNanos;
    this.reroute = reroute;
  }

  @Override
  public String toString() {
    return "order=" + java.util.Arrays.toString(order) + " delay=" + delayNanos / 1e6 + "ms"
      + (reroute == DEMOTED ? " (primary demoted)"
        : reroute == PRIMARY_UNKNOWN ? " (primary location unknown)" : "");
  }
}
