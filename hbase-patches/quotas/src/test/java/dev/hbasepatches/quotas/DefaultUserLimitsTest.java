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
package dev.hbasepatches.quotas;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotSame;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import dev.hbasepatches.quotas.limit.SmoothRateLimit;
import dev.hbasepatches.quotas.limit.Ticker;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.quotas.QuotaUtil;
import org.apache.hadoop.hbase.quotas.ThrottleType;
import org.apache.hadoop.hbase.util.VersionInfo;
import org.junit.Assume;
import org.junit.Test;

public class DefaultUserLimitsTest {

  private static final QuotaBook.LimitFactory FACTORY = CountingLimit::new;

  @Test
  public void noKeysNoDefaults() {
    assertNull(DefaultUserLimits.from(new Configuration(false), FACTORY));
  }

  @Test
  public void eachUserGetsItsOwnLimitersPerSecond() {
    Configuration conf = new Configuration(false);
    conf.setLong(QuotaUtil.QUOTA_DEFAULT_USER_MACHINE_READ_NUM, 50);
    conf.setLong(QuotaUtil.QUOTA_DEFAULT_USER_MACHINE_WRITE_SIZE, 1 << 20);
    DefaultUserLimits d = DefaultUserLimits.from(conf, FACTORY);
    UserLimits a = d.forUser("a");
    assertSame("made once per user", a, d.forUser("a"));
    LimitSet set = a.global();
    assertEquals(50, set.limit(ThrottleType.READ_NUMBER).units());
    assertEquals(TimeUnit.SECONDS.toNanos(1), set.limit(ThrottleType.READ_NUMBER).periodNanos());
    assertEquals(1 << 20, set.limit(ThrottleType.WRITE_SIZE).units());
    assertNull(set.limit(ThrottleType.REQUEST_NUMBER));
    UserLimits b = d.forUser("b");
    assertEquals(2, d.users());
    assertNotSame(set.limit(ThrottleType.READ_NUMBER), b.global().limit(ThrottleType.READ_NUMBER));
  }

  /**
   * Names chosen by clients (the override key) cannot grow the defaults without bound: past the
   * bound the users that owe nothing go first, then any, and a busy user keeps its limiter while
   * idle ones are there to drop.
   */
  @Test
  public void usersAreBoundedAndIdleOnesGoFirst() {
    Configuration conf = new Configuration(false);
    conf.setLong(QuotaUtil.QUOTA_DEFAULT_USER_MACHINE_READ_NUM, 50);
    conf.setInt(DefaultUserLimits.MAX_USERS_KEY, 8);
    DefaultUserLimits d = DefaultUserLimits.from(conf, FACTORY);
    UserLimits busy = d.forUser("busy");
    assertEquals(0, busy.global().limit(ThrottleType.READ_NUMBER).tryAcquire(1));
    for (int i = 0; i < 1000; i++) {
      d.forUser("idle" + i);
      assertTrue("users kept: " + d.users(), d.users() <= 8);
      assertSame("the busy user keeps what it owes", busy, d.forUser("busy"));
    }
    for (int i = 0; i < 1000; i++) {
      UserLimits u = d.forUser("spender" + i);
      u.global().limit(ThrottleType.READ_NUMBER).tryAcquire(1);
      assertTrue("users kept when all owe: " + d.users(), d.users() <= 8);
    }
  }

