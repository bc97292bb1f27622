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

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.quotas.RpcThrottlingException;
import org.apache.hadoop.hbase.quotas.ThrottleType;
import org.apache.hadoop.hbase.shaded.protobuf.generated.QuotaProtos.Throttle;
import org.apache.hadoop.hbase.shaded.protobuf.generated.QuotaProtos.TimedQuota;
import org.apache.hadoop.hbase.util.VersionInfo;
import org.apache.hbase.thirdparty.com.google.protobuf.Descriptors.FieldDescriptor;

/**
 * Every throttle type the running HBase has, as this module enforces it. HBase 2.6.1 has nine
 * types; 2.6.4 adds four (atomic request number, atomic read and write size, handler time). The
 * module is compiled against one release but must enforce whatever the running release stores,
 * so a type is known here by its name, its limit is read from {@code hbase:quota}'s protobuf by
 * field name (the stored schema, not a Java member), and its refusal is HBase's own
 * {@link RpcThrottlingException} of the matching type. A type this table does not know stops a
 * PATCHED server at start ({@link #checkSupported()}): it is never silently left unenforced.
 */
final class ThrottleTypes {

  /** How a throttle type counts a request. */
  enum Kind {
    REQUEST_NUMBER("req_num", "hbase.quota.default.user.machine.request.num"),
    REQUEST_SIZE("req_size", "hbase.quota.default.user.machine.request.size"),
    WRITE_NUMBER("write_num", "hbase.quota.default.user.machine.write.num"),
    WRITE_SIZE("write_size", "hbase.quota.default.user.machine.write.size"),
    READ_NUMBER("read_num", "hbase.quota.default.user.machine.read.num"),
    READ_SIZE("read_size", "hbase.quota.default.user.machine.read.size"),
    REQUEST_CAPACITY_UNIT("req_capacity_unit", null),
    WRITE_CAPACITY_UNIT("write_capacity_unit", null),
    READ_CAPACITY_UNIT("read_capacity_unit", null),
    // HBase 2.6.4 and later: charged only by atomic requests (check-and-mutate, and a batch that
    // holds one), and the handler time any request takes.
    ATOMIC_READ_SIZE("atomic_read_size", "hbase.quota.default.user.machine.atomic.read.size",
      "AtomicReadSizeExceeded", "atomic read size exceeded"),
    ATOMIC_REQUEST_NUMBER("atomic_req_num", "hbase.quota.default.user.machine.atomic.request.num",
      "AtomicRequestNumberExceeded", "atomic request number exceeded"),
    ATOMIC_WRITE_SIZE("atomic_write_size", "hbase.quota.default.user.machine.atomic.write.size",
      "AtomicWriteSizeExceeded", "atomic write size exceeded"),
    REQUEST_HANDLER_USAGE_MS("req_handler_usage_ms",
      "hbase.quota.default.user.machine.request.handler.usage.ms",
      "RequestHandlerUsageTimeExceeded", "request handler usage time exceeded");

    /** The {@code Throttle} protobuf field holding this type's limit. */
    final String field;
    /** HBase's per-user default key for this type, or null when HBase has none. */
    final String defaultKey;
    /** For the types newer than 2.6.1: HBase's exception type name and its message text. */
    final String exceptionType;
    final String message;

    Kind(String field, String defaultKey) {
      this(field, defaultKey, null, null);
    }

    Kind(String field, String defaultKey, String exceptionType, String message) {
      this.field = field;
      this.defaultKey = defaultKey;
      this.exceptionType = exceptionType;
      this.message = message;
    }

    /** Counts requests (needs no byte or time estimate). */
    boolean counted() {
      return this == REQUEST_NUMBER || this == WRITE_NUMBER || this == READ_NUMBER
        || this == ATOMIC_REQUEST_NUMBER;
    }

    /**
     * Limiter units per configured unit: handler time is stored in milliseconds and charged in
     * microseconds, so a request that holds a handler for 0.3 ms costs 0.3 ms, not 0 or 1.
     */
    long scale() {
      return this == REQUEST_HANDLER_USAGE_MS ? 1000 : 1;
    }

    /** What one configured unit of this kind is, for messages. */
    String unitName() {
      if (this == REQUEST_HANDLER_USAGE_MS) {
        return "ms";
      }
      return counted() ? "requests" : this.name().endsWith("CAPACITY_UNIT") ? "capacity units"
        : "bytes";
    }

    /**
     * The largest configured limit of this kind that is enforced as a finite rate: limiter units
     * are the limit times {@link #scale()} and must fit a long. {@code Long.MAX_VALUE} itself is
     * accepted too and means no limit, as in HBase.
     */
    long largestLimit() {
      return Long.MAX_VALUE / scale();
    }

    /**
     * Limiter units for a configured limit of this kind (0 or more): the limit times
     * {@link #scale()}, with {@code Long.MAX_VALUE} kept as {@code Long.MAX_VALUE}, i.e. no limit.
     *
     * @param what names the setting, for the message
     * @throws IllegalArgumentException naming the setting, the value and the largest limit, when
     *           the limit is negative or does not fit once scaled
     */
    long units(long limit, String what) {
      if (limit == Long.MAX_VALUE) {
        return Long.MAX_VALUE;
      }
      if (limit < 0 || limit > largestLimit()) {
        String why = scale() == 1 ? "" : " (it is kept times " + scale() + ", which must fit a"
          + " long; " + Long.MAX_VALUE + " alone means no limit)";
        throw new IllegalArgumentException(what + " is " + limit + " " + unitName() + ": a "
          + name() + " limit must be between 0 and " + largestLimit() + why);
      }
      return limit * scale();
    }
  }

