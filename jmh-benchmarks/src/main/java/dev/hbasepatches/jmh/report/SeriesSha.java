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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The hash that names a version of an upstream series, as {@code dev-support/series-sha.sh}
 * defines it: sha256 of the diff content of its patches in name order (of each, the lines from
 * the first starting with {@code diff --git } up to, not including, the last line that is exactly
 * {@code "-- "}, each followed by a newline). The mail header, the commit message, the diffstat
 * and the signature are not hashed, so a result stays current when only those change. The
 * evidence run records it for changes with a SERIES row; the documents mark a report stale when
 * the series in the tree has another hash.
 */
public final class SeriesSha {

  private SeriesSha() {
  }

  /** The first 16 hex digits of the series' hash. */
  public static String of(Path seriesDir) throws IOException {
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JDK has no SHA-256", e);
    }
    for (Path p : patches(seriesDir)) {
      // ISO-8859-1 maps every byte to one char and back: the bytes as they are.
      String text = new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1);
      List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
      if (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
        lines.remove(lines.size() - 1); // the newline that ends the last line starts no line
      }
      int first = -1;
      int signature = -1;
      for (int i = 0; i < lines.size(); i++) {
        if (first < 0 && lines.get(i).startsWith("diff --git ")) {
          first = i;
        }
        if (first >= 0 && lines.get(i).equals("-- ")) {
          signature = i;
        }
      }
      if (first < 0) {
        continue;
      }
      int end = signature >= 0 ? signature : lines.size();
      for (int i = first; i < end; i++) {
        sha.update((lines.get(i) + "\n").getBytes(StandardCharsets.ISO_8859_1));
      }
    }
    return HexFormat.of().formatHex(sha.digest()).substring(0, 16);
  }

  /** The directory's {@code .patch} files in name order (the order {@code git am} applies). */
  public static List<Path> patches(Path seriesDir) throws IOException {
    try (Stream<Path> list = Files.list(seriesDir)) {
      return list.filter(p -> p.getFileName().toString().endsWith(".patch")).sorted()
        .collect(Collectors.toList());
    }
  }
}
