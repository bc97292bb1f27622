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

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import dev.hbasepatches.rowindex.RowIndexEncoder;
import dev.hbasepatches.rowindex.RowIndexInstaller;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.junit.Test;

/**
 * The on-disk size table of the seed's table: HBase's ROW_INDEX_V1 codec and the module's encoder
 * write the same files, the installation is left as found, and the tool is not part of the
 * row-index jar (a measurement fixture has no place on a RegionServer's class path).
 */
public class SeedTableSizesTest {

  @Test
  public void sizesMatchUpstreamByteForByte() throws IOException {
    Configuration conf = HBaseConfiguration.create();
    Path work = Files.createTempDirectory("rowindex-sizes-");
    try {
      SeedTableSizes.Table t = SeedTableSizes.measure(conf, work, 5000,
        Compression.Algorithm.NONE, Compression.Algorithm.GZ);
      System.out.println(t.markdown());
      assertEquals(List.of(Compression.Algorithm.NONE, Compression.Algorithm.GZ),
        t.compressions());
      for (Compression.Algorithm c : t.compressions()) {
        assertEquals(c + " sizes", t.bytes(SeedTableSizes.Encoding.UPSTREAM_ROW_INDEX_V1, c),
          t.bytes(SeedTableSizes.Encoding.PATCHED_ROW_INDEX_V1, c));
        assertTrue(c + " identical files", t.identical(c));
      }
      // The installation is left as found (not installed here).
      assertFalse(RowIndexInstaller.isInstalled());
    } finally {
      try (Stream<Path> walk = Files.walk(work)) {
        walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  @Test
  public void notInTheRowIndexJar() {
    // The module's classes are on this class path (its jar, or its classes in a reactor build).
    assertNotNull(RowIndexEncoder.class.getProtectionDomain().getCodeSource());
    try {
      Class.forName("dev.hbasepatches.rowindex.SeedTableSizes");
      fail("dev.hbasepatches.rowindex.SeedTableSizes is still in the row-index module");
    } catch (ClassNotFoundException expected) {
      // moved to jmh-benchmarks
    }
  }
}
