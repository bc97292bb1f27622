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
package dev.hbasepatches.jmh;

import org.openjdk.jmh.annotations.Fork;

/**
 * Base class for every benchmark here: JMH forks get the JDK 17 opens HBase, Hadoop and Phoenix
 * need, so {@code java -jar benchmarks.jar} works with no extra flags. The list matches the
 * surefire argLine in the root pom; keep the two in step.
 *
 * <p>{@code -XX:+AlwaysPreTouch} faults the whole heap in before the benchmark starts. Without
 * it, on the project's 2-vCPU VM a fork's first seconds ran a full scan at a third of its speed
 * and later iterations dropped to other levels as the heap's untouched pages were first used
 * (2026-11-23, seek-skip PATCH.md "Forks settle on levels"); with it the first warmup iteration
 * already ran at the steady rate. Every mode gets the same flag.
 */
@Fork(value = 1, jvmArgsAppend = { "-Xms2g", "-Xmx2g", "-XX:+AlwaysPreTouch",
  "-Djava.net.preferIPv4Stack=true",
  "-Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true",
  "--add-modules", "jdk.unsupported",
  "--add-opens", "java.base/java.nio=ALL-UNNAMED",
  "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
  "--add-opens", "java.base/java.lang=ALL-UNNAMED",
  "--add-opens", "java.base/jdk.internal.ref=ALL-UNNAMED",
  "--add-opens", "java.base/java.lang.reflect=ALL-UNNAMED",
  "--add-opens", "java.base/java.util=ALL-UNNAMED",
  "--add-opens", "java.base/java.util.concurrent=ALL-UNNAMED",
  "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
  "--add-exports", "java.security.jgss/sun.security.krb5=ALL-UNNAMED",
  "--add-opens", "java.base/jdk.internal.util.random=ALL-UNNAMED" })
public abstract class HBaseBenchmark {

  /**
   * The JVM options this class's {@code @Fork} gives every fork, for harnesses that start their
   * own JVMs: one list, read from the annotation, so the two cannot drift apart.
   */
  public static java.util.List<String> forkJvmArgs() {
    Fork fork = HBaseBenchmark.class.getAnnotation(Fork.class);
    if (fork == null) {
      throw new IllegalStateException("HBaseBenchmark lost its @Fork annotation");
    }
    return java.util.List.of(fork.jvmArgsAppend());
  }

  /** The three sides every benchmark compares. */
  public enum Mode {
    /** The behaviour before the change. */
    BASELINE,
    /** This project's implementation. */
    PATCHED,
    /** What HBase 2.6 / Phoenix 5.2 ship for the same idea. */
    UPSTREAM;

    /**
     * The mode a string parameter names (the toggle benchmarks take their slots' modes as
     * strings, so a wrong name is refused here with the parameter's name rather than by JMH).
     *
     * @throws IllegalArgumentException naming {@code key}, the value and the modes there are
     */
    public static Mode parse(String key, String value) {
      for (Mode m : values()) {
        if (m.name().equals(value)) {
          return m;
        }
      }
      throw new IllegalArgumentException(key + "=" + value + " is not a mode; use one of "
        + java.util.Arrays.toString(values()));
    }
  }
}
