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

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.quotas.OperationQuota;
import org.apache.hadoop.hbase.quotas.QuotaUtil;
import org.apache.hadoop.hbase.quotas.ThrottleType;

/**
 * What one operation costs against each throttle type, in that type's units: requests, bytes or
 * capacity units. Uses HBase's keys for the capacity unit sizes and for whether reads are counted
 * by result size alone or by the larger of result size and block bytes scanned.
 */
final class CostModel {

  private final long readUnit;
  private final long writeUnit;
  private final boolean resultSizeOnly;

  CostModel(long readUnit, long writeUnit, boolean resultSizeOnly) {
    if (readUnit <= 0 || writeUnit <= 0) {
      throw new IllegalArgumentException("capacity units must be positive: read=" + readUnit
        + " write=" + writeUnit);
    }
    this.readUnit = readUnit;
    this.writeUnit = writeUnit;
    this.resultSizeOnly = resultSizeOnly;
  }

  /**
   * The cost model of a server's configuration. A capacity unit that is not a positive number of
   * bytes fails here, naming the key, instead of on every request later.
   */
  static CostModel from(Configuration conf) {
    return new CostModel(
      unit(conf, QuotaUtil.READ_CAPACITY_UNIT_CONF_KEY, QuotaUtil.DEFAULT_READ_CAPACITY_UNIT),
      unit(conf, QuotaUtil.WRITE_CAPACITY_UNIT_CONF_KEY, QuotaUtil.DEFAULT_WRITE_CAPACITY_UNIT),
      conf.getBoolean(OperationQuota.USE_RESULT_SIZE_BYTES,
        OperationQuota.USE_RESULT_SIZE_BYTES_DEFAULT));
  }

  private static long unit(Configuration conf, String key, long dflt) {
    String raw = conf.getTrimmed(key);
    long v;
    try {
      v = raw == null || raw.isEmpty() ? dflt : Long.parseLong(raw);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
        key + " must be a positive number of bytes, got '" + raw + "'", e);
    }
    if (v <= 0) {
      throw new IllegalArgumentException(key + " must be a positive number of bytes, got " + v);
    }
    return v;
  }

  /** Bytes a read really cost, from what it returned and the block bytes it scanned. */
  long readBytes(long resultBytes, long blockBytesScanned) {
    return resultSizeOnly ? resultBytes : Math.max(resultBytes, blockBytesScanned);
  }

  long readUnit() {
    return readUnit;
  }

  long cost(ThrottleType type, long writes, long reads, long writeBytes, long readBytes) {
    return cost(ThrottleTypes.kind(type), writes, reads, writeBytes, readBytes, false, 0);
  }

  /**
   * What one request costs against a throttle of {@code kind}: atomic throttles are charged only
   * by atomic requests; handler time is in microseconds.
   */
  long cost(ThrottleTypes.Kind kind, long writes, long reads, long writeBytes, long readBytes,
    boolean atomic, long handlerMicros) {
    switch (kind) {
      case REQUEST_NUMBER:
        return writes + reads;
      case REQUEST_SIZE:
        return writeBytes + readBytes;
      case REQUEST_CAPACITY_UNIT:
        return units(writeBytes, writeUnit) + units(readBytes, readUnit);
      case WRITE_NUMBER:
        return writes;
      case WRITE_SIZE:
        return writes > 0 ? writeBytes : 0;
      case WRITE_CAPACITY_UNIT:
        return writes > 0 ? units(writeBytes, writeUnit) : 0;
      case READ_NUMBER:
        return reads;
      case READ_SIZE:
        return reads > 0 ? readBytes : 0;
      case READ_CAPACITY_UNIT:
        return reads > 0 ? units(readBytes, readUnit) : 0;
      case ATOMIC_REQUEST_NUMBER:
        return atomic ? writes + reads : 0;
      case ATOMIC_READ_SIZE:
        return atomic && reads > 0 ? readBytes : 0;
      case ATOMIC_WRITE_SIZE:
        return atomic && writes > 0 ? writeBytes : 0;
      case REQUEST_HANDLER_USAGE_MS:
        return Math.max(0, handlerMicros);
      default:
        throw new AssertionError(kind);
    }
  }

  private static long units(long bytes, long unit) {
    return bytes <= 0 ? 0 : (bytes + unit - 1) / unit;
  }
}
