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
package org.apache.hadoop.hbase.io.hfile;

import dev.hbasepatches.checksum.BlockChecksummer;

/**
 * Tests only: switches the overlay's checksummer from outside its package, through
 * {@code ChecksumUtil}'s package-private seam (production code has no public setter).
 */
public final class OverlayChecksummer {

  private OverlayChecksummer() {
  }

  /** The checksummer HBase's calls go to from now on; null for the stock path. */
  public static void use(BlockChecksummer c) {
    ChecksumUtil.setChecksummer(c);
  }
}
