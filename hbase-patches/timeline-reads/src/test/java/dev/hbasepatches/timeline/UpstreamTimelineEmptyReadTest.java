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

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import dev.hbasepatches.testkit.MiniCluster;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.hbase.MiniHBaseCluster;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Consistency;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.ClassRule;
import org.junit.Test;

/**
 * Documents upstream behaviour (stock HBase 2.6.1 client and servers, no class of this module
 * involved): with region replication 3 and region replica replication on, a SECONDARY replica
 * opened seconds before (moved onto a server that just started, or reassigned after a failover)
 * answers Gets with no cell for rows that exist and were flushed long before: the servers count
 * these answers per replica ({@link ReplicaTagObserver}, with the region's store-file count at the
 * first few: 0 or 1 where the primary holds the 2,000-row flush), and the stock sync client's
 * TIMELINE {@code Table.get} hands such an answer to the application as an empty, stale Result
 * when the secondary wins the race. Found by {@code TimelineLatencyScenario}
 * (upstream/empty-reads-run: 150 and 35 empty results in the UPSTREAM graceful-stop and
 * abort runs). The test runs the scenario's cycle: a new server started, the replicas moved
 * apart, reads, then a graceful stop of the primary's server, up to {@link #CYCLES} times, until
 * the stock client has returned an empty Result. It is timing-dependent (the scenario saw it in
 * five of ten UPSTREAM failover runs), so not in the default build: {@code -Ptimeline-upstream}
 * runs it. When upstream stops serving empty answers from such secondaries, this test fails.
 */
public class UpstreamTimelineEmptyReadTest {

  private static final TableName TABLE = TableName.valueOf("timeline_empty");
  private static final byte[] F = ReplicaTagObserver.FAMILY;
  private static final byte[] V = Bytes.toBytes("v");
  private static final int ROWS = 2000;
  private static final int READERS = 8;
  private static final int CYCLES = 6;
  private static final long SEED = 20261125L;

  @ClassRule
  public static final MiniCluster CLUSTER = ReplicaClusters.threeServers()
    .conf("hbase.client.operation.timeout", "15000")
    .conf("hbase.client.retries.number", "10")
    .conf("hbase.regionserver.handler.count", "30")
    .build();

  private static String row(int i) {
    return String.format("row-%05d", i);
  }

