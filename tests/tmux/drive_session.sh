#!/usr/bin/env bash
# Drive the real terminal app in tmux, as a person would: start a deck, answer a question,
# open the help, then quit through the confirmation. Exits non-zero, with the screen, on a
# surprise.
#
#   bash tests/tmux/drive_session.sh            # uses `quizapp` from PATH
#   QUIZAPP="python -m quizapp" bash tests/tmux/drive_session.sh
#
# Needs tmux. Leaves nothing behind: the tmux session and the temporary folder (the bank cache,
# a history of its own and no config, so a user's own neither changes nor steers the run) are
# removed.
set -euo pipefail

QUIZAPP=${QUIZAPP:-quizapp}
SESSION="quizapp-drive-$$"
CACHE=$(mktemp -d)
trap 'tmux kill-session -t "$SESSION" 2>/dev/null || true; rm -rf "$CACHE"' EXIT

screen() { tmux capture-pane -t "$SESSION" -p; }

# Wait until the screen shows ($1 = shows) or no longer shows ($1 = hides) the text $2, for up
# to $3 seconds (default 60: a loaded machine is slow, and a deadline costs nothing when the
# screen is quick). Every key below is followed by a wait on what it does, never by a sleep.
wait_screen() {
    local want=$1 text=$2 limit=${3:-60}
    local deadline=$((SECONDS + limit))
    while :; do
        if screen | grep -qF -- "$text"; then
            [ "$want" = shows ] && break
        else
            [ "$want" = hides ] && break
        fi
        if [ "$SECONDS" -ge "$deadline" ]; then
            local verb="to see"
            [ "$want" = hides ] && verb="to stop seeing"
            echo "drive_session: expected $verb: $text (waited ${limit}s)" >&2
            screen >&2
            exit 1
        fi
        sleep 0.1 # how often to look, not how long to wait
    done
    echo "$( [ "$want" = shows ] && echo saw || echo gone): $text"
}
expect() { wait_screen shows "$@"; }
expect_gone() { wait_screen hides "$@"; }

keys() { tmux send-keys -t "$SESSION" "$@"; }

tmux new-session -d -s "$SESSION" -x 100 -y 32 -c "$PWD" \
    "QUIZAPP_CACHE_DIR=$CACHE/cache QUIZAPP_DB=$CACHE/history.sqlite3 \
     QUIZAPP_CONFIG=$CACHE/config.toml $QUIZAPP --no-shuffle --length 3; \
     echo QUIZAPP-EXITED-\$?; sleep 600"

expect "Modern attention"               # the home screen lists the decks
expect "Positional encoding"
keys Enter                              # start the highlighted deck, the first file's
expect "Question 1 of 3"
expect "A layer with 32 query heads uses grouped-query attention"
# The key's number as the screen shows it: the bank spreads its keys over the positions, so
# read it rather than assume it (issue 18).
key=$(screen | sed -n 's/^ *\([0-9]\)\. ( ) One key head and one value head.*/\1/p')
[ -n "$key" ] || { echo "drive_session: the shared-K/V option is not on screen" >&2; screen >&2; exit 1; }
keys "$key" Enter
expect "✓ Correct"
expect "Score 1/1"
expect "lab ·" 180                      # the live computation panel: torch loads first
keys '?'
expect "Answering"
expect "grade a revealed flashcard"
keys Escape
# Closed before the next key goes: an Escape still unread when Enter arrives reads as alt+enter.
expect_gone "grade a revealed flashcard"
keys Enter                              # on to the next question
expect "Question 2 of 3"
keys q                                  # quitting mid-session asks first
expect "Quit in the middle of a session?"
keys y
expect "QUIZAPP-EXITED-0"
echo "drive_session: ok"
