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
// Diagnostic only (not a measurement): see README.md in this directory.
import dev.hbasepatches.localindex.*;
import java.sql.*;
import java.util.*;
import org.apache.phoenix.compile.QueryPlan;
import org.apache.phoenix.jdbc.*;
import org.apache.phoenix.iterate.*;

public class Harness4 {
  public static void main(String[] a) throws Exception {
    int regions = Integer.parseInt(a[0]);
    Properties props = new Properties();
    props.setProperty("phoenix.index.population.wait.time", "0");
    Connection conn = DriverManager.getConnection("jdbc:phoenix:none", props);
    String table = "LIP";
    StringBuilder splits = new StringBuilder();
    for (int r = 1; r < regions; r++) splits.append(r == 1 ? "'" : ", '").append(String.format("%08d", r)).append('\'');
    Statement st = conn.createStatement();
    st.execute("CREATE TABLE " + table + " (K CHAR(8) NOT NULL, ID INTEGER NOT NULL, V1 VARCHAR, V2 VARCHAR CONSTRAINT PK PRIMARY KEY (K, ID)) USE_STATS_FOR_PARALLELIZATION=false SPLIT ON (" + splits + ")");
    st.execute("CREATE LOCAL INDEX LIP_I ON LIP (V1)");
    PreparedStatement ps = conn.prepareStatement("SELECT /*+ INDEX(LIP LIP_I) */ V1, K, ID FROM LIP WHERE V1 = 'v' AND K = ?");
    ps.setString(1, String.format("%08d", regions / 2));
    PhoenixPreparedStatement pps = ps.unwrap(PhoenixPreparedStatement.class);
    PhoenixConnection pc = conn.unwrap(PhoenixConnection.class);
    for (String m : a[1].split(",")) {
      LocalIndexQueryExecutor ex = new LocalIndexQueryExecutor(LocalIndexMode.valueOf(m));
      long tc = 0, to = 0, ti = 0, tall = 0;
      int n = Integer.parseInt(a[2]); com.sun.management.ThreadMXBean tm = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean(); long id = Thread.currentThread().getId();
      for (int i = 0; i < n * 2; i++) {
        boolean meas = i >= n;
        long t0 = tm.getThreadAllocatedBytes(id);
        QueryPlan dp = pps.compileQuery();
        long t1 = tm.getThreadAllocatedBytes(id);
        QueryPlan p = pc.getQueryServices().getOptimizer().optimize(pps, dp);
        long t2 = tm.getThreadAllocatedBytes(id);
        long t3 = tm.getThreadAllocatedBytes(id);
        ex.planScans(ps);
        long t4 = tm.getThreadAllocatedBytes(id);
        if (meas) { tc += t1 - t0; to += t2 - t1; tall += t4 - t3; }
      }
      System.out.printf("%s bytes/op compile %d optimize %d planScans(all) %d%n", m, tc / n, to / n, tall / n);
    }
  }
}