  private static final ThrottleType[] TYPES = ThrottleType.values();
  /** By {@link ThrottleType} ordinal; null for a type this module does not know. */
  private static final Kind[] KINDS = new Kind[TYPES.length];
  private static final FieldDescriptor[] FIELDS = new FieldDescriptor[TYPES.length];

  static {
    for (ThrottleType t : TYPES) {
      Kind k = kindNamed(t.name());
      KINDS[t.ordinal()] = k;
      FIELDS[t.ordinal()] = k == null ? null : Throttle.getDescriptor().findFieldByName(k.field);
    }
  }

  private ThrottleTypes() {
  }

  static Kind kindNamed(String name) {
    for (Kind k : Kind.values()) {
      if (k.name().equals(name)) {
        return k;
      }
    }
    return null;
  }

  static Kind kind(ThrottleType type) {
    Kind k = KINDS[type.ordinal()];
    if (k == null) {
      throw new IllegalStateException(unsupportedMessage(List.of(type.name())));
    }
    return k;
  }

  static Kind kind(int ordinal) {
    return kind(TYPES[ordinal]);
  }

  /** The running HBase's throttle type of this kind, or null when that release has none. */
  static ThrottleType type(Kind kind) {
    for (ThrottleType t : TYPES) {
      if (t.name().equals(kind.name())) {
        return t;
      }
    }
    return null;
  }

  /** Names among {@code typeNames} this module cannot enforce (unknown, or no stored field). */
  static List<String> unsupported(String... typeNames) {
    List<String> bad = new ArrayList<>();
    for (String n : typeNames) {
      Kind k = kindNamed(n);
      if (k == null || Throttle.getDescriptor().findFieldByName(k.field) == null) {
        bad.add(n);
      }
    }
    return bad;
  }

  static String unsupportedMessage(List<String> types) {
    return "HBase " + VersionInfo.getVersion() + " has throttle types " + types
      + " that the quotas module (hbasepatches.quotas.mode=PATCHED) does not know how to enforce;"
      + " it refuses to start rather than ignore limits set with them. Run"
      + " hbasepatches.quotas.mode=UPSTREAM, or a build of the module for this HBase release.";
  }

  /** Fails with a message naming the HBase version if a throttle type cannot be enforced. */
  static void checkSupported() {
    String[] names = new String[TYPES.length];
    for (int i = 0; i < TYPES.length; i++) {
      names[i] = TYPES[i].name();
    }
    List<String> bad = unsupported(names);
    if (!bad.isEmpty()) {
      throw new IllegalStateException(unsupportedMessage(bad));
    }
  }

  /** The stored limit of one throttle type, or null when the setting has none. */
  static TimedQuota timed(Throttle t, ThrottleType type) {
    FieldDescriptor f = FIELDS[type.ordinal()];
    if (f == null) {
      throw new IllegalStateException(unsupportedMessage(List.of(type.name())));
    }
    return t.hasField(f) ? (TimedQuota) t.getField(f) : null;
  }

  /** Sets one type's limit on a builder (tests and tools; works for every known type). */
  static Throttle.Builder with(Throttle.Builder b, ThrottleType type, TimedQuota limit) {
    FieldDescriptor f = FIELDS[type.ordinal()];
    if (f == null) {
      throw new IllegalStateException(unsupportedMessage(List.of(type.name())));
    }
    return b.setField(f, limit);
  }

  /** Throws HBase's refusal for {@code kind}, with the wait in milliseconds. */
  static void refuse(Kind kind, long waitMs) throws RpcThrottlingException {
    switch (kind) {
      case REQUEST_NUMBER:
        RpcThrottlingException.throwNumRequestsExceeded(waitMs);
        break;
      case REQUEST_SIZE:
        RpcThrottlingException.throwRequestSizeExceeded(waitMs);
        break;
      case WRITE_NUMBER:
        RpcThrottlingException.throwNumWriteRequestsExceeded(waitMs);
        break;
      case WRITE_SIZE:
        RpcThrottlingException.throwWriteSizeExceeded(waitMs);
        break;
      case READ_NUMBER:
        RpcThrottlingException.throwNumReadRequestsExceeded(waitMs);
        break;
      case READ_SIZE:
        RpcThrottlingException.throwReadSizeExceeded(waitMs);
        break;
      case REQUEST_CAPACITY_UNIT:
        RpcThrottlingException.throwRequestCapacityUnitExceeded(waitMs);
        break;
      case WRITE_CAPACITY_UNIT:
        RpcThrottlingException.throwWriteCapacityUnitExceeded(waitMs);
        break;
      case READ_CAPACITY_UNIT:
        RpcThrottlingException.throwReadCapacityUnitExceeded(waitMs);
        break;
      default:
        // Newer than the release this is compiled against: the same exception, built from the
        // type's name and the text a client parses the type and wait back from.
        throw new RpcThrottlingException(RpcThrottlingException.Type.valueOf(kind.exceptionType),
          waitMs, kind.message + " - wait " + Waits.format(waitMs));
    }
  }

  /** Reaches HBase's wait formatting, which its client parses back. */
  private static final class Waits extends RpcThrottlingException {
    private static final long serialVersionUID = 1L;

    private Waits() {
      super("");
    }

    static String format(long millis) {
      return stringFromMillis(millis);
    }
  }
}
