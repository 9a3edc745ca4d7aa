#!/usr/bin/env bash
# Loads one of paylinks' completion scripts into its own shell and checks that it
# completes subcommands, options, and the values of --sku, --error, --country, --format,
# --case and --fault, each command its own. The shell must be installed; the test suite checks before it calls this.
# Usage: check-completions.sh PATH_TO_PAYLINKS bash|zsh|fish
set -euo pipefail
paylinks=$1
shell=$2

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$paylinks" completions bash > "$work/paylinks.bash"
"$paylinks" completions zsh > "$work/_paylinks"
"$paylinks" completions fish > "$work/paylinks.fish"

failures=0
# expect SHELL LINE WANTED GOT: GOT (one candidate per line) must hold WANTED.
expect() {
    if grep -qxF -- "$3" <<<"$4"; then
        echo "ok   $1: '$2' offers $3"
    else
        echo "FAIL $1: '$2' does not offer $3; got: $(tr '\n' ' ' <<<"$4")"
        failures=$((failures + 1))
    fi
}

# refuse SHELL LINE UNWANTED GOT: GOT (one candidate per line) must not hold UNWANTED.
refuse() {
    if grep -qxF -- "$3" <<<"$4"; then
        echo "FAIL $1: '$2' offers $3, which that command refuses; got: $(tr '\n' ' ' <<<"$4")"
        failures=$((failures + 1))
    else
        echo "ok   $1: '$2' does not offer $3"
    fi
}

# bash: call the completion function as bash itself would, with COMP_WORDS and COMP_CWORD.
bash_complete() {
    bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _paylinks; printf "%s\n" "${COMPREPLY[@]}"' \
        _ "$work/paylinks.bash" "$@"
}
# zsh: the completion function with compadd recording its candidates (its options, such
# as the case-insensitive matcher, dropped); completion widgets need a terminal, the
# function's logic does not. Tests/Shell/complete_in_pty.py types into a real terminal.
zsh_complete() {
    zsh -c 'compdef() { :; }; compset() { :; }
        compadd() { while (( $# )) && [[ $1 != -- ]]; do shift; done; shift; print -l -- "$@"; }
        source "$1"; shift; words=("$@"); CURRENT=$#; _paylinks' _ "$work/_paylinks" "$@"
}
# fish: its own `complete -C`, which runs the real completion machinery.
fish_complete() {
    fish -c 'source $argv[1]; complete -C $argv[2]' "$work/paylinks.fish" "$*" | cut -f1
}

run="${shell}_complete"
{
    expect "$shell" "paylinks pur" purchase "$($run paylinks pur)"
    expect "$shell" "paylinks cancel --fo" --format "$($run paylinks cancel --fo)"
    expect "$shell" "paylinks purchase --sku sta" starter_pack_001 "$($run paylinks purchase --sku sta)"
    expect "$shell" "paylinks init --error CHARGE" CHARGE_FAILED "$($run paylinks init --error CHARGE)"
    expect "$shell" "paylinks price-points --country J" JP "$($run paylinks price-points --country J)"
    expect "$shell" "paylinks offers --format j" json "$($run paylinks offers --format j)"
    # Each command's own values: the cases of its own audit, the faults trigger takes, the
    # formats the command prints.
    got=$($run paylinks check-events --case re)
    expect "$shell" "paylinks check-events --case re" refund "$got"
    refuse "$shell" "paylinks check-events --case re" retry "$got"
    got=$($run paylinks check-award http://127.0.0.1:8080/award --case re)
    expect "$shell" "paylinks check-award URL --case re" retry "$got"
    refuse "$shell" "paylinks check-award URL --case re" refund "$got"
    got=$($run paylinks trigger order.refunded --fault "")
    expect "$shell" "paylinks trigger order.refunded --fault " drop-first "$got"
    expect "$shell" "paylinks trigger order.refunded --fault " duplicate "$got"
    expect "$shell" "paylinks purchase --device an" android "$($run paylinks purchase --device an)"
    refuse "$shell" "paylinks errors --format w" wire "$($run paylinks errors --format w)"
    expect "$shell" "paylinks purchase --format w" wire "$($run paylinks purchase --format w)"
}

if [ "$failures" -gt 0 ]; then
    echo "$failures completion checks failed" >&2
    exit 1
fi
