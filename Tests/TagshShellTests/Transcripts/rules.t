# Rules: define, list, show, delete, preview (one and several, overrides, max-tags), apply (named, ad hoc,
# bare after a preview, stale preview, --all), rules check, and the refusals.
$ open demo.csv
opened demo.csv: 542 transactions
$ rules
no rules yet: `rule NAME QUERY => ACTIONS` defines one
$ rule coffee 'desc:/^(starbucks|blue bottle|cafe einstein)/' => category Food, +coffee, intent want
defined rule coffee
$ rule groceries desc:/rewe|lidl|edeka/ => category Groceries, intent need
defined rule groceries
$ rule treats desc:/starbucks/ amt:<-5 => -coffee, +treat, category Other
defined rule treats
$ rule nothing desc:nosuchshop => +never
defined rule nothing
$ rule dup-coffee desc:starbucks => +coffee
defined rule dup-coffee
$ rules
RULE        MATCHES  QUERY => ACTIONS
coffee           83  'desc:/^(starbucks|blue bottle|cafe einstein)/' => category Food, +coffee, int…
groceries        98  desc:/rewe|lidl|edeka/ => category Groceries, intent need
treats           15  desc:/starbucks/ amt:<-5 => -coffee, +treat, category Other
nothing           0  desc:nosuchshop => +never
dup-coffee       54  desc:starbucks => +coffee
$ rule show coffee
rule coffee 'desc:/^(starbucks|blue bottle|cafe einstein)/' => category Food, +coffee, intent want
  matches 83 transactions; 82 would change
$ preview coffee
preview coffee
matches 83 transactions; 82 would change
  intent   none → want ×80
  category none → Food ×64, Coffee → Food ×14
  tags     +coffee ×28
sample (5 of 82):
  ID  DATE        MERCHANT               AMOUNT
   7  2025-01-07  STARBUCKS 0567      -3.80 EUR
                  category none → Food; intent none → want
   8  2025-01-08  STARBUCKS 1234      -4.00 EUR
                  category none → Food; intent none → want
  21  2025-01-21  BLUE BOTTLE COFFEE  -6.10 EUR
                  category none → Food; intent none → want
  23  2025-01-23  STARBUCKS 1234      -3.50 EUR
                  intent none → want
  29  2025-02-03  CAFE EINSTEIN       -3.20 EUR
                  category none → Food; intent none → want; tags none → coffee
$ preview coffee treats --limit 2
preview coffee treats
matches 83 transactions; 82 would change
  intent   none → want ×80
  category none → Food ×51, none → Other ×13, Food → Other ×1, Coffee → Other ×1, Coffee → Food ×13
  tags     +coffee ×26, +treat ×15, -coffee ×13
rules, in order:
  coffee: matches 83; sets intent on 80, category on 64, tags on 26
  treats: matches 15; sets category on 15, tags on 15
  treats overrides coffee on category for 15 transactions
  treats overrides coffee on tags for 15 transactions
sample (2 of 82):
  ID  DATE        MERCHANT           AMOUNT  CHANGE
   7  2025-01-07  STARBUCKS 0567  -3.80 EUR  category none → Food; intent none → want
   8  2025-01-08  STARBUCKS 1234  -4.00 EUR  category none → Food; intent none → want
$ preview treats --all
preview treats
matches 15 transactions; 15 would change
  category none → Other ×13, Food → Other ×1, Coffee → Other ×1
  tags     +treat ×15, -coffee ×13
sample (15 of 15):
   ID  DATE        MERCHANT           AMOUNT  CHANGE
   46  2025-02-25  STARBUCKS 0567  -5.10 EUR  category none → Other; tags coffee → treat
   71  2025-03-28  STARBUCKS 1234  -6.50 EUR  category Food → Other; tags coffee → treat
  107  2025-04-30  STARBUCKS 0567  -5.20 EUR  category none → Other; tags coffee → treat
  167  2025-07-10  STARBUCKS 0567  -5.40 EUR  category Coffee → Other; tags none → treat
  174  2025-07-17  STARBUCKS 1234  -5.10 EUR  category none → Other; tags coffee → treat
  213  2025-09-06  STARBUCKS 1234  -6.40 EUR  category none → Other; tags coffee → treat
  223  2025-09-21  STARBUCKS 1234  -5.20 EUR  category none → Other; tags coffee → treat
  261  2025-11-03  STARBUCKS 0567  -5.40 EUR  category none → Other; tags coffee work → work treat
  346  2026-02-22  STARBUCKS 0567  -5.10 EUR  category none → Other; tags coffee → treat
  367  2026-03-20  STARBUCKS 0567  -5.10 EUR  category none → Other; tags coffee → treat
  395  2026-04-20  STARBUCKS 1234  -5.10 EUR  category none → Other; tags coffee → treat
  436  2026-06-10  STARBUCKS 1234  -5.40 EUR  category none → Other; tags none → treat
  488  2026-08-19  STARBUCKS 1234  -5.70 EUR  category none → Other; tags coffee → treat
  493  2026-08-28  STARBUCKS 1234  -5.10 EUR  category none → Other; tags coffee → treat
  533  2026-10-12  STARBUCKS 1234  -6.00 EUR  category none → Other; tags coffee work → work treat
