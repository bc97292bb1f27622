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
package dev.hbasepatches.jmh.rowindex;

import dev.hbasepatches.rowindex.RowIndexInstaller;
import dev.hbasepatches.rowindex.SeedTableData;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparatorImpl;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.PrivateCellUtil;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.io.hfile.HFileContext;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;
import org.apache.hadoop.hbase.io.hfile.HFileScanner;

/**
 * The on-disk size table of the seed's experiment: the seed's table ({@link SeedTableData})
 * written as one HFile per encoding and compression through HBase's own HFile writer (64 KB
 * blocks, MVCC versions as a flush writes them, no tags, no bloom filter), sizes as a Markdown
 * table with ratios to NONE/NONE. ROW_INDEX_V1 is written twice, by HBase's codec and by ours;
 * the table says whether the two files are identical byte for byte.
 *
 * <pre>
 * java -cp benchmarks.jar dev.hbasepatches.jmh.rowindex.SeedTableSizes [reportsDir] [rows]
 * </pre>
 *
 * writes {@code reportsDir/rowindex-size.md} (default {@code jmh-benchmarks/target/reports}) and
 * prints it. A compression whose codec cannot run in this JVM (no native library, no codec jar)
 * is left out, with the reason under the table. A measurement tool, so it lives with the
 * benchmarks and ships in {@code benchmarks.jar}, not in the row-index jar a RegionServer loads.
 */
public final class SeedTableSizes {

  /** The compressions tried, in table order. */
  static final Compression.Algorithm[] COMPRESSIONS = { Compression.Algorithm.NONE,
    Compression.Algorithm.GZ, Compression.Algorithm.SNAPPY, Compression.Algorithm.LZ4,
    Compression.Algorithm.ZSTD };

  /** A table row: an encoding and, for ROW_INDEX_V1, whose implementation wrote it. */
  public enum Encoding {
    NONE(DataBlockEncoding.NONE),
    PREFIX(DataBlockEncoding.PREFIX),
    DIFF(DataBlockEncoding.DIFF),
    FAST_DIFF(DataBlockEncoding.FAST_DIFF),
    UPSTREAM_ROW_INDEX_V1(DataBlockEncoding.ROW_INDEX_V1),
    PATCHED_ROW_INDEX_V1(DataBlockEncoding.ROW_INDEX_V1);

    final DataBlockEncoding encoding;

    Encoding(DataBlockEncoding encoding) {
      this.encoding = encoding;
    }
  }

  static final int BLOCK_SIZE = 64 * 1024;
  /** Fixed so files written twice from the same cells can be compared byte for byte. */
  static final long CREATE_TIME = SeedTableData.TIMESTAMP;
  static final long SEED = 42;

  private SeedTableSizes() {
  }

  /** The seed table's cells in file order, each with the sequence id a one-put flush gives it. */
  public static List<Cell> cells(int rows, long seed) {
    List<Cell> cells = new ArrayList<>(rows * SeedTableData.CELLS_PER_ROW);
    long seqId = 0;
    for (Put p : SeedTableData.puts(rows, seed)) {
      seqId++;
      for (Cell c : p.getFamilyCellMap().get(SeedTableData.FAMILY)) {
        try {
          PrivateCellUtil.setSequenceId(c, seqId);
        } catch (IOException e) {
          throw new IllegalStateException("a Put's cells take sequence ids", e);
        }
        cells.add(c);
      }
    }
    cells.sort(CellComparatorImpl.COMPARATOR);
    return cells;
  }

  /**
   * Writes the cells to {@code file} with the encoding and compression; ROW_INDEX_V1 goes
   * through ours when {@code patched}, else through HBase's codec. Leaves the installation as it
   * found it. Returns the file's length.
   */
  public static synchronized long write(Configuration conf, List<Cell> cells,
    org.apache.hadoop.fs.Path file, Encoding encoding, Compression.Algorithm compression)
    throws IOException {
    boolean wasInstalled = RowIndexInstaller.isInstalled();
    if (encoding == Encoding.PATCHED_ROW_INDEX_V1) {
      RowIndexInstaller.install();
    } else if (encoding == Encoding.UPSTREAM_ROW_INDEX_V1) {
      RowIndexInstaller.uninstall();
    }
    try {
      FileSystem fs = file.getFileSystem(conf);
      HFileContext ctx = new HFileContextBuilder().withBlockSize(BLOCK_SIZE)
        .withCompression(compression).withDataBlockEncoding(encoding.encoding)
        .withIncludesMvcc(true).withIncludesTags(false).withCreateTime(CREATE_TIME)
        .withCellComparator(CellComparatorImpl.COMPARATOR).build();
      try (HFile.Writer w = HFile.getWriterFactory(conf, CacheConfig.DISABLED)
        .withPath(fs, file).withFileContext(ctx).create()) {
        for (Cell c : cells) {
          w.append(c);
        }
      }
      return fs.getFileStatus(file).getLen();
    } finally {
      if (wasInstalled) {
        RowIndexInstaller.install();
      } else {
        RowIndexInstaller.uninstall();
      }
    }
  }

  /** Reads the file to the end and returns how many cells it holds (a codec health check). */
  static long countCells(Configuration conf, org.apache.hadoop.fs.Path file) throws IOException {
    FileSystem fs = file.getFileSystem(conf);
    try (HFile.Reader r = HFile.createReader(fs, file, CacheConfig.DISABLED, true, conf)) {
      HFileScanner s = r.getScanner(conf, false, false);
      long n = 0;
      if (s.seekTo()) {
        do {
          n++;
        } while (s.next());
      }
      return n;
    }
  }

