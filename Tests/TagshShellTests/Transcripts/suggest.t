# Suggestions on the demo: from a merchant's history, from words of a new merchant's name, and rules.
$ open demo.csv
opened demo.csv: 542 transactions
$ suggest 60
transaction 60  STARBUCKS 1234
  tag 60 +coffee                  1.00  29 of 29 tagged STARBUCKS 1234 transactions have +coffee
  intent 60 want                  0.98  2 of 2 STARBUCKS 1234 transactions with an intent are want
$ suggest 46
transaction 46  STARBUCKS 0567
  category 46 Coffee              0.99  2 of 2 categorised STARBUCKS 0567 transactions are in Coffee
  intent 46 want                  0.89  3 of 3 transactions of merchants named like STARBUCKS (numbers aside) with an intent are want
$ suggest 1
transaction 1  HAUSVERWALTUNG MUELLER RENT
  nothing to suggest at suggest-threshold 0.80
$ suggest 9999
error: no transaction 9999: ids run from 1 to 542
  suggest 9999
          ^^^^
$ suggest
error: usage: suggest ID | suggest rules [QUERY] | suggest --backtest [QUERY]
$ suggest rules
# STARBUCKS 1234: 35 transactions; 29 have +coffee — matches 35, would change 6
rule starbucks-1234 'desc:STARBUCKS 1234' => +coffee
# NETFLIX.COM: 22 transactions; 18 have +subscription — matches 22, would change 4
rule netflix-com desc:NETFLIX.COM => +subscription
# STARBUCKS 0567: 19 transactions; 15 have +coffee — matches 19, would change 4
rule starbucks-0567 'desc:STARBUCKS 0567' => +coffee
# SHELL TANKSTELLE: 7 transactions; 5 have +car — matches 7, would change 2
rule shell-tankstelle 'desc:SHELL TANKSTELLE' => +car
# SUSHI YAMA: 13 transactions; 11 have +work-lunch — matches 13, would change 2
rule sushi-yama 'desc:SUSHI YAMA' => +work-lunch
# SPOTIFY AB: 22 transactions; 21 have +subscription — matches 22, would change 1
rule spotify-ab 'desc:SPOTIFY AB' => +subscription
# VAPIANO: 10 transactions; 9 have +work-lunch — matches 10, would change 1
rule vapiano desc:VAPIANO => +work-lunch
$ suggest rules date:2026
# STARBUCKS 1234: 18 transactions; 15 have +coffee — matches 18, would change 3
rule starbucks-1234 'desc:STARBUCKS 1234' date:2026 => +coffee
# NETFLIX.COM: 10 transactions; 8 have +subscription — matches 10, would change 2
rule netflix-com desc:NETFLIX.COM date:2026 => +subscription
# SUSHI YAMA: 8 transactions; 6 have +work-lunch — matches 8, would change 2
rule sushi-yama 'desc:SUSHI YAMA' date:2026 => +work-lunch
# SHELL TANKSTELLE: 5 transactions; 4 have +car — matches 5, would change 1
rule shell-tankstelle 'desc:SHELL TANKSTELLE' date:2026 => +car
# SPOTIFY AB: 10 transactions; 9 have +subscription — matches 10, would change 1
rule spotify-ab 'desc:SPOTIFY AB' date:2026 => +subscription
# STEAM GAMES: 4 transactions; 3 have +games — matches 4, would change 1
rule steam-games 'desc:STEAM GAMES' date:2026 => +games
$ suggest rules tag:none
no rules to suggest: no merchant's transactions mostly share an annotation that some lack
$ rule netflix-com desc:NETFLIX.COM => +subscription
defined rule netflix-com
$ suggest rules netflix
# NETFLIX.COM: 22 transactions; 18 have +subscription — matches 22, would change 4
rule netflix-com-2 desc:NETFLIX.COM netflix => +subscription
$ open newstore.csv
discarded the unsaved changes to demo.csv
opened newstore.csv: 4 transactions
$ suggest 4
transaction 4  STARBUCKS NEWSTORE 9
  nothing to suggest at suggest-threshold 0.80; the best, category Food (0.69): 3 of 3 categorised transactions of merchants with 'starbucks' in the name are in Food
$ open demo.csv
opened demo.csv: 542 transactions
$ suggest --backtest
backtest over 542 transactions, each suggested from the ones before it in date order
FIELD     WITH A VALUE  THRESHOLD  ACTED  COVERAGE  RIGHT
category           230       0.50    146     63.5%  96.6%
category           230       0.60    145     63.0%  96.6%
category           230       0.70    141     61.3%  97.2%
category           230     0.80 *    137     59.6%  97.8%
category           230       0.90    133     57.8%  99.2%
category           230       0.95    133     57.8%  99.2%
category           230   baseline    121     52.6%  96.7%
intent             124       0.50     54     43.5%  96.3%
intent             124       0.60     54     43.5%  96.3%
intent             124       0.70     54     43.5%  96.3%
intent             124     0.80 *     51     41.1%  96.1%
intent             124       0.90     46     37.1%  95.7%
intent             124       0.95     46     37.1%  95.7%
tags               190       0.50    124     65.3%  98.4%
tags               190       0.60    124     65.3%  98.4%
tags               190       0.70    124     65.3%  98.4%
tags               190     0.80 *    123     64.7%  98.4%
tags               190       0.90    120     63.2%  99.2%
tags               190       0.95    120     63.2%  99.2%
* suggest-threshold; baseline: the merchant's most frequent category among at least 3 earlier transactions (Actual's rule)
most common category mistakes (any confidence): Food for Coffee ×4, Groceries for Health ×1
most common intent mistakes (any confidence): want for need ×2
$ set suggest-threshold 0.95
$ suggest 46
transaction 46  STARBUCKS 0567
  category 46 Coffee              0.99  2 of 2 categorised STARBUCKS 0567 transactions are in Coffee
$ set suggest-threshold 2
error: suggest-threshold takes a number from 0 to 1, such as 0.8
  set suggest-threshold 2
                        ^
$ set suggest-threshold 0.8
$ preview suggestions --fields intent --limit 2
preview suggestions
matches 542 transactions; 316 would change
  intent   none → need ×164, none → want ×152
sample (2 of 316):
       3  2025-01-04  EDEKA  -40.65 EUR
          intent none → need
       5  2025-01-06  TELEKOM MOBILE  -29.99 EUR
          intent none → need
$ apply
apply suggestions [intent 316]: 316 transactions changed
$ history
   #  COMMAND      TRANSACTIONS
   0  (as opened)                saved
>  1  apply                 316
$ undo
undid: apply  [apply suggestions [intent 316] (316 transactions)]
