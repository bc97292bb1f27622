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
package dev.hbasepatches.quotas.limit;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import dev.hbasepatches.quotas.limit.LimitSpec.Kind;
import dev.hbasepatches.quotas.limit.LimitSpec.Traffic;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.quotas.QuotaSettings;
import org.apache.hadoop.hbase.quotas.QuotaType;
import org.apache.hadoop.hbase.quotas.ThrottleSettings;
import org.apache.hadoop.hbase.quotas.ThrottleType;
import org.junit.Test;

/** The HBase shell's throttle limit syntax, read and written back. */
public class LimitSpecTest {

  private static void check(String text, Kind kind, long amount, TimeUnit unit, String canonical) {
    LimitSpec spec = LimitSpec.parse(text);
    assertFalse(text, spec.isNone());
    assertEquals(text, kind, spec.kind());
    assertEquals(text, amount, spec.amount());
    assertEquals(text, unit, spec.timeUnit());
    assertEquals(text, canonical, spec.toString());
    assertEquals(text, spec, LimitSpec.parse(spec.toString()));
    assertEquals(text, spec.hashCode(), LimitSpec.parse(spec.toString()).hashCode());
  }

  @Test
  public void acceptsWhatTheShellAccepts() {
    check("100req/sec", Kind.REQUESTS, 100, TimeUnit.SECONDS, "100req/sec");
    check("100REQ/SEC", Kind.REQUESTS, 100, TimeUnit.SECONDS, "100req/sec");
    check("10M/sec", Kind.BYTES, 10L << 20, TimeUnit.SECONDS, "10m/sec");
    check("5K/min", Kind.BYTES, 5L << 10, TimeUnit.MINUTES, "5k/min");
    check("1G/hour", Kind.BYTES, 1L << 30, TimeUnit.HOURS, "1g/hour");
    check("2t/day", Kind.BYTES, 2L << 40, TimeUnit.DAYS, "2t/day");
    check("3P/sec", Kind.BYTES, 3L << 50, TimeUnit.SECONDS, "3p/sec");
    check("512b/sec", Kind.BYTES, 512, TimeUnit.SECONDS, "512b/sec");
    check("10240B/sec", Kind.BYTES, 10240, TimeUnit.SECONDS, "10k/sec");
    check("1536k/sec", Kind.BYTES, 1536L << 10, TimeUnit.SECONDS, "1536k/sec");
    check("20CU/sec", Kind.CAPACITY_UNITS, 20, TimeUnit.SECONDS, "20cu/sec");
    check("1cu/Day", Kind.CAPACITY_UNITS, 1, TimeUnit.DAYS, "1cu/day");
    check("007req/min", Kind.REQUESTS, 7, TimeUnit.MINUTES, "7req/min");
    check("9223372036854775807req/sec", Kind.REQUESTS, Long.MAX_VALUE, TimeUnit.SECONDS,
      "9223372036854775807req/sec");
    check("8191p/sec", Kind.BYTES, 8191L << 50, TimeUnit.SECONDS, "8191p/sec");
  }

  @Test
  public void none() {
    for (String s : new String[] { "NONE", "none", "None" }) {
      LimitSpec spec = LimitSpec.parse(s);
      assertTrue(spec.isNone());
      assertEquals(LimitSpec.NONE, spec);
      assertEquals("NONE", spec.toString());
      assertNull(spec.kind());
      assertNull(spec.timeUnit());
      assertEquals(0, spec.amount());
    }
    assertNotEquals(LimitSpec.NONE, LimitSpec.parse("1req/sec"));
    try {
      LimitSpec.NONE.throttleType(Traffic.ANY);
      fail();
    } catch (IllegalStateException expected) {
      // NONE has no throttle type
    }
  }

  private static void bad(String text, String... mentions) {
    try {
      LimitSpec.parse(text);
      fail("accepted '" + text + "'");
    } catch (IllegalArgumentException e) {
      String msg = e.getMessage();
      assertTrue(msg, msg.contains(text == null ? "null" : "'" + text + "'"));
      assertTrue(msg, msg.contains("100req/sec"));
      for (String m : mentions) {
        assertTrue("'" + msg + "' should mention '" + m + "'", msg.contains(m));
      }
    }
  }

  @Test
  public void refusesWithAMessageThatSaysWhy() {
    bad(null, "missing");
    bad("", "empty");
    bad("0req/sec", "greater than 0");
    bad("000k/sec", "greater than 0");
    bad("-5req/sec", "sign");
    bad("+5req/sec", "sign");
    bad("req/sec", "amount");
    bad("100", "bare number");
    bad("100req", "period is missing");
    bad("100req/", "period is missing");
    bad("100/sec", "unit is missing");
    bad("100req/fortnight", "unknown period 'fortnight'");
    bad("100req/s", "unknown period 's'");
    bad("100req/second", "unknown period");
    bad("100req/sec/sec", "unknown period");
    bad("10X/sec", "unknown unit 'x'");
    bad("10kb/sec", "unknown unit 'kb'");
    bad("1.5k/sec", "unknown unit");
    bad("100 req/sec", "whitespace");
    bad(" 100req/sec", "whitespace");
    bad("100req/sec\n", "whitespace");
    bad("9223372036854775808req/sec", "64-bit");
    bad("99999999999999999999999req/sec", "64-bit");
    bad("8192p/sec", "64-bit");
    bad("9007199254740992k/sec", "64-bit");
    bad("nothing", "amount");
  }

