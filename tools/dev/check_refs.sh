#!/bin/sh
# check_refs.sh -- every file that the READMEs and bench/results/*.md name under bench/ exists:
# a path bench/... from the top (unless its line or the next says the file was removed), or a
# results file h100_* / cpu_* (raw/... included) relative to the page that names it or to
# bench/results/ (the README names the tables bare).  Prints each missing one with page and line
# and fails when any is.  Abbreviations (", _run2.log") are not checked: write whole names.
set -eu
cd "$(git rev-parse --show-toplevel)"
missing=0
pages=$(git ls-files '*.md' | grep -E '^(README\.md|[^/]+/README\.md|tests/data/README\.md|bench/results/[^/]+\.md)$')
for page in $pages; do
    dir=$(dirname "$page")
    grep -noE '(bench/[A-Za-z0-9_./+-]+|(raw/)?(h100|cpu)_[A-Za-z0-9_.+-]+)\.(md|log|csv|txt|sh|c|h|cu)' "$page" |
        while IFS=: read -r line ref; do
            case $ref in
            bench/*)
                [ -e "$ref" ] || sed -n "${line},$((line + 1))p" "$page" | grep -q removed || echo "$page:$line: $ref"
                ;;
            *) [ -e "$dir/$ref" ] || [ -e "bench/results/$ref" ] || echo "$page:$line: $ref" ;;
            esac
        done
done >/tmp/check_refs.$$
if [ -s /tmp/check_refs.$$ ]; then
    cat /tmp/check_refs.$$
    echo "check_refs: $(wc -l </tmp/check_refs.$$) missing" >&2
    missing=1
else
    echo "check_refs: every bench/ and results file named in $(echo $pages | wc -w) pages exists"
fi
rm -f /tmp/check_refs.$$
exit $missing
