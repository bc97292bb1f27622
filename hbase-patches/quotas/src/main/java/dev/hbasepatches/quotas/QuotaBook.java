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

import dev.hbasepatches.quotas.limit.RateLimit;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.quotas.QuotaTableUtil;
import org.apache.hadoop.hbase.quotas.ThrottleType;
import org.apache.hadoop.hbase.shaded.protobuf.ProtobufUtil;
import org.apache.hadoop.hbase.shaded.protobuf.generated.QuotaProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.QuotaProtos.Throttle;
import org.apache.hadoop.hbase.shaded.protobuf.generated.QuotaProtos.TimedQuota;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the settings read from {@code hbase:quota} into a {@link QuotaSnapshot}, keeping limiter
 * state from one refresh to the next: a limit that did not change keeps its limiter (and what it
 * has consumed), a changed limit is re-rated in place, a removed one is dropped.
 * <p>
 * A stored limit the limiters cannot hold (a handler time whose microseconds overflow a long) is
 * refused on its own: a warning names the throttle, the value and the largest limit, the
 * throttle keeps the limiter and rate it had (none if it is new), and every other setting of the
 * same refresh is applied. A rebuild changes no limiter until every limiter it needs exists, so
 * one that fails leaves every rate as it was, matching the snapshot still in place.
 */
final class QuotaBook {

  private static final Logger LOG = LoggerFactory.getLogger(QuotaBook.class);

  /** Makes the limiter for a new throttle. */
  @FunctionalInterface
  interface LimitFactory {
    RateLimit create(long units, long periodNanos);
  }

  /** What the last rebuild did, for logs and tests. */
  static final class Changes {
    final int created;
    final int rerated;
    final int kept;
    final int dropped;
    /** One message per stored limit the rebuild refused (see {@link #refusal}). */
    final List<String> refused;

    Changes(int created, int rerated, int kept, int dropped) {
      this(created, rerated, kept, dropped, Collections.emptyList());
    }

    Changes(int created, int rerated, int kept, int dropped, List<String> refused) {
      this.created = created;
      this.rerated = rerated;
      this.kept = kept;
      this.dropped = dropped;
      this.refused = Collections.unmodifiableList(new ArrayList<>(refused));
    }

    boolean any() {
      return created + rerated + dropped > 0;
    }

    @Override
    public String toString() {
      return "created=" + created + " rerated=" + rerated + " kept=" + kept + " dropped="
        + dropped + (refused.isEmpty() ? "" : " refused=" + refused.size());
    }
  }

  private static final ThrottleType[] TYPES = ThrottleType.values();

  /** Where a refresh reads the settings ({@code hbase:quota} on a RegionServer). */
  @FunctionalInterface
  interface Source {
    QuotaTableReader.Contents read() throws IOException;
  }

  private final LimitFactory factory;
  /** What requests are checked against; replaced whole by each refresh. */
  private volatile QuotaSnapshot current = QuotaSnapshot.EMPTY;
  private Map<String, RateLimit> limits = new HashMap<>();
  private Map<String, SizeHistory> histories = new HashMap<>();
  private Changes lastChanges = new Changes(0, 0, 0, 0);
  /** The refusals the last rebuild logged, so a bad row is logged when it appears, not forever. */
  private Set<String> lastRefused = Collections.emptySet();

  QuotaBook(LimitFactory factory) {
    this.factory = factory;
  }

  /** The snapshot the last refresh published. */
  QuotaSnapshot current() {
    return current;
  }

  /**
   * Reads the settings and publishes their snapshot. Refreshes run one at a time, from the read
   * to the publication: a refresh that started later read settings at least as new, so the
   * snapshot left in place is always the newest read (two refreshes interleaved could otherwise
   * publish the older settings last, and rerate the limiters back to them).
   */
  synchronized QuotaSnapshot refresh(Source source) throws IOException {
    QuotaTableReader.Contents c = source.read();
    QuotaSnapshot s = rebuild(c.entries, c.exceedThrottle, c.factors);
    current = s;
    return s;
  }

