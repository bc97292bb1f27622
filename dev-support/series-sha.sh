#!/usr/bin/env bash
#
# Licensed to the Apache Software Foundation (ASF) under one
# or more contributor license agreements.  See the NOTICE file
# distributed with this work for additional information
# regarding copyright ownership.  The ASF licenses this file
# to you under the Apache License, Version 2.0 (the
# "License"); you may not use this file except in compliance
# with the License.  You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
#
# The hash that names a version of an upstream series: what a report or a check was made for.
#
#   series-sha.sh PATCH...     prints the sha256 (64 hex digits) of the series' diff content
#
# It hashes only what a patch changes in upstream's tree, so that rewording a commit message or
# correcting the author line leaves every result made for the series current. Of each patch file
# (`git format-patch` output), in the order given (callers pass the series in name order, the
# order `git am` applies it), it takes the lines from the first line starting with `diff --git `
# up to, not including, the last line that is exactly `-- ` (format-patch's signature separator,
# followed by the git version): the mail header, the commit message, the diffstat, the signature
# and the version line are left out. Each line taken is hashed with a newline after it, bytes as
# they are (LC_ALL=C). A file with no `diff --git` line contributes nothing.
#
# The same definition, in Java, is SeriesSha.of (jmh-benchmarks); SeriesShaTest checks
# that the two agree. Used by the evidence run (run.properties series.sha, its first 16 digits),
# upstream-series.sh (check.txt's series-sha256) and upstream-patches.sh fresh.
set -euo pipefail

[ $# -gt 0 ] || { echo "usage: series-sha.sh PATCH..." >&2; exit 2; }
for f in "$@"; do
  [ -f "$f" ] || { echo "series-sha.sh: no such file: $f" >&2; exit 2; }
done
LC_ALL=C awk '
  function flush(   i, last) {
    last = sig ? sig - 1 : n
    for (i = 1; i <= last; i++) print line[i]
    n = 0; sig = 0; on = 0
  }
  FNR == 1 { flush() }
  !on && /^diff --git / { on = 1 }
  on { line[++n] = $0; if ($0 == "-- ") sig = n }
  END { flush() }
' "$@" | sha256sum | cut -c1-64
