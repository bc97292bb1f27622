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

import java.io.Closeable;
import java.io.IOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.LongAdder;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;

/**
 * The timeline-reads change in the read commands: each client's Gets, multi-gets and scanners go
 * through the module's {@code TimelineReader}, in the mode the clients' configuration names
 * ({@link #MODE_KEY}); every other call (puts, deletes, mutations) stays on HBase's own
 * {@link Table}. The reader is reached by name, as {@link ReplicaFailover} reaches it, so the tool
 * compiles and runs without the module.
 * <p>
 * One instance per command run: it hands each client a {@link Table} whose three read calls go to
 * a reader of the client's own, counts what went there, and adds up the readers' own counters
 * ({@code TimelineReader.stats()}, which count PATCHED's hedged reads) as each client closes.
 */
final class TimelineReads {

  static final String READER_CLASS = "dev.hbasepatches.timeline.TimelineReader";
  /** The module's key for its mode (TimelineMode.KEY), set in the clients' configuration. */
  static final String MODE_KEY = "hbasepatches.timeline.mode";

  /** The Table calls the proxy hands to the reader, compared as methods, not by name. */
  private static final Method TABLE_GET = tableMethod("get", Get.class);
  private static final Method TABLE_GET_LIST = tableMethod("get", List.class);
  private static final Method TABLE_SCANNER = tableMethod("getScanner", Scan.class);
  private static final Method TABLE_CLOSE = tableMethod("close");

  private final Method create;
  private final Method get;
  private final Method getList;
  private final Method getScanner;
  private final Method stats;
  private final Method mode;
  private final LongAdder gets = new LongAdder();
  private final LongAdder multiGets = new LongAdder();
  private final LongAdder multiGetRows = new LongAdder();
  private final LongAdder scanners = new LongAdder();
  private final Map<String, Long> readerStats = new TreeMap<>();
  private volatile String readerMode;

  private TimelineReads() {
    try {
      Class<?> type = Class.forName(READER_CLASS, true, TimelineReads.class.getClassLoader());
      create = type.getMethod("create", Connection.class, AsyncConnection.class,
        TableName.class);
      get = type.getMethod("get", Get.class);
      getList = type.getMethod("get", List.class);
      getScanner = type.getMethod("getScanner", Scan.class);
      stats = type.getMethod("stats");
      mode = type.getMethod("mode");
    } catch (ClassNotFoundException | LinkageError e) {
      throw ToolFailure.usage("change module timeline-reads is not on the classpath (no class "
        + READER_CLASS + ")");
    } catch (NoSuchMethodException e) {
      throw ToolFailure.usage("the timeline-reads module on the classpath is not the one this "
        + "hbase-perf knows: " + ToolFailure.describe(e));
    }
  }

  private static Method tableMethod(String name, Class<?>... parameters) {
    try {
      return Table.class.getMethod(name, parameters);
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException("HBase's Table has no " + name, e);
    }
  }

  /** The reader for {@code options}' command runs, or null when timeline-reads is not on. */
  static TimelineReads forRun(PerfOptions options) {
    return ChangeModules.clientSide(options).stream()
      .anyMatch(m -> m.probeClass().equals(READER_CLASS)) ? load() : null;
  }

  /** The module's reader class, looked up; a usage failure when it is missing or unknown. */
  static TimelineReads load() {
    return new TimelineReads();
  }

  /** A new TimelineReader over {@code conn} and {@code async} (mode from their configuration). */
  Object open(Connection conn, AsyncConnection async, TableName name) throws IOException {
    try {
      Object reader = create.invoke(null, conn, async, name);
      readerMode = String.valueOf(mode.invoke(reader));
      return reader;
    } catch (InvocationTargetException e) {
      throw new IOException("TimelineReader.create failed: "
        + ToolFailure.describe(e.getCause()), e.getCause());
    } catch (IllegalAccessException e) {
      throw new IOException(e);
    }
  }

  /** {@code reader.get(get)}, throwing what the reader threw. */
  Result get(Object reader, Get get) throws IOException {
    try {
      return (Result) this.get.invoke(reader, get);
    } catch (InvocationTargetException e) {
      Throwable c = e.getCause();
      throw c instanceof IOException ? (IOException) c : new IOException(c);
    } catch (IllegalAccessException e) {
      throw new IOException(e);
    }
  }

  /** The reader's own counters as it prints them, or "" if they cannot be read. */
  String stats(Object reader) {
    try {
      return String.valueOf(stats.invoke(reader));
    } catch (ReflectiveOperationException e) {
      return "";
    }
  }

  /**
   * A table whose get, get(List) and getScanner(Scan) a new reader serves; its close closes
   * the reader and {@code plain}. The reader takes its mode from {@code async}'s configuration.
   */
  Table table(Table plain, Connection conn, AsyncConnection async) throws IOException {
    Object reader = open(conn, async, plain.getName());
    InvocationHandler h = (proxy, method, args) -> {
      if (method.getDeclaringClass() == Object.class) {
        switch (method.getName()) {
          case "equals":
            return proxy == args[0];
          case "hashCode":
            return System.identityHashCode(proxy);
          default:
            return "TimelineReader over " + plain;
        }
      }
      if (method.equals(TABLE_GET)) {
        gets.increment();
        return call(get, reader, args);
      }
      if (method.equals(TABLE_GET_LIST)) {
        multiGets.increment();
        multiGetRows.add(((List<?>) args[0]).size());
        return call(getList, reader, args);
      }
      if (method.equals(TABLE_SCANNER)) {
        scanners.increment();
        return call(getScanner, reader, args);
      }
      if (method.equals(TABLE_CLOSE)) {
        try {
          addStats(call(stats, reader));
          ((Closeable) reader).close();
        } finally {
          plain.close();
        }
        return null;
      }
      return call(method, plain, args);
    };
    return (Table) Proxy.newProxyInstance(Table.class.getClassLoader(),
      new Class<?>[] { Table.class }, h);
  }

  /** Invokes {@code m}, throwing what it threw rather than a reflection wrapper. */
  private static Object call(Method m, Object target, Object... args) throws Throwable {
    try {
      return m.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  /** Adds a closing reader's counters: every public no-argument long method of its stats. */
  private void addStats(Object s) throws Throwable {
    for (Method m : s.getClass().getMethods()) {
      if (m.getParameterCount() == 0 && m.getReturnType() == long.class
        && !Modifier.isStatic(m.getModifiers())) {
        long v = (Long) call(m, s);
        synchronized (readerStats) {
          readerStats.merge(m.getName(), v, Long::sum);
        }
      }
    }
  }

  /** What went through the readers, for the command's report; call once the clients closed. */
  Map<String, Object> report() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("class", READER_CLASS);
    m.put("mode", readerMode);
    m.put("gets", gets.sum());
    m.put("multiGets", multiGets.sum());
    m.put("multiGetRows", multiGetRows.sum());
    m.put("scanners", scanners.sum());
    synchronized (readerStats) {
      m.put("stats", new TreeMap<>(readerStats));
    }
    return m;
  }

  /** True once a client's reads went through a reader. */
  boolean used() {
    return readerMode != null;
  }
}
