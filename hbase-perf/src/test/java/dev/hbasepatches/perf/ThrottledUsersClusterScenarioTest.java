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
package dev.hbasepatches.perf;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.AfterClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * throttledUsers with stock HBase quotas on a one-server cluster of its own: the throttled user
 * is refused and admitted at most about its limit, the other user is never refused and reads
 * more, and nothing read is wrong.
 */
public class ThrottledUsersClusterScenarioTest {

  private static final String[] ARGS = { "--progress=0", "--rows=200", "--throttle=20req/sec",
    "--warmup=3s", "--duration=4s", "--table=throttled", "throttledUsers", "2" };

  @ClassRule
  public static final TemporaryFolder DIR = new TemporaryFolder();

  @AfterClass
  public static void stopCluster() {
    EmbeddedCluster.miniCluster(PerfArgsParser.parse(ARGS), null).stop();
  }

  @Test(timeout = 600_000)
  public void theThrottledUserIsHeldToItsLimitAndTheOtherIsNot() throws Exception {
    Path dir = DIR.getRoot().toPath();
    String[] args = new String[ARGS.length + 1];
    System.arraycopy(ARGS, 0, args, 1, ARGS.length);
    args[0] = "--reportDir=" + dir;
    ToolRun r = ToolRun.plain(args);
    assertEquals(r.toString(), 0, r.exitCode);
    r.assertNoStackTrace();
    List<String> lines = Files.readAllLines(dir.resolve("throttledUsers.csv"));
    assertEquals(String.join(",", ThrottledUsers.COLUMNS), lines.get(0));
    assertEquals(r.toString(), 3, lines.size());
    String[] throttled = lines.get(1).split(",");
    String[] free = lines.get(2).split(",");
    assertEquals(ThrottledUsers.THROTTLED, throttled[0]);
    assertEquals(ThrottledUsers.FREE, free[0]);
    long admitted = Long.parseLong(throttled[3]);
    // 20/s over 4 s, with one second's burst of slack and the refresh's edge.
    assertTrue(lines.get(1), admitted <= 20 * 4 + 20 + 5);
    assertTrue(lines.get(1), Long.parseLong(throttled[5]) > 0);
    assertEquals(lines.get(2), "0", free[5]);
    assertTrue(lines + "", Long.parseLong(free[3]) > admitted);
    assertEquals("0", throttled[7]);
    assertEquals("0", free[7]);
    assertTrue(Files.exists(dir.resolve("throttledUsers-persecond.csv")));
  }
}
