# review: one transaction at a time, single keys; every key is an ordinary command, so history, undo and save see it.
$ open demo.csv
opened demo.csv: 542 transactions
$ review
error: review is interactive and needs a terminal; in a script, run the commands its keys run (intent ID VALUE, tag ID +TAG, category ID NAME, note ID TEXT)
< <Enter> U <Enter> n <Space> <Backspace> + "cof\t morning" / "Foo\t" ? x a q
$ review desc:starbucks date:2025
────────────────────────────────────────────────────────────
review 1/32  desc:starbucks date:2025  –/min
2025-01-07  STARBUCKS 0567  -3.80 EUR
account Credit Card
[no intent] [no category] #coffee
file Date=2025-01-07 · Description=STARBUCKS 0567 · Amount=-3.80 · Currency=EUR · Account=Credit Ca…
suggested (Enter accepts)
  category Coffee     0.99  2 of 2 categorised STARBUCKS 0567 transactions are in Coffee
  intent want         0.89  3 of 3 transactions of merchants named like STARBUCKS (numbers aside) w…
n w c u intent · Enter accept · + - tags · / category · " note · Space skip · U undo · ? keys
────────────────────────────────────────────────────────────
review 2/32  desc:starbucks date:2025  –/min
2025-01-08  STARBUCKS 1234  -4.00 EUR
account Credit Card
[no intent] [no category] #coffee
file Date=2025-01-08 · Description=STARBUCKS 1234 · Amount=-4.00 · Currency=EUR · Account=Credit Ca…
suggested (Enter accepts)
  intent want         0.98  2 of 2 STARBUCKS 1234 transactions with an intent are want
n w c u intent · Enter accept · + - tags · / category · " note · Space skip · U undo · ? keys
last: accepted 2 suggestions
────────────────────────────────────────────────────────────
review 1/32  desc:starbucks date:2025  –/min
2025-01-07  STARBUCKS 0567  -3.80 EUR
account Credit Card
[no intent] [no category] #coffee
file Date=2025-01-07 · Description=STARBUCKS 0567 · Amount=-3.80 · Currency=EUR · Account=Credit Ca…
suggested (Enter accepts)
  category Coffee     0.99  2 of 2 categorised STARBUCKS 0567 transactions are in Coffee
  intent want         0.89  3 of 3 transactions of merchants named like STARBUCKS (numbers aside) w…
n w c u intent · Enter accept · + - tags · / category · " note · Space skip · U undo · ? keys
last: undid intent 7 want, category 7 Coffee
────────────────────────────────────────────────────────────
review 2/32  desc:starbucks date:2025  –/min
2025-01-08  STARBUCKS 1234  -4.00 EUR
account Credit Card
[no intent] [no category] #coffee
file Date=2025-01-08 · Description=STARBUCKS 1234 · Amount=-4.00 · Currency=EUR · Account=Credit Ca…
suggested (Enter accepts)
  intent want         0.98  2 of 2 STARBUCKS 1234 transactions with an intent are want
n w c u intent · Enter accept · + - tags · / category · " note · Space skip · U undo · ? keys
last: accepted 2 suggestions
────────────────────────────────────────────────────────────
review 3/32  desc:starbucks date:2025  –/min
2025-01-23  STARBUCKS 1234  -3.50 EUR
account Credit Card
[no intent] [Food] #coffee
file Date=2025-01-23 · Description=STARBUCKS 1234 · Amount=-3.50 · Currency=EUR · Account=Credit Ca…
same merchant
  2025-01-08     -4.00 EUR  need  –  #coffee
n w c u intent · Enter accept · + - tags · / category · " note · Space skip · U undo · ? keys
last: intent 8 need — 1 transaction changed
────────────────────────────────────────────────────────────
review 4/32  desc:starbucks date:2025  –/min
2025-02-24  STARBUCKS 1234  -3.20 EUR
account Checking
[no intent] [no category] #coffee
file Date=2025-02-24 · Description=STARBUCKS 1234 · Amount=-3.20 · Currency=EUR · Account=Checking …
same merchant
  2025-01-23     -3.50 EUR  –  Food  #coffee
  2025-01-08     -4.00 EUR  need  –  #coffee
