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
package dev.hbasepatches.seekskip;

import static dev.hbasepatches.testkit.ScanShape.FAMILY;
import static dev.hbasepatches.testkit.ScanShape.qualifier;
import static dev.hbasepatches.testkit.ScanShape.row;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import dev.hbasepatches.testkit.LocalRegion;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.KeepDeletedCells;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.querymatcher.NewVersionBehaviorTracker;
import org.junit.Test;

/**
 * Documents upstream behaviour (stock HBase 2.6.1, no class of this module involved): a major
 * compaction of a family with NEW_VERSION_BEHAVIOR and KEEP_DELETED_CELLS TRUE trips an
 * {@code assert} in stock code. {@code MajorCompactionScanQueryMatcher} keeps a delete marker
 * that is not older than every put and passes it on to version counting, and
 * {@code NewVersionBehaviorTracker.checkVersions} asserts it is never given a delete marker.
 * Found by {@link SeekSkipDifferentialFuzzTest} (seed 34892263701611, a random seed of
 * {@code -Pfuzz-long}); the fuzzers leave such families uncompacted
 * ({@code RandomFamily.majorCompact}). Fails once upstream changes either side.
 */
public class UpstreamNewVersionCompactionAssertTest {

  @Test(timeout = 300_000)
  public void stockMajorCompactionAssertsOnAKeptDeleteMarker() throws Exception {
    assertTrue("run with -ea: the behaviour is an assert in NewVersionBehaviorTracker",
      NewVersionBehaviorTracker.class.desiredAssertionStatus());
    try (LocalRegion region = LocalRegion.builder("nvbcompact").family("f").maxVersions(2)
      .familyTweak(f -> f.setNewVersionBehavior(true).setKeepDeletedCells(KeepDeletedCells.TRUE))
      .regionClass(HRegion.class)
      .conf("hbase.hstore.defaultengine.storeflusher.class",
        "org.apache.hadoop.hbase.regionserver.DefaultStoreFlusher")
      .conf("hbase.hstore.defaultengine.compactor.class",
        "org.apache.hadoop.hbase.regionserver.compactions.DefaultCompactor")
      .build()) {
      assertEquals("a stock region", HRegion.class, region.region().getClass());
      region.writeAndFlush(
        List.of(new Put(row(0)).addColumn(FAMILY, qualifier(1), 1, new byte[] { 1 })));
      region.writeAndFlush(List.of(new Delete(row(0)).addColumn(FAMILY, qualifier(1), 2)));
      AssertionError tripped = null;
      try {
        region.region().compact(true);
      } catch (AssertionError e) {
        tripped = e;
      } catch (IOException e) {
        // Some paths wrap what the compaction threw.
        for (Throwable t = e; t != null; t = t.getCause()) {
          if (t instanceof AssertionError) {
            tripped = (AssertionError) t;
          }
        }
        if (tripped == null) {
          throw e;
        }
      }
      assertNotNull("stock major compaction no longer asserts: upstream changed it", tripped);
      boolean inTracker = false;
      for (StackTraceElement f : tripped.getStackTrace()) {
        inTracker |= f.getClassName().equals(NewVersionBehaviorTracker.class.getName())
          && f.getMethodName().equals("checkVersions");
      }
      assertTrue("the assert is NewVersionBehaviorTracker.checkVersions'", inTracker);
    }
  }
}
