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
package dev.hbasepatches.jmh.report;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hbase.thirdparty.com.google.gson.JsonArray;
import org.apache.hbase.thirdparty.com.google.gson.JsonElement;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;
import org.apache.hbase.thirdparty.com.google.gson.JsonParseException;
import org.apache.hbase.thirdparty.com.google.gson.JsonParser;
import org.apache.hbase.thirdparty.com.google.gson.JsonPrimitive;
import org.openjdk.jmh.util.ListStatistics;

/**
 * Reads the file JMH writes with {@code -rf json}: a JSON array with one object per benchmark
 * and parameter combination. Uses the Gson HBase already ships shaded, so the benchmarks jar
 * needs no extra dependency.
 *
 * <p>Every structural problem becomes a {@link BadInputException} naming the entry and field,
 * because the usual cause is pointing the writer at the wrong file, and a Gson stack trace
 * would not say which.
 */
public final class JmhJsonParser {

  /** Older JMH versions (before 1.24) prefixed secondary metric names with a middle dot. */
  private static final String OLD_SECONDARY_PREFIX = "\u00b7";

  private static final Pattern GSON_POSITION = Pattern.compile("line (\\d+) column (\\d+)");

  private JmhJsonParser() {
  }

  static List<JmhResult> parse(Path file) throws BadInputException {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new BadInputException(file + ": no such file");
    } catch (CharacterCodingException e) {
      throw new BadInputException(file + ": not a JMH JSON result file (not UTF-8 text)");
    } catch (IOException e) {
      throw new BadInputException(file + ": cannot read (" + e + ")");
    }
    return parse(text, file.toString());
  }

  static List<JmhResult> parse(String text, String source) throws BadInputException {
    if (text.isBlank()) {
      // JMH creates the -rff file when it starts and fills it only when the whole run ends.
      throw new BadInputException(source + ": empty (JMH writes results only when a run finishes)");
    }
    JsonElement root;
    try {
      root = JsonParser.parseString(text);
    } catch (JsonParseException e) {
      throw new BadInputException(
        source + ": not a JMH JSON result file (invalid JSON" + position(e.getMessage()) + ")");
    }
    if (!root.isJsonArray()) {
      throw new BadInputException(source + ": not a JMH JSON result file (expected a JSON array"
        + " of benchmark results, as written by JMH's -rf json)");
    }
    JsonArray entries = root.getAsJsonArray();
    if (entries.isEmpty()) {
      throw new BadInputException(source + ": contains no benchmark results");
    }
    List<JmhResult> results = new ArrayList<>(entries.size());
    for (int i = 0; i < entries.size(); i++) {
      results.add(entry(entries.get(i), source + ": entry " + (i + 1)));
    }
    return results;
  }

  private static JmhResult entry(JsonElement element, String where) throws BadInputException {
    if (!element.isJsonObject()) {
      throw new BadInputException(where + " is not a JSON object");
    }
    JsonObject o = element.getAsJsonObject();
    String benchmark = requiredString(o, "benchmark", where);
    // From here on, name the benchmark: "entry 7" alone is hard to find in a 2 MB file.
    where = where + " (" + benchmark + ")";
    String jmhMode = requiredString(o, "mode", where);

    Map<String, String> params = new LinkedHashMap<>();
    JsonObject paramsObject = optionalObject(o, "params", where);
    if (paramsObject != null) {
      for (Map.Entry<String, JsonElement> p : paramsObject.entrySet()) {
        params.put(p.getKey(), primitiveString(p.getValue(), "params." + p.getKey(), where));
      }
    }

    JsonObject primaryObject = optionalObject(o, "primaryMetric", where);
    if (primaryObject == null) {
      throw new BadInputException(where + ": missing \"primaryMetric\"");
    }
    Metric primary = metric(primaryObject, "primaryMetric", where, true);

    Map<String, Metric> secondary = new LinkedHashMap<>();
    JsonObject secondaryObject = optionalObject(o, "secondaryMetrics", where);
    if (secondaryObject != null) {
      for (Map.Entry<String, JsonElement> m : secondaryObject.entrySet()) {
        String field = "secondaryMetrics." + m.getKey();
        if (!m.getValue().isJsonObject()) {
          throw new BadInputException(where + ": \"" + field + "\" is not an object");
        }
        String name = m.getKey().startsWith(OLD_SECONDARY_PREFIX)
          ? m.getKey().substring(OLD_SECONDARY_PREFIX.length())
          : m.getKey();
        secondary.put(name, metric(m.getValue().getAsJsonObject(), field, where, false));
      }
    }

    JmhResult.Settings settings = new JmhResult.Settings(optionalInt(o, "threads", where),
      optionalInt(o, "forks", where), optionalInt(o, "warmupIterations", where),
      optionalString(o, "warmupTime", where), optionalInt(o, "warmupBatchSize", where),
      optionalInt(o, "measurementIterations", where), optionalString(o, "measurementTime", where),
      optionalInt(o, "measurementBatchSize", where), stringList(o, "jvmArgs", where));
    JmhResult.Toolchain toolchain = new JmhResult.Toolchain(optionalString(o, "jmhVersion", where),
      optionalString(o, "jdkVersion", where), optionalString(o, "vmName", where),
      optionalString(o, "vmVersion", where), optionalString(o, "jvm", where));
    Metric cpu = secondary.remove(CPU_COUNTER);
    if (cpu != null && "thrpt".equals(jmhMode)) {
      boolean cells = secondary.containsKey(CELLS_COUNTER);
      JsonObject work = cells
        ? secondaryObject.getAsJsonObject(CELLS_COUNTER)
        : primaryObject;
      secondary.put(cells ? CELLS_PER_CPU : OPS_PER_CPU, perCpuSecond(work,
        secondaryObject.getAsJsonObject(CPU_COUNTER), cells ? "cells" : "ops", where));
    }
    Metric score = secondary.get(CELLS_COUNTER);
    if (score != null && "thrpt".equals(jmhMode)) {
      // A benchmark that counts stored cells with an @AuxCounters field named "cells" is scored
      // in cells per second; its whole-operation rate stays beside it as "ops".
      secondary.remove(CELLS_COUNTER);
      secondary.put("ops", primary);
      String unit = score.unit().replace("ops/", "cells/");
      primary = new Metric(score.score(), score.error(), unit, score.forks());
    }
    return new JmhResult(benchmark, jmhMode, Collections.unmodifiableMap(params), primary,
      Collections.unmodifiableMap(secondary), settings, toolchain);
  }

  /** The @AuxCounters field a scan benchmark uses to report stored cells crossed. */
  static final String CELLS_COUNTER = "cells";

  /** The @AuxCounters field holding the process CPU nanoseconds the measured calls used. */
  static final String CPU_COUNTER = "cpuNanos";

  /** Derived from {@link #CPU_COUNTER}: the work done per CPU second. */
  static final String CELLS_PER_CPU = "cells per CPU second";
  static final String OPS_PER_CPU = "ops per CPU second";

  /**
   * Work per CPU second, iteration by iteration: each iteration's work rate divided by its CPU
   * rate (both are per wall second, so wall time cancels), then mean and 99.9% interval over all
   * iterations of all forks as JMH computes its own scores. Dividing the two averages instead
   * would mix iterations and overstate the error, since both counters move together.
   */
  private static Metric perCpuSecond(JsonObject work, JsonObject cpu, String noun, String where)
    throws BadInputException {
    double[] w = raw(work, where);
    double[] c = raw(cpu, where);
    if (w.length != c.length || w.length == 0) {
      throw new BadInputException(where + ": \"" + CPU_COUNTER + "\" has " + c.length
        + " raw iterations but the work counter has " + w.length);
    }
    ListStatistics stats = new ListStatistics();
    for (int i = 0; i < w.length; i++) {
      if (c[i] > 0) {
        stats.addValue(w[i] / c[i] * 1e9);
      }
    }
    if (stats.getN() == 0) {
      return new Metric(Double.NaN, Double.NaN, noun + "/cpu-s");
    }
    double error = stats.getN() > 1 ? stats.getMeanErrorAt(0.999) : Double.NaN;
    // The same per-iteration ratios, averaged per fork for ForkStats.
    List<double[]> wf = rawForks(work);
    List<double[]> cf = rawForks(cpu);
    List<Double> forks = new ArrayList<>();
    for (int f = 0; f < wf.size() && f < cf.size(); f++) {
      double sum = 0;
      int n = 0;
      for (int i = 0; i < wf.get(f).length && i < cf.get(f).length; i++) {
        if (cf.get(f)[i] > 0) {
          sum += wf.get(f)[i] / cf.get(f)[i] * 1e9;
          n++;
        }
      }
      if (n > 0) {
        forks.add(sum / n);
      }
    }
    return new Metric(stats.getMean(), error, noun + "/cpu-s", List.copyOf(forks));
  }

  /** Each fork's raw iteration values; empty when the metric has no well-formed raw data. */
  private static List<double[]> rawForks(JsonObject metric) {
    if (metric == null) {
      return new ArrayList<>();
    }
    try {
      double[][] forks = forkIterations(metric, "");
      for (double[] fork : forks) {
        for (double v : fork) {
          if (Double.isNaN(v)) {
            return new ArrayList<>();
          }
        }
      }
      return new ArrayList<>(List.of(forks));
    } catch (BadInputException e) {
      return new ArrayList<>();
    }
  }

  /**
   * A metric's {@code rawData}: one array of iteration values per fork, in fork order. The one
   * reader of JMH's per-fork data for the report, {@code Compare}, {@code AbbaPairs} and the
   * per-change summaries.
   *
   * @throws BadInputException naming {@code where} if the metric has no {@code rawData} or it is
   *     not an array of arrays of numbers
   */
  public static double[][] forkIterations(JsonObject metric, String where)
    throws BadInputException {
    JsonElement data = metric == null ? null : metric.get("rawData");
    if (data == null || !data.isJsonArray()) {
      throw new BadInputException(where + ": a metric without \"rawData\"");
    }
    JsonArray forks = data.getAsJsonArray();
    double[][] out = new double[forks.size()][];
    for (int f = 0; f < out.length; f++) {
      if (!forks.get(f).isJsonArray()) {
        throw new BadInputException(where + ": \"rawData\" is not an array of arrays");
      }
      JsonArray its = forks.get(f).getAsJsonArray();
      out[f] = new double[its.size()];
      for (int i = 0; i < out[f].length; i++) {
        out[f][i] = number(its.get(i), "rawData[]", where);
      }
    }
    return out;
  }

  /** The mean of each fork's iterations (forks without iterations left out). */
  private static List<Double> forkMeans(JsonObject metric) {
    List<Double> out = new ArrayList<>();
    for (double[] f : rawForks(metric)) {
      if (f.length > 0) {
        double sum = 0;
        for (double x : f) {
          sum += x;
        }
        out.add(sum / f.length);
      }
    }
    return List.copyOf(out);
  }

  /** A metric's raw iteration scores, all forks in order. */
  private static double[] raw(JsonObject metric, String where) throws BadInputException {
    if (metric == null || !metric.has("rawData")) {
      throw new BadInputException(where + ": a CPU-time counter needs \"rawData\" to divide by");
    }
    List<Double> values = new ArrayList<>();
    for (double[] fork : forkIterations(metric, where)) {
      for (double v : fork) {
        values.add(v);
      }
    }
    double[] out = new double[values.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = values.get(i);
    }
    return out;
  }

  private static Metric metric(JsonObject m, String field, String where, boolean primary)
    throws BadInputException {
    JsonElement score = m.get("score");
    if (score == null || score.isJsonNull()) {
      throw new BadInputException(where + ": missing \"" + field + ".score\"");
    }
    JsonElement error = m.get("scoreError");
    // JMH writes "NaN" (a string) when it has no error estimate; absent means the same.
    double errorValue = error == null || error.isJsonNull()
      ? Double.NaN
      : number(error, field + ".scoreError", where);
    String unit = primary
      ? requiredString(m, "scoreUnit", where + ": " + field)
      : optionalString(m, "scoreUnit", where);
    return new Metric(number(score, field + ".score", where), errorValue, unit, forkMeans(m));
  }

  /** A number, or one of the strings JMH uses for non-finite doubles ("NaN", "Infinity"). */
  private static double number(JsonElement e, String field, String where)
    throws BadInputException {
    if (e.isJsonPrimitive()) {
      JsonPrimitive p = e.getAsJsonPrimitive();
      try {
        if (p.isNumber() || p.isString()) {
          return Double.parseDouble(p.getAsString().trim());
        }
      } catch (NumberFormatException ignored) {
        // Fall through to the error below, which names the field.
      }
    }
    throw new BadInputException(where + ": \"" + field + "\" is not a number: " + e);
  }

  private static String requiredString(JsonObject o, String name, String where)
    throws BadInputException {
    JsonElement e = o.get(name);
    if (e == null || e.isJsonNull()) {
      throw new BadInputException(where + ": missing \"" + name + "\"");
    }
    return primitiveString(e, name, where);
  }

  private static String optionalString(JsonObject o, String name, String where)
    throws BadInputException {
    JsonElement e = o.get(name);
    return e == null || e.isJsonNull() ? "?" : primitiveString(e, name, where);
  }

  private static String primitiveString(JsonElement e, String name, String where)
    throws BadInputException {
    if (!e.isJsonPrimitive()) {
      throw new BadInputException(where + ": \"" + name + "\" is not a string or number");
    }
    return e.getAsString();
  }

  private static int optionalInt(JsonObject o, String name, String where)
    throws BadInputException {
    JsonElement e = o.get(name);
    if (e == null || e.isJsonNull()) {
      return -1;
    }
    double d = number(e, name, where);
    if (d != Math.rint(d) || Math.abs(d) > Integer.MAX_VALUE) {
      throw new BadInputException(where + ": \"" + name + "\" is not an integer: " + e);
    }
    return (int) d;
  }

  private static JsonObject optionalObject(JsonObject o, String name, String where)
    throws BadInputException {
    JsonElement e = o.get(name);
    if (e == null || e.isJsonNull()) {
      return null;
    }
    if (!e.isJsonObject()) {
      throw new BadInputException(where + ": \"" + name + "\" is not an object");
    }
    return e.getAsJsonObject();
  }

  private static List<String> stringList(JsonObject o, String name, String where)
    throws BadInputException {
    JsonElement e = o.get(name);
    if (e == null || e.isJsonNull()) {
      return List.of();
    }
    if (!e.isJsonArray()) {
      throw new BadInputException(where + ": \"" + name + "\" is not an array");
    }
    List<String> values = new ArrayList<>();
    for (JsonElement item : e.getAsJsonArray()) {
      values.add(primitiveString(item, name + "[]", where));
    }
    return List.copyOf(values);
  }

  /**
   * Where Gson stopped, e.g. " at line 1 column 7". Its messages otherwise name shaded
   * exception classes and strictness settings, which would only confuse the reader.
   */
  private static String position(String message) {
    Matcher m = message == null ? null : GSON_POSITION.matcher(message);
    return m != null && m.find() ? " at line " + m.group(1) + " column " + m.group(2) : "";
  }
}
