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

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;

/**
 * Starts the tool's embedded minicluster on its own and keeps it up, so that several tools (this
 * one and upstream's PerformanceEvaluation) can run against the very same cluster, one process
 * each. Writes the ZooKeeper client port to a file once the cluster is up and stops it when that
 * file is deleted (or the process is killed).
 *
 * <pre>java -cp hbase-perf.jar dev.hbasepatches.perf.ServeCluster PORT_FILE [REGION_SERVERS]</pre>
 */
public final class ServeCluster {

  private ServeCluster() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 1 || args.length > 2) {
      System.err.println("usage: ServeCluster PORT_FILE [REGION_SERVERS]");
      System.exit(ToolFailure.EXIT_USAGE);
    }
    Path portFile = Paths.get(args[0]);
    int servers = args.length == 2
      ? (int) ValueParsers.count("REGION_SERVERS", args[1], 1, 16) : 1;
    System.setProperty("org.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible",
      "true");
    CliEnvironment env = CliEnvironment.prepare(false, () -> { });
    PerfOptions o = PerfArgsParser.parse("--regionServers=" + servers, "scan");
    Map<String, String> settings = EmbeddedCluster.settings(o, null);
    LocalMiniCluster cluster = LocalMiniCluster.shared("serve " + settings, servers, settings);
    try {
      cluster.start();
      Path tmp = portFile.resolveSibling(portFile.getFileName() + ".tmp");
      Files.writeString(tmp, String.valueOf(cluster.zkPort()), StandardCharsets.UTF_8);
      Files.move(tmp, portFile);
      env.err().println("ServeCluster: " + servers + " region server(s) up, ZooKeeper on "
        + "localhost:" + cluster.zkPort() + "; delete " + portFile + " to stop");
      while (Files.exists(portFile)) {
        Thread.sleep(500);
      }
    } catch (IOException e) {
      env.err().println("ServeCluster: " + ToolFailure.describe(e));
      System.exit(ToolFailure.EXIT_CLUSTER);
    } finally {
      cluster.stop();
      env.shutDown();
    }
    System.exit(0);
  }
}
