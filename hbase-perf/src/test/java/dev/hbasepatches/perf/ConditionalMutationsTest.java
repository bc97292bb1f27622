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

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;
import org.junit.ClassRule;
import org.junit.Test;

/**
 * The checkAnd* commands' mutations are really conditional: against a row whose column holds
 * something else they change nothing; and with clients sharing rows the tool still ends verified.
 */
public class ConditionalMutationsTest {

  @ClassRule
  public static final ClusterRule CLUSTER = TestCluster.CLUSTER;

  private static final Command[] CHECK_AND = { Command.CHECK_AND_PUT, Command.CHECK_AND_MUTATE,
    Command.CHECK_AND_DELETE };

  @Test
  public void aCheckThatDoesNotHoldChangesNothing() throws Exception {
    // The tool creates the table (one family, info0) with an empty run.
    ToolRun setup = ToolRun.plain(TestCluster.embedded("--rows=1", "--table=cond",
      "sequentialWrite"));
    assertEquals(setup.toString(), 0, setup.exitCode);
    RowShape shape = new RowShape(PerfArgsParser.parse("scan"));
    byte[] key = RowKeys.key(0);
    byte[] other = Bytes.toBytes("someone else's value");
    try (Table t = CLUSTER.connection().getTable(TableName.valueOf("cond"))) {
      for (Command c : CHECK_AND) {
        byte[] q = MutateWorkload.qualifier(c);
        t.put(new Put(key).addColumn(shape.firstFamily(), q, other));
        assertFalse(c.cliName(),
          t.checkAndMutate(MutateWorkload.conditional(c, shape, key, true)).isSuccess());
        assertArrayEquals(c.cliName(), other,
          t.get(new Get(key)).getValue(shape.firstFamily(), q));

        t.put(new Put(key).addColumn(shape.firstFamily(), q, key));
        assertTrue(c.cliName(),
          t.checkAndMutate(MutateWorkload.conditional(c, shape, key, true)).isSuccess());
        byte[] now = t.get(new Get(key)).getValue(shape.firstFamily(), q);
        if (c == Command.CHECK_AND_DELETE) {
          assertNull(now);
        } else {
          assertArrayEquals(MutateWorkload.replaced(key), now);
        }
      }
    }
  }

  @Test
  public void clientsSharingRowsStillEndVerified() throws Exception {
    ToolRun r = ToolRun.withJson(TestCluster.embedded("--rows=100", "--table=cond_shared",
      "--verify", "checkAndPut,checkAndDelete", "2"));
    assertEquals(r.toString(), 0, r.exitCode);
    for (JsonObject m : r.measured()) {
      assertEquals(r.toString(), 200, m.get("operations").getAsLong());
      assertEquals(r.toString(), 0, m.getAsJsonObject("verify").get("wrong").getAsLong());
      assertEquals(r.toString(), 100, m.getAsJsonObject("verify").get("rowsChecked").getAsLong());
    }
  }
}
