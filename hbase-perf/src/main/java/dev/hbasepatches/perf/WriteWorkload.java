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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.hbase.client.AsyncBufferedMutator;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.AsyncTable;
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
 * the mutator's listener, so the error count stays exact. The async* writes await one
 * {@code AsyncTable.put} per row, as hbase pe's (PE 2.6.1 sends each row's put twice, awaiting
 * both; ours sends it once), unless --autoFlush=false is given: then an AsyncBufferedMutator.
 */
final class WriteWorkload extends ClientWorkload {

  private final boolean random;
  private final SequentialCursor cursor;
  private final KeyChooser keys;
  private Table table;
  private BufferedMutator mutator;
  /** The async* commands' writers: one of these two. */
  private AsyncTable<?> asyncTable;
  private AsyncBufferedMutator asyncMutator;
  /** Buffered async puts not known to be done; pruned as they complete, awaited at the end. */
  private final List<CompletableFuture<Void>> pending = new ArrayList<>();

  WriteWorkload(RunContext ctx, int client) {
    super(ctx, client);
    this.random = ctx.command == Command.RANDOM_WRITE || ctx.command == Command.RANDOM_DELETE
      || ctx.command == Command.ASYNC_RANDOM_WRITE;
    this.cursor = new SequentialCursor(ctx.firstRow(client), ctx.options.rows);
    this.keys = ctx.keyChooser(client);
  }

  @Override
  void open() throws IOException {
    if (ctx.command.isAsync()) {
      AsyncConnection async = ctx.asyncConnectionFor(client);
      // PE's async writes await one AsyncTable.put per row whatever --autoFlush says; a write
      // buffer only when asked for by name.
      if (ctx.options.autoFlush || !ctx.options.autoFlushGiven) {
        asyncTable = async.getTable(ctx.table);
      } else {
        asyncMutator = async.getBufferedMutatorBuilder(ctx.table)
          .setWriteBufferSize(ctx.options.writeBuffer).build();
      }
      return;
    }
    if (ctx.options.autoFlush) {
      table = ctx.connectionFor(client).getTable(ctx.table);
    } else {
      BufferedMutatorParams params = new BufferedMutatorParams(ctx.table)
        .writeBufferSize(ctx.options.writeBuffer).listener(this::onFailedPuts);
      mutator = ctx.connectionFor(client).getBufferedMutator(params);
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
    if (asyncMutator != null) {
      CompletableFuture<Void> f = asyncMutator.mutate(m);
      f.whenComplete((v, e) -> {
        if (e != null) {
          ctx.errors.recordLate(e);
        }
      });
      pending.add(f);
      if (pending.size() >= 4096) {
        pending.removeIf(CompletableFuture::isDone);
      }
    } else if (asyncTable != null) {
      AsyncCalls.await(m instanceof Put ? asyncTable.put((Put) m) : asyncTable.delete((Delete) m));
    } else if (mutator != null) {
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
    if (asyncMutator != null) {
      asyncMutator.flush();
      try {
        // Failures were counted by each future's own callback.
        CompletableFuture.allOf(pending.toArray(new CompletableFuture<?>[0])).get();
      } catch (java.util.concurrent.ExecutionException e) {
        // Counted already.
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("waiting for buffered async puts");
      }
      pending.clear();
    }
  }

  @Override
  public void close() throws IOException {
    if (asyncMutator != null) {
      asyncMutator.close();
    }
    if (mutator != null) {
      mutator.close();
    }
    if (table != null) {
      table.close();
    }
  }
}
