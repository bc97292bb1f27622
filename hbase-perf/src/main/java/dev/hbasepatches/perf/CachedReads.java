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

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;

/**
 * cachedReads: reads served entirely from the block cache, the experiment of the off-heap read
 * path (HBASE-11425: random gets and 100-row multi-gets with every block cached). Loads the table
 * (then flushes it, so reads come from store files), reads every row once with block caching on
 * so every data block is in the cache, then measures randomRead with one Get per operation and
 * randomRead with {@value #MULTI_GET}-row multi-gets over the same number of rows. Run it with
 * {@code --changes=offheap-read --changeMode=...} to compare block caches; the table reports
 * throughput and latency, and each command's GC time and bytes allocated per operation.
 */
final class CachedReads {

  /** Rows per multi-get, as in the seed's runs. */
  static final int MULTI_GET = 100;

  private final PerfRun run;
  private final PerfOptions options;
  private final PrintStream notes;

  CachedReads(PerfRun run, PerfOptions options, PrintStream notes) {
    this.run = run;
    this.options = options;
    this.notes = notes;
  }

  void run() {
    TableName name = run.tableFor(Command.RANDOM_READ);
    TableManager.TableState state = run.tables().prepare(name, options.inMemory);
    if (!state.loaded) {
      run.load(name, state, Command.CACHED_READS);
    }
    run.warm(name, state);
    int asked = options.multiGet;
    try {
      options.multiGet = 0;
      measure("randomRead");
      options.multiGet = MULTI_GET;
      measure(String.format(Locale.ROOT, "multiGet%d", MULTI_GET));
    } finally {
      options.multiGet = asked;
    }
    if (asked > 1) {
      notes.println("note: cachedReads runs single gets and " + MULTI_GET + "-row multi-gets; "
        + "--multiGet=" + asked + " was not used");
    }
  }

  /**
   * Runs one read command and records what each region server's L2 counted while it ran, so a
   * report shows whether the measured reads were served from the cache under test.
   */
  private void measure(String label) {
    List<Map<String, Object>> before = run.blockCaches();
    CommandResult r = run.run(Command.RANDOM_READ, label);
    List<Map<String, Object>> after = run.blockCaches();
    for (Map<String, Object> end : after) {
      if (!end.containsKey("l2")) {
        continue;
      }
      Map<String, Object> start = before.stream()
        .filter(b -> end.get("server").equals(b.get("server"))).findFirst().orElse(Map.of());
      Map<String, Object> d = new LinkedHashMap<>();
      d.put("server", end.get("server"));
      d.put("l2", end.get("l2"));
      for (String k : new String[] { "l2Hits", "l2Misses", "l2Evicted" }) {
        d.put(k, count(end, k) - count(start, k));
      }
      r.l2During.add(d);
      r.notes.add(String.format(Locale.ROOT, "L2 %s of %s while it ran: %,d hits, %,d misses, "
        + "%,d evicted", d.get("l2"), d.get("server"), d.get("l2Hits"), d.get("l2Misses"),
        d.get("l2Evicted")));
    }
  }

  private static long count(Map<String, Object> m, String key) {
    Object v = m.get(key);
    return v instanceof Number ? ((Number) v).longValue() : 0;
  }
}
