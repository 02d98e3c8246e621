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
# REWE MARKT: 44 transactions; +groceries (precision 1.00, 5 of 5 tagged), Groceries (precision 1.00, 13 of 13 categorised), need (precision 1.00, 3 of 3 with an intent) — matches 44, would change 44
rule rewe-markt 'desc:REWE MARKT' => +groceries, category Groceries, intent need
# TELEKOM MOBILE: 22 transactions; Bills (precision 1.00, 8 of 8 categorised), need (precision 1.00, 3 of 3 with an intent) — matches 22, would change 22
rule telekom-mobile 'desc:TELEKOM MOBILE' => category Bills, intent need
# EDEKA: 23 transactions; Groceries (precision 1.00, 7 of 7 categorised), need (precision 1.00, 3 of 3 with an intent) — matches 23, would change 21
rule edeka desc:EDEKA => category Groceries, intent need
# NETFLIX.COM: 22 transactions; +subscription (precision 1.00, 18 of 18 tagged), Entertainment (precision 1.00, 11 of 11 categorised), want (precision 1.00, 6 of 6 with an intent) — matches 22, would change 21
rule netflix-com desc:NETFLIX.COM => +subscription, category Entertainment, intent want
# GYM FLEX MONTHLY: 22 transactions; +subscription (precision 1.00, 11 of 11 tagged), Health (precision 1.00, 11 of 11 categorised), want (precision 1.00, 4 of 4 with an intent) — matches 22, would change 20
rule gym-flex-monthly 'desc:GYM FLEX MONTHLY' => +subscription, category Health, intent want
# LIDL: 31 transactions; Groceries (precision 1.00, 12 of 12 categorised) — matches 31, would change 19
rule lidl desc:LIDL => category Groceries
# PIZZERIA DA MARIO: 21 transactions; Food (precision 1.00, 8 of 8 categorised), want (precision 0.80, 4 of 5 with an intent) — matches 21, would change 19
rule pizzeria-da-mario 'desc:PIZZERIA DA MARIO' => category Food, intent want
# SPOTIFY AB: 22 transactions; +subscription (precision 1.00, 21 of 21 tagged), Entertainment (precision 1.00, 7 of 7 categorised), want (precision 1.00, 7 of 7 with an intent) — matches 22, would change 19
rule spotify-ab 'desc:SPOTIFY AB' => +subscription, category Entertainment, intent want
# STADTWERKE ENERGY: 22 transactions; Bills (precision 1.00, 12 of 12 categorised), need (precision 1.00, 6 of 6 with an intent) — matches 22, would change 19
rule stadtwerke-energy 'desc:STADTWERKE ENERGY' => category Bills, intent need
# AMAZON MKTPLACE: 19 transactions; Shopping (precision 1.00, 5 of 5 categorised), want (precision 1.00, 4 of 4 with an intent) — matches 19, would change 18
rule amazon-mktplace 'desc:AMAZON MKTPLACE' => category Shopping, intent want
# UBER *TRIP: 17 transactions; Transport (precision 1.00, 6 of 6 categorised), want (precision 0.86, 6 of 7 with an intent) — matches 17, would change 14
rule uber-trip 'desc:UBER *TRIP' => category Transport, intent want
# BLUE BOTTLE COFFEE: 15 transactions; +coffee (precision 1.00, 8 of 8 tagged), Coffee (precision 0.83, 5 of 6 categorised) — matches 15, would change 13
rule blue-bottle-coffee 'desc:BLUE BOTTLE COFFEE' => +coffee, category Coffee
# BVG TICKET: 15 transactions; Transport (precision 1.00, 6 of 6 categorised), need (precision 1.00, 3 of 3 with an intent) — matches 15, would change 13
rule bvg-ticket 'desc:BVG TICKET' => category Transport, intent need
# CAFE EINSTEIN: 14 transactions; +coffee (precision 1.00, 3 of 3 tagged) — matches 14, would change 11
rule cafe-einstein 'desc:CAFE EINSTEIN' => +coffee
# SUSHI YAMA: 13 transactions; +work-lunch (precision 1.00, 11 of 11 tagged), Food (precision 1.00, 4 of 4 categorised) — matches 13, would change 9
rule sushi-yama 'desc:SUSHI YAMA' => +work-lunch, category Food
# STEAM GAMES: 8 transactions; +games (precision 1.00, 4 of 4 tagged), Entertainment (precision 1.00, 4 of 4 categorised), want (precision 1.00, 3 of 3 with an intent) — matches 8, would change 8
rule steam-games 'desc:STEAM GAMES' => +games, category Entertainment, intent want
# WHOLE FOODS MARKET: 11 transactions; +groceries (precision 1.00, 3 of 3 tagged) — matches 11, would change 8
rule whole-foods-market 'desc:WHOLE FOODS MARKET' => +groceries
# BAR "ZUM GOLDENEN HIRSCH": 9 transactions; want (precision 1.00, 3 of 3 with an intent) — matches 9, would change 6
rule bar-zum-goldenen-hirsch 'desc:BAR "ZUM GOLDENEN HIRSCH"' => intent want
# STARBUCKS 1234: 35 transactions; +coffee (precision 1.00, 29 of 29 tagged) — matches 35, would change 6
rule starbucks-1234 'desc:STARBUCKS 1234' => +coffee
# CINEMAXX: 9 transactions; +date-night (precision 1.00, 4 of 4 tagged) — matches 9, would change 5
rule cinemaxx desc:CINEMAXX => +date-night
# ATM SPARKASSE BERLIN: 8 transactions; Other (precision 1.00, 4 of 4 categorised) — matches 8, would change 4
rule atm-sparkasse-berlin 'desc:ATM SPARKASSE BERLIN' => category Other
# STARBUCKS 0567: 19 transactions; +coffee (precision 1.00, 15 of 15 tagged) — matches 19, would change 4
rule starbucks-0567 'desc:STARBUCKS 0567' => +coffee
# SHELL TANKSTELLE: 7 transactions; +car (precision 1.00, 5 of 5 tagged) — matches 7, would change 2
rule shell-tankstelle 'desc:SHELL TANKSTELLE' => +car
# ZALANDO: 6 transactions; Shopping (precision 1.00, 4 of 4 categorised) — matches 6, would change 2
rule zalando desc:ZALANDO => category Shopping
# VAPIANO: 10 transactions; +work-lunch (precision 1.00, 9 of 9 tagged) — matches 10, would change 1
rule vapiano desc:VAPIANO => +work-lunch
$ suggest rules date:2026
# REWE MARKT: 20 transactions; Groceries (precision 1.00, 4 of 4 categorised) — matches 20, would change 16
rule rewe-markt 'desc:REWE MARKT' date:2026 => category Groceries
# STARBUCKS 1234: 18 transactions; +coffee (precision 1.00, 15 of 15 tagged), Coffee (precision 1.00, 4 of 4 categorised) — matches 18, would change 15
rule starbucks-1234 'desc:STARBUCKS 1234' date:2026 => +coffee, category Coffee
# LIDL: 14 transactions; Groceries (precision 1.00, 5 of 5 categorised) — matches 14, would change 9
rule lidl desc:LIDL date:2026 => category Groceries
# STADTWERKE ENERGY: 10 transactions; Bills (precision 1.00, 5 of 5 categorised), need (precision 1.00, 3 of 3 with an intent) — matches 10, would change 9
rule stadtwerke-energy 'desc:STADTWERKE ENERGY' date:2026 => category Bills, intent need
# EDEKA: 12 transactions; Groceries (precision 1.00, 4 of 4 categorised) — matches 12, would change 8
rule edeka desc:EDEKA date:2026 => category Groceries
# NETFLIX.COM: 10 transactions; +subscription (precision 1.00, 8 of 8 tagged), Entertainment (precision 1.00, 3 of 3 categorised) — matches 10, would change 8
rule netflix-com desc:NETFLIX.COM date:2026 => +subscription, category Entertainment
# GYM FLEX MONTHLY: 10 transactions; +subscription (precision 1.00, 6 of 6 tagged), Health (precision 1.00, 4 of 4 categorised) — matches 10, would change 7
rule gym-flex-monthly 'desc:GYM FLEX MONTHLY' date:2026 => +subscription, category Health
# SPOTIFY AB: 10 transactions; +subscription (precision 1.00, 9 of 9 tagged), Entertainment (precision 1.00, 3 of 3 categorised) — matches 10, would change 7
rule spotify-ab 'desc:SPOTIFY AB' date:2026 => +subscription, category Entertainment
# AMAZON MKTPLACE: 8 transactions; Shopping (precision 1.00, 3 of 3 categorised) — matches 8, would change 5
rule amazon-mktplace 'desc:AMAZON MKTPLACE' date:2026 => category Shopping
# SUSHI YAMA: 8 transactions; +work-lunch (precision 1.00, 6 of 6 tagged), Food (precision 1.00, 3 of 3 categorised) — matches 8, would change 5
rule sushi-yama 'desc:SUSHI YAMA' date:2026 => +work-lunch, category Food
# UBER *TRIP: 8 transactions; want (precision 1.00, 3 of 3 with an intent) — matches 8, would change 5
rule uber-trip 'desc:UBER *TRIP' date:2026 => intent want
# TELEKOM MOBILE: 10 transactions; Bills (precision 1.00, 6 of 6 categorised) — matches 10, would change 4
rule telekom-mobile 'desc:TELEKOM MOBILE' date:2026 => category Bills
# CINEMAXX: 7 transactions; +date-night (precision 1.00, 4 of 4 tagged) — matches 7, would change 3
rule cinemaxx desc:CINEMAXX date:2026 => +date-night
# SHELL TANKSTELLE: 5 transactions; +car (precision 1.00, 4 of 4 tagged) — matches 5, would change 1
rule shell-tankstelle 'desc:SHELL TANKSTELLE' date:2026 => +car
# STEAM GAMES: 4 transactions; +games (precision 1.00, 3 of 3 tagged) — matches 4, would change 1
rule steam-games 'desc:STEAM GAMES' date:2026 => +games
$ suggest rules tag:none
# REWE MARKT: 39 transactions; Groceries (precision 1.00, 11 of 11 categorised), need (precision 1.00, 3 of 3 with an intent) — matches 39, would change 38
rule rewe-markt 'desc:REWE MARKT' tag:none => category Groceries, intent need
# TELEKOM MOBILE: 22 transactions; Bills (precision 1.00, 8 of 8 categorised), need (precision 1.00, 3 of 3 with an intent) — matches 22, would change 22
rule telekom-mobile 'desc:TELEKOM MOBILE' tag:none => category Bills, intent need
# EDEKA: 21 transactions; Groceries (precision 1.00, 7 of 7 categorised), need (precision 1.00, 3 of 3 with an intent) — matches 21, would change 19
rule edeka desc:EDEKA tag:none => category Groceries, intent need
# STADTWERKE ENERGY: 22 transactions; Bills (precision 1.00, 12 of 12 categorised), need (precision 1.00, 6 of 6 with an intent) — matches 22, would change 19
rule stadtwerke-energy 'desc:STADTWERKE ENERGY' tag:none => category Bills, intent need
# LIDL: 29 transactions; Groceries (precision 1.00, 12 of 12 categorised) — matches 29, would change 17
rule lidl desc:LIDL tag:none => category Groceries
# AMAZON MKTPLACE: 17 transactions; Shopping (precision 1.00, 4 of 4 categorised), want (precision 1.00, 4 of 4 with an intent) — matches 17, would change 16
rule amazon-mktplace 'desc:AMAZON MKTPLACE' tag:none => category Shopping, intent want
# PIZZERIA DA MARIO: 16 transactions; Food (precision 1.00, 7 of 7 categorised), want (precision 1.00, 4 of 4 with an intent) — matches 16, would change 14
rule pizzeria-da-mario 'desc:PIZZERIA DA MARIO' tag:none => category Food, intent want
# BVG TICKET: 15 transactions; Transport (precision 1.00, 6 of 6 categorised), need (precision 1.00, 3 of 3 with an intent) — matches 15, would change 13
rule bvg-ticket 'desc:BVG TICKET' tag:none => category Transport, intent need
# UBER *TRIP: 14 transactions; Transport (precision 1.00, 5 of 5 categorised), want (precision 1.00, 5 of 5 with an intent) — matches 14, would change 11
rule uber-trip 'desc:UBER *TRIP' tag:none => category Transport, intent want
# GYM FLEX MONTHLY: 11 transactions; Health (precision 1.00, 3 of 3 categorised) — matches 11, would change 8
rule gym-flex-monthly 'desc:GYM FLEX MONTHLY' tag:none => category Health
# ATM SPARKASSE BERLIN: 8 transactions; Other (precision 1.00, 4 of 4 categorised) — matches 8, would change 4
rule atm-sparkasse-berlin 'desc:ATM SPARKASSE BERLIN' tag:none => category Other
# BLUE BOTTLE COFFEE: 7 transactions; Coffee (precision 1.00, 3 of 3 categorised) — matches 7, would change 4
rule blue-bottle-coffee 'desc:BLUE BOTTLE COFFEE' tag:none => category Coffee
$ rule netflix-com desc:NETFLIX.COM => +subscription
defined rule netflix-com
$ suggest rules netflix
# NETFLIX.COM: 22 transactions; +subscription (precision 1.00, 18 of 18 tagged), Entertainment (precision 1.00, 11 of 11 categorised), want (precision 1.00, 6 of 6 with an intent) — matches 22, would change 21
rule netflix-com-2 desc:NETFLIX.COM netflix => +subscription, category Entertainment, intent want
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
category           230       0.50    146     63.5%  95.2%
category           230       0.60    145     63.0%  95.9%
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
most common category mistakes (any confidence): Food for Coffee ×6, Groceries for Health ×1
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
  ID  DATE        MERCHANT            AMOUNT  CHANGE
   3  2025-01-04  EDEKA           -40.65 EUR  intent none → need
   5  2025-01-06  TELEKOM MOBILE  -29.99 EUR  intent none → need
$ apply
apply suggestions [intent 316]: 316 transactions changed
$ history
   #  COMMAND      TRANSACTIONS
   0  (as opened)                saved
>  1  apply                 316
$ undo
undid: apply  [apply suggestions [intent 316] (316 transactions)]
