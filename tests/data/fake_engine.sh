#!/bin/sh
# A misbehaving engine for the referee tests: sh fake_engine.sh MODE, where MODE is
#   illegal  answers every go with a move that does not exist
#   crash    exits when told to go
#   silent   never answers go
#   slow     answers go with a legal first placement, two seconds late
#   dead     exits before the handshake
#   mute     never finishes the handshake
#   none     answers every go with 'bestmove (none)'
mode=$1
[ "$mode" = dead ] && exit 1
while read -r cmd rest; do
    case $cmd in
    uci) [ "$mode" = mute ] || { echo "id name fake-$mode"; echo uciok; } ;;
    isready) echo readyok ;;
    quit) exit 0 ;;
    go)
        case $mode in
        illegal) echo "info depth 1 score cp 5"; echo "bestmove z9" ;;
        crash) exit 3 ;;
        silent) ;;
        slow) sleep 2; echo "bestmove d7" ;;
        none) echo "bestmove (none)" ;;
        esac
        ;;
    esac
done
