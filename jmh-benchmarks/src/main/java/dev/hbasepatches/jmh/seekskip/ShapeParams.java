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
package dev.hbasepatches.jmh.seekskip;

import dev.hbasepatches.jmh.HBaseBenchmark;
import java.io.IOException;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * The data parameters both seek-skip benchmarks take, declared once: which shape, in how many
 * files, how many cells, how multi-version shapes spread over the files, PATCHED's skip budget
 * and the generator's seed. JMH reads {@code @Param} fields of a {@code @State} superclass.
 */
@State(Scope.Benchmark)
public abstract class ShapeParams extends HBaseBenchmark {

  @Param({ "timerangeMiss", "oneColumnOfTen", "oneVersionOfTen", "deletedColumns", "fullScan",
    "wideRowsManyVersions" })
  public String shape;

  @Param({ "1", "4" })
  public int files;

  /** About this many stored cells (the probe behind the issue used 500k). */
  @Param({ "500000" })
  public int cells;

  /** How multi-version shapes spread over the files (see ScanShape.Layout). */
  @Param({ "versionsAcrossFiles" })
  public String layout;

  /** PATCHED's skip budget; empty means the module's default. */
  @Param({ "" })
  public String maxSkips;

  @Param({ "42" })
  public long seed;

  /** A region of {@code mode} loaded with these parameters' data. */
  ShapeRegion openRegion(Mode mode) throws IOException {
    return ShapeRegion.open(mode, shape, files, cells, layout, seed, maxSkips);
  }
}
