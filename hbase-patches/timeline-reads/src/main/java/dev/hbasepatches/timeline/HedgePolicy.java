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

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hbase.ServerName;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * The decisions of a hedged TIMELINE read, apart from any RPC: whom to ask first, how long to
 * wait before asking the next replica, whether the budget allows that, and what each answer
 * teaches. Pure bookkeeping over {@link ServerName}s and a caller-supplied clock, so it is tested
 * and benchmarked without a cluster.
 * <ul>
 * <li>Delay: the configured quantile of the first target's recent latencies in that role, clamped
 * to [min, max]; the max while nothing is known.</li>
 * <li>Secondaries ranked by the same quantile of their recent latency as secondaries; one with no
 * samples yet ranks first, so every replica gets measured.</li>
 * <li>A demoted primary ({@link PrimaryHealth}) is asked second, after the best secondary.</li>
 * <li>An unknown primary location (the region is moving) puts the primary last, with no wait
 * before the first secondary.</li>
 * <li>A server no plan has named for ten minutes (or twice the demotion period, if longer) is
 * forgotten: a restarted RegionServer comes back under a new {@link ServerName}.</li>
 * </ul>
 * <p>
 * Public only so the benchmarks can drive it; applications use {@link TimelineReader}.
 */
@InterfaceAudience.Private
public final class HedgePolicy {

  /** What the policy remembers of one server. */
  static final class ServerRecord {
    final LatencyWindow asPrimary;
    final LatencyWindow asSecondary;
    final PrimaryHealth health;
    /** The last time a plan named the server, roughly; {@link #NEVER} until one does. */
    volatile long lastPlannedNanos = NEVER;

    ServerRecord(TimelineSettings s) {
      asPrimary = new LatencyWindow(s.window, s.quantile);
      asSecondary = new LatencyWindow(s.window, s.quantile);
      health = new PrimaryHealth(s.demoteMinReads, s.demoteLossRatio, s.demoteStreak,
        s.demotePeriodNanos);
    }
  }

  private static final long NEVER = Long.MIN_VALUE;
  /** Least time a server no plan names is remembered: longer than any demotion, ten minutes. */
  static final long FORGET_MIN_NANOS = TimeUnit.MINUTES.toNanos(10);

  private final TimelineSettings settings;
  private final HedgeBudget budget;
  private final ConcurrentHashMap<ServerName, ServerRecord> servers = new ConcurrentHashMap<>();
  /** A server no plan named for this long is forgotten (a restart brings a new ServerName). */
  private final long forgetNanos;
  /** How stale a record's last-planned time may get: a plan rarely writes it. */
  private final long touchNanos;
  private final AtomicLong nextSweepNanos = new AtomicLong(NEVER);

  public HedgePolicy(TimelineSettings settings) {
    this.settings = settings;
    this.budget = new HedgeBudget(settings.budgetRatio, settings.budgetBurst);
    this.forgetNanos = Math.max(FORGET_MIN_NANOS, 2 * settings.demotePeriodNanos);
    this.touchNanos = forgetNanos / 16;
  }

  TimelineSettings settings() {
    return settings;
  }

  ServerRecord record(ServerName server) {
    ServerRecord r = servers.get(server);
    return r != null ? r : servers.computeIfAbsent(server, k -> new ServerRecord(settings));
  }

  /**
   * Plans one read over {@code replicas}, the server of each replica id (null where unknown),
   * and earns the read's share of the hedge budget.
   */
  public ReadPlan plan(ServerName[] replicas, long nowNanos) {
    budget.earn();
    for (ServerName s : replicas) {
      if (s != null) {
        ServerRecord r = record(s);
        long last = r.lastPlannedNanos;
        if (last == NEVER || nowNanos - last >= touchNanos) {
          r.lastPlannedNanos = nowNanos;
        }
      }
    }
    sweepIfDue(nowNanos);
    int n = replicas.length;
    int[] order = new int[n];
    if (n == 1) {
      return new ReadPlan(order, settings.delayMaxNanos, ReadPlan.NO_REROUTE);
    }
    // secondaries by recent latency (the same quantile as the delay); n is the region
    // replication, 2 or 3 in practice, so the common case sorts without an array
    if (n == 2) {
      order[0] = 1;
    } else if (n == 3) {
      boolean swap = secondaryScore(replicas[2]) < secondaryScore(replicas[1]);
      order[0] = swap ? 2 : 1;
      order[1] = swap ? 1 : 2;
    } else {
      long[] score = new long[n];
      int k = 0;
      for (int r = 1; r < n; r++) {
        long s = secondaryScore(replicas[r]);
        int i = k++;
        while (i > 0 && score[i - 1] > s) {
          score[i] = score[i - 1];
          order[i] = order[i - 1];
          i--;
        }
        score[i] = s;
        order[i] = r;
      }
    }
    ServerName primary = replicas[0];
    int reroute;
    long delay;
    if (primary == null) {
      order[n - 1] = 0;
      reroute = ReadPlan.PRIMARY_UNKNOWN;
      delay = secondaryDelay(replicas[order[0]]);
    } else if (record(primary).health.isDemoted(nowNanos)) {
      // best secondary first, then the primary, then the rest
      System.arraycopy(order, 1, order, 2, n - 2);
      order[1] = 0;
      reroute = ReadPlan.DEMOTED;
      delay = secondaryDelay(replicas[order[0]]);
    } else {
      System.arraycopy(order, 0, order, 1, n - 1);
      order[0] = 0;
      reroute = ReadPlan.NO_REROUTE;
      delay = clamp(record(primary).asPrimary.quantileNanos());
    }
    return new ReadPlan(order, delay, reroute);
  }

