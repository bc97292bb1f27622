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
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.math3.distribution.TDistribution;
import org.apache.hbase.thirdparty.com.google.gson.JsonArray;
import org.apache.hbase.thirdparty.com.google.gson.JsonElement;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;
import org.apache.hbase.thirdparty.com.google.gson.JsonParser;

/**
 * Per-fork ratios of a JMH JSON run with a mode param: fork i of mode B against fork i of mode A,
 * on the primary score (ops/s) and per CPU second (score / cpuNanos rate), with the mean and its
 * 95% Student t interval over forks. Usage:
 * java -cp benchmarks.jar ForkRatios.java forks.json UPSTREAM PATCHED
 */
public class ForkRatios {
  public static void main(String[] args) throws Exception {
    JsonArray runs = JsonParser.parseString(Files.readString(Paths.get(args[0]))).getAsJsonArray();
    Map<String, double[][]> byMode = new LinkedHashMap<>();
    for (JsonElement e : runs) {
      JsonObject run = e.getAsJsonObject();
      String mode = run.getAsJsonObject("params").get("mode").getAsString();
      double[] score = forkMeans(run.getAsJsonObject("primaryMetric"));
      JsonObject secondary = run.getAsJsonObject("secondaryMetrics");
      double[] cpu = secondary.has("cpuNanos") ? forkMeans(secondary.getAsJsonObject("cpuNanos"))
        : null;
      byMode.put(mode, new double[][] { score, cpu });
    }
    double[][] a = byMode.get(args[1]);
    double[][] b = byMode.get(args[2]);
    int n = Math.min(a[0].length, b[0].length);
    List<Double> wall = new ArrayList<>();
    List<Double> perCpu = new ArrayList<>();
    System.out.printf("| fork | %s plans/s | %s plans/s | %s / %s | %s plans/CPU s | %s plans/CPU s | ratio per CPU s |%n",
      args[1], args[2], args[2], args[1], args[1], args[2]);
    System.out.println("|---:|---:|---:|---:|---:|---:|---:|");
    for (int i = 0; i < n; i++) {
      double r = b[0][i] / a[0][i];
      wall.add(r);
      double ca = a[0][i] / (a[1][i] / 1e9);
      double cb = b[0][i] / (b[1][i] / 1e9);
      perCpu.add(cb / ca);
      System.out.printf("| %d | %.1f | %.1f | %.2f | %.1f | %.1f | %.2f |%n", i + 1, a[0][i], b[0][i], r,
        ca, cb, cb / ca);
    }
    System.out.println();
    print(args[2] + " / " + args[1] + " (wall)", wall);
    print(args[2] + " / " + args[1] + " (per CPU second)", perCpu);
  }

  /** The mean of each fork's measured iterations (rawData holds one array per fork). */
  static double[] forkMeans(JsonObject metric) {
    JsonArray forks = metric.getAsJsonArray("rawData");
    double[] out = new double[forks.size()];
    for (int f = 0; f < forks.size(); f++) {
      JsonArray its = forks.get(f).getAsJsonArray();
      double sum = 0;
      for (JsonElement it : its) {
        sum += it.getAsDouble();
      }
      out[f] = sum / its.size();
    }
    return out;
  }

  static void print(String label, List<Double> ratios) {
    int n = ratios.size();
    double mean = ratios.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
    double ss = 0;
    for (double r : ratios) {
      ss += (r - mean) * (r - mean);
    }
    double sd = Math.sqrt(ss / (n - 1));
    double t = new TDistribution(n - 1).inverseCumulativeProbability(0.975);
    double half = t * sd / Math.sqrt(n);
    System.out.printf("%s: mean %.2f, 95%% interval [%.2f, %.2f] over %d forks%n", label, mean,
      mean - half, mean + half, n);
  }
}
