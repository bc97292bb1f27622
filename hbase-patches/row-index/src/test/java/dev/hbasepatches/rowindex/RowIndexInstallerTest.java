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
package dev.hbasepatches.rowindex;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.CoprocessorEnvironment;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoder;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.io.encoding.RowIndexCodecV1;
import org.junit.After;
import org.junit.Test;

/** The JVM-wide installer and the RegionServer coprocessor that runs it. */
public class RowIndexInstallerTest {

  @After
  public void takeBack() {
    RowIndexInstaller.uninstall();
  }

  @Test
  public void installIsIdempotentAndUninstallRestoresUpstreamInstance() {
    DataBlockEncoder before = DataBlockEncoding.ROW_INDEX_V1.getEncoder();
    assertTrue(before instanceof RowIndexCodecV1);
    RowIndexInstaller.install();
    DataBlockEncoder ours = DataBlockEncoding.ROW_INDEX_V1.getEncoder();
    assertTrue(ours instanceof RowIndexEncoder);
    // Readers check the encoder's class against the enum's class name for the id.
    assertTrue(DataBlockEncoding.isCorrectEncoder(ours, (short) 7));
    assertSame(ours, DataBlockEncoding.getDataBlockEncoderById((short) 7));
    RowIndexInstaller.install();
    assertSame(ours, DataBlockEncoding.ROW_INDEX_V1.getEncoder());
    RowIndexInstaller.uninstall();
    assertSame(before, DataBlockEncoding.ROW_INDEX_V1.getEncoder());
    assertTrue(DataBlockEncoding.isCorrectEncoder(before, (short) 7));
    RowIndexInstaller.uninstall();
    assertFalse(RowIndexInstaller.isInstalled());
  }

  @Test
  public void coprocessorInstallsInPatchedModeOnly() throws IOException {
    Configuration conf = HBaseConfiguration.create();
    RowIndexRegionServerCoprocessor cp = new RowIndexRegionServerCoprocessor();
    cp.start(env(conf));
    assertTrue("PATCHED is the default", RowIndexInstaller.isInstalled());
    cp.stop(env(conf));
    assertFalse(RowIndexInstaller.isInstalled());

    conf.set(RowIndexConfig.MODE_KEY, "upstream");
    cp = new RowIndexRegionServerCoprocessor();
    cp.start(env(conf));
    assertFalse(RowIndexInstaller.isInstalled());
    cp.stop(env(conf));

    conf.set(RowIndexConfig.MODE_KEY, "FASTEST");
    RowIndexRegionServerCoprocessor bad = new RowIndexRegionServerCoprocessor();
    IOException e = assertThrows(IOException.class, () -> bad.start(env(conf)));
    assertTrue(e.getMessage(), e.getMessage().contains(RowIndexConfig.MODE_KEY)
      && e.getMessage().contains("FASTEST") && e.getMessage().contains("PATCHED"));
    assertEquals(RowIndexConfig.Mode.PATCHED, RowIndexConfig.mode(HBaseConfiguration.create()));
  }

  /** The two methods a RegionServer coprocessor's start and stop read; the rest unused. */
  private static CoprocessorEnvironment<RowIndexRegionServerCoprocessor> env(Configuration c) {
    return new CoprocessorEnvironment<RowIndexRegionServerCoprocessor>() {
      @Override
      public int getVersion() {
        return 1;
      }

      @Override
      public String getHBaseVersion() {
        return "2.6.1";
      }

      @Override
      public RowIndexRegionServerCoprocessor getInstance() {
        return null;
      }

      @Override
      public int getPriority() {
        return 0;
      }

      @Override
      public int getLoadSequence() {
        return 0;
      }

      @Override
      public Configuration getConfiguration() {
        return c;
      }

      @Override
      public ClassLoader getClassLoader() {
        return getClass().getClassLoader();
      }
    };
  }
}