  @Test
  public void badBoundIsRefused() {
    Configuration conf = new Configuration(false);
    conf.setLong(QuotaUtil.QUOTA_DEFAULT_USER_MACHINE_READ_NUM, 50);
    conf.setInt(DefaultUserLimits.MAX_USERS_KEY, 0);
    try {
      DefaultUserLimits.from(conf, FACTORY);
      fail("a bound of 0 was accepted");
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().contains(DefaultUserLimits.MAX_USERS_KEY));
    }
  }

  /** A bound that is not a number names the key and the value (it was Hadoop's bare error). */
  @Test
  public void aBoundThatIsNotANumberIsRefusedNamingKeyAndValue() {
    for (String bad : new String[] { "abc", "1e3", "2147483648" }) {
      Configuration conf = new Configuration(false);
      conf.setLong(QuotaUtil.QUOTA_DEFAULT_USER_MACHINE_READ_NUM, 50);
      conf.set(DefaultUserLimits.MAX_USERS_KEY, bad);
      try {
        DefaultUserLimits.from(conf, FACTORY);
        fail("a bound of " + bad + " was accepted");
      } catch (IllegalArgumentException e) {
        assertTrue(e.getMessage(), e.getMessage().contains(DefaultUserLimits.MAX_USERS_KEY)
          && e.getMessage().contains("'" + bad + "'"));
      }
    }
  }

  private static final QuotaBook.LimitFactory REAL =
    (units, period) -> new SmoothRateLimit(units, period, Ticker.SYSTEM);

  private static ThrottleType handlerTime() {
    ThrottleType t = ThrottleTypes.type(ThrottleTypes.Kind.REQUEST_HANDLER_USAGE_MS);
    Assume.assumeTrue("HBase " + VersionInfo.getVersion() + " has no handler-time throttle",
      t != null);
    return t;
  }

  /**
   * A default handler time of Long.MAX_VALUE ms is no limit, as HBase reads Long.MAX_VALUE: it
   * does not overflow into a negative rate that fails the limiter's constructor on every request
   * of every user without a quota row.
   */
  @Test
  public void handlerTimeDefaultOfLongMaxValueIsNoLimit() {
    ThrottleType handler = handlerTime();
    Configuration conf = new Configuration(false);
    conf.setLong(ThrottleTypes.kind(handler).defaultKey, Long.MAX_VALUE);
    conf.setLong(QuotaUtil.QUOTA_DEFAULT_USER_MACHINE_READ_NUM, 5);
    DefaultUserLimits d = DefaultUserLimits.from(conf, REAL);
    LimitSet set = d.forUser("anyone").global();
    assertEquals(Long.MAX_VALUE, set.limit(handler).units());
    for (int i = 0; i < 1000; i++) {
      assertEquals(0, set.limit(handler).tryAcquire(1_000_000));
    }
    assertEquals(5, set.limit(ThrottleType.READ_NUMBER).units());
  }

  /**
   * A default whose microseconds do not fit a long is refused when the defaults are read (at
   * server start), naming the key, the value and the largest limit.
   */
  @Test
  public void handlerTimeDefaultThatOverflowsIsRefusedNamingKeyValueAndLimit() {
    ThrottleType handler = handlerTime();
    String key = ThrottleTypes.kind(handler).defaultKey;
    for (long bad : new long[] { Long.MAX_VALUE - 1, Long.MAX_VALUE / 1000 + 1 }) {
      Configuration conf = new Configuration(false);
      conf.setLong(key, bad);
      try {
        DefaultUserLimits.from(conf, REAL).forUser("anyone");
        fail(key + "=" + bad + " was accepted");
      } catch (IllegalArgumentException e) {
        String m = e.getMessage();
        assertTrue(m, m.contains(key) && m.contains(Long.toString(bad))
          && m.contains(Long.toString(Long.MAX_VALUE / 1000)));
      }
    }
    Configuration largest = new Configuration(false);
    largest.setLong(key, Long.MAX_VALUE / 1000);
    assertEquals(Long.MAX_VALUE / 1000 * 1000,
      DefaultUserLimits.from(largest, REAL).forUser("anyone").global().limit(handler).units());
  }

  /** Below -1 (HBase's "none") and words are refused too, naming the key and the value. */
  @Test
  public void negativeOrMalformedDefaultsAreRefused() {
    for (String bad : new String[] { "-2", "ten", "1.5" }) {
      Configuration conf = new Configuration(false);
      conf.set(QuotaUtil.QUOTA_DEFAULT_USER_MACHINE_REQUEST_NUM, bad);
      try {
        DefaultUserLimits.from(conf, REAL).forUser("anyone");
        fail(bad + " was accepted");
      } catch (IllegalArgumentException e) {
        String m = e.getMessage();
        assertTrue(m, m.contains(QuotaUtil.QUOTA_DEFAULT_USER_MACHINE_REQUEST_NUM)
          && m.contains(bad));
      }
    }
    Configuration none = new Configuration(false);
    none.set(QuotaUtil.QUOTA_DEFAULT_USER_MACHINE_REQUEST_NUM, "-1");
    assertNull(DefaultUserLimits.from(none, REAL));
  }
}