$ preview desc:uber => category Transport, +ride, note "taxi, not bus"
preview (ad hoc)
matches 17 transactions; 17 would change
  category none → Transport ×11
  tags     +ride ×17
  note     none → "taxi, not bus" ×17
sample (5 of 17):
   ID  DATE        MERCHANT        AMOUNT
   20  2025-01-20  UBER *TRIP  -23.49 EUR
                   category none → Transport; note none → "taxi, not bus"; tags none → ride
   94  2025-04-18  UBER *TRIP  -21.22 EUR
                   note none → "taxi, not bus"; tags none → ride
  122  2025-05-16  UBER *TRIP  -18.70 EUR
                   note none → "taxi, not bus"; tags trip/lisbon → trip/lisbon ride
  133  2025-05-22  UBER *TRIP  -21.40 EUR
                   category none → Transport; note none → "taxi, not bus"; tags trip/lisbon → trip/lisbon ride
  168  2025-07-11  UBER *TRIP  -15.10 EUR
                   category none → Transport; note none → "taxi, not bus"; tags none → ride
$ rules check
nothing: matches nothing
dup-coffee: fully shadowed by coffee (it matches nothing coffee does not, and does nothing coffee does not)
coffee and treats set different categories on 15 transactions: 46, 71, 107, 167, 174, 213, 223, 261, 346, 367 and 5 more
coffee and treats set different tags on 15 transactions: 46, 71, 107, 167, 174, 213, 223, 261, 346, 367 and 5 more
treats and dup-coffee set different tags on 15 transactions: 46, 71, 107, 167, 174, 213, 223, 261, 346, 367 and 5 more
$ apply
apply (ad hoc) [category 11, tags 17, note 17]: 17 transactions changed
$ apply coffee
apply coffee [intent 80, category 78, tags 28]: 82 transactions changed
$ history
   #  COMMAND                                                                    TRANSACTIONS
   0  (as opened)                                                                              saved
   1  rule coffee 'desc:/^(starbucks|blue bottle|cafe einstein)/' => category …             0
   2  rule groceries desc:/rewe|lidl|edeka/ => category Groceries, intent need              0
   3  rule treats desc:/starbucks/ amt:<-5 => -coffee, +treat, category Other               0
   4  rule nothing desc:nosuchshop => +never                                                0
   5  rule dup-coffee desc:starbucks => +coffee                                             0
   6  apply                                                                                17
>  7  apply coffee                                                                         82
$ preview groceries
preview groceries
matches 98 transactions; 94 would change
  intent   none → need ×90
  category none → Groceries ×66
sample (5 of 94):
  ID  DATE        MERCHANT        AMOUNT  CHANGE
   3  2025-01-04  EDEKA       -40.65 EUR  category none → Groceries; intent none → need
   9  2025-01-11  LIDL        -83.31 EUR  category none → Groceries; intent none → need
  16  2025-01-18  REWE MARKT  -76.95 EUR  category none → Groceries; intent none → need
  24  2025-01-25  REWE MARKT  -57.07 EUR  intent none → need
  31  2025-02-08  EDEKA       -67.55 EUR  category none → Groceries; intent none → need
$ tag 3 +moved
tag +moved: 1 transaction changed
$ apply
the ledger changed since the preview; working it out again
apply groceries [intent 90, category 66]: 94 transactions changed
$ undo
undid: apply  [apply groceries [intent 90, category 66] (94 transactions)]
$ set max-tags 1
$ preview desc:uber => +ride, +taxi
preview (ad hoc)
matches 17 transactions; 17 would change
  tags     +taxi ×17
