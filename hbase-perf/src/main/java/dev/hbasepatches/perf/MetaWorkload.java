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
package dev.hbasepatches.perf;

import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.MetaTableAccessor;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * hbase pe's hbase:meta commands. metaWrite puts one made-up region of the table per row into
 * hbase:meta (start key the row number zero-padded, end key the next one, and a location on a
 * server that does not exist); metaRandomRead asks a RegionLocator for the region of a random
 * such key, going to hbase:meta every time rather than to the client's cache; cleanMeta deletes
 * the made-up regions again. The regions are entries in hbase:meta only: the master never
 * assigns them, and a client that reads the table's rows is sent to the made-up server until
 * cleanMeta has run, so run these on a table of their own.
 */
final class MetaWorkload extends ClientWorkload {

  /** The made-up region server every fake region is said to be on (as hbase pe's). */
  static final String FAKE_HOST = "localhost";
  static final int FAKE_PORT = 60010;

  private final SplittableRandom random;
  private final int width;
  private Connection connection;
  private RegionLocator locator;
  private byte[] lastKey;
  private HRegionLocation lastLocation;

  MetaWorkload(RunContext ctx, int client) {
    super(ctx, client);
    this.random = new SplittableRandom(RowShape.mix(ctx.options.seed * 31 + client));
    this.width = keyWidth(ctx.options.totalRows());
  }

  /** Digits of the row count, so the keys of 0 .. rows-1 sort as their numbers. */
  static int keyWidth(long totalRows) {
    return Long.toString(Math.max(1, totalRows)).length();
  }

  /** The start key of fake region {@code row}: its number zero-padded to {@code width}. */
  static byte[] key(long row, int width) {
    return Bytes.toBytes(String.format(Locale.ROOT, "%0" + width + "d", row));
  }

  /** The fake region of row {@code row} of the table: [key(row), key(row + 1)). */
  static RegionInfo fakeRegion(RunContext ctx, long row, int width) {
    return RegionInfoBuilder.newBuilder(ctx.table).setStartKey(key(row, width))
      .setEndKey(key(row + 1, width)).build();
  }

  /** Whether {@code r} is a region metaWrite made for row {@code row}. */
  static boolean isFake(RegionInfo r, long row, int width) {
    return Bytes.equals(r.getStartKey(), key(row, width))
      && Bytes.equals(r.getEndKey(), key(row + 1, width));
  }

  @Override
  void open() throws IOException {
    connection = ctx.connectionFor(client);
    locator = connection.getRegionLocator(ctx.table);
  }

  @Override
  int execute(long index) throws IOException {
    long row;
    switch (ctx.command) {
      case META_WRITE:
        row = ctx.firstRow(client) + index;
        RegionInfo region = fakeRegion(ctx, row, width);
        MetaTableAccessor.addRegionsToMeta(connection, List.of(region), 1);
        MetaTableAccessor.updateRegionLocation(connection, region,
          ServerName.valueOf(FAKE_HOST, FAKE_PORT, random.nextLong(Long.MAX_VALUE)), row,
          System.currentTimeMillis());
        lastKey = key(row, width);
        lastLocation = null;
        return 1;
      case META_RANDOM_READ:
        row = random.nextLong(ctx.options.totalRows());
        lastKey = key(row, width);
        lastLocation = locator.getRegionLocation(lastKey, true);
        return 1;
      case CLEAN_META:
        row = ctx.firstRow(client) + index;
        lastKey = key(row, width);
        // From hbase:meta, not from a cache that may hold the table's real region; and only a
        // region metaWrite made is deleted, never a real one (hbase pe deletes whichever
        // region holds the key, from the client's cache).
        lastLocation = locator.getRegionLocation(lastKey, true);
        if (lastLocation != null && isFake(lastLocation.getRegion(), row, width)) {
          MetaTableAccessor.deleteRegionInfo(connection, lastLocation.getRegion());
        } else {
          lastLocation = null;
        }
        return 1;
      default:
        throw new IllegalStateException(ctx.command + " is not an hbase:meta command");
    }
  }

  @Override
  void checkLast() {
    if (!ctx.verify || lastKey == null) {
      return;
    }
    if (ctx.command == Command.META_WRITE) {
      try {
        lastLocation = locator.getRegionLocation(lastKey, true);
      } catch (IOException e) {
        ctx.tally.missing(1, "reading " + Bytes.toStringBinary(lastKey) + "'s region back "
          + "from hbase:meta failed: " + ToolFailure.describe(e));
        return;
      }
    }
    if (lastLocation == null) {
      ctx.tally.missing(1, "no fake region in hbase:meta starts at "
        + Bytes.toStringBinary(lastKey));
      return;
    }
    RegionInfo r = lastLocation.getRegion();
    if (!Bytes.equals(r.getStartKey(), lastKey)) {
      ctx.tally.wrong("the region of " + Bytes.toStringBinary(lastKey) + " starts at "
        + Bytes.toStringBinary(r.getStartKey()) + ", not at the key (no fake region there)");
    } else if (ctx.command != Command.CLEAN_META
      && (!FAKE_HOST.equals(lastLocation.getHostname())
        || lastLocation.getPort() != FAKE_PORT)) {
      ctx.tally.wrong("fake region " + r.getRegionNameAsString() + " is on "
        + lastLocation.getServerName() + ", not on the made-up server");
    } else {
      ctx.tally.checked(1);
    }
  }

  @Override
  public void close() throws IOException {
    if (locator != null) {
      locator.close();
    }
  }
}
