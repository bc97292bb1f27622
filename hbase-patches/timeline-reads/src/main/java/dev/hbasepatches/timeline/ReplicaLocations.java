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

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.AsyncTableRegionLocator;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The reader's own view of where each replica of each region lives, kept beside the connection's
 * location cache. It is what lets a read go to a secondary while meta has no server for the
 * primary (a graceful stop, a move): reads plan from it without waiting, and it is refreshed in
 * the background, at most once per {@code relocateNanos} per region, when the primary of a region
 * lost a race or failed.
 */
final class ReplicaLocations {

  /** One region: its keys and the server of each replica (null where unknown). */
  static final class Entry {
    final byte[] startKey;
    final byte[] endKey;
    final ServerName[] servers;
    volatile boolean suspect;
    volatile long lastRefreshNanos;

    Entry(byte[] startKey, byte[] endKey, ServerName[] servers, long nowNanos) {
      this.startKey = startKey;
      this.endKey = endKey;
      this.servers = servers;
      this.lastRefreshNanos = nowNanos;
    }
  }

  private final AsyncTableRegionLocator locator;
  private final long relocateNanos;
  private final ConcurrentSkipListMap<byte[], Entry> byStartKey =
    new ConcurrentSkipListMap<>(Bytes.BYTES_COMPARATOR);
  /** When the whole table's locations were last asked for (a reversed scan's lookup missed). */
  private final AtomicLong lastLoadAll = new AtomicLong();
  private volatile boolean loadedAll;

  ReplicaLocations(AsyncTableRegionLocator locator, long relocateNanos) {
    this.locator = locator;
    this.relocateNanos = relocateNanos;
  }

  /**
   * The cached entry for {@code row}, or null (and a lookup started in the background) when none
   * is cached. A suspect entry past its refresh interval is refreshed from meta in the background.
   */
  Entry find(byte[] row, long nowNanos) {
    return find(row, false, nowNanos);
  }

  /**
   * With {@code before}, the entry of the region holding the rows just below {@code row}, the
   * last region when {@code row} is empty: where a reversed scan that excludes its start row (or
   * has none) begins. HBase's public locator finds only the region holding a row, so a miss here
   * asks meta for the whole table's locations, at most once per {@code relocateNanos}.
   */
  Entry find(byte[] row, boolean before, long nowNanos) {
    Map.Entry<byte[], Entry> e;
    if (!before) {
      e = byStartKey.floorEntry(row);
    } else {
      e = row.length == 0 ? byStartKey.lastEntry() : byStartKey.lowerEntry(row);
    }
    Entry entry = e == null ? null : e.getValue();
    boolean covers;
    if (entry == null) {
      covers = false;
    } else if (entry.endKey.length == 0) {
      covers = true;
    } else if (before) {
      covers = row.length > 0 && Bytes.compareTo(row, entry.endKey) <= 0;
    } else {
      covers = Bytes.compareTo(row, entry.endKey) < 0;
    }
    if (!covers) {
      if (!before) {
        load(row, false, nowNanos);
      } else {
        loadAll(nowNanos);
      }
      return null;
    }
    if (entry.suspect && nowNanos - entry.lastRefreshNanos >= relocateNanos) {
      entry.lastRefreshNanos = nowNanos;
      load(entry.startKey, true, nowNanos);
    }
    return entry;
  }

  private void loadAll(long nowNanos) {
    long last = lastLoadAll.get();
    if (loadedAll && nowNanos - last < relocateNanos) {
      return;
    }
    if (!lastLoadAll.compareAndSet(last, nowNanos)) {
      return; // another read is asking
    }
    loadedAll = true;
    locator.getAllRegionLocations().whenComplete((locs, error) -> {
      if (error != null) {
        return;
      }
      Map<byte[], List<HRegionLocation>> byRegion = new TreeMap<>(Bytes.BYTES_COMPARATOR);
      for (HRegionLocation l : locs) {
        if (l != null && l.getRegion() != null) {
          byRegion.computeIfAbsent(l.getRegion().getStartKey(), k -> new ArrayList<>()).add(l);
        }
      }
      for (List<HRegionLocation> region : byRegion.values()) {
        store(region, nowNanos);
      }
    });
  }

  private void load(byte[] row, boolean reload, long nowNanos) {
    locator.getRegionLocations(row, reload).whenComplete((locs, error) -> {
      if (error == null) {
        store(locs, nowNanos);
      } else if (reload) {
        // meta has no server for the primary (a region in transition): keep reading secondaries
        primaryUnknown(row);
      }
    });
  }

  void store(List<HRegionLocation> locs, long nowNanos) {
    RegionInfo region = null;
    int replicas = 0;
    for (HRegionLocation l : locs) {
      if (l != null && l.getRegion() != null) {
        region = l.getRegion();
        replicas = Math.max(replicas, l.getRegion().getReplicaId() + 1);
      }
    }
    if (region == null) {
      return;
    }
    ServerName[] servers = new ServerName[Math.max(replicas, locs.size())];
    for (HRegionLocation l : locs) {
      if (l != null && l.getRegion() != null) {
        servers[l.getRegion().getReplicaId()] = l.getServerName();
      }
    }
    Entry entry = new Entry(region.getStartKey(), region.getEndKey(), servers, nowNanos);
    entry.suspect = servers[0] == null;
    byStartKey.put(region.getStartKey(), entry);
  }

  /** The primary of the region holding {@code row} lost a race: check meta again soon. */
  void primaryLost(Entry entry) {
    if (entry != null && !entry.suspect) {
      entry.suspect = true;
    }
  }

  /** The primary failed or meta has no server for it: plan the region's reads without it. */
  void primaryUnknown(byte[] row) {
    Map.Entry<byte[], Entry> e = byStartKey.floorEntry(row);
    if (e != null) {
      primaryUnknown(e.getValue());
    }
  }

  /** The same for a region whose entry a read planned from. */
  void primaryUnknown(Entry old) {
    if (old == null || old.servers[0] == null) {
      return;
    }
    ServerName[] servers = old.servers.clone();
    servers[0] = null;
    Entry entry = new Entry(old.startKey, old.endKey, servers, old.lastRefreshNanos);
    entry.suspect = true;
    byStartKey.replace(old.startKey, old, entry);
  }
}
