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
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.quotas.QuotaUtil;
import org.junit.runner.Description;
import org.junit.runner.Result;
import org.junit.runner.notification.RunListener;

/**
 * Run listener of the upstream-tests execution (root pom, profile upstream-tests): makes sure
 * HBase's own throttle tests really ran against this module's RegionServer. Before the run, the
 * class path's hbase-site.xml must name ThrottlingRegionServer, quotas on and mode PATCHED; after
 * it, PATCHED quota managers must have started. Otherwise the fork is stopped with a message.
 */
public class QuotasUpstreamListener extends RunListener {
  @Override
  public void testRunStarted(Description description) {
    Configuration conf = HBaseConfiguration.create();
    expect(conf, HConstants.REGION_SERVER_IMPL, ThrottlingRegionServer.class.getName());
    expect(conf, QuotaUtil.QUOTA_CONF_KEY, "true");
    expect(conf, QuotaMode.MODE_KEY, QuotaMode.PATCHED.name());
  }

  @Override
  public void testRunFinished(Result result) {
    long started = PacedRpcQuotaManager.started();
    System.out.println("quotas upstream run: " + started + " PATCHED quota managers started");
    if (started == 0) {
      stop("no PATCHED quota manager was started: upstream's tests ran on stock HBase");
    }
  }

  private static void expect(Configuration conf, String key, String value) {
    String actual = conf.get(key);
    if (!value.equals(actual)) {
      stop(key + " is '" + actual + "', expected '" + value
        + "' (src/upstream-test/resources/hbase-site.xml not on the class path?)");
    }
  }

  /** JUnit swallows listener exceptions; ending the fork makes surefire fail the build. */
  private static void stop(String why) {
    System.err.println("QUOTAS CHANGE NOT INSTALLED: " + why);
    System.err.flush();
    Runtime.getRuntime().halt(3);
  }
}
