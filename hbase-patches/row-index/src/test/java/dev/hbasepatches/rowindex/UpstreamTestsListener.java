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

import org.apache.hadoop.hbase.io.encoding.DataBlockEncoder;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.junit.runner.Description;
import org.junit.runner.Result;
import org.junit.runner.notification.RunListener;

/**
 * Installs the row-index encoder before upstream's own test classes run (the root pom's
 * {@code upstream-tests} profile, {@code upstream.tests.listener}): ROW_INDEX_V1 has no
 * configuration key to choose its encoder, so the installer does it in code, as the RegionServer
 * coprocessor does on a cluster.
 * <p>
 * A run that silently tested upstream's encoder would prove nothing, so a failed installation
 * stops the test JVM at once (JUnit only logs exceptions thrown by listeners) and surefire fails
 * the build; the run's end checks that nothing took the encoder back meanwhile.
 */
public class UpstreamTestsListener extends RunListener {

  @Override
  public void testRunStarted(Description description) {
    try {
      RowIndexInstaller.install();
      check("after install");
    } catch (RuntimeException | Error e) {
      die("cannot install the row-index encoder for upstream's tests: " + e, e);
    }
    System.err.println("UpstreamTestsListener: ROW_INDEX_V1 served by "
      + DataBlockEncoding.ROW_INDEX_V1.getEncoder().getClass().getName());
  }

  @Override
  public void testRunFinished(Result result) {
    try {
      check("at the end of the run");
    } catch (IllegalStateException e) {
      die(e.getMessage(), e);
    }
  }

  /** Ours behind the enum, and accepted by the readers' encoder check for id 7. */
  static void check(String when) {
    DataBlockEncoder e = DataBlockEncoding.ROW_INDEX_V1.getEncoder();
    if (!(e instanceof RowIndexEncoder) || !RowIndexInstaller.isInstalled()
      || !DataBlockEncoding.isCorrectEncoder(e, DataBlockEncoding.ROW_INDEX_V1.getId())
      || DataBlockEncoding.getDataBlockEncoderById(DataBlockEncoding.ROW_INDEX_V1.getId()) != e) {
      throw new IllegalStateException("ROW_INDEX_V1 is not served by the row-index encoder "
        + when + ": " + (e == null ? "null" : e.getClass().getName()));
    }
  }

  private static void die(String message, Throwable cause) {
    System.err.println("UpstreamTestsListener: " + message);
    cause.printStackTrace();
    System.err.flush();
    Runtime.getRuntime().halt(3);
  }
}
