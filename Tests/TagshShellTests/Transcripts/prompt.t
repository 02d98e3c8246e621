# psql's habits at the prompt: \o, \h, \?, \q; pipes; a TARGET that is a query.
$ open demo.csv
opened demo.csv: 542 transactions
$ \o out.txt
output goes to out.txt until `\o` alone
$ count
$ count tag:coffee
$ \o
output goes to the screen again (it went to out.txt)
$ count tag:none | cat out.txt
542
55
$ ls starbucks --limit 1 | head -1
ID  DATE        MERCHANT           AMOUNT  I  CATEGORY  TAGS
$ \h count
usage: count [QUERY]

print how many transactions match, as a bare number

examples:
  count
  count tag:coffee
  count 'desc:/star(bucks)?/' amt:<-5
$ ls uber --limit 3
 ID  DATE        MERCHANT        AMOUNT  I  CATEGORY   TAGS
 20  2025-01-20  UBER *TRIP  -23.49 EUR  W
 94  2025-04-18  UBER *TRIP  -21.22 EUR  W  Transport
122  2025-05-16  UBER *TRIP  -18.70 EUR  N  Transport  trip/lisbon
(3 of 17 transactions)
$ tag @ +ride
tag +ride: 3 transactions changed
@ is what the last listing showed: 3 of the 17 transactions its query matches; `tag {uber} +ride` would take all 17
$ undo
undid: tag @ +ride  [tag +ride (3 transactions)]
$ tag {uber} +ride
tag +ride: 17 transactions changed
$ count tag:ride
17
$ history --script
# tagsh script: 1 step from `history --script`
tag 20,94,122,133,168,177,195,238,265,369,396,401,409,425,435,470,494 +ride
$ tag {desc:/^uber/ amt:<-20} -ride
tag -ride: 13 transactions changed
$ count tag:ride
4
$ tag {nope:x} +a
error: unknown query key 'nope:' (keys: desc: payee: merchant: tag: cat: intent: amt: date: note: acct: id: status: col: file:)
  tag {nope:x} +a
       ^^^^^^
$ tag {cat:Fod} +a
error: there is no category 'Fod': did you mean 'Food'?
  tag {cat:Fod} +a
       ^^^^^^^
$ tag {uber +a
error: a { has no closing }: a query in braces is {QUERY}
  tag {uber +a
      ^^^^^
$ tag {desc:nothing-like-this} +a
error: {desc:nothing-like-this} matches no transaction
  tag {desc:nothing-like-this} +a
      ^^^^^^^^^^^^^^^^^^^^^^^^
$ echo '{not a target}'
{not a target}
$ \q