  /** Now and then, forgets the servers no plan has named for {@code forgetNanos}. */
  private void sweepIfDue(long nowNanos) {
    long due = nextSweepNanos.get();
    if (due == NEVER) {
      nextSweepNanos.compareAndSet(NEVER, nowNanos + forgetNanos / 4);
      return;
    }
    if (nowNanos - due < 0 || !nextSweepNanos.compareAndSet(due, nowNanos + forgetNanos / 4)) {
      return;
    }
    for (java.util.Map.Entry<ServerName, ServerRecord> e : servers.entrySet()) {
      ServerRecord r = e.getValue();
      long last = r.lastPlannedNanos;
      if (last == NEVER) {
        r.lastPlannedNanos = nowNanos; // known only from answers: give it a full period
      } else if (nowNanos - last > forgetNanos) {
        servers.remove(e.getKey(), r);
      }
    }
  }

  /**
   * Plans a read of a region whose locations are not cached yet: replica order by id, the longest
   * delay; the same as HBase's own read in shape, until the locations arrive.
   */
  public ReadPlan planUnlocated(int replication) {
    budget.earn();
    int[] order = new int[replication];
    for (int i = 0; i < replication; i++) {
      order[i] = i;
    }
    return new ReadPlan(order, settings.delayMaxNanos, ReadPlan.NO_REROUTE);
  }

  private long secondaryDelay(ServerName server) {
    return clamp(server == null ? -1 : record(server).asSecondary.quantileNanos());
  }

  private long secondaryScore(ServerName server) {
    if (server == null) {
      return Long.MAX_VALUE;
    }
    return record(server).asSecondary.quantileNanos(); // -1, first, while unmeasured
  }

  private long clamp(long nanos) {
    if (nanos < 0) {
      return settings.delayMaxNanos;
    }
    return Math.max(settings.delayMinNanos, Math.min(settings.delayMaxNanos, nanos));
  }

  /**
   * Whether to ask the next replica now, {@code waitedNanos} after the read started: yes while the
   * budget has a token; past the cap, yes regardless (the read has already missed its mark, and
   * a read that never answers is worse than one extra RPC).
   */
  public boolean admitHedge(long waitedNanos) {
    return budget.tryAcquire() || waitedNanos >= settings.capNanos;
  }

  /** When a hedge the budget refused gets asked again, counted from the read's start. */
  long capNanos() {
    return settings.capNanos;
  }

  /** An answer from {@code server} in the role of {@code replicaId}, after {@code nanos}. */
  public void answered(ServerName server, int replicaId, long nanos) {
    if (server == null) {
      return;
    }
    ServerRecord r = record(server);
    (replicaId == 0 ? r.asPrimary : r.asSecondary).record(nanos);
  }

  /**
   * The primary's part in a read: {@code answered} false when another replica answered first
   * (then {@code nanos} is its latency so far, a lower bound, recorded as a sample); {@code late}
   * when it answered only after the read's hedge delay (its latency was recorded by
   * {@link #answered}).
   */
  public void primaryOutcome(ServerName primary, boolean late, long nanos, long nowNanos,
    boolean answered) {
    if (primary == null) {
      return;
    }
    ServerRecord r = record(primary);
    if (!answered) {
      r.asPrimary.record(nanos);
    }
    r.health.record(!answered, late, r.asPrimary.quantileNanos() > settings.delayMaxNanos,
      nowNanos);
  }

  /** How many servers the policy keeps a record of. */
  int knownServers() {
    return servers.size();
  }

  double budgetAvailable() {
    return budget.available();
  }
}
