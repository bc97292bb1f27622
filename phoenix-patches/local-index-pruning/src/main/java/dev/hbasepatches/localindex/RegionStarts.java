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

import java.util.List;
import org.apache.hadoop.hbase.HRegionLocation;

/**
 * A table's regions as the sorted list of their start keys: region {@code i} holds the keys from
 * {@code startKey(i)} (inclusive) up to {@code startKey(i + 1)} (exclusive), the last one up to
 * the end of the table. The first start key is empty.
 */
public interface RegionStarts {

  int size();

  byte[] startKey(int region);

  /** Over start keys already in a list, e.g. split points with an empty key in front. */
  static RegionStarts of(List<byte[]> startKeys) {
    return new RegionStarts() {
      @Override
      public int size() {
        return startKeys.size();
      }

      @Override
      public byte[] startKey(int region) {
        return startKeys.get(region);
      }
    };
  }

  /** Over region locations in key order, as Phoenix's query services hand them out. */
  static RegionStarts ofLocations(List<HRegionLocation> locations) {
    return new RegionStarts() {
      @Override
      public int size() {
        return locations.size();
      }

      @Override
      public byte[] startKey(int region) {
        return locations.get(region).getRegion().getStartKey();
      }
    };
  }
}
