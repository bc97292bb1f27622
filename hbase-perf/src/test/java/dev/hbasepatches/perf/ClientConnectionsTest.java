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

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotSame;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;

import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.junit.ClassRule;
import org.junit.Test;

/**
 * hbase pe gives every client thread a Connection of its own unless --oneCon; so does the tool,
 * on the shared embedded cluster.
 */
public class ClientConnectionsTest {

  @ClassRule
  public static final ClusterRule CLUSTER = TestCluster.CLUSTER;

  private static RunContext context(boolean loading, String... args) {
    return new RunContext(PerfArgsParser.parse(args), Command.RANDOM_READ, CLUSTER.connection(),
      TableName.valueOf("connections"), loading);
  }

  @Test(timeout = 120_000)
  public void eachClientHasAConnectionOfItsOwnUntilClosed() throws Exception {
    RunContext ctx = context(false, "randomRead", "2");
    Connection first = ctx.connectionFor(0);
    Connection second = ctx.connectionFor(1);
    assertNotSame(first, second);
    assertNotSame(CLUSTER.connection(), first);
    assertNotSame(CLUSTER.connection(), second);
    assertSame(first, ctx.connectionFor(0));
    assertEquals(2, ctx.openClientConnections());
    ctx.closeClientConnections();
    assertTrue(first.isClosed());
    assertTrue(second.isClosed());
    assertFalse(CLUSTER.connection().isClosed());
    assertEquals(0, ctx.openClientConnections());
  }

  @Test(timeout = 60_000)
  public void oneConSharesTheRunsConnection() throws Exception {
    RunContext ctx = context(false, "--oneCon", "randomRead", "2");
    assertSame(CLUSTER.connection(), ctx.connectionFor(0));
    assertSame(CLUSTER.connection(), ctx.connectionFor(1));
    assertEquals(0, ctx.openClientConnections());
    assertTrue(PerfArgsParser.parse("--oneCon=true", "scan").oneCon);
    assertFalse(PerfArgsParser.parse("scan").oneCon);
  }

  @Test(timeout = 60_000)
  public void loadingATableUsesTheRunsConnection() throws Exception {
    RunContext ctx = context(true, "randomRead", "2");
    assertSame(CLUSTER.connection(), ctx.connectionFor(1));
    assertEquals(0, ctx.openClientConnections());
  }

  @Test(timeout = 120_000)
  public void eachAsyncClientHasAnAsyncConnectionOfItsOwnUntilClosed() throws Exception {
    RunContext ctx = new RunContext(PerfArgsParser.parse("asyncRandomRead", "2"),
      Command.ASYNC_RANDOM_READ, CLUSTER.connection(), TableName.valueOf("connections"), false);
    AsyncConnection shared = ConnectionFactory.createAsyncConnection(
      CLUSTER.connection().getConfiguration()).get(60, TimeUnit.SECONDS);
    try {
      ctx.asyncSource = () -> shared;
      AsyncConnection first = ctx.asyncConnectionFor(0);
      AsyncConnection second = ctx.asyncConnectionFor(1);
      assertNotSame(first, second);
      assertNotSame(shared, first);
      assertSame(first, ctx.asyncConnectionFor(0));
      assertEquals(2, ctx.openClientConnections());
      ctx.closeClientConnections();
      assertTrue(first.isClosed());
      assertTrue(second.isClosed());
      assertFalse(shared.isClosed());
      assertEquals(0, ctx.openClientConnections());

      RunContext oneCon = new RunContext(PerfArgsParser.parse("--oneCon", "asyncRandomRead", "2"),
        Command.ASYNC_RANDOM_READ, CLUSTER.connection(), TableName.valueOf("connections"), false);
      oneCon.asyncSource = () -> shared;
      assertSame(shared, oneCon.asyncConnectionFor(0));
      assertSame(shared, oneCon.asyncConnectionFor(1));
      assertEquals(0, oneCon.openClientConnections());
    } finally {
      shared.close();
    }
  }
}