  /** One measured table. */
  public static final class Table {
    final int rows;
    final List<Compression.Algorithm> compressions = new ArrayList<>();
    final Map<String, String> skipped = new LinkedHashMap<>();
    final Map<String, Long> bytes = new LinkedHashMap<>();
    final Map<Compression.Algorithm, Boolean> identical = new LinkedHashMap<>();

    Table(int rows) {
      this.rows = rows;
    }

    public long bytes(Encoding e, Compression.Algorithm c) {
      Long b = bytes.get(e + "/" + c);
      if (b == null) {
        throw new IllegalArgumentException("not measured: " + e + "/" + c);
      }
      return b;
    }

    public List<Compression.Algorithm> compressions() {
      return compressions;
    }

    /** Whether ours and upstream wrote identical files with this compression. */
    public boolean identical(Compression.Algorithm c) {
      return identical.get(c);
    }

    public String markdown() {
      StringBuilder out = new StringBuilder();
      out.append("# row-index: on-disk size of the seed's table\n\n");
      out.append(String.format(Locale.ROOT, "%,d rows x %d cells (int pk; two floats, one int, "
        + "Phoenix's empty column), one HFile per cell of the table, written by HBase's HFile "
        + "writer: 64 KB blocks, MVCC versions as a flush writes them, no tags, no bloom. "
        + "Bytes are whole-file lengths; the ratio is to NONE encoding, NONE compression.\n\n",
        rows, SeedTableData.CELLS_PER_ROW));
      long base = bytes(Encoding.NONE, Compression.Algorithm.NONE);
      out.append("| encoding |");
      for (Compression.Algorithm c : compressions) {
        out.append(' ').append(c).append(" bytes | ").append(c).append(" ratio |");
      }
      out.append('\n').append("|---|");
      for (int i = 0; i < compressions.size(); i++) {
        out.append("---:|---:|");
      }
      out.append('\n');
      for (Encoding e : Encoding.values()) {
        out.append("| ").append(e).append(" |");
        for (Compression.Algorithm c : compressions) {
          long b = bytes(e, c);
          out.append(String.format(Locale.ROOT, " %,d | %.3f |", b, (double) b / base));
        }
        out.append('\n');
      }
      out.append('\n');
      for (Compression.Algorithm c : compressions) {
        long none = bytes(Encoding.NONE, c);
        long patched = bytes(Encoding.PATCHED_ROW_INDEX_V1, c);
        out.append(String.format(Locale.ROOT,
          "- %s: PATCHED_ROW_INDEX_V1 is %+.2f%% over NONE encoding; ours and upstream's files "
            + "are %s.\n", c, 100.0 * (patched - none) / none,
          identical(c) ? "identical byte for byte" : "DIFFERENT"));
      }
      for (Map.Entry<String, String> s : skipped.entrySet()) {
        out.append("- ").append(s.getKey()).append(" left out: ").append(s.getValue())
          .append('\n');
      }
      return out.toString();
    }
  }

  /** Writes every combination into {@code dir} and measures it. */
  public static Table measure(Configuration conf, Path dir, int rows,
    Compression.Algorithm... compressions) throws IOException {
    List<Cell> cells = cells(rows, SEED);
    Table t = new Table(rows);
    for (Compression.Algorithm c : compressions) {
      String why = unusable(conf, dir, c);
      if (why != null) {
        t.skipped.put(c.toString(), why);
        continue;
      }
      t.compressions.add(c);
      for (Encoding e : Encoding.values()) {
        org.apache.hadoop.fs.Path file = hadoopPath(dir.resolve(e + "-" + c + ".hfile"));
        t.bytes.put(e + "/" + c, write(conf, cells, file, e, c));
      }
      t.identical.put(c, Arrays.equals(
        Files.readAllBytes(dir.resolve(Encoding.PATCHED_ROW_INDEX_V1 + "-" + c + ".hfile")),
        Files.readAllBytes(dir.resolve(Encoding.UPSTREAM_ROW_INDEX_V1 + "-" + c + ".hfile"))));
    }
    return t;
  }

  /** Null when the compression writes and reads back a small file here, else why not. */
  static String unusable(Configuration conf, Path dir, Compression.Algorithm c) {
    try {
      List<Cell> probe = cells(200, 1);
      org.apache.hadoop.fs.Path file = hadoopPath(dir.resolve("probe-" + c + ".hfile"));
      write(conf, probe, file, Encoding.NONE, c);
      long n = countCells(conf, file);
      if (n != probe.size()) {
        return "read back " + n + " of " + probe.size() + " cells";
      }
      return null;
    } catch (Throwable e) {
      // Missing codec jars show up as NoClassDefFoundError, missing native code as
      // UnsatisfiedLinkError or a RuntimeException from the codec: all mean "not here".
      String msg = e.toString();
      for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
        msg = cause.toString();
      }
      return msg.length() > 200 ? msg.substring(0, 200) + "..." : msg;
    }
  }

  private static org.apache.hadoop.fs.Path hadoopPath(Path p) {
    return new org.apache.hadoop.fs.Path(p.toAbsolutePath().toUri());
  }

  public static void main(String[] args) throws IOException {
    Path reports = Path.of(args.length > 0 ? args[0] : "jmh-benchmarks/target/reports");
    int rows = args.length > 1 ? Integer.parseInt(args[1]) : 200_000;
    Configuration conf = HBaseConfiguration.create();
    Path work = Files.createTempDirectory("rowindex-size-");
    try {
      Table t = measure(conf, work, rows, COMPRESSIONS);
      String md = t.markdown();
      Files.createDirectories(reports);
      Path out = reports.resolve("rowindex-size.md");
      Files.writeString(out, md, StandardCharsets.UTF_8);
      System.out.print(md);
      System.out.println("\nwritten to " + out);
    } finally {
      try (java.util.stream.Stream<Path> walk = Files.walk(work)) {
        walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }
}
