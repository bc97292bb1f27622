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
import java.io.PrintStream;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.util.CompressionTest;

/**
 * Creates the test tables as the options describe them and remembers, per table, whether this
 * run made it and whether it holds every row yet, so read commands know to load it first.
 */
final class TableManager {

  /** What this run knows about one table. */
  static final class TableState {
    final boolean createdByThisRun;
    boolean loaded;
    boolean warmed;

    TableState(boolean createdByThisRun) {
      this.createdByThisRun = createdByThisRun;
      // A table that was there already is taken as filled by an earlier run; reads report
      // missing rows if it was not.
      this.loaded = !createdByThisRun;
    }
  }

  private final Connection connection;
  private final PerfOptions options;
  private final boolean embedded;
  private final PrintStream notes;
  private final Map<TableName, TableState> states = new HashMap<>();

  TableManager(Connection connection, PerfOptions options, boolean embedded, PrintStream notes) {
    this.connection = connection;
    this.options = options;
    this.embedded = embedded;
    this.notes = notes;
  }

  /** Makes sure the table exists, creating (or with --recreate, re-creating) it once per run. */
  TableState prepare(TableName name, boolean inMemory) {
    TableState known = states.get(name);
    if (known != null) {
      return known;
    }
    try (Admin admin = connection.getAdmin()) {
      boolean exists = admin.tableExists(name);
      if (exists && options.recreate) {
        notes.println("dropping existing table " + name + " (--recreate)");
        drop(admin, name);
        exists = false;
      }
      if (exists) {
        if (!admin.isTableEnabled(name)) {
          throw ToolFailure.cluster("table " + name + " exists but is disabled; enable it, or "
            + "pass --recreate to drop and create it again");
        }
        notes.println("using existing table " + name + "; table options are not applied to it "
          + "(--recreate to drop and create it)");
      } else {
        create(admin, name, inMemory);
      }
      TableState state = new TableState(!exists);
      states.put(name, state);
      return state;
    } catch (IOException e) {
      throw ToolFailure.cluster("could not prepare table " + name, e);
    }
  }

  private void create(Admin admin, TableName name, boolean inMemory) throws IOException {
    Compression.Algorithm compression = Compression.Algorithm.valueOf(options.compression);
    if (embedded && compression != Compression.Algorithm.NONE) {
      try {
        // The embedded region servers share this JVM, so a codec that fails here fails there.
        CompressionTest.testCompression(compression);
      } catch (IOException | RuntimeException | LinkageError e) {
        throw ToolFailure.usage("--compression=" + options.compression.toLowerCase(Locale.ROOT)
          + " is not available in this JVM: " + ToolFailure.describe(e));
      }
    }
    TableDescriptorBuilder table = TableDescriptorBuilder.newBuilder(name);
    for (byte[] family : new RowShape(options).families()) {
      table.setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(family)
        .setCompressionType(compression)
        .setDataBlockEncoding(DataBlockEncoding.valueOf(options.blockEncoding))
        .setBloomFilterType(BloomType.valueOf(options.bloomFilter))
        .setInMemory(inMemory)
        .build());
    }
    if (options.replicas > 1) {
      table.setRegionReplication(options.replicas);
    }
    byte[][] splits = RowKeys.splits(options.totalRows(), options.presplit);
    notes.println("creating table " + name + " (" + Math.max(1, splits.length + 1)
      + " region(s), " + options.families + " famil" + (options.families == 1 ? "y" : "ies")
      + (options.replicas > 1 ? ", " + options.replicas + " replicas" : "") + ")");
    if (splits.length == 0) {
      admin.createTable(table.build());
    } else {
      admin.createTable(table.build(), splits);
    }
  }

  void flush(TableName name) {
    try (Admin admin = connection.getAdmin()) {
      admin.flush(name);
    } catch (IOException e) {
      throw ToolFailure.cluster("could not flush table " + name, e);
    }
  }

  void drop(TableName name) {
    try (Admin admin = connection.getAdmin()) {
      if (admin.tableExists(name)) {
        drop(admin, name);
      }
      states.remove(name);
    } catch (IOException e) {
      throw ToolFailure.cluster("could not drop table " + name, e);
    }
  }

  private static void drop(Admin admin, TableName name) throws IOException {
    if (admin.isTableEnabled(name)) {
      admin.disableTable(name);
    }
    admin.deleteTable(name);
  }

  Iterable<TableName> tablesSeen() {
    return states.keySet();
  }
}
