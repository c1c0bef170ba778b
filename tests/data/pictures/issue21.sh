#!/bin/bash
# The before/after pictures of issue 21: tests/data/pictures/issue21.sh /tmp/before docs/pictures/before
# (records made by issue21_records.py; the timer pictures by issue21_timer.py, as the bot posts them)
# usage: issue21.sh CODE_DIR OUT_DIR   (records from this script's directory; PY: the python)
set -e
CODE=$1; OUT=$(realpath -m "$2"); R=$(cd "$(dirname "$0")" && pwd); PY=${PY:-python3}
mkdir -p $OUT
cd $CODE
export PYTHONPATH=$CODE
r() { $PY -m render $R/$1.json --out $OUT/$2.png "${@:3}" >/dev/null; echo $OUT/$2.png; }
r fives-flanks fives-flanks-move4 --move 4
r fives-flanks fives-flanks-end
r fido12-doubles fido12-doubles-end
r draw9-long draw9-long-end --lang en
r draw12-60 draw12-60-end
r computers4 computers4-move12 --move 12
r computers4 computers4-end
r mexican8 mexican8-move24 --move 24
r mexican8 mexican8-end
t() { $PY $R/issue21_timer.py $R/$1.json $OUT/$2.png $3; echo $OUT/$2.png; }
t computers4 computers4-timer 13
t draw12-60 draw12-60-timer 32
t computers4 computers4-bot-end 999
echo "(the -bot- and -timer pictures: names without the strength and tags, as the bot passes them after issue 21)"
