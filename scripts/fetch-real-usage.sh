#!/usr/bin/env bash
# Fetches the real app-usage logs that docs/usage-logs.md measures, from their public
# repositories at a fixed commit, and checks each file's SHA-256. They are not in this repository:
#
# - shogunishere/next-app-prediction states no licence, so its files may not be redistributed;
# - abardou/viz-habits is GPL-3.0: its files could be copied only under that licence, with its
#   text, not under this repository's Apache-2.0. Fetching them keeps each file under its own terms.
#
# What the files are (docs/usage-logs.md, "The real logs"):
#
#   next-app-prediction/user_{b,c,i,s}_data.csv  polled foreground samples (TIME,PACKAGE), 4 volunteers,
#       Android (Samsung, Huawei), 2023-11-29 … 2024-01-13; collected by the same repository's app
#       (branch master, app/src/main/java/com/example/nextapp/UsageStatsService.kt, a 15 s poll).
#   next-app-prediction/dataset.csv  one person's "App Usage" export, unquoted, 2018-12-27 … 2019-01-02.
#   app-usage-exports/user{1,2}-AUM_V4_Activity_*.csv  2 people's "App Usage" exports (AUM v4),
#       quoted, English, month-first dates, 2019-11-09 … 2019-12-10.
#   held-out/  three more logs of the same families, not used to develop the readers: the polled
#       users t and z, and user 3's App Usage export in French with day-first dates.
#
# Usage: scripts/fetch-real-usage.sh [DIR]     (default: real-usage/ at the repository's root,
#        which .gitignore keeps out of commits). Needs curl and sha256sum (or shasum).
# Then:  MEMPRESSURE_REAL_USAGE=DIR swift test --filter UsageLogRealFiles
#        mempressure profile --usage-log DIR/next-app-prediction/user_b_data.csv
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
dir="${1:-$root/real-usage}"

NEXT_APP="https://raw.githubusercontent.com/shogunishere/next-app-prediction/b72f7a363110c1aa33ff6d6ff8819fdb31dbcf12"
VIZ_HABITS="https://raw.githubusercontent.com/abardou/viz-habits/43b2051779398b83d4b0610442a6bad4c274c119"

# local path | URL | SHA-256
files=(
  "next-app-prediction/user_b_data.csv|$NEXT_APP/Datasets/user_b_data.csv|8c8f1787adf90e6b0050b9ca13fa09667937b64206ec10560ca9bb99f5153c30"
  "next-app-prediction/user_c_data.csv|$NEXT_APP/Datasets/user_c_data.csv|024d68ee333d1a55f77c5943ee8722ce6027908d2a71eb239b887b52c08472c2"
  "next-app-prediction/user_i_data.csv|$NEXT_APP/Datasets/user_i_data.csv|0c4c723db776b58e79ec15d96aa954d57343bfea18de3a0fa13f33b4005c4a0b"
  "next-app-prediction/user_s_data.csv|$NEXT_APP/Datasets/user_s_data.csv|481b6a39a45cd14700d8395d03ae90939bac79b4d0c7d63eba03ba776d9d8d5a"
  "next-app-prediction/dataset.csv|$NEXT_APP/Datasets/dataset.csv|d3f6a70318e7453353440cced35d87e39d14453485bbc72498924d8b395771ec"
  "app-usage-exports/user1-AUM_V4_Activity_2019-12-05_00-46-03.csv|$VIZ_HABITS/data/user1/AUM_V4_Activity_2019-12-05_00-46-03.csv|ea9194b70cc4835af3f3bb71abfe820acfe893aa2e1c37983942326baa81d38d"
  "app-usage-exports/user2-AUM_V4_Activity_2019-12-10_22-19-45.csv|$VIZ_HABITS/data/user2/AUM_V4_Activity_2019-12-10_22-19-45.csv|de21ea0752ade4d3dfb40f59d3c91d6a4c874cc9d69153b8f947a8f1ceaf8aa2"
  "held-out/user_t_data.csv|$NEXT_APP/Datasets/user_t_data.csv|2f073514b466211b5fe0462cd445f39786ba7ececee1f656c7205067dcc93f3e"
  "held-out/user_z_data.csv|$NEXT_APP/Datasets/user_z_data.csv|7e1593275390d9b00bd0b6d1ff90d779fc8589b2c348c5dc04c326c29977653b"
  "held-out/user3-AUM_V4_Activity_2019-12-10_14-47-33.csv|$VIZ_HABITS/data/user3/AUM_V4_Activity_2019-12-10_14-47-33.csv|f189841ca3ad590a3c66d6670a8d81c2602a892c6fbaa56fa987246a69cc9d90"
)

sha256() {
  if command -v sha256sum >/dev/null; then sha256sum "$1" | cut -d' ' -f1; else shasum -a 256 "$1" | cut -d' ' -f1; fi
}

failed=0
for entry in "${files[@]}"; do
  IFS='|' read -r path url expected <<<"$entry"
  target="$dir/$path"
  mkdir -p "$(dirname "$target")"
  if [[ -f "$target" && "$(sha256 "$target")" == "$expected" ]]; then
    echo "ok (already here)  $path"
    continue
  fi
  if ! curl -fsSL --retry 3 -o "$target.part" "$url"; then
    echo "CANNOT DOWNLOAD    $path from $url" >&2
    rm -f "$target.part"
    failed=1
    continue
  fi
  actual="$(sha256 "$target.part")"
  if [[ "$actual" != "$expected" ]]; then
    echo "SHA-256 MISMATCH   $path: expected $expected, got $actual (from $url)" >&2
    rm -f "$target.part"
    failed=1
    continue
  fi
  mv "$target.part" "$target"
  echo "ok                 $path"
done
exit $failed
