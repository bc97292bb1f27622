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
package dev.hbasepatches.rowindex;

import org.apache.yetus.audience.InterfaceAudience;

/**
 * Thrown when a block claims to be ROW_INDEX_V1 but its trailer or a cell's lengths do not fit
 * inside it. Unchecked because {@code EncodedSeeker} methods cannot throw checked exceptions; the
 * message names the numbers that disagree so an operator can tell corruption from a wrong
 * encoding id.
 */
@InterfaceAudience.Private
public final class CorruptRowIndexBlockException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  public CorruptRowIndexBlockException(String message) {
    super("Corrupt ROW_INDEX_V1 block: " + message);
  }
}
