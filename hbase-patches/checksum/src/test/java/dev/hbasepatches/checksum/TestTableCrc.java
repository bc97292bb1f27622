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

import static org.junit.Assert.assertEquals;

import java.nio.ByteBuffer;
import java.util.Random;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.Checksum;
import org.junit.Test;

/** The pure-Java baseline CRC agrees with java.util.zip for arrays and buffers, in pieces. */
public class TestTableCrc {

  @Test
  public void matchesJdkForEveryLengthAndAlignment() {
    Random rnd = new Random(7);
    byte[] data = new byte[300];
    rnd.nextBytes(data);
    for (int off = 0; off < 9; off++) {
      for (int len = 0; off + len <= data.length; len += 1 + len / 8) {
        check(new CRC32(), TableCrc.crc32(), data, off, len);
        check(new CRC32C(), TableCrc.crc32c(), data, off, len);
      }
    }
  }

  private static void check(Checksum jdk, Checksum ours, byte[] data, int off, int len) {
    jdk.update(data, off, len);
    ours.update(data, off, len);
    assertEquals("array off=" + off + " len=" + len, jdk.getValue(), ours.getValue());
    ByteBuffer direct = ByteBuffer.allocateDirect(data.length + 3);
    direct.position(3);
    direct.put(data);
    direct.position(3 + off).limit(3 + off + len);
    Checksum fresh = ours instanceof TableCrc && jdk instanceof CRC32 ? TableCrc.crc32()
      : TableCrc.crc32c();
    fresh.update(direct);
    assertEquals("direct off=" + off + " len=" + len, jdk.getValue(), fresh.getValue());
    assertEquals(direct.limit(), direct.position());
  }

  @Test
  public void piecewiseAndResetAgree() {
    byte[] data = new byte[5000];
    new Random(11).nextBytes(data);
    CRC32C jdk = new CRC32C();
    TableCrc ours = TableCrc.crc32c();
    ours.update(data, 0, 100);
    ours.reset();
    jdk.update(data, 0, 5000);
    ours.update(data, 0, 1234);
    ours.update(data[1234]);
    ours.update(ByteBuffer.wrap(data, 1235, 5000 - 1235));
    assertEquals(jdk.getValue(), ours.getValue());
  }
}
