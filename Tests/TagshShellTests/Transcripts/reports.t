# Reports: every shape of summary, and chart.
$ open demo.csv
opened demo.csv: 542 transactions
$ summary cat:Transfer,Shopping
CATEGORY  COUNT            IN            OUT            NET
Shopping     12     84.94 EUR    -844.51 EUR    -759.57 EUR  █████████▏░
Transfer      5  1,500.00 EUR  -2,000.00 EUR    -500.00 EUR  █████████████████████▊░░░░░░░░░░░░░░░░
total        17  1,584.94 EUR  -2,844.51 EUR  -1,259.57 EUR
$ ls cat:Transfer
 ID  DATE        MERCHANT                       AMOUNT  I  CATEGORY  TAGS  NOTE
 72  2025-03-28  TRANSFER TO SAVINGS       -500.00 EUR     Transfer
 73  2025-03-28  TRANSFER FROM CHECKING     500.00 EUR     Transfer
297  2025-12-29  TRANSFER TO SAVINGS     -1,000.00 EUR     Transfer        year-end top-up
298  2025-12-29  TRANSFER FROM CHECKING   1,000.00 EUR     Transfer
471  2026-07-28  TRANSFER TO SAVINGS       -500.00 EUR     Transfer
(5 transactions)
$ summary date:2025q1..2025q3 by quarter
QUARTER  COUNT             IN             OUT            NET
2025-Q1     76  10,100.00 EUR   -6,483.11 EUR   3,616.89 EUR  ██████████████▌░░░░░░░░░░░░░░░░░░░░░░
2025-Q2     85   9,659.95 EUR   -6,809.77 EUR   2,850.18 EUR  ███████████████▎░░░░░░░░░░░░░░░░░░░░░
2025-Q3     69   9,624.99 EUR   -5,709.99 EUR   3,915.00 EUR  ████████████▊░░░░░░░░░░░░░░░░░░░░░
total      230  29,384.94 EUR  -19,002.87 EUR  10,382.07 EUR
$ summary date:2025-03 by week
WEEK      COUNT            IN            OUT            NET
2025-W09      1                   -50.60 EUR     -50.60 EUR  ▍
2025-W10      6                -1,301.23 EUR  -1,301.23 EUR  ██████████▊
2025-W11      6                  -361.91 EUR    -361.91 EUR  ███
2025-W12      4                  -134.95 EUR    -134.95 EUR  █▏
2025-W13      9  3,700.00 EUR    -884.55 EUR   2,815.45 EUR  ███████▍░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░
total        26  3,700.00 EUR  -2,733.24 EUR     966.76 EUR
$ summary date:2025-03-01..2025-03-05 by day
DAY         COUNT  IN            OUT            NET
2025-03-01      1         -50.60 EUR     -50.60 EUR  █▊
2025-03-03      2      -1,179.90 EUR  -1,179.90 EUR  ████████████████████████████████████████
2025-03-05      1         -29.99 EUR     -29.99 EUR  █
total           4      -1,260.49 EUR  -1,260.49 EUR
$ ls date:2025-03-03
ID  DATE        MERCHANT                            AMOUNT  I  CATEGORY  TAGS
52  2025-03-03  HAUSVERWALTUNG MUELLER RENT  -1,150.00 EUR  N  Housing
53  2025-03-03  GYM FLEX MONTHLY                -29.90 EUR  W  Health    subscription
(2 transactions)
$ summary by year
YEAR   COUNT             IN             OUT            NET
2025     298  39,984.94 EUR  -25,263.47 EUR  14,721.47 EUR  ███████████████▏░░░░░░░░░░░░░░░░░░░░░░░
2026     244  34,523.99 EUR  -20,607.52 EUR  13,916.47 EUR  ████████████▍░░░░░░░░░░░░░░░░░░░░
total    542  74,508.93 EUR  -45,870.99 EUR  28,637.94 EUR
$ summary by account
ACCOUNT      COUNT             IN             OUT            NET
Checking       281  72,400.00 EUR  -38,595.33 EUR  33,804.67 EUR  ███████████▌░░░░░░░░░░░░░░░░░░░░░
Credit Card    258     108.93 EUR   -7,275.66 EUR  -7,166.73 EUR  ██▏░
Savings          3   2,000.00 EUR                   2,000.00 EUR  ░
total          542  74,508.93 EUR  -45,870.99 EUR  28,637.94 EUR
$ summary tag:trip by tag --depth 1
TAG    COUNT  IN            OUT            NET
trip      22      -2,301.20 EUR  -2,301.20 EUR  ████████████████████████████████████████
total     22      -2,301.20 EUR  -2,301.20 EUR
$ summary tag:trip by tag --depth 2
TAG          COUNT  IN            OUT            NET
trip/rome       11      -1,286.40 EUR  -1,286.40 EUR  ████████████████████████████████████████
trip/lisbon     11      -1,014.80 EUR  -1,014.80 EUR  ███████████████████████████████▌
total           22      -2,301.20 EUR  -2,301.20 EUR
$ summary by tag --limit 3
TAG          COUNT             IN             OUT            NET
(none)         352  74,400.00 EUR  -38,968.09 EUR  35,431.91 EUR  ███████████▍░░░░░░░░░░░░░░░░░░░░░
trip/rome       11                  -1,286.40 EUR  -1,286.40 EUR  ▍
trip/lisbon     11                  -1,014.80 EUR  -1,014.80 EUR  ▎
(12 others)    168     108.93 EUR   -4,601.70 EUR  -4,492.77 EUR  █▍░
total          542  74,508.93 EUR  -45,870.99 EUR  28,637.94 EUR
$ summary by tag --limit 3 --json
{"tag": null, "count": 352, "inflow": {"EUR": "74400.00"}, "outflow": {"EUR": "-38968.09"}, "total": {"EUR": "35431.91"}}
{"tag": "trip/rome", "count": 11, "inflow": {}, "outflow": {"EUR": "-1286.40"}, "total": {"EUR": "-1286.40"}}
{"tag": "trip/lisbon", "count": 11, "inflow": {}, "outflow": {"EUR": "-1014.80"}, "total": {"EUR": "-1014.80"}}
{"tag": null, "others": 12, "count": 168, "inflow": {"EUR": "108.93"}, "outflow": {"EUR": "-4601.70"}, "total": {"EUR": "-4492.77"}}
$ summary by month --limit 2
MONTH         COUNT             IN             OUT            NET
(20 earlier)    496  67,708.93 EUR  -42,183.04 EUR  25,525.89 EUR  ████████████▎░░░░░░░░░░░░░░░░░░░
2026-09          25   3,400.00 EUR   -1,977.59 EUR   1,422.41 EUR  ▋░
2026-10          21   3,400.00 EUR   -1,710.36 EUR   1,689.64 EUR  ▌░
total           542  74,508.93 EUR  -45,870.99 EUR  28,637.94 EUR
$ summary by month --limit 2 --csv
month,count,currency,inflow,outflow,net
(20 earlier),496,EUR,67708.93,-42183.04,25525.89
2026-09,25,EUR,3400.00,-1977.59,1422.41
2026-10,21,EUR,3400.00,-1710.36,1689.64
$ set width 60
$ summary by quarter --trend
QUARTER  COUNT            NET  TREND
2025-Q1     76   3,616.89 EUR  ██▆▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁
2025-Q2     85   2,850.18 EUR  ▁▁▁▃██▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁
2025-Q3     69   3,915.00 EUR  ▁▁▁▁▁▁██▆▁▁▁▁▁▁▁▁▁▁▁▁▁
2025-Q4     68   4,339.40 EUR  ▁▁▁▁▁▁▁▁▁█▇█▁▁▁▁▁▁▁▁▁▁
2026-Q1     77   3,402.00 EUR  ▁▁▁▁▁▁▁▁▁▁▁▁█▁█▁▁▁▁▁▁▁
2026-Q2     76   4,296.85 EUR  ▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▆▇█▁▁▁▁
2026-Q3     70   4,527.98 EUR  ▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁███▁
2026-Q4     21   1,689.64 EUR  ▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁█
total      542  28,637.94 EUR  ▆▇▅▃▆▆▇▇▆▇▆██▁█▆▇███▇█
$ summary by month --limit 2
MONTH         COUNT            NET
(20 earlier)    496  25,525.89 EUR  ████████▉░░░░░░░░░░░░░░
2026-09          25   1,422.41 EUR  ▍░
2026-10          21   1,689.64 EUR  ▍░
total           542  28,637.94 EUR
$ summary by intent by month
INTENT (EUR)  (20 earlier)    2026-09    2026-10       TOTAL
(none)           54,567.90   2,705.90   2,941.24   60,215.04
need            -24,925.39  -1,164.49  -1,245.60  -27,335.48
want             -3,197.07    -119.00      -6.00   -3,322.07
unexpected         -726.30                           -726.30
culture            -193.25                           -193.25
total            25,525.89   1,422.41   1,689.64   28,637.94
$ set width 100
$ summary tag:coffee by merchant --limit 2 --csv
merchant,count,currency,inflow,outflow,net
STARBUCKS 1234,29,EUR,0.00,-123.20,-123.20
STARBUCKS 0567,15,EUR,0.00,-65.40,-65.40
(2 others),11,EUR,0.00,-59.50,-59.50
$ summary -cat:Income by category --trend --limit 4
CATEGORY    COUNT            IN             OUT             NET  TREND
Housing        22                -25,300.00 EUR  -25,300.00 EUR  ██████████████████████  ██████████
(none)        312    523.99 EUR   -9,762.28 EUR   -9,238.29 EUR  ▅▃▄▅▄▅▅▃▄▅▆▃▃▇▄█▅▄▃▆▅▄  ███▉░
Travel          4                 -1,798.20 EUR   -1,798.20 EUR  ▁▁▃▅▁▁▁▁▁▁▁▁▁█▁▁▁▁▁▁▁▁  ▊
Groceries      34                 -1,554.82 EUR   -1,554.82 EUR  ▂▁▁▂▆▅▁█▁▂▃▂▁▁▂▁▃▂▂▂▄▂  ▋
(9 others)    148  1,584.94 EUR   -7,455.69 EUR   -5,870.75 EUR  ▃▄▅▆▄▂▂▁▆▁▁▂▃▅▂▂▃▂█▁▃▁  ███░
total         520  2,108.93 EUR  -45,870.99 EUR  -43,762.06 EUR  ▅▅▆▇▅▅▅▅▆▅▅▄▅█▅▆▅▅▅▅▅▅
$ summary by intent by year
INTENT (EUR)        2025        2026       TOTAL
(none)         32,362.49   27,852.55   60,215.04
need          -15,284.48  -12,051.00  -27,335.48
want           -1,783.09   -1,538.98   -3,322.07
unexpected       -486.30     -240.00     -726.30
culture           -87.15     -106.10     -193.25
total          14,721.47   13,916.47   28,637.94
$ summary tag:trip by tag by month
TAG (EUR)    2025-03  2025-04  2025-05  2026-02  2026-04      TOTAL
trip/rome                               -996.80  -289.60  -1,286.40
trip/lisbon  -289.40  -512.00  -213.40                    -1,014.80
total        -289.40  -512.00  -213.40  -996.80  -289.60  -2,301.20
$ summary by category by month --limit 3
CATEGORY (EUR)  (17 earlier)    2026-06    2026-07    2026-08    2026-09    2026-10       TOTAL
Income             55,400.00   3,400.00   3,400.00   3,400.00   3,400.00   3,400.00   72,400.00
Housing           -19,550.00  -1,150.00  -1,150.00  -1,150.00  -1,150.00  -1,150.00  -25,300.00
(none)             -7,671.98    -357.07     226.79    -567.68    -446.35    -422.00   -9,238.29
(11 others)        -7,449.92    -200.71    -916.85    -136.69    -381.24    -138.36   -9,223.77
total              20,728.10   1,692.22   1,559.94   1,545.63   1,422.41   1,689.64   28,637.94
$ summary tag:trip by tag by account --csv
tag,account,count,currency,inflow,outflow,net
trip/rome,Credit Card,11,EUR,0.00,-1286.40,-1286.40
trip/lisbon,Credit Card,11,EUR,0.00,-1014.80,-1014.80
$ summary tag:trip by tag by account --json
{"tag": "trip/rome", "account": "Credit Card", "count": 11, "inflow": {}, "outflow": {"EUR": "-1286.40"}, "total": {"EUR": "-1286.40"}}
{"tag": "trip/lisbon", "account": "Credit Card", "count": 11, "inflow": {}, "outflow": {"EUR": "-1014.80"}, "total": {"EUR": "-1014.80"}}
$ summary by category by tag by month
error: summary takes at most two dimensions
  summary by category by tag by month
                             ^^
