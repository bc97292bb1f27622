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

import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.ipc.RpcScheduler;
import org.apache.hadoop.hbase.quotas.OperationQuota;
import org.apache.hadoop.hbase.quotas.RegionServerRpcQuotaManager;
import org.apache.hadoop.hbase.regionserver.Region;
import org.apache.hadoop.hbase.regionserver.RegionServerServices;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.yetus.audience.InterfaceAudience;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@link QuotaMode#BASELINE}: every request is admitted and nothing is read or counted. */
@InterfaceAudience.Private
public class UnthrottledRpcQuotaManager extends RegionServerRpcQuotaManager {

  private static final Logger LOG = LoggerFactory.getLogger(UnthrottledRpcQuotaManager.class);

  public UnthrottledRpcQuotaManager(RegionServerServices services) {
    super(services);
  }

  @Override
  public void start(RpcScheduler scheduler) {
    LOG.info("{}=BASELINE: request throttles are not enforced", QuotaMode.MODE_KEY);
  }

  @Override
  public void stop() {
  }

  @Override
  public void switchRpcThrottle(boolean enable) {
    LOG.info("Ignoring rpc throttle switch to {}: {}=BASELINE", enable, QuotaMode.MODE_KEY);
  }

  @Override
  protected boolean isRpcThrottleEnabled() {
    return false;
  }

  @Override
  public OperationQuota getQuota(UserGroupInformation ugi, TableName table, int blockSizeBytes) {
    return FreeOperationQuota.INSTANCE;
  }

  @Override
  public OperationQuota checkScanQuota(Region region, ClientProtos.ScanRequest scanRequest,
    long maxScannerResultSize, long maxBlockBytesScanned, long prevBlockBytesScannedDifference) {
    return FreeOperationQuota.INSTANCE;
  }

  @Override
  public OperationQuota checkBatchQuota(Region region, OperationQuota.OperationType type) {
    return FreeOperationQuota.INSTANCE;
  }

  @Override
  public OperationQuota checkBatchQuota(Region region, List<ClientProtos.Action> actions,
    boolean hasCondition) {
    return FreeOperationQuota.INSTANCE;
  }

  // No @Override on either: HBase 2.6.1 declares the first, 2.6.4 the second.
  public OperationQuota checkBatchQuota(Region region, int numWrites, int numReads) {
    return FreeOperationQuota.INSTANCE;
  }

  public OperationQuota checkBatchQuota(Region region, int numWrites, int numReads,
    boolean isAtomic) {
    return FreeOperationQuota.INSTANCE;
  }
}
