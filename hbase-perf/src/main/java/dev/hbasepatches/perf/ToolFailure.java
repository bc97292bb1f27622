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
 * A failure the user can act on: its message is printed as is, without a stack trace, and the
 * tool exits with its code. Anything else that escapes is a bug in the tool.
 */
public final class ToolFailure extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** The run finished, but operations failed or verification found lost or wrong values. */
  public static final int EXIT_RUN_ERRORS = 1;
  /** The command line is wrong. */
  public static final int EXIT_USAGE = 2;
  /** The cluster could not be started or reached, or the table could not be prepared. */
  public static final int EXIT_CLUSTER = 3;
  /** Something the tool did not expect; a bug. */
  public static final int EXIT_INTERNAL = 4;

  private final int exitCode;

  private ToolFailure(int exitCode, String message, Throwable cause) {
    super(message, cause);
    this.exitCode = exitCode;
  }

  public static ToolFailure usage(String message) {
    return new ToolFailure(EXIT_USAGE, message, null);
  }

  public static ToolFailure cluster(String message) {
    return new ToolFailure(EXIT_CLUSTER, message, null);
  }

  public static ToolFailure cluster(String message, Throwable cause) {
    return new ToolFailure(EXIT_CLUSTER, message + ": " + describe(cause), cause);
  }

  public int exitCode() {
    return exitCode;
  }

  /** The innermost useful line of a throwable: class and message, without the trace. */
  static String describe(Throwable t) {
    Throwable root = t;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String text = root.getClass().getSimpleName();
    if (root.getMessage() != null) {
      String m = root.getMessage().strip();
      int newline = m.indexOf('\n');
      text += ": " + (newline >= 0 ? m.substring(0, newline) : m);
    }
    return text.length() > 300 ? text.substring(0, 300) + "..." : text;
  }
}
