#!/usr/bin/env bash
# Drive the real terminal app in tmux, as a person would: start a deck, answer a question,
# open the help, then quit through the confirmation. Exits non-zero, with the screen, on a
# surprise.
#
#   bash tests/tmux/drive_session.sh            # uses `quizapp` from PATH
#   QUIZAPP="python -m quizapp" bash tests/tmux/drive_session.sh
#
# Needs tmux. Leaves nothing behind: the tmux session and the temporary cache are removed.
set -euo pipefail

QUIZAPP=${QUIZAPP:-quizapp}
SESSION="quizapp-drive-$$"
CACHE=$(mktemp -d)
trap 'tmux kill-session -t "$SESSION" 2>/dev/null || true; rm -rf "$CACHE"' EXIT

screen() { tmux capture-pane -t "$SESSION" -p; }

# Wait (up to $2 seconds, default 20) until the screen shows $1.
expect() {
    local text=$1 limit=${2:-20} waited=0
    until screen | grep -qF -- "$text"; do
        sleep 0.25
        waited=$((waited + 1))
        if [ "$waited" -ge $((limit * 4)) ]; then
            echo "drive_session: expected to see: $text" >&2
            screen >&2
            exit 1
        fi
    done
    echo "saw: $text"
}

keys() { tmux send-keys -t "$SESSION" "$@"; sleep 0.3; }

tmux new-session -d -s "$SESSION" -x 100 -y 32 \
    "QUIZAPP_CACHE_DIR=$CACHE $QUIZAPP --no-shuffle --length 3; echo QUIZAPP-EXITED-\$?; sleep 30"

expect "Multi-head attention"           # the home screen lists the decks
expect "Positional encoding"
keys Enter                              # start the highlighted deck
expect "Question 1 of 3"
expect "Multi-head attention exists primarily to"
keys 1                                  # the subspaces option is first when not shuffled
keys Enter
expect "✓ Correct"
expect "Score 1/1"
expect "lab ·" 30                       # the live computation panel
keys '?'
expect "Answering"
expect "grade a revealed flashcard"
keys Escape
keys Enter                              # on to the next question
expect "Question 2 of 3"
keys q                                  # quitting mid-session asks first
expect "Quit in the middle of a session?"
keys y
expect "QUIZAPP-EXITED-0"
echo "drive_session: ok"
