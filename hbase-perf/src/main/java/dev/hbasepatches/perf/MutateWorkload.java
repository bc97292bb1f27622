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
import java.util.Arrays;
import org.apache.hadoop.hbase.client.Append;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * increment, append, checkAndPut, checkAndMutate and checkAndDelete as {@code hbase pe} runs
 * them: operation {@code i} of every client works on row {@code i} of [0, --rows), so clients
 * overlap on the key space and contend; each command has its own column in the first family,
 * named as PE names it ({@code IncrementTest}, ...). increment adds 1 per family, append appends
 * the row key per family. The checkAnd* commands first put the row key into their column, then
 * send a mutation conditional on that value: checkAndPut and checkAndMutate replace it with
 * {@link #replaced} (a put, and a put inside RowMutations), checkAndDelete deletes it. Their
 * outcome is counted; with --verify the table's final state is read back ({@link ReadBack}).
 */
final class MutateWorkload extends ClientWorkload {

  private Table table;
  private long row;
  private boolean checkHeld;

  MutateWorkload(RunContext ctx, int client) {
    super(ctx, client);
  }

  /** The column a command works on, in the first family: PE's test class name. */
  static byte[] qualifier(Command c) {
    switch (c) {
      case INCREMENT:
        return Bytes.toBytes("IncrementTest");
      case APPEND:
        return Bytes.toBytes("AppendTest");
      case CHECK_AND_PUT:
        return Bytes.toBytes("CheckAndPutTest");
      case CHECK_AND_MUTATE:
        return Bytes.toBytes("CheckAndMutateTest");
      case CHECK_AND_DELETE:
        return Bytes.toBytes("CheckAndDeleteTest");
      default:
        throw new IllegalArgumentException(c + " is not a mutate command");
    }
  }

  /** What a successful checkAndPut / checkAndMutate leaves in its column: the key and a '+'. */
  static byte[] replaced(byte[] key) {
    byte[] v = Arrays.copyOf(key, key.length + 1);
    v[key.length] = '+';
    return v;
  }

  /**
   * The conditional part of a checkAnd* operation on {@code key}: applies only while the
   * command's column holds exactly the key.
   */
  static CheckAndMutate conditional(Command c, RowShape shape, byte[] key, boolean wal)
    throws IOException {
    byte[] family = shape.firstFamily();
    byte[] q = qualifier(c);
    CheckAndMutate.Builder b = CheckAndMutate.newBuilder(key).ifEquals(family, q, key);
    switch (c) {
      case CHECK_AND_PUT:
        return b.build(durable(new Put(key).addColumn(family, q, replaced(key)), wal));
      case CHECK_AND_MUTATE:
        RowMutations m = new RowMutations(key);
        m.add((Mutation) durable(new Put(key).addColumn(family, q, replaced(key)), wal));
        return b.build(m);
      case CHECK_AND_DELETE:
        return b.build(durable(new Delete(key).addColumns(family, q), wal));
      default:
        throw new IllegalArgumentException(c + " is not a checkAnd* command");
    }
  }

  private static <M extends Mutation> M durable(M m, boolean wal) {
    if (!wal) {
      m.setDurability(Durability.SKIP_WAL);
    }
    return m;
  }

  @Override
  void open() throws IOException {
    table = ctx.connectionFor(client).getTable(ctx.table);
  }

  @Override
  int execute(long index) throws IOException {
    row = index % ctx.options.rows;
    byte[] key = RowKeys.key(row);
    boolean wal = ctx.options.writeToWal;
    Command c = ctx.command;
    byte[] q = qualifier(c);
    if (c == Command.INCREMENT) {
      Increment inc = new Increment(key);
      for (byte[] f : ctx.shape.families()) {
        inc.addColumn(f, q, 1);
      }
      table.increment(durable(inc, wal));
    } else if (c == Command.APPEND) {
      Append app = new Append(key);
      for (byte[] f : ctx.shape.families()) {
        app.addColumn(f, q, key);
      }
      table.append(durable(app, wal));
    } else {
      table.put(durable(new Put(key).addColumn(ctx.shape.firstFamily(), q, key), wal));
      checkHeld = table.checkAndMutate(conditional(c, ctx.shape, key, wal)).isSuccess();
    }
    return 1;
  }

  @Override
  void checkLast() {
    if (ctx.increments != null) {
      ctx.increments.incrementAndGet((int) row);
    }
    Command c = ctx.command;
    if (c != Command.INCREMENT && c != Command.APPEND && !checkHeld) {
      ctx.checkFailed.increment();
    }
  }

  @Override
  public void close() throws IOException {
    if (table != null) {
      table.close();
    }
  }
}