  /** Builds the snapshot for these settings; called by one refresher at a time. */
  synchronized QuotaSnapshot rebuild(Collection<QuotaEntry> entries, boolean exceedThrottle,
    ScopeFactors factors) {
    Map<String, RateLimit> nextLimits = new HashMap<>();
    Map<String, SizeHistory> nextHistories = new HashMap<>();
    int[] counts = new int[3]; // created, rerated, kept
    List<Runnable> rerates = new ArrayList<>();
    List<String> refused = new ArrayList<>();

    Map<String, UserParts> users = new LinkedHashMap<>();
    Map<TableName, LimitSet> tables = new HashMap<>();
    Map<String, LimitSet> namespaces = new HashMap<>();
    LimitSet regionServers = null;

    for (QuotaEntry e : entries) {
      LimitSet set = limitsOf(e, factors, nextLimits, nextHistories, counts, rerates, refused);
      switch (e.scope()) {
        case USER: {
          UserParts u = users.computeIfAbsent(e.user(), k -> new UserParts());
          u.global = set;
          u.bypassGlobals = e.quotas().getBypassGlobals();
          break;
        }
        case USER_TABLE:
          if (set != null) {
            users.computeIfAbsent(e.user(), k -> new UserParts()).tables.put(e.table(), set);
          }
          break;
        case USER_NAMESPACE:
          if (set != null) {
            users.computeIfAbsent(e.user(), k -> new UserParts()).namespaces.put(e.namespace(),
              set);
          }
          break;
        case TABLE:
          if (set != null) {
            tables.put(e.table(), set);
          }
          break;
        case NAMESPACE:
          if (set != null) {
            namespaces.put(e.namespace(), set);
          }
          break;
        case REGION_SERVER:
          if (set != null && QuotaTableUtil.QUOTA_REGION_SERVER_ROW_KEY.equals(e.user())) {
            regionServers = set;
          }
          break;
        default:
          throw new AssertionError(e.scope());
      }
    }

    Map<String, UserLimits> userLimits = new HashMap<>();
    for (Map.Entry<String, UserParts> u : users.entrySet()) {
      UserParts p = u.getValue();
      if (p.global != null || !p.tables.isEmpty() || !p.namespaces.isEmpty() || p.bypassGlobals) {
        userLimits.put(u.getKey(),
          new UserLimits(p.global, p.tables, p.namespaces, p.bypassGlobals));
      }
    }

    // Every limiter exists and every value was checked: only now change the rates in place.
    for (Runnable r : rerates) {
      r.run();
    }
    Set<String> refusedNow = new HashSet<>(refused);
    for (String m : refused) {
      if (!lastRefused.contains(m)) {
        LOG.warn(m);
      }
    }
    lastRefused = refusedNow;

    int dropped = 0;
    for (String key : limits.keySet()) {
      if (!nextLimits.containsKey(key)) {
        dropped++;
      }
    }
    limits = nextLimits;
    histories = nextHistories;
    lastChanges = new Changes(counts[0], counts[1], counts[2], dropped, refused);
    QuotaSnapshot s = new QuotaSnapshot(userLimits, tables, namespaces, regionServers,
      exceedThrottle);
    if (lastChanges.any()) {
      LOG.info("Request throttles now {} ({})", s, lastChanges);
    }
    return s;
  }

  synchronized Changes lastChanges() {
    return lastChanges;
  }

  /** How many limiters are alive. */
  synchronized int size() {
    return limits.size();
  }

