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

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
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

  /** One region: its end key and the server of each replica (null where unknown). */
  static final class Entry {
    final byte[] endKey;
    final ServerName[] servers;
    volatile boolean suspect;
    volatile long lastRefreshNanos;

    Entry(byte[] endKey, ServerName[] servers, long nowNanos) {
      this.endKey = endKey;
      this.servers = servers;
      this.lastRefreshNanos = nowNanos;
    }
  }

  private final AsyncTableRegionLocator locator;
  private final long relocateNanos;
  private final ConcurrentSkipListMap<byte[], Entry> byStartKey =
    new ConcurrentSkipListMap<>(Bytes.BYTES_COMPARATOR);

  ReplicaLocations(AsyncTableRegionLocator locator, long relocateNanos) {
    this.locator = locator;
    this.relocateNanos = relocateNanos;
  }

  /**
   * The cached entry for {@code row}, or null (and a lookup started in the background) when none
   * is cached. A suspect entry past its refresh interval is refreshed from meta in the background.
   */
  Entry find(byte[] row, long nowNanos) {
    Map.Entry<byte[], Entry> e = byStartKey.floorEntry(row);
    Entry entry = e == null ? null : e.getValue();
    if (entry == null || (entry.endKey.length > 0 && Bytes.compareTo(row, entry.endKey) >= 0)) {
      load(row, false, nowNanos);
      return null;
    }
    if (entry.suspect && nowNanos - entry.lastRefreshNanos >= relocateNanos) {
      entry.lastRefreshNanos = nowNanos;
      load(row, true, nowNanos);
    }
    return entry;
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
    Entry entry = new Entry(region.getEndKey(), servers, nowNanos);
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
    if (e == null) {
      return;
    }
    Entry old = e.getValue();
    if (old.servers[0] == null) {
      return;
    }
    ServerName[] servers = old.servers.clone();
    servers[0] = null;
    Entry entry = new Entry(old.endKey, servers, old.lastRefreshNanos);
    entry.suspect = true;
    byStartKey.replace(e.getKey(), old, entry);
  }
}
