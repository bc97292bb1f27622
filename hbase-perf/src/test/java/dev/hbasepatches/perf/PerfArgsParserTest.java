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

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.time.Duration;
import java.util.List;
import org.junit.Test;

/** Option parsing, good and bad; no cluster involved. */
public class PerfArgsParserTest {

  @Test
  public void defaultsFollowHbasePe() {
    PerfOptions o = PerfArgsParser.parse("randomRead");
    assertEquals(List.of(Command.RANDOM_READ), o.commands());
    assertEquals(1, o.clients);
    assertEquals(1_048_576L, o.rows);
    assertEquals(1000, o.valueSize);
    assertEquals("TestTable", o.table);
    assertEquals(2L * 1024 * 1024, o.writeBuffer);
    assertTrue(o.writeToWal);
    assertFalse(o.autoFlush);
    assertTrue(o.embedded());
    assertEquals(1, o.regionServers);
  }

  @Test
  public void readsEveryKindOfOption() {
    PerfOptions o = PerfArgsParser.parse("--rows=100k", "--valueSize", "2k", "--families=2",
      "--columns=3", "--table=t1", "--presplit=4", "--compression=gz",
      "--blockEncoding=FAST_DIFF", "--bloomFilter=rowcol", "--inMemory", "--replicas=2",
      "--multiGet=10", "--autoFlush", "--writeBuffer=4m", "--writeToWAL=false", "--caching=500",
      "--cacheBlocks=no", "--sampleRate=0.5", "--keys=zipf", "--zipfExponent=0.8",
      "--valueSizes=uniform", "--ops=500", "--duration=1.5s", "--rate=1000", "--verify",
      "--progress=0", "--seed=7", "-Dhbase.client.retries.number=3", "-D", "a.b=c",
      "sequentialWrite,randomRead", "4");
    assertEquals(List.of(Command.SEQUENTIAL_WRITE, Command.RANDOM_READ), o.commands());
    assertEquals(4, o.clients);
    assertEquals(100_000L, o.rows);
    assertEquals(2048, o.valueSize);
    assertEquals(2, o.families);
    assertEquals(3, o.columns);
    assertEquals("t1", o.table);
    assertEquals(4, o.presplit);
    assertEquals("GZ", o.compression);
    assertEquals("FAST_DIFF", o.blockEncoding);
    assertEquals("ROWCOL", o.bloomFilter);
    assertTrue(o.inMemory);
    assertEquals(2, o.replicas);
    assertTrue(o.timelineReads());
    assertEquals(10, o.multiGet);
    assertTrue(o.autoFlush);
    assertEquals(4L << 20, o.writeBuffer);
    assertFalse(o.writeToWal);
    assertEquals(500, o.caching);
    assertFalse(o.cacheBlocks);
    assertEquals(0.5, o.sampleRate, 0);
    assertEquals(PerfOptions.KeyDistribution.ZIPF, o.keyDistribution);
    assertEquals(0.8, o.zipfExponent, 0);
    assertEquals(PerfOptions.ValueSizes.UNIFORM, o.valueSizes);
    assertEquals(Long.valueOf(500), o.opsPerClient);
    assertEquals(Duration.ofMillis(1500), o.duration);
    assertEquals(1000.0, o.targetRate, 0);
    assertTrue(o.verify);
    assertEquals(Duration.ZERO, o.progressInterval);
    assertEquals(7L, o.seed);
    assertEquals("3", o.settings.get("hbase.client.retries.number"));
    assertEquals("c", o.settings.get("a.b"));
  }

  @Test
  public void acceptsTheNamesHbasePeUsersType() {
    PerfOptions o = PerfArgsParser.parse("--nomapred", "--compress=SNAPPY", "--inmemory",
      "--bufferSize=1m", "--valueZipf", "randomWrite", "1");
    assertEquals("SNAPPY", o.compression);
    assertTrue(o.inMemory);
    assertEquals(1L << 20, o.writeBuffer);
    assertEquals(PerfOptions.ValueSizes.ZIPF, o.valueSizes);
  }

  @Test
  public void realClusterOptions() {
    PerfOptions o = PerfArgsParser.parse("--zk=zk1,zk2:2182", "--zkParent=/hbase-unsecure",
      "--connectTimeout=5s", "scan");
    assertFalse(o.embedded());
    assertEquals("zk1,zk2:2182", o.zkQuorum);
    assertEquals("/hbase-unsecure", o.zkParent);
    assertEquals(Duration.ofSeconds(5), o.connectTimeout);
    assertFalse(PerfArgsParser.parse("--siteXml=/etc/hbase/conf/hbase-site.xml", "scan")
      .embedded());
  }

  @Test
  public void patchedTurnsOnEveryChangeModule() {
    PerfOptions o = PerfArgsParser.parse("--patched", "scan");
    assertEquals(List.of("all"), o.changes);
    assertEquals(PerfOptions.ChangeMode.PATCHED, o.changeMode);
    o = PerfArgsParser.parse("--changes=seek-skip", "--changeMode=baseline", "scan");
    assertEquals(List.of("seek-skip"), o.changes);
    assertEquals(PerfOptions.ChangeMode.BASELINE, o.changeMode);
  }

  @Test
  public void helpIsRecognisedAnywhere() {
    assertTrue(PerfArgsParser.wantsHelp());
    assertTrue(PerfArgsParser.wantsHelp("--rows=5", "--help"));
    assertTrue(PerfArgsParser.wantsHelp("-h"));
    assertFalse(PerfArgsParser.wantsHelp("scan"));
    String usage = PerfArgsParser.usage();
    for (Command c : Command.values()) {
      assertTrue(c.cliName(), usage.contains(c.cliName()));
    }
    for (String line : usage.split("\n")) {
      assertTrue("help line over 100 columns: " + line, line.length() <= 100);
    }
  }

