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
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.hbase.client.Table;

/**
 * sequentialWrite and randomWrite (one Put of a whole row per operation), sequentialDelete and
 * randomDelete (one Delete of every family of a row), through a BufferedMutator unless
 * --autoFlush asks for one RPC per mutation. A buffered mutation that fails later is counted by
 * the mutator's listener, so the error count stays exact.
 */
final class WriteWorkload extends ClientWorkload {

  private final boolean random;
  private final SequentialCursor cursor;
  private final KeyChooser keys;
  private Table table;
  private BufferedMutator mutator;

  WriteWorkload(RunContext ctx, int client) {
    super(ctx, client);
    this.random = ctx.command == Command.RANDOM_WRITE || ctx.command == Command.RANDOM_DELETE;
    this.cursor = new SequentialCursor(ctx.firstRow(client), ctx.options.rows);
    this.keys = ctx.keyChooser(client);
  }

  @Override
  void open() throws IOException {
    if (ctx.options.autoFlush) {
      table = ctx.connection.getTable(ctx.table);
    } else {
      BufferedMutatorParams params = new BufferedMutatorParams(ctx.table)
        .writeBufferSize(ctx.options.writeBuffer).listener(this::onFailedPuts);
      mutator = ctx.connection.getBufferedMutator(params);
    }
  }

  private void onFailedPuts(RetriesExhaustedWithDetailsException e, BufferedMutator m) {
    for (int i = 0; i < e.getNumExceptions(); i++) {
      ctx.errors.recordLate(e.getCause(i));
    }
  }

  @Override
  int execute(long index) throws IOException {
    long row = random ? keys.next() : cursor.next();
    Mutation m;
    if (ctx.command.kind() == Command.Kind.DELETE) {
      Delete d = new Delete(RowKeys.key(row));
      for (byte[] f : ctx.shape.families()) {
        d.addFamily(f);
      }
      if (!ctx.options.writeToWal) {
        d.setDurability(Durability.SKIP_WAL);
      }
      m = d;
    } else {
      m = ctx.shape.put(row, ctx.options.writeToWal);
    }
    if (mutator != null) {
      mutator.mutate(m);
    } else if (m instanceof Put) {
      table.put((Put) m);
    } else {
      table.delete((Delete) m);
    }
    if (ctx.written != null) {
      ctx.written.add(row);
    }
    return 1;
  }

  @Override
  void finish() throws IOException {
    if (mutator != null) {
      mutator.flush();
    }
  }

  @Override
  public void close() throws IOException {
    if (mutator != null) {
      mutator.close();
    }
    if (table != null) {
      table.close();
    }
  }
}
