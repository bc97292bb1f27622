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
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.File;
import java.net.ServerSocket;
import java.nio.file.Files;
import org.apache.hadoop.hbase.TableName;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * Real-cluster mode, pointed at the test minicluster through its ZooKeeper quorum as a client
 * on another machine would be, and at addresses where no cluster is.
 */
public class RealClusterModeTest {

  @ClassRule
  public static final ClusterRule CLUSTER = TestCluster.CLUSTER;

  @Rule
  public final TemporaryFolder tmp = new TemporaryFolder();

  private static String quorum() {
    return "localhost:" + CLUSTER.zkPort();
  }

  @Test
  public void runsAgainstAClusterGivenItsQuorum() throws Exception {
    ToolRun r = ToolRun.withJson("--zk=" + quorum(), "--progress=0", "--rows=100",
      "--table=real_zk", "--verify", "sequentialWrite,randomRead,scan", "2");
    assertEquals(r.toString(), 0, r.exitCode);
    JsonObject cluster = r.json.getAsJsonObject("cluster");
    assertEquals("external", cluster.get("mode").getAsString());
    assertEquals(2, cluster.get("liveRegionServers").getAsInt());
    assertEquals(3, r.measured().size());
    for (JsonObject result : r.measured()) {
      assertEquals(200, result.get("operations").getAsLong());
      assertEquals(0, result.getAsJsonObject("verify").get("missing").getAsLong());
      assertEquals(0, result.getAsJsonObject("verify").get("wrong").getAsLong());
    }
    assertTrue(r.err, r.err.contains("cluster: cluster at " + quorum()));
    assertTrue("the tool's table is on the cluster",
      CLUSTER.admin().tableExists(TableName.valueOf("real_zk")));
  }

  @Test
  public void runsAgainstAClusterGivenItsHbaseSiteXml() throws Exception {
    File site = tmp.newFile("hbase-site.xml");
    Files.writeString(site.toPath(), "<?xml version=\"1.0\"?>\n<configuration>\n"
      + "  <property><name>hbase.zookeeper.quorum</name><value>localhost</value></property>\n"
      + "  <property><name>hbase.zookeeper.property.clientPort</name><value>"
      + CLUSTER.zkPort() + "</value></property>\n</configuration>\n");
    ToolRun r = ToolRun.withJson("--siteXml=" + site, "--progress=0", "--rows=50",
      "--table=real_site", "--dropTable", "--verify", "randomRead");
    assertEquals(r.toString(), 0, r.exitCode);
    assertEquals("external", r.json.getAsJsonObject("cluster").get("mode").getAsString());
    assertEquals(50, r.only().get("operations").getAsLong());
    assertTrue(r.err, r.err.contains("dropping table real_site"));
    assertFalse(CLUSTER.admin().tableExists(TableName.valueOf("real_site")));
  }

  @Test
  public void noZooKeeperAtTheAddressEndsInAMessageAndExitCodeThree() throws Exception {
    int freePort;
    try (ServerSocket s = new ServerSocket(0)) {
      freePort = s.getLocalPort();
    }
    ToolRun r = ToolRun.withJson("--zk=localhost:" + freePort, "randomRead");
    assertEquals(r.toString(), ToolFailure.EXIT_CLUSTER, r.exitCode);
    // The probe's message: refused before any HBase connection was tried (and retried).
    assertTrue(r.err, r.err.contains("no ZooKeeper server of the quorum answers: localhost:"
      + freePort));
    assertFalse("an HBase connection was tried: " + r.err,
      r.err.contains("could not reach HBase through ZooKeeper"));
    assertEquals("the JSON report still says what happened", ToolFailure.EXIT_CLUSTER,
      r.json.get("exitCode").getAsInt());
    r.assertNoStackTrace();
  }

  @Test
  public void zooKeeperWithoutHbaseUnderTheParentZnodeEndsInAMessage() {
    ToolRun r = ToolRun.plain("--zk=" + quorum(), "--zkParent=/no-hbase-here",
      "--connectTimeout=5s", "randomRead");
    assertEquals(r.toString(), ToolFailure.EXIT_CLUSTER, r.exitCode);
    assertTrue(r.err, r.err.contains("/no-hbase-here"));
    r.assertNoStackTrace();
  }

  @Test
  public void anUnreadableSiteXmlIsABadOption() throws Exception {
    ToolRun r = ToolRun.plain("--siteXml=/no/such/hbase-site.xml", "scan");
    assertEquals(ToolFailure.EXIT_USAGE, r.exitCode);
    assertTrue(r.err, r.err.contains("--siteXml: cannot read /no/such/hbase-site.xml"));
    File broken = tmp.newFile("broken-site.xml");
    Files.writeString(broken.toPath(), "<configuration><property>");
    r = ToolRun.plain("--siteXml=" + broken, "scan");
    assertEquals(r.toString(), ToolFailure.EXIT_USAGE, r.exitCode);
    assertTrue(r.err, r.err.contains("is not a readable Hadoop configuration file"));
    r.assertNoStackTrace();
  }
}