$ summary by month by month
error: 'by month' twice
  summary by month by month
                      ^^^^^
$ summary by tag --depth 0
error: --depth takes a whole number from 1 to 99
  summary by tag --depth 0
                         ^
$ summary by month --depth 1
error: --depth rolls up tags and categories: use it with `by tag` or `by category`
  summary by month --depth 1
                           ^
$ merchants tag:coffee --limit 2
MERCHANT        COUNT        TOTAL
STARBUCKS 1234     29  -123.20 EUR
STARBUCKS 0567     15   -65.40 EUR
(2 others)         11   -59.50 EUR
$ merchants tag:coffee --limit 2 --json
{"merchant": "STARBUCKS 1234", "count": 29, "total": {"EUR": "-123.20"}}
{"merchant": "STARBUCKS 0567", "count": 15, "total": {"EUR": "-65.40"}}
{"merchant": null, "others": 2, "count": 11, "total": {"EUR": "-59.50"}}
$ tags trip --csv
tag,count
trip/lisbon,11
trip/rome,11
$ rules --json
$ rule coffee starbucks => +coffee, category Coffee
defined rule coffee
$ rule odd "desc:/x\"y/" => note "hi, there"
defined rule odd
$ rules --json
{"rule": "coffee", "matches": 54, "query": "starbucks", "actions": ["+coffee", "category Coffee"]}
{"rule": "odd", "matches": 0, "query": "\"desc:/x\\\"y/\"", "actions": ["note 'hi, there'"]}
$ rules --csv
rule,matches,query,actions
coffee,54,starbucks,"+coffee, category Coffee"
odd,0,"""desc:/x\""y/""","note 'hi, there'"
$ intents --csv
intent,count,currency,total
need,62,EUR,-27335.48
want,53,EUR,-3322.07
culture,7,EUR,-193.25
unexpected,2,EUR,-726.30
,418,EUR,60215.04
$ ls tag:trip/lisbon --limit 3 --csv
Id,Date,Description,Amount,Currency,Account,Category,Tags,Notes,Intent
76,2025-03-30,LUFTHANSA,-289.40,EUR,Credit Card,Travel,trip/lisbon,BER-LIS return,want
78,2025-04-02,AIRBNB,-512.00,EUR,Credit Card,Travel,trip/lisbon,6 nights in Alfama,want
122,2025-05-16,UBER *TRIP,-18.70,EUR,Credit Card,Transport,trip/lisbon,,need
$ chart date:2025
MONTH           TOTAL
2025-01  1,264.33 EUR  ░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░
2025-02  1,385.80 EUR  ░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░
2025-03    966.76 EUR  ░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░
2025-04    423.22 EUR  ░░░░░░░░░░░░░░░
2025-05  1,169.37 EUR  ░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░
2025-06  1,257.59 EUR  ░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░
2025-07  1,460.64 EUR  ░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░
2025-08  1,375.24 EUR  ░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░
2025-09  1,079.12 EUR  ░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░
2025-10  1,445.23 EUR  ░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░
2025-11  1,249.47 EUR  ░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░
2025-12  1,644.70 EUR  ░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░
$ chart cat:Groceries by quarter
QUARTER        TOTAL
2025-Q1   -57.07 EUR  ████████▏
2025-Q2  -421.02 EUR  ████████████████████████████████████████████████████████████
2025-Q3  -308.46 EUR  ████████████████████████████████████████████
2025-Q4  -212.33 EUR  ██████████████████████████████▎
2026-Q1   -77.45 EUR  ███████████
2026-Q2  -156.78 EUR  ██████████████████████▍
2026-Q3  -254.23 EUR  ████████████████████████████████████▎
2026-Q4   -67.48 EUR  █████████▋
$ chart date:2025-03 by week --out
WEEK              TOTAL
2025-W09     -50.60 EUR  ██▍
2025-W10  -1,301.23 EUR  ████████████████████████████████████████████████████████████
2025-W11    -361.91 EUR  ████████████████▊
2025-W12    -134.95 EUR  ██████▎
2025-W13    -884.55 EUR  ████████████████████████████████████████▊
$ chart tag:trip by quarter
QUARTER        TOTAL
2025-Q1  -289.40 EUR  █████████████████▍
2025-Q2  -725.40 EUR  ███████████████████████████████████████████▋
2025-Q3     0.00 EUR
2025-Q4     0.00 EUR
2026-Q1  -996.80 EUR  ████████████████████████████████████████████████████████████
2026-Q2  -289.60 EUR  █████████████████▍
$ chart tag:trip --csv
month,count,currency,total
2025-03,1,EUR,-289.40
2025-04,1,EUR,-512.00
2025-05,9,EUR,-213.40
2025-06,0,EUR,0.00
2025-07,0,EUR,0.00
2025-08,0,EUR,0.00
2025-09,0,EUR,0.00
2025-10,0,EUR,0.00
2025-11,0,EUR,0.00
2025-12,0,EUR,0.00
2026-01,0,EUR,0.00
2026-02,2,EUR,-996.80
2026-03,0,EUR,0.00
2026-04,9,EUR,-289.60
$ chart by year --in --json
{"year": "2025", "count": 16, "total": {"EUR": "39984.94"}}
{"year": "2026", "count": 12, "total": {"EUR": "34523.99"}}
$ chart by category
error: cannot chart by 'category': use year, quarter, month, week, day
  chart by category
           ^^^^^^^^
