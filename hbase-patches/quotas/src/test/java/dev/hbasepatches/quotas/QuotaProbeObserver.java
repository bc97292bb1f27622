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
package dev.hbasepatches.quotas;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.CoreCoprocessor;
import org.apache.hadoop.hbase.coprocessor.HasRegionServerServices;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessor;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.RegionObserver;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.ipc.RpcServer;
import org.apache.hadoop.hbase.quotas.OperationQuota;
import org.apache.hadoop.hbase.regionserver.RegionServerServices;
import org.apache.hadoop.hbase.security.User;

/**
 * A coprocessor that asks the RegionServer's quota manager for the calling user's quota the way
 * a coprocessor would ({@code getQuota(ugi, table, blockSize)}), inside a real request, for Gets
 * that carry the {@link #PROBE} attribute; the answer is kept in {@link #LAST}.
 */
@CoreCoprocessor
public class QuotaProbeObserver implements RegionCoprocessor, RegionObserver {

  static final String PROBE = "quota-probe";
  static final AtomicReference<OperationQuota> LAST = new AtomicReference<>();

  private RegionServerServices services;

  @Override
  public void start(CoprocessorEnvironment env) {
    services = ((HasRegionServerServices) env).getRegionServerServices();
  }

  @Override
  public Optional<RegionObserver> getRegionObserver() {
    return Optional.of(this);
  }

  @Override
  public void preGetOp(ObserverContext<RegionCoprocessorEnvironment> c, Get get,
    List<Cell> result) throws IOException {
    if (get.getAttribute(PROBE) == null) {
      return;
    }
    User user = RpcServer.getRequestUser().orElseThrow(() -> new IOException("not in a request"));
    LAST.set(services.getRegionServerRpcQuotaManager().getQuota(user.getUGI(),
      c.getEnvironment().getRegion().getTableDescriptor().getTableName(), 0));
  }
}
