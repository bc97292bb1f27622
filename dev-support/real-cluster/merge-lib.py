#!/usr/bin/env python3
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
"""Adds a module's third-party jars to a cluster's lib/ (real-cluster.sh).

merge-lib.py HBASE_LIB EXTRA_LIB LIB

A jar of EXTRA_LIB whose artifact (its file name less the version) HBASE_LIB already holds is left
out, whatever its version: the servers run on HBase's. A different version is printed as a
version conflict. Every other jar is copied into LIB. Then a class file in two of LIB's jars, one
of them an added one, is printed with the pair; the exit code is 1 if there is any.
"""
import os
import re
import shutil
import sys
import zipfile

PREFIX = "[real-cluster] "


def name_version(jar):
    m = re.match(r"^(.+?)-(\d[^-]*(?:-[^-]+)*)\.jar$", jar)
    return (m.group(1), m.group(2)) if m else (jar[:-4], "")


def jars(d):
    return sorted(j for j in os.listdir(d) if j.endswith(".jar"))


def main(hbase_lib, extra_lib, lib):
    hbase = {name_version(j)[0]: j for j in jars(hbase_lib)}
    added, same, conflicts = [], [], []
    for jar in jars(extra_lib):
        name = name_version(jar)[0]
        if name in hbase:
            (same if hbase[name] == jar else conflicts).append((jar, hbase[name]))
        else:
            shutil.copy(os.path.join(extra_lib, jar), lib)
            added.append(jar)
    print(PREFIX + "added to lib/ (%d): %s" % (len(added), " ".join(added)))
    if same:
        print(PREFIX + "already in HBase's lib/, the same version (%d): %s"
              % (len(same), " ".join(j for j, _ in same)))
    for jar, theirs in conflicts:
        print(PREFIX + "version conflict: %s asked for, HBase's lib/ has %s: HBase's kept"
              % (jar, theirs))
    if not conflicts:
        print(PREFIX + "version conflicts with HBase's lib/: none")
    owner, dups = {}, {}
    for jar in jars(lib):
        with zipfile.ZipFile(os.path.join(lib, jar)) as z:
            for e in z.namelist():
                if not e.endswith(".class") or e.startswith("META-INF/") or e.endswith("module-info.class"):
                    continue
                if e in owner and owner[e] != jar:
                    dups.setdefault((owner[e], jar), []).append(e)
                else:
                    owner.setdefault(e, jar)
    bad = {k: v for k, v in dups.items() if k[0] in added or k[1] in added}
    for (a, b), classes in sorted(bad.items()):
        print(PREFIX + "the same class in %s and %s (%d classes, e.g. %s)"
              % (a, b, len(classes), classes[0]))
    print(PREFIX + "classes in two lib/ jars, one of them added: %s"
          % ("none" if not bad else "%d pair(s) of jars" % len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