$ chart --in --out
error: give --in or --out, not both
$ chart nothing-matches-this
(no transactions)
$ tag 1 +trip/rome +trip/lisbon +Trip
tag +trip/rome +trip/lisbon +Trip: 1 transaction changed
$ summary id:1..2 by tag
TAG          COUNT  IN            OUT            NET
trip/lisbon      1      -1,150.00 EUR  -1,150.00 EUR  ████████████████████████████████████████
trip/rome        1      -1,150.00 EUR  -1,150.00 EUR  ████████████████████████████████████████
Trip             1      -1,150.00 EUR  -1,150.00 EUR  ████████████████████████████████████████
(none)           1         -29.90 EUR     -29.90 EUR  █
total            2      -1,179.90 EUR  -1,179.90 EUR
$ summary id:1..2 by tag --depth 1
TAG     COUNT  IN            OUT            NET
trip        1      -1,150.00 EUR  -1,150.00 EUR  ████████████████████████████████████████
(none)      1         -29.90 EUR     -29.90 EUR  █
total       2      -1,179.90 EUR  -1,179.90 EUR
$ summary id:1..2 by tag --depth 1 by intent
TAG (EUR)       need    want      TOTAL
trip       -1,150.00          -1,150.00
(none)                -29.90     -29.90
total      -1,150.00  -29.90  -1,179.90
$ open edge.journal
discarded the unsaved changes to demo.csv
opened edge.journal: 7 transactions
$ summary
CATEGORY     COUNT         IN                     OUT                    NET
Salary           1  $3,000.00                                      $3,000.00  ░░░░░░░░░░░░░░░░░░░░░
Rent             1                         -$1,200.00             -$1,200.00  ████████▍
(none)           3  $1,120.00                                      $1,120.00  ░░░░░░░░
Food:Coffee      1                             -$4.75                 -$4.75  ▏
Books            1                         -12.50 EUR             -12.50 EUR
total            7  $4,120.00  -$1,204.75, -12.50 EUR  $2,915.25, -12.50 EUR
$ summary --depth 1
CATEGORY  COUNT         IN                     OUT                    NET
Salary        1  $3,000.00                                      $3,000.00  ░░░░░░░░░░░░░░░░░░░░░░░░
Rent          1                         -$1,200.00             -$1,200.00  █████████▋
(none)        3  $1,120.00                                      $1,120.00  ░░░░░░░░░
Food          1                             -$4.75                 -$4.75  ▏
Books         1                         -12.50 EUR             -12.50 EUR
total         7  $4,120.00  -$1,204.75, -12.50 EUR  $2,915.25, -12.50 EUR
$ summary by tag --depth 1 --csv
tag,count,currency,inflow,outflow,net
,4,$,4100.00,-1200.00,2900.00
,1,EUR,0.00,-12.50,-12.50
groceries,1,$,20.00,0.00,20.00
cash,1,$,20.00,0.00,20.00
coffee,1,$,0.00,-4.75,-4.75
place,1,$,0.00,-4.75,-4.75
$ chart --json
{"month": "2024-01", "count": 7, "total": {"$": "2915.25", "EUR": "-12.50"}}
$ chart by month by year
error: chart takes one period
  chart by month by year
                 ^^
