# record, history --script, recover and discard at the prompt.
$ record
not recording
$ record off
error: not recording
$ recover
error: there is nothing to recover
$ discard
error: there is nothing to discard
$ open basic.csv
opened basic.csv: 3 transactions
$ record basic.tagsh
recording to basic.tagsh
$ record
recording to basic.tagsh
$ select starbucks
1 selected
$ tag @ +coffee
tag +coffee: 1 transaction changed
$ intent 3 need
intent need: 1 transaction changed
$ tag all +tmp
tag +tmp: 3 transactions changed
$ undo
undid: tag all +tmp  [tag +tmp (3 transactions)]
$ record off
$ source basic.tagsh
1 selected
nothing changed
nothing changed
tag +tmp: 3 transactions changed
undid: tag all +tmp  [tag +tmp (3 transactions)]
$ history --script
# tagsh script: 2 steps from `history --script`
tag 1 +coffee
intent 3 need
$ history
   #  COMMAND        TRANSACTIONS
   0  (as opened)                  saved
   1  tag @ +coffee             1
>  2  intent 3 need             1
   3  tag all +tmp              3  undone