  @Test
  public void stockTimelineGetAnswersEmptyFromAJustOpenedSecondary() throws Exception {
    ReplicaClusters.createAndLoad(CLUSTER, TABLE, F, V,
      java.util.stream.IntStream.range(0, ROWS).mapToObj(UpstreamTimelineEmptyReadTest::row)
        .collect(java.util.stream.Collectors.toList()), 200);
    System.out.println(ReplicaClusters.placeReplicas(CLUSTER, TABLE));
    Thread.sleep(3000); // store-file refresh on the secondaries

    AtomicBoolean go = new AtomicBoolean(true);
    AtomicLong reads = new AtomicLong();
    AtomicLong empty = new AtomicLong();
    AtomicLong staleEmpty = new AtomicLong();
    AtomicLong failed = new AtomicLong();
    AtomicReference<String> firstEmpty = new AtomicReference<>();
    List<String> cycles = new ArrayList<>();
    // Stock client: a plain Connection, TIMELINE Gets through HTable and
    // RpcRetryingCallerWithReadReplicas with default timeouts.
    try (Connection conn = ConnectionFactory.createConnection(CLUSTER.conf());
      Table writerTable = conn.getTable(TABLE)) {
      List<Thread> threads = new ArrayList<>();
      for (int n = 0; n < READERS; n++) {
        final long seed = SEED + n;
        threads.add(new Thread(() -> {
          Random rnd = new Random(seed);
          try (Table t = conn.getTable(TABLE)) {
            while (go.get()) {
              String row = row(rnd.nextInt(ROWS));
              try {
                Result r = t.get(new Get(Bytes.toBytes(row)).setConsistency(Consistency.TIMELINE));
                reads.incrementAndGet();
                if (r.isEmpty()) {
                  empty.incrementAndGet();
                  staleEmpty.addAndGet(r.isStale() ? 1 : 0);
                  firstEmpty.compareAndSet(null, row + " (isStale " + r.isStale() + ")");
                }
              } catch (Exception e) {
                failed.incrementAndGet();
              }
            }
          } catch (Exception e) {
            failed.incrementAndGet();
          }
        }, "stock-timeline-reader-" + n));
      }
      // a writer at about 100 puts/s to the same rows, as in the scenario
      threads.add(new Thread(() -> {
        Random rnd = new Random(SEED - 1);
        long seq = 1;
        while (go.get()) {
          try {
            writerTable.put(new Put(Bytes.toBytes(row(rnd.nextInt(ROWS)))).addColumn(F, V,
              Bytes.toBytes("v" + seq++)));
            Thread.sleep(10);
          } catch (Exception e) {
            // the writer only keeps the memstores busy; its failures are not the point
          }
        }
      }, "writer"));
      ReplicaTagObserver.reset();
      threads.forEach(Thread::start);
      try {
        MiniHBaseCluster c = CLUSTER.util().getMiniHBaseCluster();
        for (int cycle = 1; cycle <= CYCLES && empty.get() == 0; cycle++) {
          while (c.getLiveRegionServerThreads().size() < 3) {
            c.startRegionServer(); // the scenario's restore: a new server, replicas moved onto it
          }
          String placed = ReplicaClusters.placeReplicas(CLUSTER, TABLE);
          Thread.sleep(3000);
          ServerName primary;
          try (RegionLocator l = conn.getRegionLocator(TABLE)) {
            primary = l.getRegionLocation(new byte[0], 0, true).getServerName();
          }
          int index = -1;
          for (int i = 0; i < c.getRegionServerThreads().size(); i++) {
            if (c.getRegionServerThreads().get(i).isAlive()
              && c.getRegionServer(i).getServerName().equals(primary)) {
              index = i;
            }
          }
          assertTrue(primary + " is not a live server", index >= 0);
          c.stopRegionServer(index);
          c.waitOnRegionServer(index);
          CLUSTER.util().waitUntilNoRegionsInTransition(120_000);
          Thread.sleep(4000);
          cycles.add("cycle " + cycle + " (" + placed + ", graceful stop of " + primary
            + "): " + reads + " reads, " + empty + " empty so far");
          System.out.println(cycles.get(cycles.size() - 1));
        }
      } finally {
        go.set(false);
        for (Thread t : threads) {
          t.join(30_000);
        }
      }
      for (Thread t : threads) {
        assertFalse(t.getName() + " never ended: a read hangs", t.isAlive());
      }
    }
    StringBuilder perReplica = new StringBuilder();
    for (int r = 0; r < 3; r++) {
      perReplica.append(" replica ").append(r).append(": ")
        .append(ReplicaTagObserver.EMPTY_GETS.get(r));
    }
    String what = reads + " TIMELINE reads of existing rows, " + empty + " empty (" + staleEmpty
      + " flagged stale), " + failed + " failed; empty answers on the servers:" + perReplica
      + "; first: " + firstEmpty.get() + "; seen: " + ReplicaTagObserver.EMPTY_SEEN + "; "
      + cycles;
    System.out.println(what);
    assertTrue("too few reads to tell: " + what, reads.get() > 200);
    assertTrue("stock 2.6.1 gave no empty answer for an existing row in " + CYCLES
      + " cycles: upstream fixed it, or this run missed the window? " + what, empty.get() > 0);
    assertEquals("the primary answered empty: " + what, 0, ReplicaTagObserver.EMPTY_GETS.get(0));
    assertEquals("an empty answer not flagged stale: " + what, empty.get(), staleEmpty.get());
  }
}
