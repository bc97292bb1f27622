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
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Table;

/**
 * increment and checkAndPut: operations the region server must read before it writes, at keys
 * from --keys. checkAndPut puts back the very values the row was written with, so the table's
 * contents stay checkable; its check failing means the row was not as written.
 */
final class ReadModifyWriteWorkload extends ClientWorkload {

  private final KeyChooser keys;
  private Table table;
  private long row;
  private boolean checkHeld;

  ReadModifyWriteWorkload(RunContext ctx, int client) {
    super(ctx, client);
    this.keys = ctx.keyChooser(client);
  }

  @Override
  void open() throws IOException {
    table = ctx.connection.getTable(ctx.table);
  }

  @Override
  int execute(long index) throws IOException {
    row = keys.next();
    byte[] key = RowKeys.key(row);
    if (ctx.command == Command.INCREMENT) {
      Increment inc = new Increment(key).addColumn(ctx.shape.firstFamily(), RowShape.COUNTER, 1);
      if (!ctx.options.writeToWal) {
        inc.setDurability(Durability.SKIP_WAL);
      }
      table.increment(inc);
    } else {
      CheckAndMutate cam = CheckAndMutate.newBuilder(key)
        .ifEquals(ctx.shape.firstFamily(), ctx.shape.firstQualifier(), ctx.shape.value(row, 0, 0))
        .build(ctx.shape.put(row, ctx.options.writeToWal));
      checkHeld = table.checkAndMutate(cam).isSuccess();
    }
    return 1;
  }

  @Override
  void checkLast() {
    if (ctx.command == Command.INCREMENT) {
      if (ctx.increments != null) {
        ctx.increments.incrementAndGet((int) row);
      }
      return;
    }
    if (!checkHeld) {
      ctx.checkFailed.increment();
      if (ctx.verify) {
        ctx.tally.wrong("checkAndPut on row " + row + ": its first column did not hold the "
          + "value it was written with");
      }
    } else if (ctx.verify) {
      ctx.tally.checked(1);
    }
  }

  @Override
  public void close() throws IOException {
    if (table != null) {
      table.close();
    }
  }
}
