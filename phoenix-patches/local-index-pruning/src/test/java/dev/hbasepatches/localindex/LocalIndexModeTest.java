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
package dev.hbasepatches.localindex;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import org.junit.Test;

/** The connection property's values: the three modes in any case, the default, and a refusal. */
public class LocalIndexModeTest {

  @Test
  public void modesParseInAnyCaseAndBlankIsTheDefault() {
    assertEquals(LocalIndexMode.UPSTREAM, LocalIndexMode.parse(" upstream "));
    assertEquals(LocalIndexMode.BASELINE, LocalIndexMode.parse("Baseline"));
    assertEquals(LocalIndexMode.DEFAULT_MODE, LocalIndexMode.parse(null));
    assertEquals(LocalIndexMode.DEFAULT_MODE, LocalIndexMode.parse("  "));
  }

  @Test
  public void aValueThatIsNotAModeIsRefusedNamingKeyValueAndChoices() {
    for (String bad : new String[] { "FAST", "PATCHED,UPSTREAM", "0" }) {
      try {
        LocalIndexMode.parse(bad);
        fail(bad + " was taken for a mode");
      } catch (IllegalArgumentException e) {
        String m = e.getMessage();
        assertTrue(m, m.contains(LocalIndexMode.MODE_KEY) && m.contains("'" + bad + "'")
          && m.contains("BASELINE") && m.contains("PATCHED") && m.contains("UPSTREAM"));
      }
    }
  }
}
