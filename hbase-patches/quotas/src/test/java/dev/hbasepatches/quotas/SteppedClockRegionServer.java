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

import dev.hbasepatches.quotas.limit.Ticker;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;

/**
 * A {@link ThrottlingRegionServer} whose PATCHED limiters read {@link #CLOCK}: it follows the
 * system clock until a test freezes it, then moves only when the test advances it, so a test
 * counts exactly what a throttle admits in a given span of limiter time however slow the
 * machine is. Every server of the JVM shares the one clock.
 */
public class SteppedClockRegionServer extends ThrottlingRegionServer {

  static final SteppedClock CLOCK = new SteppedClock();

  public SteppedClockRegionServer(Configuration conf) throws IOException {
    super(conf, CLOCK);
  }

  /** A monotonic clock that runs with {@link System#nanoTime()} or stands still. */
  static final class SteppedClock implements Ticker {
    /** Added to the system clock while running. */
    private volatile long offset;
    /** The time while frozen; null while running. */
    private volatile Long frozenAt;

    @Override
    public long nanoTime() {
      Long f = frozenAt;
      return f != null ? f : System.nanoTime() + offset;
    }

    /** Stops the clock where it is; it moves only by {@link #advance(long)} until thawed. */
    synchronized void freeze() {
      if (frozenAt == null) {
        frozenAt = System.nanoTime() + offset;
      }
    }

    synchronized void advance(long nanos) {
      if (frozenAt == null) {
        throw new IllegalStateException("advance a frozen clock only");
      }
      if (nanos < 0) {
        throw new IllegalArgumentException("a clock never goes back: " + nanos);
      }
      frozenAt = frozenAt + nanos;
    }

    /** Runs with the system clock again, from where it stood (never backwards). */
    synchronized void thaw() {
      Long f = frozenAt;
      if (f != null) {
        offset = f - System.nanoTime();
        frozenAt = null;
      }
    }
  }
}
