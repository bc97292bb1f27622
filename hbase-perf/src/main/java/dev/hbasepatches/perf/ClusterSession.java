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

import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.client.Connection;

/** The cluster a run talks to: an embedded minicluster, or a real one it connected to. */
interface ClusterSession extends AutoCloseable {

  Connection connection();

  boolean embedded();

  /** One line for the user: what cluster this is. */
  String summary();

  /** The same, as fields for the JSON report. */
  Map<String, Object> describe();

  /** Lines for the user once the commands have run (e.g. the block caches' counts). */
  default List<String> closingNotes() {
    return List.of();
  }

  /** Closes this run's connection; an embedded cluster is stopped by its owner, not here. */
  @Override
  void close();
}
