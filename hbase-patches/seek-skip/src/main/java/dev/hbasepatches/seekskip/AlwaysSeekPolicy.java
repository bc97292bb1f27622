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

import org.apache.yetus.audience.InterfaceAudience;

/** BASELINE: every SEEK request is a seek, as before HBASE-13109. */
@InterfaceAudience.Private
public final class AlwaysSeekPolicy implements SeekPolicy {
  private long seeks;

  @Override
  public int skipBudget(Target target) {
    return 0;
  }

  @Override
  public void skipped(Target target, int cells) {
    throw new IllegalStateException("an always-seek policy never grants a skip");
  }

  @Override
  public void sought(Target target, int cellsFirst, boolean budgetSpent) {
    seeks++;
  }

  @Override
  public void drainTo(SeekDecisions sink) {
    sink.add(0, seeks, 0);
    seeks = 0;
  }
}
