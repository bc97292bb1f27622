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

/**
 * Zipf-distributed ranks in [0, n): rank 0 is the most likely, rank k about (k+1)^-theta as
 * likely. Uses the closed-form approximation of Gray et al., "Quickly generating billion-record
 * synthetic databases" (SIGMOD 1994), so one draw costs a few pow() calls whatever n is.
 */
final class ZipfDistribution {

  /** Up to this many terms the zeta sum is exact; beyond, the tail is integrated. */
  private static final long EXACT_TERMS = 10_000_000L;

  private final long n;
  private final double theta;
  private final double alpha;
  private final double zetaN;
  private final double eta;
  private final double secondRankBound;

  ZipfDistribution(long n, double theta) {
    if (n < 1 || theta <= 0 || theta >= 1) {
      throw new IllegalArgumentException("need n >= 1 and 0 < theta < 1: " + n + ", " + theta);
    }
    this.n = n;
    this.theta = theta;
    this.alpha = 1.0 / (1.0 - theta);
    this.zetaN = zeta(n, theta);
    double zeta2 = 1.0 + Math.pow(0.5, theta);
    this.eta = n < 3 ? 0 : (1.0 - Math.pow(2.0 / n, 1.0 - theta)) / (1.0 - zeta2 / zetaN);
    this.secondRankBound = zeta2;
  }

  /** The rank for a uniform draw {@code u} in [0, 1); the same u always gives the same rank. */
  long rank(double u) {
    double uz = u * zetaN;
    if (uz < 1.0 || n == 1) {
      return 0;
    }
    if (uz < secondRankBound || n == 2) {
      return 1;
    }
    long r = (long) (n * Math.pow(eta * u - eta + 1.0, alpha));
    return Math.min(Math.max(r, 0), n - 1);
  }

  static double zeta(long n, double theta) {
    long exact = Math.min(n, EXACT_TERMS);
    double sum = 0;
    for (long i = 1; i <= exact; i++) {
      sum += Math.pow(i, -theta);
    }
    if (n > exact) {
      // Midpoint rule for the smooth tail: sum_{i=m+1..n} i^-t ~ integral over [m+.5, n+.5].
      double e = 1.0 - theta;
      sum += (Math.pow(n + 0.5, e) - Math.pow(exact + 0.5, e)) / e;
    }
    return sum;
  }
}
