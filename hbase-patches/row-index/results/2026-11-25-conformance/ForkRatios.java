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
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.commons.math3.distribution.TDistribution;
import org.apache.hbase.thirdparty.com.google.gson.JsonElement;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;
import org.apache.hbase.thirdparty.com.google.gson.JsonParser;

/**
 * Pairs the JMH JSON files of paired single-fork runs (rNN-MODE.json, one fork per case per file)
 * and prints, per case, each round's PATCHED-against-UPSTREAM ratio oriented so that > 1 means
 * PATCHED is better (UPSTREAM / PATCHED for time per op, PATCHED / UPSTREAM for ops per time),
 * their mean and a 95% Student t interval over rounds (commons-math3), and each mode's mean
 * score and allocation per op. Run: java -cp benchmarks.jar ForkRatios.java DIR [FIRST_ROUND]
 * (rounds before FIRST_ROUND are left out).
 */
public class ForkRatios {
  public static void main(String[] args) throws IOException {
    int firstRound = args.length > 1 ? Integer.parseInt(args[1]) : 1;
    Pattern name = Pattern.compile("r(\\d+)-(PATCHED|UPSTREAM)\\.json");
    // case -> round -> mode -> {score, B/op}
    Map<String, Map<Integer, Map<String, double[]>>> cases = new TreeMap<>();
    Map<String, String> units = new TreeMap<>();
    List<Path> files;
    try (Stream<Path> s = Files.list(Path.of(args[0]))) {
      files = s.sorted().toList();
    }
    for (Path f : files) {
      Matcher m = name.matcher(f.getFileName().toString());
      if (!m.matches()) {
        continue;
      }
      int round = Integer.parseInt(m.group(1));
      String mode = m.group(2);
      if (round < firstRound || Files.size(f) == 0) {
        continue;
      }
      try (Reader r = Files.newBufferedReader(f)) {
        for (JsonElement e : JsonParser.parseReader(r).getAsJsonArray()) {
          JsonObject o = e.getAsJsonObject();
          StringBuilder key = new StringBuilder(o.get("benchmark").getAsString()
            .replaceAll(".*\\.", ""));
          JsonObject params = o.getAsJsonObject("params");
          for (String p : new java.util.TreeSet<>(params.keySet())) {
            if (!p.equals("mode")) {
              key.append(' ').append(p).append('=').append(params.get(p).getAsString());
            }
          }
          JsonObject pm = o.getAsJsonObject("primaryMetric");
          JsonObject sec = o.getAsJsonObject("secondaryMetrics");
          double alloc = sec != null && sec.has("gc.alloc.rate.norm")
            ? sec.getAsJsonObject("gc.alloc.rate.norm").get("score").getAsDouble() : Double.NaN;
          units.put(key.toString(), pm.get("scoreUnit").getAsString());
          cases.computeIfAbsent(key.toString(), k -> new TreeMap<>())
            .computeIfAbsent(round, k -> new TreeMap<>())
            .put(mode, new double[] { pm.get("score").getAsDouble(), alloc });
        }
      }
    }
    System.out.println("| case | unit | rounds | UPSTREAM mean | PATCHED mean | UPSTREAM B/op"
      + " | PATCHED B/op | ratio per round (> 1: PATCHED better) | mean [95% interval] |");
    System.out.println("|---|---|---:|---:|---:|---:|---:|---|---|");
    for (Map.Entry<String, Map<Integer, Map<String, double[]>>> c : cases.entrySet()) {
      String unit = units.get(c.getKey());
      boolean timePerOp = unit.endsWith("/op");
      List<Double> ratios = new ArrayList<>();
      double[] sum = new double[4];
      StringBuilder per = new StringBuilder();
      for (Map<String, double[]> round : c.getValue().values()) {
        double[] u = round.get("UPSTREAM");
        double[] p = round.get("PATCHED");
        if (u == null || p == null) {
          continue;
        }
        double ratio = timePerOp ? u[0] / p[0] : p[0] / u[0];
        ratios.add(ratio);
        per.append(per.length() == 0 ? "" : ", ").append(String.format("%.2f", ratio));
        sum[0] += u[0];
        sum[1] += p[0];
        sum[2] += u[1];
        sum[3] += p[1];
      }
      int n = ratios.size();
      double mean = ratios.stream().mapToDouble(Double::doubleValue).sum() / n;
      double ss = 0;
      for (double x : ratios) {
        ss += (x - mean) * (x - mean);
      }
      String interval = "-";
      if (n > 1) {
        double half = new TDistribution(n - 1).inverseCumulativeProbability(0.975)
          * Math.sqrt(ss / (n - 1)) / Math.sqrt(n);
        interval = String.format("%.2f [%.2f, %.2f]", mean, mean - half, mean + half);
      }
      System.out.printf("| %s | %s | %d | %.4g | %.4g | %.1f | %.1f | %s | %s |%n", c.getKey(),
        unit, n, sum[0] / n, sum[1] / n, sum[2] / n, sum[3] / n, per, interval);
    }
  }
}