n w c u intent · Enter accept · + - tags · / category · " note · Space skip · U undo · ? keys
last: skipped
────────────────────────────────────────────────────────────
review 3/32  desc:starbucks date:2025  –/min
2025-01-23  STARBUCKS 1234  -3.50 EUR
account Credit Card
[no intent] [Food] #coffee
file Date=2025-01-23 · Description=STARBUCKS 1234 · Amount=-3.50 · Currency=EUR · Account=Credit Ca…
same merchant
  2025-01-08     -4.00 EUR  need  –  #coffee
n w c u intent · Enter accept · + - tags · / category · " note · Space skip · U undo · ? keys
last: back
────────────────────────────────────────────────────────────
review 3/32  desc:starbucks date:2025  –/min
2025-01-23  STARBUCKS 1234  -3.50 EUR
account Credit Card
[no intent] [Food] #coffee #morning
file Date=2025-01-23 · Description=STARBUCKS 1234 · Amount=-3.50 · Currency=EUR · Account=Credit Ca…
same merchant
  2025-01-08     -4.00 EUR  need  –  #coffee
n w c u intent · Enter accept · + - tags · / category · " note · Space skip · U undo · ? keys
last: tag 23 +coffee +morning — 1 transaction changed
────────────────────────────────────────────────────────────
review 3/32  desc:starbucks date:2025  –/min
2025-01-23  STARBUCKS 1234  -3.50 EUR
account Credit Card
[no intent] [Food] #coffee #morning
file Date=2025-01-23 · Description=STARBUCKS 1234 · Amount=-3.50 · Currency=EUR · Account=Credit Ca…
same merchant
  2025-01-08     -4.00 EUR  need  –  #coffee
n w c u intent · Enter accept · + - tags · / category · " note · Space skip · U undo · ? keys
last: category 23 Food — nothing changed
────────────────────────────────────────────────────────────
review 3/32  desc:starbucks date:2025  –/min
2025-01-23  STARBUCKS 1234  -3.50 EUR
account Credit Card
[no intent] [Food] #coffee #morning
file Date=2025-01-23 · Description=STARBUCKS 1234 · Amount=-3.50 · Currency=EUR · Account=Credit Ca…
same merchant
  2025-01-08     -4.00 EUR  need  –  #coffee
n w c u intent · Enter accept · + - tags · / category · " note · Space skip · U undo · ? keys
last: category 23 Food — nothing changed
  n         intent need, next
  w         intent want, next
  c         intent culture, next
  u         intent unexpected, next
  Enter     accept the suggestions shown, next
  +         add tags (Tab completes)
  -         remove tags
  /         set the category (Tab completes; a new name is offered)
  "         edit the note
  e         edit the note in $VISUAL or $EDITOR
  Space     skip
  Backspace back one
  U         undo the last step
  a         do the last decision to every later transaction of this merchant in the queue
  r         make the last decision a rule for this merchant (preview first)
  ?         list the keys
  q         leave (also Esc, Ctrl-D, Ctrl-C)
press a key
────────────────────────────────────────────────────────────
review 3/32  desc:starbucks date:2025  –/min
2025-01-23  STARBUCKS 1234  -3.50 EUR
account Credit Card
[no intent] [Food] #coffee #morning
file Date=2025-01-23 · Description=STARBUCKS 1234 · Amount=-3.50 · Currency=EUR · Account=Credit Ca…
same merchant
  2025-01-08     -4.00 EUR  need  –  #coffee
n w c u intent · Enter accept · + - tags · / category · " note · Space skip · U undo · ? keys
last: category 23 Food — nothing changed
────────────────────────────────────────────────────────────
review 3/17  desc:starbucks date:2025  –/min
2025-01-23  STARBUCKS 1234  -3.50 EUR
account Credit Card
[no intent] [Food] #coffee #morning
file Date=2025-01-23 · Description=STARBUCKS 1234 · Amount=-3.50 · Currency=EUR · Account=Credit Ca…
same merchant
  2025-01-08     -4.00 EUR  need  –  #coffee