  @Test
  public void refusesBadInputWithMessagesThatSayWhatIsWrong() {
    refuses("no command given", "--rows=5");
    refuses("unknown command 'randomread'; did you mean randomRead?", "randomread");
    refuses("the command comes before nclients", "2", "scan");
    refuses("unknown option '--rowz'; did you mean --rows?", "--rowz=5", "scan");
    refuses("--rows: 'many' is not a whole number", "--rows=many", "scan");
    refuses("--rows: 0 is out of range", "--rows=0", "scan");
    refuses("--valueSize: 'big' is not a size", "--valueSize=big", "scan");
    refuses("--compression: 'zip' is not one of", "--compression=zip", "scan");
    refuses("--blockEncoding: 'fastest' is not one of", "--blockEncoding=fastest", "scan");
    refuses("--bloomFilter: rowprefix_fixed_length is not supported",
      "--bloomFilter=rowprefix_fixed_length", "scan");
    refuses("--sampleRate: 1.5 is out of range", "--sampleRate=1.5", "scan");
    refuses("--sampleRate: 0 is out of range", "--sampleRate=0", "scan");
    refuses("--zipfExponent: 1 must be below 1", "--zipfExponent=1", "scan");
    refuses("--duration: 'soon' is not a duration", "--duration=soon", "scan");
    refuses("--duration: 0s must be more than zero", "--duration=0s", "scan");
    refuses("--verify: 'maybe' is not true or false", "--verify=maybe", "scan");
    refuses("--rows needs a value", "--rows", "--verify", "scan");
    refuses("nclients: 0 is out of range", "scan", "0");
    refuses("expected <command> [nclients]", "scan", "1", "2");
    refuses("-D wants key=value", "-Dnovalue", "scan");
    refuses("unknown option '-x'", "-x", "scan");
    refuses("seedTable runs its own six commands", "seedTable,scan");
    refuses("--regionServers sizes the embedded cluster", "--zk=localhost",
      "--regionServers=3", "scan");
    refuses("embedded cluster only", "--zk=localhost", "--patched", "scan");
    refuses("unknown change module 'turbo'", "--changes=turbo", "scan");
    refuses("--presplit=10 asks for more regions", "--rows=5", "--presplit=10", "scan");
    refuses("--table: 'bad table' is not a valid table name", "--table=bad table", "scan");
    refuses("--rows x nclients must be at most", "--rows=9g", "scan", "2");
  }

  private static void refuses(String expectedMessage, String... args) {
    try {
      PerfArgsParser.parse(args);
      fail("accepted " + String.join(" ", args));
    } catch (ToolFailure f) {
      assertEquals(ToolFailure.EXIT_USAGE, f.exitCode());
      assertTrue("'" + f.getMessage() + "' should contain '" + expectedMessage + "'",
        f.getMessage().contains(expectedMessage));
    }
  }

  @Test
  public void theToolTurnsBadInputIntoExitCodeTwoAndAMessage() {
    ToolRun r = ToolRun.plain("--rows=-3", "scan");
    assertEquals(r.toString(), ToolFailure.EXIT_USAGE, r.exitCode);
    assertTrue(r.err.startsWith("hbase-perf: --rows: '-3' is not a whole number")
      || r.err.startsWith("hbase-perf: --rows: -3 is out of range"));
    assertTrue(r.err.contains("--help"));
    assertEquals("", r.out);
    r.assertNoStackTrace();
  }

  @Test
  public void theToolPrintsHelpAndSucceeds() {
    ToolRun r = ToolRun.plain("--help");
    assertEquals(0, r.exitCode);
    assertTrue(r.out.startsWith("Usage: hbase-perf"));
  }

  @Test
  public void anUnwritableJsonPathIsRefusedBeforeAnythingRuns() {
    ToolRun r = ToolRun.plain("--json=/no/such/dir/out.json", "scan");
    assertEquals(ToolFailure.EXIT_USAGE, r.exitCode);
    assertTrue(r.err, r.err.contains("--json: cannot write into /no/such/dir"));
  }

  @Test
  public void aChangeModuleThatIsNotOnTheClasspathIsNamedNotIgnored() {
    // Of the change modules only offheap-read is on this test classpath (test scope).
    ToolRun r = ToolRun.plain("--changes=seek-skip", "--rows=10", "scan");
    assertEquals(r.toString(), ToolFailure.EXIT_USAGE, r.exitCode);
    assertTrue(r.err, r.err.contains("seek-skip (no class dev.hbasepatches.seekskip."
      + "SeekSkipRegion)"));
    r = ToolRun.plain("--changes=seek-skip,quotas", "--rows=10", "scan");
    assertEquals(r.toString(), ToolFailure.EXIT_USAGE, r.exitCode);
    assertTrue(r.err, r.err.contains("not on the classpath"));
    r.assertNoStackTrace();
    // --patched (all) runs with the modules that are there and names the others.
    r = ToolRun.plain("--patched", "--progress=0", "--rows=10", "scan");
    assertEquals(r.toString(), 0, r.exitCode);
    assertTrue(r.err, r.err.contains("change module seek-skip: NOT on the classpath"));
    assertTrue(r.err, r.err.contains("change module offheap-read: on"));
    r.assertNoStackTrace();
  }

  @Test
  public void progressZeroTurnsTheLineOff() {
    assertEquals(Duration.ZERO, PerfArgsParser.parse("--progress=0", "scan").progressInterval);
    assertNull(PerfArgsParser.parse("scan").progressInterval);
  }
}
