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
package dev.hbasepatches.jmh.checksumoverlay;

import dev.hbasepatches.jmh.series.SeriesToggleBenchmark;

/**
 * The checksum overlay on HBase's own read path, the checksum-overlay module's benchmark: one
 * 64 KB data block per operation read on a block cache miss ({@code HFile.Reader.readBlock},
 * pread, HBase checksums on, CRC32C per 16 KB chunk) with {@code target=checksum:HEAP},
 * {@code checksum:DIRECT} or {@code checksum:MULTI}; side PATCHED is the release with the
 * overlay jar in front, UPSTREAM the release alone, each in a class loader of its own, both
 * alternating in A B B A blocks inside every fork. The workload and its checks are the series
 * benchmark's checksum sides ({@code Workloads}); this class gives the overlay's targets a
 * benchmark of its own change.
 */
public class OverlayBlockReadBenchmark extends SeriesToggleBenchmark {
}
