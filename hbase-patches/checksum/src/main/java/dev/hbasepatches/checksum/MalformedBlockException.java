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
package dev.hbasepatches.checksum;

import java.io.IOException;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * A block whose header cannot describe a checksummed HFile block: unknown checksum type code,
 * bytes-per-checksum not positive, sizes that disagree with each other or with the buffer.
 * <p>
 * Thrown rather than reported as a checksum mismatch so that a damaged header can never be mistaken
 * for a verified block, and never crashes the reader with an unchecked error (HBASE-29158 and
 * HBASE-28065 were both header corruption escaping as the wrong kind of failure). A caller on the
 * HBase read path treats it like a mismatch: fall back to HDFS checksums.
 */
@InterfaceAudience.Private
public final class MalformedBlockException extends IOException {
  private static final long serialVersionUID = 1L;

  public MalformedBlockException(String message) {
    super(message);
  }
}
