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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.util.CompressionTest;

/**
 * Seeds 000 and 003: the same rows written once per data block encoding and codec, then each
 * table's store file bytes, a full scan and random Gets. A codec that does not load in this JVM
 * (the embedded region servers share it) gets a row saying why instead of numbers.
 */
final class EncodingCompression {

  static final List<String> COLUMNS = List.of("encoding", "compression", "store file bytes",
    "bytes/row", "vs NONE/NONE", "scan rows/s", "get ops/s", "get p50 us", "get p99 us",
    "errors", "note");

  private final PerfRun run;
  private final PerfOptions options;
  private final PrintStream notes;

  EncodingCompression(PerfRun run, PerfOptions options, PrintStream notes) {
    this.run = run;
    this.options = options;
    this.notes = notes;
  }

  /** Null when {@code codec} compresses and decompresses here, else why not. */
  static String codecProblem(String codec) {
    Compression.Algorithm a = Compression.Algorithm.valueOf(codec);
    if (a == Compression.Algorithm.NONE) {
      return null;
    }
    try {
      CompressionTest.testCompression(a);
      return null;
    } catch (IOException | RuntimeException | LinkageError e) {
      return ToolFailure.describe(e);
    }
  }

  ScenarioReport run() {
    ScenarioReport report = new ScenarioReport("encodingCompression", String.format(Locale.ROOT,
      "Encoding x compression: %,d rows of %d x %d-byte values, %d client(s)",
      options.totalRows(), options.columns * options.families, options.valueSize,
      options.clients), COLUMNS);
    Map<String, String> codecProblems = new LinkedHashMap<>();
    for (String codec : options.compressions) {
      String why = codecProblem(codec);
      if (why != null) {
        codecProblems.put(codec, why);
        notes.println("encodingCompression: codec " + codec + " does not load here: " + why);
      }
    }
    String table = options.table;
    String encoding = options.blockEncoding;
    String compression = options.compression;
    List<String> labels = new ArrayList<>();
    List<double[]> values = new ArrayList<>();
    Double noneBytes = null;
    try {
      for (String enc : options.encodings) {
        for (String codec : options.compressions) {
          if (codecProblems.containsKey(codec)) {
            report.row(enc, codec, null, null, null, null, null, null, null, null,
              "codec not loaded: " + codecProblems.get(codec));
            continue;
          }
          options.table = table + "_" + enc + "_" + codec;
          options.blockEncoding = enc;
          options.compression = codec;
          double[] m = measure(TableName.valueOf(options.table), enc + "/" + codec);
          if (enc.equals("NONE") && codec.equals("NONE")) {
            noneBytes = m[0];
          }
          labels.add(enc + "/" + codec);
          values.add(m);
          report.row(enc, codec, (long) m[0], m[0] / options.totalRows(),
            noneBytes == null ? null : m[0] / noneBytes, m[1], m[2], m[3], m[4], (long) m[5],
            "");
        }
      }
    } finally {
      options.table = table;
      options.blockEncoding = encoding;
      options.compression = compression;
    }
    report.note("Store file bytes: the sum of every store file of the table after the load and "
      + "a flush (HStore#getStorefilesSize), so it includes indexes and blooms.");
    report.note("The scan reads every row once (the first pass over the files, --caching "
      + options.caching + "); the Gets follow it, so they mostly hit the block cache, where "
      + "blocks are kept encoded but not compressed: encoding shows in both, compression mostly"
      + " in the scan. --cacheBlocks=false keeps every read on the files.");
    if (!codecProblems.isEmpty()) {
      report.note("Codecs that did not load in this JVM: " + codecProblems + ". HBase 2.6's "
        + "default SNAPPY and ZSTD codecs are Hadoop's, which need libhadoop's native code "
        + "(or hbase.io.compress.snappy.codec / hbase.io.compress.zstd.codec pointing at one of "
        + "the hbase-compression modules' codecs on the class path).");
    }
    report.note("One run on one machine: compare within the table, not across machines.");
    if (!labels.isEmpty()) {
      report.chart(chart("Store file MB", "MB", labels, values, 0, 1e-6));
      report.chart(chart("Scan rows/s", "rows/s", labels, values, 1, 1));
      report.chart(chart("Get ops/s", "ops/s", labels, values, 2, 1));
    }
    return report;
  }

  private static ScenarioReport.Chart chart(String title, String y, List<String> labels,
    List<double[]> values, int index, double scale) {
    double[] s = new double[values.size()];
    for (int i = 0; i < s.length; i++) {
      s[i] = values.get(i)[index] * scale;
    }
    return new ScenarioReport.Chart(title, y, labels, true).series(title, s);
  }

  /** Bytes, scan rows/s, get ops/s, get p50 and p99 (us), errors. */
  private double[] measure(TableName name, String label) {
    TableManager.TableState state = run.tables().prepare(name, options.inMemory);
    if (!state.createdByThisRun) {
      throw ToolFailure.usage("encodingCompression starts from empty tables, but " + name
        + " exists; pass --recreate to drop it, or --table to use another prefix");
    }
    run.load(name, state, Command.ENCODING_COMPRESSION);
    long bytes = 0;
    for (HRegion r : run.miniCluster().regions(name)) {
      for (HStore s : r.getStores()) {
        bytes += s.getStorefilesSize();
      }
    }
    CommandResult scan = run.run(Command.SCAN, "scan " + label);
    CommandResult get = run.run(Command.RANDOM_READ, "randomRead " + label);
    run.tables().drop(name);
    return new double[] { bytes, scan.rowsPerSecond(), get.opsPerSecond(), get.latency.p50,
      get.latency.p99, scan.errors + get.errors + scan.missing + scan.wrong + get.missing
        + get.wrong };
  }
}