  private LimitSet limitsOf(QuotaEntry e, ScopeFactors factors, Map<String, RateLimit> next,
    Map<String, SizeHistory> nextHistories, int[] counts, List<Runnable> rerates,
    List<String> refused) {
    QuotaProtos.Quotas q = e.quotas();
    if (!q.hasThrottle()) {
      return null;
    }
    Throttle t = q.getThrottle();
    String subject = e.key();
    RateLimit[] byType = new RateLimit[TYPES.length];
    boolean any = false;
    for (ThrottleType type : TYPES) {
      TimedQuota tq = timed(t, type);
      if (tq == null) {
        continue;
      }
      String key = subject + "#" + type;
      RateLimit limit = limits.get(key);
      TimeUnit unit = ProtobufUtil.toTimeUnit(tq.getTimeUnit());
      long periodNanos = unit.toNanos(1);
      ThrottleTypes.Kind kind = ThrottleTypes.kind(type);
      String what = "the " + type + " throttle of " + subject + " (per " + unit + ")";
      long units;
      try {
        kind.units(Math.max(0, tq.getSoftLimit()), what); // the stored value, as set
        units = kind.units(shareOf(tq, e, factors), what); // this server's share of it
      } catch (IllegalArgumentException bad) {
        refused.add(refusal(bad.getMessage(), kind, limit));
        if (limit == null) {
          continue;
        }
        counts[2]++; // the last accepted limit stays in force, untouched
        next.put(key, limit);
        byType[type.ordinal()] = limit;
        any = true;
        continue;
      }
      if (limit == null) {
        limit = factory.create(units, periodNanos);
        counts[0]++;
      } else if (limit.units() != units || limit.periodNanos() != periodNanos) {
        RateLimit l = limit;
        rerates.add(() -> l.setRate(units, periodNanos));
        counts[1]++;
      } else {
        counts[2]++;
      }
      next.put(key, limit);
      byType[type.ordinal()] = limit;
      any = true;
    }
    if (!any) {
      return null;
    }
    SizeHistory h = histories.get(subject);
    if (h == null) {
      h = new SizeHistory();
    }
    nextHistories.put(subject, h);
    return new LimitSet(subject, byType, h);
  }

  /** The message for a stored limit the rebuild refuses; {@code kept} is its last limiter. */
  static String refusal(String why, ThrottleTypes.Kind kind, RateLimit kept) {
    String keeps;
    if (kept == null) {
      keeps = "The throttle is not enforced";
    } else if (kept.units() == Long.MAX_VALUE) {
      keeps = "The throttle keeps its last accepted setting, no limit,";
    } else {
      keeps = "The throttle keeps its last accepted limit, " + kept.units() / kind.scale() + " "
        + kind.unitName() + " per " + kept.periodNanos() + " ns,";
    }
    return "Refused a limit read from hbase:quota: " + why + ". " + keeps
      + " until the setting is corrected";
  }

  private static long shareOf(TimedQuota tq, QuotaEntry e, ScopeFactors factors) {
    long soft = tq.getSoftLimit();
    if (soft <= 0) {
      return 0; // a zero limit refuses everything, as in HBase
    }
    if (soft == Long.MAX_VALUE) {
      return soft; // no limit, as in HBase, whatever the share
    }
    if (tq.getScope() != QuotaProtos.QuotaScope.CLUSTER) {
      return soft;
    }
    double factor;
    switch (e.scope()) {
      case TABLE:
      case USER_TABLE:
        factor = factors.forTable(e.table());
        break;
      case REGION_SERVER:
        factor = 1;
        break;
      default:
        factor = factors.perServer();
    }
    return Math.max(1, (long) (soft * factor));
  }

  /** The stored limit of one throttle type, or null when the setting has none. */
  static TimedQuota timed(Throttle t, ThrottleType type) {
    return ThrottleTypes.timed(t, type);
  }

  /** Whether any stored limit is CLUSTER-scoped, i.e. whether factors must be fetched. */
  static boolean anyClusterScope(Collection<QuotaEntry> entries) {
    for (QuotaEntry e : entries) {
      if (!e.quotas().hasThrottle()) {
        continue;
      }
      for (ThrottleType type : TYPES) {
        TimedQuota tq = timed(e.quotas().getThrottle(), type);
        if (tq != null && tq.getScope() == QuotaProtos.QuotaScope.CLUSTER) {
          return true;
        }
      }
    }
    return false;
  }

  private static final class UserParts {
    LimitSet global;
    boolean bypassGlobals;
    final Map<TableName, LimitSet> tables = new HashMap<>();
    final Map<String, LimitSet> namespaces = new HashMap<>();
  }
}
