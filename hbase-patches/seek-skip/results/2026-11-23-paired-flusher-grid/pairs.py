# Licensed to the Apache Software Foundation (ASF) under one or more contributor license
# agreements; and to You under the Apache License, Version 2.0.
#
# Prints one LABEL<TAB>RATIO line per round and ratio column of a paired-forks.sh summary's forks
# table, for ForkStatsCli. Usage: python3 pairs.py FILE.md [LABEL-PREFIX]
import re
import sys

f=sys.argv[1]; prefix=sys.argv[2] if len(sys.argv)>2 else ''
hdr=None
for line in open(f):
    if line.startswith('| round |'):
        hdr=[c.strip() for c in line.strip().strip('|').split('|')]
        continue
    if hdr and re.match(r'^\| \d+ \|',line):
        cells=[c.strip() for c in line.strip().strip('|').split('|')]
        last=None
        for h,c in zip(hdr,cells):
            if ' / ' in h:
                last=h; lab=h+', score'
            elif h=='per CPU s' and last: lab=last+', per CPU second'
            else: 
                if h!='per CPU s': last=None
                continue
            if c not in ('-',''):
                print(f"{prefix}{lab}\t{c}")