  @Test
  public void throttleTypes() {
    assertEquals(ThrottleType.REQUEST_NUMBER,
      LimitSpec.parse("1req/sec").throttleType(Traffic.ANY));
    assertEquals(ThrottleType.READ_NUMBER, LimitSpec.parse("1req/sec").throttleType(Traffic.READ));
    assertEquals(ThrottleType.WRITE_NUMBER,
      LimitSpec.parse("1req/sec").throttleType(Traffic.WRITE));
    assertEquals(ThrottleType.REQUEST_SIZE, LimitSpec.parse("1m/sec").throttleType(Traffic.ANY));
    assertEquals(ThrottleType.READ_SIZE, LimitSpec.parse("1m/sec").throttleType(Traffic.READ));
    assertEquals(ThrottleType.WRITE_SIZE, LimitSpec.parse("1b/sec").throttleType(Traffic.WRITE));
    assertEquals(ThrottleType.REQUEST_CAPACITY_UNIT,
      LimitSpec.parse("1cu/sec").throttleType(Traffic.ANY));
    assertEquals(ThrottleType.READ_CAPACITY_UNIT,
      LimitSpec.parse("1cu/sec").throttleType(Traffic.READ));
    assertEquals(ThrottleType.WRITE_CAPACITY_UNIT,
      LimitSpec.parse("1cu/sec").throttleType(Traffic.WRITE));
  }

  private static void assertThrottle(QuotaSettings s, String user, TableName table, String ns,
    ThrottleType type, long limit, TimeUnit unit) {
    assertEquals(QuotaType.THROTTLE, s.getQuotaType());
    assertEquals(user, s.getUserName());
    assertEquals(table, s.getTableName());
    assertEquals(ns, s.getNamespace());
    ThrottleSettings t = (ThrottleSettings) s;
    assertEquals(type, t.getThrottleType());
    assertEquals(limit, t.getSoftLimit());
    assertEquals(unit, t.getTimeUnit());
  }

  @Test
  public void buildsUpstreamQuotaSettings() {
    TableName table = TableName.valueOf("ns1", "t1");
    LimitSpec spec = LimitSpec.parse("10M/sec");
    assertThrottle(spec.forUser("alice", null, null, Traffic.READ), "alice", null, null,
      ThrottleType.READ_SIZE, 10L << 20, TimeUnit.SECONDS);
    assertThrottle(spec.forUser("alice", table, null, Traffic.ANY), "alice", table, null,
      ThrottleType.REQUEST_SIZE, 10L << 20, TimeUnit.SECONDS);
    assertThrottle(spec.forUser("alice", null, "ns1", Traffic.WRITE), "alice", null, "ns1",
      ThrottleType.WRITE_SIZE, 10L << 20, TimeUnit.SECONDS);
    LimitSpec req = LimitSpec.parse("5req/min");
    assertThrottle(req.forTable(table, Traffic.ANY), null, table, null,
      ThrottleType.REQUEST_NUMBER, 5, TimeUnit.MINUTES);
    assertThrottle(req.forNamespace("ns1", Traffic.READ), null, null, "ns1",
      ThrottleType.READ_NUMBER, 5, TimeUnit.MINUTES);
    try {
      spec.forUser("alice", table, "ns1", Traffic.ANY);
      fail();
    } catch (IllegalArgumentException expected) {
      // a table or a namespace, not both
    }
  }

  @Test
  public void noneBuildsUnthrottleSettings() {
    TableName table = TableName.valueOf("t1");
    QuotaSettings s = LimitSpec.NONE.forTable(table, Traffic.ANY);
    assertEquals(QuotaType.THROTTLE, s.getQuotaType());
    assertEquals(table, s.getTableName());
    assertEquals(-1, ((ThrottleSettings) s).getSoftLimit());
    QuotaSettings u = LimitSpec.NONE.forUser("bob", null, "ns", Traffic.READ);
    assertEquals("bob", u.getUserName());
    assertEquals("ns", u.getNamespace());
    assertEquals(-1, ((ThrottleSettings) u).getSoftLimit());
    assertEquals("ns", LimitSpec.NONE.forNamespace("ns", Traffic.ANY).getNamespace());
  }

  @Test
  public void ofAndRateLimit() {
    LimitSpec spec = LimitSpec.of(2500, Kind.REQUESTS, TimeUnit.SECONDS);
    assertEquals(LimitSpec.parse("2500req/sec"), spec);
    assertEquals(TimeUnit.SECONDS.toNanos(1), spec.periodNanos());
    SmoothRateLimit limit = spec.newRateLimit(new FakeTicker());
    assertEquals(2500, limit.units());
    assertEquals(TimeUnit.SECONDS.toNanos(1), limit.periodNanos());
    try {
      LimitSpec.of(1, Kind.BYTES, TimeUnit.MILLISECONDS);
      fail();
    } catch (IllegalArgumentException expected) {
      // HBase quotas have no millisecond period
    }
    try {
      LimitSpec.of(0, Kind.BYTES, TimeUnit.SECONDS);
      fail();
    } catch (IllegalArgumentException expected) {
      // must be positive
    }
  }
}
