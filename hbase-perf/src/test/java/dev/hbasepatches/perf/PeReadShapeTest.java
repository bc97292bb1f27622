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

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.util.NavigableSet;
import java.util.TreeSet;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.Test;

/** Gets and scans ask for what hbase pe's do: every column by name unless --addColumns=false. */
public class PeReadShapeTest {

  private static RunContext context(String... args) {
    return new RunContext(PerfArgsParser.parse(args), Command.RANDOM_READ, null,
      TableName.valueOf("unused"), false);
  }

  private static NavigableSet<String> names(NavigableSet<byte[]> qualifiers) {
    NavigableSet<String> s = new TreeSet<>();
    qualifiers.forEach(q -> s.add(Bytes.toString(q)));
    return s;
  }

  @Test
  public void readsNameEveryColumnByDefault() {
    RunContext ctx = context("--families=2", "--columns=3", "randomRead");
    Get g = ctx.get(7);
    assertEquals(2, g.numFamilies());
    for (String f : new String[] { "info0", "info1" }) {
      assertEquals(new TreeSet<>(java.util.List.of("0", "1", "2")),
        names(g.getFamilyMap().get(Bytes.toBytes(f))));
    }
    Scan s = ctx.scan();
    assertEquals(new TreeSet<>(java.util.List.of("0", "1", "2")),
      names(s.getFamilyMap().get(Bytes.toBytes("info1"))));
    assertTrue(PerfArgsParser.parse("scan").addColumns);
  }

  @Test
  public void addColumnsFalseAsksForWholeFamilies() {
    RunContext ctx = context("--addColumns=false", "--columns=3", "randomRead");
    assertFalse(ctx.options.addColumns);
    Get g = ctx.get(7);
    assertEquals(1, g.numFamilies());
    assertNull(g.getFamilyMap().get(Bytes.toBytes("info0")));
    assertNull(ctx.scan().getFamilyMap().get(Bytes.toBytes("info0")));
    assertTrue(ctx.scan().hasFamilies());
  }
}
