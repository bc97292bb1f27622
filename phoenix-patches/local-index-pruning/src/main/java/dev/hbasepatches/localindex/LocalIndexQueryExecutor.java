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
package dev.hbasepatches.localindex;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.apache.hadoop.hbase.HBaseInterfaceAudience;
import org.apache.phoenix.compile.QueryPlan;
import org.apache.phoenix.compile.ScanRanges;
import org.apache.phoenix.execute.AggregatePlan;
import org.apache.phoenix.iterate.DefaultParallelScanGrouper;
import org.apache.phoenix.iterate.ParallelScanGrouper;
import org.apache.phoenix.iterate.ResultIterator;
import org.apache.phoenix.jdbc.PhoenixConnection;
import org.apache.phoenix.jdbc.PhoenixPreparedStatement;
import org.apache.phoenix.query.QueryServices;
import org.apache.phoenix.schema.PTable;
import org.apache.phoenix.schema.PTable.IndexType;
import org.apache.phoenix.schema.PTableType;
import org.apache.phoenix.util.ScanUtil;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * Runs a query the way {@code PreparedStatement.executeQuery} does, with the LOCAL index region
 * selection of the chosen {@link LocalIndexMode}: it compiles the statement, keeps the data-table
 * plan's key ranges, lets Phoenix's optimizer pick the index plan, and runs that plan with the
 * scan grouper of the mode. Rows come back through an ordinary Phoenix {@link ResultSet}.
 * <p>
 * Plans that do not scan a LOCAL index run unchanged in every mode. PATCHED refuses, with an
 * {@link SQLException} that says why, the two plans whose region list it cannot control in
 * Phoenix 5.2.1 without returning wrong or upstream-only results:
 * <ul>
 * <li>parallel aggregate plans: {@code AggregatePlan} builds its iterators without the scan
 * grouper it is given, so the pruner would never run;</li>
 * <li>plans with statistics-based parallelization on ({@value QueryServices#USE_STATS_FOR_PARALLELIZATION}
 * or the table's USE_STATS_FOR_PARALLELIZATION): guideposts inside skipped regions turn into extra
 * scans of the next kept region.</li>
 * </ul>
 */
@InterfaceAudience.LimitedPrivate(HBaseInterfaceAudience.PHOENIX)
public final class LocalIndexQueryExecutor {

  private final LocalIndexMode mode;

  public LocalIndexQueryExecutor(LocalIndexMode mode) {
    this.mode = mode;
  }

  /**
   * The mode a connection asks for: its {@value LocalIndexMode#MODE_KEY} connection property,
   * else the same key in the client configuration, else {@link LocalIndexMode#DEFAULT_MODE}.
   */
  public static LocalIndexQueryExecutor forConnection(Connection connection) throws SQLException {
    PhoenixConnection conn = connection.unwrap(PhoenixConnection.class);
    String value = conn.getClientInfo(LocalIndexMode.MODE_KEY);
    if (value == null) {
      value = conn.getQueryServices().getProps().get(LocalIndexMode.MODE_KEY);
    }
    return new LocalIndexQueryExecutor(LocalIndexMode.parse(value));
  }

  public LocalIndexMode mode() {
    return mode;
  }

  /** Executes a query statement (parameters already bound). */
  public ResultSet executeQuery(PreparedStatement statement) throws SQLException {
    PhoenixPreparedStatement stmt = statement.unwrap(PhoenixPreparedStatement.class);
    Planned planned = plan(stmt);
    QueryPlan plan = planned.plan;
    ResultIterator iterator = plan.iterator(planned.grouper);
    plan.getContext().getOverallQueryMetrics().startQuery();
    return stmt.newResultSet(iterator, plan.getProjector(), plan.getContext());
  }

  /**
   * Compiles a statement and plans its scans (region selection included) without reading a row,
   * the planning work alone; {@link Planned#plan}'s {@code getScans()} then lists the scans.
   */
  public Planned planScans(PreparedStatement statement) throws SQLException {
    Planned planned = plan(statement.unwrap(PhoenixPreparedStatement.class));
    planned.plan.iterator(planned.grouper).close();
    return planned;
  }

  private Planned plan(PhoenixPreparedStatement stmt) throws SQLException {
    QueryPlan dataPlan = stmt.compileQuery();
    PhoenixConnection conn = stmt.getConnection().unwrap(PhoenixConnection.class);
    QueryPlan plan = conn.getQueryServices().getOptimizer().optimize(stmt, dataPlan);
    if (!scansLocalIndexOf(plan, dataPlan)) {
      return new Planned(plan, DefaultParallelScanGrouper.getInstance(), null);
    }
    switch (mode) {
      case BASELINE:
        // Phoenix prunes from the data plan's key ranges; with none it keeps every region.
        dataPlan.getContext().setScanRanges(ScanRanges.EVERYTHING);
        return new Planned(plan, DefaultParallelScanGrouper.getInstance(), null);
      case UPSTREAM:
        return new Planned(plan, DefaultParallelScanGrouper.getInstance(), null);
      case PATCHED:
      default:
        PTable index = plan.getTableRef().getTable();
        if (plan instanceof AggregatePlan) {
          throw new SQLException(LocalIndexMode.MODE_KEY + "=PATCHED cannot prune an aggregate "
            + "query over local index " + index.getName() + ": Phoenix 5.2.1's AggregatePlan "
            + "ignores the scan grouper (see PATCH.md); run it in UPSTREAM mode");
        }
        if (ScanUtil.getStatsForParallelizationProp(conn, index)) {
          throw new SQLException(LocalIndexMode.MODE_KEY + "=PATCHED needs statistics-based "
            + "parallelization off for local index " + index.getName() + " (set "
            + QueryServices.USE_STATS_FOR_PARALLELIZATION + "=false or the table's "
            + "USE_STATS_FOR_PARALLELIZATION=false): guideposts in pruned regions would add "
            + "scans to the regions kept");
        }
        PruningScanGrouper grouper =
          new PruningScanGrouper(plan.getContext(), dataPlan.getContext().getScanRanges());
        return new Planned(plan, grouper, grouper);
    }
  }

  /** True when Phoenix picked a LOCAL index over the table the data plan reads. */
  private static boolean scansLocalIndexOf(QueryPlan plan, QueryPlan dataPlan) {
    if (plan == dataPlan || plan.getTableRef() == null || dataPlan.getTableRef() == null) {
      return false;
    }
    PTable table = plan.getTableRef().getTable();
    return table.getIndexType() == IndexType.LOCAL
      && dataPlan.getTableRef().getTable().getType() != PTableType.INDEX
      && dataPlan.getContext().getScanRanges() != null;
  }

  /** A compiled plan and the scan grouper its iterators get. */
  public static final class Planned {
    public final QueryPlan plan;
    public final ParallelScanGrouper grouper;
    /** The PATCHED grouper, to ask what it kept; null in the other modes. */
    public final PruningScanGrouper pruner;

    Planned(QueryPlan plan, ParallelScanGrouper grouper, PruningScanGrouper pruner) {
      this.plan = plan;
      this.grouper = grouper;
      this.pruner = pruner;
    }

    /**
     * Plans the scans of the already compiled plan again, region selection included, with a
     * fresh grouper of the same mode (a PATCHED grouper prunes one lookup only): the region
     * selection step alone, without compiling or optimizing the statement.
     */
    public Planned replanScans() throws SQLException {
      PruningScanGrouper fresh = pruner == null ? null : pruner.forSamePlan();
      Planned again = new Planned(plan, fresh == null ? grouper : fresh, fresh);
      plan.iterator(again.grouper).close();
      return again;
    }
  }
}