n w c u intent · Enter accept · + - tags · / category · " note · Space skip · U undo · ? keys
last: category 45,60,71,85,86,155,174,213,215,223,226,245,268,279,294 Food — 13 transactions change…
review left: reviewed 3 of 17, changed 16 transactions, skipped 1, 0s
$ history
   #  COMMAND                                                               TRANSACTIONS
   0  (as opened)                                                                         saved
   1  category 7 Coffee                                                                1
   2  intent 7 want                                                                    1
   3  intent 8 need                                                                    1
   4  tag 23 +coffee +morning                                                          1
>  5  category 45,60,71,85,86,155,174,213,215,223,226,245,268,279,294 Food            13
$ count desc:starbucks date:2025 intent:want
2
< / "Pets" y r y q
$ review desc:/^rewe/ --sort amount
────────────────────────────────────────────────────────────
review 1/44  desc:/^rewe/  –/min
2025-06-28  REWE MARKT  -95.58 EUR
account Checking
[no intent] [no category]
file Date=2025-06-28 · Description=REWE MARKT · Amount=-95.58 · Currency=EUR · Account=Checking
same merchant
  2025-06-21    -86.50 EUR  –  Groceries
  2025-05-24    -25.17 EUR  –  –
  2025-05-10    -60.97 EUR  –  Groceries
suggested (Enter accepts)
  category Groceries  1.00  13 of 13 categorised REWE MARKT transactions are in Groceries
  +groceries          0.99  5 of 5 tagged REWE MARKT transactions have +groceries
  intent need         0.98  3 of 3 REWE MARKT transactions with an intent are need
n w c u intent · Enter accept · + - tags · / category · " note · Space skip · U undo · ? keys
────────────────────────────────────────────────────────────
review 1/44  desc:/^rewe/  –/min
2025-06-28  REWE MARKT  -95.58 EUR
account Checking
[no intent] [no category]
file Date=2025-06-28 · Description=REWE MARKT · Amount=-95.58 · Currency=EUR · Account=Checking
same merchant
  2025-06-21    -86.50 EUR  –  Groceries
  2025-05-24    -25.17 EUR  –  –
  2025-05-10    -60.97 EUR  –  Groceries
suggested (Enter accepts)
  category Groceries  1.00  13 of 13 categorised REWE MARKT transactions are in Groceries
  +groceries          0.99  5 of 5 tagged REWE MARKT transactions have +groceries
  intent need         0.98  3 of 3 REWE MARKT transactions with an intent are need
n w c u intent · Enter accept · + - tags · / category · " note · Space skip · U undo · ? keys
last: no category 'Pets': press y to create it
────────────────────────────────────────────────────────────
review 1/44  desc:/^rewe/  –/min
2025-06-28  REWE MARKT  -95.58 EUR
account Checking
[no intent] [Pets]
file Date=2025-06-28 · Description=REWE MARKT · Amount=-95.58 · Currency=EUR · Account=Checking
same merchant
  2025-06-21    -86.50 EUR  –  Groceries
  2025-05-24    -25.17 EUR  –  –
  2025-05-10    -60.97 EUR  –  Groceries
suggested (Enter accepts)
  category Groceries  1.00  13 of 13 categorised REWE MARKT transactions are in Groceries
  +groceries          0.99  5 of 5 tagged REWE MARKT transactions have +groceries
  intent need         0.98  3 of 3 REWE MARKT transactions with an intent are need
n w c u intent · Enter accept · + - tags · / category · " note · Space skip · U undo · ? keys
last: category 161 Pets — 1 transaction changed
────────────────────────────────────────────────────────────
review 1/44  desc:/^rewe/  –/min
2025-06-28  REWE MARKT  -95.58 EUR
account Checking
[no intent] [Pets]
file Date=2025-06-28 · Description=REWE MARKT · Amount=-95.58 · Currency=EUR · Account=Checking
same merchant
  2025-06-21    -86.50 EUR  –  Groceries
  2025-05-24    -25.17 EUR  –  –
  2025-05-10    -60.97 EUR  –  Groceries
suggested (Enter accepts)
  category Groceries  1.00  13 of 13 categorised REWE MARKT transactions are in Groceries
  +groceries          0.99  5 of 5 tagged REWE MARKT transactions have +groceries
  intent need         0.98  3 of 3 REWE MARKT transactions with an intent are need