would exceed max-tags (1): 20, 94, 122, 133, 168, 177, 195, 238, 265, 369 and 7 more — apply would refuse
sample (5 of 17):
   ID  DATE        MERCHANT        AMOUNT  CHANGE
   20  2025-01-20  UBER *TRIP  -23.49 EUR  tags ride → ride taxi
   94  2025-04-18  UBER *TRIP  -21.22 EUR  tags ride → ride taxi
  122  2025-05-16  UBER *TRIP  -18.70 EUR  tags trip/lisbon ride → trip/lisbon ride taxi
  133  2025-05-22  UBER *TRIP  -21.40 EUR  tags trip/lisbon ride → trip/lisbon ride taxi
  168  2025-07-11  UBER *TRIP  -15.10 EUR  tags ride → ride taxi
$ apply desc:uber => +ride, +taxi
error: nothing applied: 17 transactions would hold more than max-tags (1) tags: 20, 94, 122, 133, 168, 177, 195, 238, 265, 369 and 7 more (`set max-tags N` raises the limit)
$ apply
error: nothing applied: 17 transactions would hold more than max-tags (1) tags: 20, 94, 122, 133, 168, 177, 195, 238, 265, 369 and 7 more (`set max-tags N` raises the limit)
$ apply coffee
nothing changed
$ set max-tags 10
$ apply --all
apply coffee groceries treats nothing dup-coffee [intent 90, category 81, tags 15]: 109 transactions changed
$ undo 2
undid: apply --all  [apply coffee groceries treats nothing dup-coffee [intent 90, category 81, tags 15] (109 transactions)]
undid: set max-tags 10  [set max-tags 10]
$ rule delete nothing
deleted rule nothing
$ rule delete nothing
error: no rule 'nothing' (rules: coffee, groceries, treats, dup-coffee)
  rule delete nothing
              ^^^^^^^
$ rule show nothing
error: no rule 'nothing' (rules: coffee, groceries, treats, dup-coffee)
  rule show nothing
            ^^^^^^^
$ rule bad desc:x
error: a rule is QUERY => ACTION, ...; there is no =>
  rule bad desc:x
           ^^^^^^
$ rule bad desc:x =>
error: a rule needs at least one action after =>
  rule bad desc:x =>
                  ^^
$ rule bad desc:x => colour red
error: unknown action 'colour': use category NAME, intent VALUE, +tag, -tag or note TEXT
  rule bad desc:x => colour red
                     ^^^^^^
$ rule bad desc:x => intent wants
error: unknown intent 'wants': use need, want, culture, unexpected or none
  rule bad desc:x => intent wants
                            ^^^^^
$ rule bad desc:x => +two words
error: unknown action 'words': use category NAME, intent VALUE, +tag, -tag or note TEXT
  rule bad desc:x => +two words
                          ^^^^^
$ rule bad 'desc:/(/' => +x
error: bad regular expression /(/: expected ')'
  rule bad 'desc:/(/' => +x
           ^^^^^^^^^^
$ rule bad desc:/a b => +x
error: regular expression /a has no closing /
  rule bad desc:/a b => +x
           ^^^^^^^
$ rule show
error: usage: rule show NAME
  rule show
       ^^^^
$ rule check desc:x => +x
error: a rule name is 1 to 64 letters, digits and - _ . / (and not show, delete or check)
  rule check desc:x => +x
       ^^^^^
$ preview
error: name a rule, or write QUERY => ACTIONS
$ preview nosuchrule
error: no rule 'nosuchrule' (rules: coffee, groceries, treats, dup-coffee)
  preview nosuchrule
          ^^^^^^^^^^
$ preview desc:x => category Nowhere
error: rule (ad hoc): no category 'Nowhere' (`category new Nowhere` creates it)
$ rule groc desc:rewe => category Groc, +weekly
defined rule groc
note: no category 'Groc' yet (did you mean 'Groceries'?): `preview` and `apply` refuse rule groc until `category new Groc` creates it
$ rule groc2 desc:rewe => category Grocerys
defined rule groc2
note: no category 'Grocerys' yet (did you mean 'Groceries'?): `preview` and `apply` refuse rule groc2 until `category new Grocerys` creates it
$ rule groc3 desc:rewe => intent need, category 'Weekly shop'
defined rule groc3
note: no category 'Weekly shop' yet: `preview` and `apply` refuse rule groc3 until `category new 'Weekly shop'` creates it
$ preview groc
error: rule groc: no category 'Groc' (`category new Groc` creates it)
$ rule delete groc
deleted rule groc
$ rule delete groc2
deleted rule groc2
$ rule delete groc3
deleted rule groc3
$ apply --all extra
error: --all goes with `apply` alone
  apply --all extra
        ^^^^^
