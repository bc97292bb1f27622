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

import java.io.IOException;
import org.apache.hadoop.hbase.CoprocessorEnvironment;
import org.apache.hadoop.hbase.HBaseInterfaceAudience;
import org.apache.hadoop.hbase.coprocessor.RegionServerCoprocessor;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * Installs the row-index encoder when a RegionServer starts its coprocessors, which happens before
 * it opens regions. Configure with {@code hbase.coprocessor.regionserver.classes}; the mode key
 * {@value RowIndexConfig#MODE_KEY} = {@code UPSTREAM} leaves HBase's codec in place without
 * removing the jar. Stopping the coprocessor hands the encoding back.
 */
@InterfaceAudience.LimitedPrivate(HBaseInterfaceAudience.CONFIG)
public class RowIndexRegionServerCoprocessor implements RegionServerCoprocessor {

  private boolean installedHere;

  @Override
  public void start(CoprocessorEnvironment env) throws IOException {
    RowIndexConfig.Mode mode;
    try {
      mode = RowIndexConfig.mode(env.getConfiguration());
    } catch (IllegalArgumentException e) {
      throw new IOException(e.getMessage(), e);
    }
    if (mode == RowIndexConfig.Mode.PATCHED && !RowIndexInstaller.isInstalled()) {
      RowIndexInstaller.install();
      installedHere = true;
    }
  }

  @Override
  public void stop(CoprocessorEnvironment env) throws IOException {
    if (installedHere) {
      RowIndexInstaller.uninstall();
      installedHere = false;
    }
  }
}
