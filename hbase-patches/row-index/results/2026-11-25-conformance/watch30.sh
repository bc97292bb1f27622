#!/usr/bin/env bash
# Stops the 30-byte forks of rounds >= 3 of this session's BlockSeek run (flock pid $1).
top=$1
while kill -0 "$top" 2>/dev/null; do
  round=$(grep -E '^== round [0-9]+ (PATCHED|UPSTREAM) ' /tmp/ri/bs3.log | tail -1 | awk '{print $3}')
  params=$(grep '^# Parameters:' /tmp/ri/bs3.log | tail -1)
  if [[ -n $round && $round -ge 3 && $params == *"cellSize = 30,"* ]]; then
    for runner in $(pgrep -P "$(pgrep -P "$(pgrep -P "$top")")" java); do
      for fork in $(pgrep -P "$runner" java); do
        echo "$(date -u +%T) round $round: stopping 30-byte fork $fork" >> /tmp/ri/watch30.log
        kill "$fork"
      done
    done
  fi
  sleep 1
done
