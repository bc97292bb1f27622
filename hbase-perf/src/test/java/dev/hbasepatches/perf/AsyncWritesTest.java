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

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;

/**
 * The async* writes await one put per row, as hbase pe's, unless --autoFlush=false is given:
 * then they go through an AsyncBufferedMutator and reach the table at the flush.
 */
public class AsyncWritesTest {

  @ClassRule
  public static final ClusterRule CLUSTER = TestCluster.CLUSTER;

  private static final TableName TABLE = TableName.valueOf("async_writes");
  private static AsyncConnection async;

  @BeforeClass
  public static void createTable() throws Exception {
    RowShape shape = new RowShape(PerfArgsParser.parse("asyncSequentialWrite"));
    TableDescriptorBuilder t = TableDescriptorBuilder.newBuilder(TABLE);
    for (byte[] f : shape.families()) {
      t.setColumnFamily(ColumnFamilyDescriptorBuilder.of(f));
    }
    CLUSTER.connection().getAdmin().createTable(t.build());
    async = ConnectionFactory.createAsyncConnection(CLUSTER.connection().getConfiguration())
      .get(60, TimeUnit.SECONDS);
  }

  @AfterClass
  public static void close() throws Exception {
    if (async != null) {
      async.close();
    }
  }

  /**
   * Client {@code client} writes its first row; says whether that row was readable before the
   * client's end-of-run flush, and checks it is after it.
   */
  private static boolean readableRightAfterTheWrite(int client, String... args) throws Exception {
    RunContext ctx = new RunContext(PerfArgsParser.parse(args),
      Command.ASYNC_SEQUENTIAL_WRITE, CLUSTER.connection(), TABLE, false);
    long row = ctx.firstRow(client);
    ctx.asyncSource = () -> async;
    boolean readable;
    try (WriteWorkload w = new WriteWorkload(ctx, client)) {
      w.open();
      w.execute(0);
      try (Table t = CLUSTER.connection().getTable(TABLE)) {
        readable = !t.get(new Get(RowKeys.key(row))).isEmpty();
      }
      w.finish();
    } finally {
      ctx.closeClientConnections();
    }
    try (Table t = CLUSTER.connection().getTable(TABLE)) {
      assertFalse("row " + row + " after the flush",
        t.get(new Get(RowKeys.key(row))).isEmpty());
    }
    return readable;
  }

  @Test(timeout = 120_000)
  public void byDefaultEachPutIsAwaited() throws Exception {
    assertTrue(readableRightAfterTheWrite(1, "--rows=30", "asyncSequentialWrite", "2"));
  }

  @Test(timeout = 120_000)
  public void autoFlushFalseBuffersThePutsAndAutoFlushAwaitsThem() throws Exception {
    // The 2 MB buffer (no periodic flush by default) holds a 1 KB row until the flush.
    assertFalse(readableRightAfterTheWrite(1, "--rows=10", "--autoFlush=false",
      "asyncSequentialWrite", "2"));
    assertTrue(readableRightAfterTheWrite(1, "--rows=20", "--autoFlush", "asyncSequentialWrite",
      "2"));
  }
}