n w c u intent · Enter accept · + - tags · / category · " note · Space skip · U undo · ? keys
last: category 161 Pets — 1 transaction changed
preview (ad hoc)
matches 44 transactions; 43 would change
  category none → Pets ×30, Groceries → Pets ×13
sample (5 of 43):
  ID  DATE        MERCHANT        AMOUNT  CHANGE
  16  2025-01-18  REWE MARKT  -76.95 EUR  category none → Pets
  24  2025-01-25  REWE MARKT  -57.07 EUR  category Groceries → Pets
  51  2025-03-01  REWE MARKT  -50.60 EUR  category none → Pets
  55  2025-03-06  REWE MARKT  -15.69 EUR  category none → Pets
  61  2025-03-15  REWE MARKT  -77.93 EUR  category none → Pets

define rule rewe-markt 'desc:/^REWE MARKT$/' => category Pets? y defines it, A defines and applies it, another key does neither
────────────────────────────────────────────────────────────
review 1/44  desc:/^rewe/  –/min
2025-06-28  REWE MARKT  -95.58 EUR
account Checking
[no intent] [Pets]
file Date=2025-06-28 · Description=REWE MARKT · Amount=-95.58 · Currency=EUR · Account=Checking
same merchant
  2025-06-21    -86.50 EUR  –  Groceries
  2025-05-24    -25.17 EUR  –  –
  2025-05-10    -60.97 EUR  –  Groceries
suggested (Enter accepts)
  category Groceries  1.00  13 of 13 categorised REWE MARKT transactions are in Groceries
  +groceries          0.99  5 of 5 tagged REWE MARKT transactions have +groceries
  intent need         0.98  3 of 3 REWE MARKT transactions with an intent are need
n w c u intent · Enter accept · + - tags · / category · " note · Space skip · U undo · ? keys
last: rule rewe-markt 'desc:/^REWE MARKT$/' => category Pets — defined rule rewe-markt
review left: reviewed 1 of 44, changed 1 transaction, skipped 0, 0s
$ rules
RULE        MATCHES  QUERY => ACTIONS
rewe-markt       44  'desc:/^REWE MARKT$/' => category Pets
< ^C
$ review id:1
────────────────────────────────────────────────────────────
review 1/1  id:1  –/min
2025-01-01  HAUSVERWALTUNG MUELLER RENT  -1,150.00 EUR
account Checking
[need] [Housing]
file Date=2025-01-01 · Description=HAUSVERWALTUNG MUELLER RENT · Amount=-1150.00 · Currency=EUR · A…
n w c u intent · Enter accept · + - tags · / category · " note · Space skip · U undo · ? keys
review left: reviewed 0 of 1, changed 0 transactions, skipped 0, 0s
$ tag 1 +café
tag +café: 1 transaction changed
<60 e <Quote> "paid, in cash; ask Anna" <Esc>
$ review id:1
────────────────────────────────────────────────────────────
review 1/1  id:1  –/min
2025-01-01  HAUSVERWALTUNG MUELLER RENT  -1,150.00 EUR
account Checking
[need] [Housing] #café
file Date=2025-01-01 · Description=HAUSVERWALTUNG MUELLER R…
n w c u intent · Enter accept · + - tags · ? keys
────────────────────────────────────────────────────────────
review 1/1  id:1  –/min
2025-01-01  HAUSVERWALTUNG MUELLER RENT  -1,150.00 EUR
account Checking
[need] [Housing] #café
file Date=2025-01-01 · Description=HAUSVERWALTUNG MUELLER R…
n w c u intent · Enter accept · + - tags · ? keys
last: the editor failed; the note is unchanged
────────────────────────────────────────────────────────────
review 1/1  id:1  –/min
2025-01-01  HAUSVERWALTUNG MUELLER RENT  -1,150.00 EUR
account Checking
[need] [Housing] #café
note paid, in cash; ask Anna
file Date=2025-01-01 · Description=HAUSVERWALTUNG MUELLER R…
n w c u intent · Enter accept · + - tags · ? keys
last: note 1 'paid, in cash; ask Anna' — 1 transaction chan…
review left: reviewed 1 of 1, changed 1 transaction, skipped 0, 0s
