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

import dev.hbasepatches.perf.PerfOptions.RequestDistribution;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;

/**
 * YCSB's core workloads A-F over the tool's table (loaded first, --rows x nclients rows):
 * the operation mixes and request distributions of YCSB's workload files. A read gets the whole
 * row, an update puts one column (YCSB's writeallfields=false), an insert puts a whole new row
 * after the loaded ones, a scan reads 1-100 rows (uniform) from its start row, and a
 * read-modify-write gets the row and puts one column back. Zipfian picks are scrambled over the
 * loaded rows (YCSB's scrambled zipfian, same exponent: --zipfExponent, 0.99); latest picks count
 * back from the newest readable insert by a zipfian rank. YCSB's default record has 10 fields of
 * 100 bytes: {@code --columns=10 --valueSize=100}. Every value written is the row's own, so
 * --verify checks every read, scan and read-modify-write.
 */
final class YcsbWorkload extends ClientWorkload {

  private enum Op {
    READ("read"), UPDATE("update"), INSERT("insert"), SCAN("scan"),
    READ_MODIFY_WRITE("readModifyWrite");

    final String label;

    Op(String label) {
      this.label = label;
    }
  }

  /** YCSB's maxscanlength. */
  static final int MAX_SCAN_LENGTH = 100;

  private final SplittableRandom random;
  private final KeyChooser uniformKeys;
  private final RequestDistribution distribution;
  private final long loaded;
  private final long scatter;
  private Table table;
  private Op op;
  private long row;
  private final List<Result> results = new ArrayList<>();

  YcsbWorkload(RunContext ctx, int client) {
    super(ctx, client);
    this.random = new SplittableRandom(RowShape.mix(ctx.options.seed * 31 + client + 17));
    this.uniformKeys = ctx.keyChooser(client);
    this.loaded = ctx.options.totalRows();
    this.scatter = RowShape.mix(ctx.options.seed ^ 0x5CA7L);
    RequestDistribution d = ctx.options.requestDistribution;
    if (d == null) {
      d = ctx.command == Command.WORKLOAD_D ? RequestDistribution.LATEST
        : RequestDistribution.ZIPFIAN;
    }
    this.distribution = d;
  }

  @Override
  void open() throws IOException {
    if (distribution != RequestDistribution.UNIFORM) {
      ctx.requestZipf();
    }
    table = ctx.readTableFor(client);
  }

  /** The operation mix of each workload, from one uniform draw. */
  private Op nextOp() {
    double u = random.nextDouble();
    switch (ctx.command) {
      case WORKLOAD_A:
        return u < 0.5 ? Op.READ : Op.UPDATE;
      case WORKLOAD_B:
        return u < 0.95 ? Op.READ : Op.UPDATE;
      case WORKLOAD_C:
        return Op.READ;
      case WORKLOAD_D:
        return u < 0.95 ? Op.READ : Op.INSERT;
      case WORKLOAD_E:
        return u < 0.95 ? Op.SCAN : Op.INSERT;
      case WORKLOAD_F:
        return u < 0.5 ? Op.READ : Op.READ_MODIFY_WRITE;
      default:
        throw new IllegalStateException(ctx.command + " is not a YCSB workload");
    }
  }

  /** A row to read or update, by the request distribution. */
  private long nextRow() {
    switch (distribution) {
      case UNIFORM:
        return uniformKeys.uniform(ctx.inserted.readable());
      case LATEST: {
        long newest = ctx.inserted.readable() - 1;
        long rank = ctx.requestZipf().rank(random.nextDouble());
        return Math.max(0, newest - rank);
      }
      default: {
        long rank = ctx.requestZipf().rank(random.nextDouble());
        return Long.remainderUnsigned(RowShape.mix(rank ^ scatter), loaded);
      }
    }
  }

  @Override
  int execute(long index) throws IOException {
    op = nextOp();
    results.clear();
    switch (op) {
      case READ:
        row = nextRow();
        results.add(table.get(ctx.get(row)));
        return 1;
      case UPDATE:
        row = nextRow();
        table.put(oneColumn(row));
        return 1;
      case INSERT:
        row = ctx.inserted.take();
        table.put(ctx.shape.put(row, ctx.options.writeToWal));
        ctx.inserted.done(row);
        return 1;
      case SCAN: {
        row = nextRow();
        int length = 1 + random.nextInt(MAX_SCAN_LENGTH);
        Scan scan = ctx.scan().withStartRow(RowKeys.key(row)).setLimit(length)
          .setCaching(length);
        try (ResultScanner scanner = table.getScanner(scan)) {
          for (Result r = scanner.next(); r != null; r = scanner.next()) {
            results.add(r);
          }
        }
        return results.size();
      }
      default:
        row = nextRow();
        results.add(table.get(ctx.get(row)));
        table.put(oneColumn(row));
        return 1;
    }
  }

  /** YCSB's update: one field, here one column of one family, with the row's own value. */
  private Put oneColumn(long r) {
    int f = random.nextInt(ctx.shape.families().length);
    int c = random.nextInt(ctx.options.columns);
    Put p = new Put(RowKeys.key(r)).addColumn(ctx.shape.family(f), ctx.shape.qualifier(c),
      ctx.shape.value(r, f, c));
    if (!ctx.options.writeToWal) {
      p.setDurability(Durability.SKIP_WAL);
    }
    return p;
  }

  @Override
  String lastOperation() {
    return op.label;
  }

  @Override
  void checkLast() {
    if (op == Op.SCAN) {
      long expected = row;
      for (Result r : results) {
        long got = RowKeys.row(r.getRow());
        // Loaded rows are all there; past them, an insert still in flight may leave a gap.
        if (got != expected && expected < loaded) {
          ctx.tally.wrong("a " + ctx.command.cliName() + " scan from row " + row + " returned row "
            + got + " where row " + expected + " was due");
          return;
        }
        ReadChecks.checkRow(ctx, r, got);
        expected++;
      }
    } else if (!results.isEmpty()) {
      ReadChecks.checkRow(ctx, results.get(0), row);
    }
  }

  @Override
  public void close() throws IOException {
    if (table != null) {
      table.close();
    }
  }
}
