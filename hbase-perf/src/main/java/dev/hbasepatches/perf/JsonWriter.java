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

import java.util.Collection;
import java.util.Locale;
import java.util.Map;

/** Writes maps, lists, strings, numbers, booleans and nulls as indented JSON. */
final class JsonWriter {

  private JsonWriter() {
  }

  static String write(Object value) {
    StringBuilder b = new StringBuilder();
    write(b, value, 0);
    return b.append('\n').toString();
  }

  private static void write(StringBuilder b, Object v, int depth) {
    if (v == null) {
      b.append("null");
    } else if (v instanceof String) {
      string(b, (String) v);
    } else if (v instanceof Double || v instanceof Float) {
      double d = ((Number) v).doubleValue();
      b.append(Double.isFinite(d) ? Double.toString(d) : "null");
    } else if (v instanceof Number || v instanceof Boolean) {
      b.append(v);
    } else if (v instanceof Map) {
      Map<?, ?> m = (Map<?, ?>) v;
      if (m.isEmpty()) {
        b.append("{}");
        return;
      }
      b.append("{\n");
      int i = 0;
      for (Map.Entry<?, ?> e : m.entrySet()) {
        indent(b, depth + 1);
        string(b, String.valueOf(e.getKey()));
        b.append(": ");
        write(b, e.getValue(), depth + 1);
        b.append(++i < m.size() ? ",\n" : "\n");
      }
      indent(b, depth);
      b.append('}');
    } else if (v instanceof Collection) {
      Collection<?> c = (Collection<?>) v;
      if (c.isEmpty()) {
        b.append("[]");
        return;
      }
      b.append("[\n");
      int i = 0;
      for (Object o : c) {
        indent(b, depth + 1);
        write(b, o, depth + 1);
        b.append(++i < c.size() ? ",\n" : "\n");
      }
      indent(b, depth);
      b.append(']');
    } else {
      string(b, v.toString());
    }
  }

  private static void indent(StringBuilder b, int depth) {
    for (int i = 0; i < depth; i++) {
      b.append("  ");
    }
  }

  private static void string(StringBuilder b, String s) {
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"':
          b.append("\\\"");
          break;
        case '\\':
          b.append("\\\\");
          break;
        case '\n':
          b.append("\\n");
          break;
        case '\r':
          b.append("\\r");
          break;
        case '\t':
          b.append("\\t");
          break;
        default:
          if (c < 0x20) {
            b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            b.append(c);
          }
      }
    }
    b.append('"');
  }
}
