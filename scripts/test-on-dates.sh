#!/usr/bin/env bash
# Runs the test suite (or the vitest arguments given) on a spread of calendar days, each under
# libfaketime (Debian's `faketime` package), to show that no test depends on the day it runs:
# a Monday, each daylight-saving change of Europe/Paris and America/New_York (half an hour
# before it, so that a run crosses it), a month's end, the year's end just before midnight UTC,
# and 29 February. The clock is shifted, not stopped: it shows the date given when the run
# starts and runs on from there, the same in every process the run starts (an absolute
# FAKETIME="@…" would start each child process at that moment again, and a command started
# later would read an earlier time than one before it).
#
#   scripts/test-on-dates.sh                          # the whole suite on every date
#   scripts/test-on-dates.sh test/verify.test.ts      # one file on every date
#   DATES="2027-03-28 00:30:00" scripts/test-on-dates.sh   # one date
set -euo pipefail
cd "$(dirname "$0")/.."

lib=/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1
if [[ ! -e $lib ]]; then
  echo "test-on-dates: $lib is missing: install Debian's faketime package" >&2
  exit 2
fi

if [[ -n ${DATES:-} ]]; then
  mapfile -t dates <<<"$DATES"
else
  dates=(
    "2027-01-04 09:00:00" # a Monday
    "2027-03-14 06:30:00" # New York springs forward at 07:00 UTC
    "2027-03-28 00:30:00" # Paris springs forward at 01:00 UTC
    "2027-10-31 00:30:00" # Paris falls back at 01:00 UTC
    "2027-11-07 05:30:00" # New York falls back at 06:00 UTC
    "2027-04-30 23:30:00" # a month's end
    "2027-12-31 23:50:00" # the year's end, just before midnight UTC
    "2028-02-29 12:00:00" # a leap day
  )
fi

# Built on the real clock, once: the suite checks that the build is no older than its sources.
npm run build >/dev/null

failed=()
for date in "${dates[@]}"; do
  echo "== $date UTC"
  shift_seconds=$(($(date -ud "$date" +%s) - $(date -u +%s)))
  if ! TZ=UTC FAKETIME="$(printf '%+d' "$shift_seconds")" FAKETIME_DONT_FAKE_MONOTONIC=1 LD_PRELOAD=$lib \
    npx vitest run "$@"; then
    failed+=("$date")
  fi
done
if ((${#failed[@]})); then
  echo "test-on-dates: failed on ${failed[*]}" >&2
  exit 1
fi
echo "test-on-dates: passed on ${#dates[@]} dates"
