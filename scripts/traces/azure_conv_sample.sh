#!/bin/bash
# Remakes data/traces/azure_conv_2023.csv: the first 5,000 requests of the Azure LLM inference
# trace 2023 (conversation), from microsoft/vidur's copy (arrivals relative to the first request).
# Needs a clone of https://github.com/microsoft/vidur (the path as $1). The header comment is kept
# from the file already in the repository.
set -euo pipefail
vidur=${1:?usage: azure_conv_sample.sh PATH_TO_VIDUR_CLONE}
out=$(dirname "$0")/../../data/traces/azure_conv_2023.csv
header=$(grep '^#' "$out")
{
  echo "$header"
  echo "arrival_s,prompt_tokens,output_tokens"
  git -C "$vidur" show 8e54dd5c137a9b5aa0b6ff512ace6cc7caf8a377:data/processed_traces/splitwise_conv.csv | sed -n '2,5001p'
} > "$out.new"
mv "$out.new" "$out"
