# Exploring the demo ledger: every exploring command and its options.
$ open demo.csv
opened demo.csv: 542 transactions
$ count @ -tag:coffee
error: there is no selection yet: `ls` or `select` sets @
  count @ -tag:coffee
        ^
$ info
file          demo.csv
format        csv, delimiter ',', LF, dates year-month-day
size          31721 bytes
transactions  542
dates         2025-01-01 .. 2026-10-31
merchants     56
accounts      Checking, Credit Card, Savings
currencies    EUR
categories    12 default, 1 custom
tags          14
annotated     374 of 542
unsaved       no
$ ls --limit 5
ID  DATE        MERCHANT                            AMOUNT  I  CATEGORY  TAGS
 1  2025-01-01  HAUSVERWALTUNG MUELLER RENT  -1,150.00 EUR  N  Housing
 2  2025-01-03  GYM FLEX MONTHLY                -29.90 EUR  W
 3  2025-01-04  EDEKA                           -40.65 EUR
 4  2025-01-05  SHELL TANKSTELLE                -59.70 EUR  N
 5  2025-01-06  TELEKOM MOBILE                  -29.99 EUR     Bills
(5 of 542 transactions)
$ ls starbucks --limit 3 --sort amount
 ID  DATE        MERCHANT           AMOUNT  I  CATEGORY  TAGS
 71  2025-03-28  STARBUCKS 1234  -6.50 EUR     Food      coffee
213  2025-09-06  STARBUCKS 1234  -6.40 EUR               coffee
533  2026-10-12  STARBUCKS 1234  -6.00 EUR  W            coffee work
(3 of 54 transactions)
$ ls --sort merchant --limit 4
 ID  DATE        MERCHANT                AMOUNT  I  CATEGORY  TAGS
 25  2025-01-27  ACME GMBH SALARY  3,200.00 EUR     Income
 48  2025-02-27  ACME GMBH SALARY  3,200.00 EUR     Income
 69  2025-03-27  ACME GMBH SALARY  3,200.00 EUR     Income
101  2025-04-25  ACME GMBH SALARY  3,200.00 EUR     Income
(4 of 542 transactions)
$ ls tag:trip/rome --json
{"id": 345, "date": "2026-02-21", "merchant": "LUFTHANSA", "amount": "-312.80", "currency": "EUR", "account": "Credit Card", "intent": "want", "category": "Travel", "tags": ["trip/rome"], "note": "BER-FCO return"}
{"id": 347, "date": "2026-02-22", "merchant": "BOOKING.COM", "amount": "-684.00", "currency": "EUR", "account": "Credit Card", "intent": "want", "category": "Travel", "tags": ["trip/rome"], "note": "hotel near Campo de Fiori"}
{"id": 377, "date": "2026-04-02", "merchant": "ATAC ROMA", "amount": "-7.00", "currency": "EUR", "account": "Credit Card", "intent": "need", "category": "Transport", "tags": ["trip/rome"], "note": null}
{"id": 378, "date": "2026-04-02", "merchant": "TRATTORIA DA ENZO", "amount": "-54.20", "currency": "EUR", "account": "Credit Card", "intent": "want", "category": null, "tags": ["trip/rome"], "note": null}
{"id": 380, "date": "2026-04-03", "merchant": "MUSEI VATICANI", "amount": "-40.00", "currency": "EUR", "account": "Credit Card", "intent": "culture", "category": "Entertainment", "tags": ["trip/rome"], "note": null}
{"id": 381, "date": "2026-04-03", "merchant": "GELATERIA DEL TEATRO", "amount": "-6.50", "currency": "EUR", "account": "Credit Card", "intent": null, "category": "Food", "tags": ["trip/rome"], "note": null}
{"id": 382, "date": "2026-04-04", "merchant": "ROSCIOLI", "amount": "-78.00", "currency": "EUR", "account": "Credit Card", "intent": "want", "category": null, "tags": ["trip/rome"], "note": null}
{"id": 383, "date": "2026-04-05", "merchant": "COLOSSEO PARCO ARCHEOLOGICO", "amount": "-36.00", "currency": "EUR", "account": "Credit Card", "intent": "culture", "category": null, "tags": ["trip/rome"], "note": null}
{"id": 385, "date": "2026-04-06", "merchant": "SANT EUSTACHIO IL CAFFE", "amount": "-4.80", "currency": "EUR", "account": "Credit Card", "intent": null, "category": "Coffee", "tags": ["trip/rome"], "note": null}
{"id": 386, "date": "2026-04-07", "merchant": "TRATTORIA DA ENZO", "amount": "-49.10", "currency": "EUR", "account": "Credit Card", "intent": "want", "category": "Food", "tags": ["trip/rome"], "note": null}
{"id": 387, "date": "2026-04-08", "merchant": "ATAC ROMA", "amount": "-14.00", "currency": "EUR", "account": "Credit Card", "intent": "need", "category": "Transport", "tags": ["trip/rome"], "note": null}
$ ls --limit 2 --sort=date
ID  DATE        MERCHANT                            AMOUNT  I  CATEGORY  TAGS
 1  2025-01-01  HAUSVERWALTUNG MUELLER RENT  -1,150.00 EUR  N  Housing
 2  2025-01-03  GYM FLEX MONTHLY                -29.90 EUR  W
(2 of 542 transactions)
$ select tag:subscription
50 selected
$ count @
50
$ ls @ starbucks --limit 2
ID  DATE  MERCHANT  AMOUNT  I  CATEGORY  TAGS
(0 transactions)
$ ls 1-7
ID  DATE  MERCHANT  AMOUNT  I  CATEGORY  TAGS
(0 transactions)
hint: a bare word looks in the descriptions; `ls id:1..7` takes transactions by id
$ ls id:1..2
ID  DATE        MERCHANT                            AMOUNT  I  CATEGORY  TAGS
 1  2025-01-01  HAUSVERWALTUNG MUELLER RENT  -1,150.00 EUR  N  Housing
 2  2025-01-03  GYM FLEX MONTHLY                -29.90 EUR  W
(2 transactions)
$ select 9999
0 selected
hint: a bare word looks in the descriptions; `select id:9999` takes transactions by id
$ count
542
$ show 1
transaction 1
  date     2025-01-01
  merchant HAUSVERWALTUNG MUELLER RENT
  amount   -1,150.00 EUR
  account  Checking
  intent   need (N)
  category Housing
  tags     none
  note     none
  source   demo.csv:2
  columns
    Date         2025-01-01
    Description  HAUSVERWALTUNG MUELLER RENT
    Amount       -1150.00
    Currency     EUR
    Account      Checking
    Category     Housing
    Tags
    Notes
    Intent       need
$ show 7 --json
{"id": 7, "date": "2025-01-07", "merchant": "STARBUCKS 0567", "amount": "-3.80", "currency": "EUR", "account": "Credit Card", "intent": null, "category": null, "tags": ["coffee"], "note": null}
$ tags
TAG           COUNT
coffee           55
subscription     50
work-lunch       23
groceries        12
trip/lisbon      11
trip/rome        11
work              9
date-night        8
car               6
games             4
home              3
refund            3
clothes           2
tax               2
$ tags trip
TAG          COUNT
trip/lisbon     11
trip/rome       11
$ tags '/^w/'
TAG         COUNT
work-lunch     23
work            9
$ tags --json
{"tag": "coffee", "count": 55}
{"tag": "subscription", "count": 50}
{"tag": "work-lunch", "count": 23}
{"tag": "groceries", "count": 12}
{"tag": "trip/lisbon", "count": 11}
{"tag": "trip/rome", "count": 11}
{"tag": "work", "count": 9}
{"tag": "date-night", "count": 8}
{"tag": "car", "count": 6}
{"tag": "games", "count": 4}
{"tag": "home", "count": 3}
{"tag": "refund", "count": 3}
{"tag": "clothes", "count": 2}
{"tag": "tax", "count": 2}
$ merchants tag:coffee
MERCHANT            COUNT        TOTAL
STARBUCKS 1234         29  -123.20 EUR
STARBUCKS 0567         15   -65.40 EUR
BLUE BOTTLE COFFEE      8   -45.50 EUR
CAFE EINSTEIN           3   -14.00 EUR
$ merchants date:2026-10 --json
{"merchant": "LIDL", "count": 3, "total": {"EUR": "-176.62"}}
{"merchant": "REWE MARKT", "count": 2, "total": {"EUR": "-86.01"}}
{"merchant": "STARBUCKS 1234", "count": 2, "total": {"EUR": "-9.20"}}
{"merchant": "ACME GMBH SALARY", "count": 1, "total": {"EUR": "3400.00"}}
{"merchant": "AMAZON MKTPLACE", "count": 1, "total": {"EUR": "-13.20"}}
{"merchant": "BLUE BOTTLE COFFEE", "count": 1, "total": {"EUR": "-4.60"}}
{"merchant": "BÄCKEREI KAMPS", "count": 1, "total": {"EUR": "-5.10"}}
{"merchant": "EDEKA", "count": 1, "total": {"EUR": "-24.51"}}
{"merchant": "GYM FLEX MONTHLY", "count": 1, "total": {"EUR": "-29.90"}}
{"merchant": "HAUSVERWALTUNG MUELLER RENT", "count": 1, "total": {"EUR": "-1150.00"}}
{"merchant": "NETFLIX.COM", "count": 1, "total": {"EUR": "-15.99"}}
{"merchant": "SHELL TANKSTELLE", "count": 1, "total": {"EUR": "-54.35"}}
{"merchant": "SPOTIFY AB", "count": 1, "total": {"EUR": "-10.99"}}
{"merchant": "STADTWERKE ENERGY", "count": 1, "total": {"EUR": "-84.00"}}
{"merchant": "STARBUCKS 0567", "count": 1, "total": {"EUR": "-4.30"}}
{"merchant": "SUSHI YAMA", "count": 1, "total": {"EUR": "-11.60"}}
{"merchant": "TELEKOM MOBILE", "count": 1, "total": {"EUR": "-29.99"}}
$ categories
CATEGORY       KIND     COUNT  COLOR
Food           default     29  orange
Groceries      default     34  green
Transport      default     17  blue
Shopping       default     12  magenta
Bills          default     21  yellow
Housing        default     22  brown
Health         default     16  bright-green
Entertainment  default     27  purple
Travel         default      4  cyan
Income         default     22  bright-green
Transfer       default      5  gray
Other          default      4  white
Coffee         custom      17
(none)                    312
$ intents
I  INTENT      COUNT           TOTAL
N  need           62  -27,335.48 EUR
W  want           53   -3,322.07 EUR
C  culture         7     -193.25 EUR
U  unexpected      2     -726.30 EUR
   (none)        418   60,215.04 EUR
$ intents --json
{"intent": "need", "count": 62, "total": {"EUR": "-27335.48"}}
{"intent": "want", "count": 53, "total": {"EUR": "-3322.07"}}
{"intent": "culture", "count": 7, "total": {"EUR": "-193.25"}}
{"intent": "unexpected", "count": 2, "total": {"EUR": "-726.30"}}
{"intent": null, "count": 418, "total": {"EUR": "60215.04"}}
$ summary
CATEGORY       COUNT             IN             OUT             NET
Income            22  72,400.00 EUR                   72,400.00 EUR  ░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░
Housing           22                 -25,300.00 EUR  -25,300.00 EUR  ██████████▌
(none)           312     523.99 EUR   -9,762.28 EUR   -9,238.29 EUR  ████░
Travel             4                  -1,798.20 EUR   -1,798.20 EUR  ▊
Groceries         34                  -1,554.82 EUR   -1,554.82 EUR  ▋
Bills             21                  -1,549.92 EUR   -1,549.92 EUR  ▋
Transport         17                    -762.19 EUR     -762.19 EUR  ▍
Shopping          12      84.94 EUR     -844.51 EUR     -759.57 EUR  ▍░
Food              29                    -678.19 EUR     -678.19 EUR  ▎
Health            16                    -647.08 EUR     -647.08 EUR  ▎
Transfer           5   1,500.00 EUR   -2,000.00 EUR     -500.00 EUR  ▉░
Entertainment     27                    -491.50 EUR     -491.50 EUR  ▎
Other              4                    -400.00 EUR     -400.00 EUR  ▏
Coffee            17                     -82.30 EUR      -82.30 EUR  ▏
total            542  74,508.93 EUR  -45,870.99 EUR   28,637.94 EUR
$ summary tag:coffee by merchant
MERCHANT            COUNT  IN          OUT          NET
STARBUCKS 1234         29      -123.20 EUR  -123.20 EUR  ████████████████████████████████████████
STARBUCKS 0567         15       -65.40 EUR   -65.40 EUR  █████████████████████▎
BLUE BOTTLE COFFEE      8       -45.50 EUR   -45.50 EUR  ██████████████▊
CAFE EINSTEIN           3       -14.00 EUR   -14.00 EUR  ████▌
total                  55      -248.10 EUR  -248.10 EUR
$ summary date:2025 by month
MONTH    COUNT             IN             OUT            NET
2025-01     25   3,200.00 EUR   -1,935.67 EUR   1,264.33 EUR  ██████████▋░░░░░░░░░░░░░░░░░
2025-02     25   3,200.00 EUR   -1,814.20 EUR   1,385.80 EUR  █████████▉░░░░░░░░░░░░░░░░░
2025-03     26   3,700.00 EUR   -2,733.24 EUR     966.76 EUR  ███████████████░░░░░░░░░░░░░░░░░░░░
2025-04     31   3,259.95 EUR   -2,836.73 EUR     423.22 EUR  ███████████████▌░░░░░░░░░░░░░░░░░
2025-05     32   3,200.00 EUR   -2,030.63 EUR   1,169.37 EUR  ███████████▏░░░░░░░░░░░░░░░░░
2025-06     22   3,200.00 EUR   -1,942.41 EUR   1,257.59 EUR  ██████████▋░░░░░░░░░░░░░░░░░
2025-07     21   3,200.00 EUR   -1,739.36 EUR   1,460.64 EUR  █████████▌░░░░░░░░░░░░░░░░░
2025-08     25   3,200.00 EUR   -1,824.76 EUR   1,375.24 EUR  ██████████░░░░░░░░░░░░░░░░░░
2025-09     23   3,224.99 EUR   -2,145.87 EUR   1,079.12 EUR  ███████████▊░░░░░░░░░░░░░░░░░
2025-10     26   3,200.00 EUR   -1,754.77 EUR   1,445.23 EUR  █████████▋░░░░░░░░░░░░░░░░░
2025-11     24   3,200.00 EUR   -1,950.53 EUR   1,249.47 EUR  ██████████▋░░░░░░░░░░░░░░░░░
2025-12     18   4,200.00 EUR   -2,555.30 EUR   1,644.70 EUR  ██████████████░░░░░░░░░░░░░░░░░░░░░░░
total      298  39,984.94 EUR  -25,263.47 EUR  14,721.47 EUR
$ summary by intent
INTENT      COUNT             IN             OUT             NET
(none)        418  74,508.93 EUR  -14,293.89 EUR   60,215.04 EUR  █████▎░░░░░░░░░░░░░░░░░░░░░░░░░░░
need           62                 -27,335.48 EUR  -27,335.48 EUR  ██████████▏
want           53                  -3,322.07 EUR   -3,322.07 EUR  █▎
unexpected      2                    -726.30 EUR     -726.30 EUR  ▎
culture         7                    -193.25 EUR     -193.25 EUR  ▏
total         542  74,508.93 EUR  -45,870.99 EUR   28,637.94 EUR
$ summary by tag tag:trip
TAG          COUNT  IN            OUT            NET
trip/rome       11      -1,286.40 EUR  -1,286.40 EUR  ████████████████████████████████████████
trip/lisbon     11      -1,014.80 EUR  -1,014.80 EUR  ███████████████████████████████▌
total           22      -2,301.20 EUR  -2,301.20 EUR
$ summary cat:Housing by month --json
{"month": "2025-01", "count": 1, "inflow": {}, "outflow": {"EUR": "-1150.00"}, "total": {"EUR": "-1150.00"}}
{"month": "2025-02", "count": 1, "inflow": {}, "outflow": {"EUR": "-1150.00"}, "total": {"EUR": "-1150.00"}}
{"month": "2025-03", "count": 1, "inflow": {}, "outflow": {"EUR": "-1150.00"}, "total": {"EUR": "-1150.00"}}
{"month": "2025-04", "count": 1, "inflow": {}, "outflow": {"EUR": "-1150.00"}, "total": {"EUR": "-1150.00"}}
{"month": "2025-05", "count": 1, "inflow": {}, "outflow": {"EUR": "-1150.00"}, "total": {"EUR": "-1150.00"}}
{"month": "2025-06", "count": 1, "inflow": {}, "outflow": {"EUR": "-1150.00"}, "total": {"EUR": "-1150.00"}}
{"month": "2025-07", "count": 1, "inflow": {}, "outflow": {"EUR": "-1150.00"}, "total": {"EUR": "-1150.00"}}
{"month": "2025-08", "count": 1, "inflow": {}, "outflow": {"EUR": "-1150.00"}, "total": {"EUR": "-1150.00"}}
{"month": "2025-09", "count": 1, "inflow": {}, "outflow": {"EUR": "-1150.00"}, "total": {"EUR": "-1150.00"}}
{"month": "2025-10", "count": 1, "inflow": {}, "outflow": {"EUR": "-1150.00"}, "total": {"EUR": "-1150.00"}}
{"month": "2025-11", "count": 1, "inflow": {}, "outflow": {"EUR": "-1150.00"}, "total": {"EUR": "-1150.00"}}
{"month": "2025-12", "count": 1, "inflow": {}, "outflow": {"EUR": "-1150.00"}, "total": {"EUR": "-1150.00"}}
{"month": "2026-01", "count": 1, "inflow": {}, "outflow": {"EUR": "-1150.00"}, "total": {"EUR": "-1150.00"}}
{"month": "2026-02", "count": 1, "inflow": {}, "outflow": {"EUR": "-1150.00"}, "total": {"EUR": "-1150.00"}}
{"month": "2026-03", "count": 1, "inflow": {}, "outflow": {"EUR": "-1150.00"}, "total": {"EUR": "-1150.00"}}
{"month": "2026-04", "count": 1, "inflow": {}, "outflow": {"EUR": "-1150.00"}, "total": {"EUR": "-1150.00"}}
{"month": "2026-05", "count": 1, "inflow": {}, "outflow": {"EUR": "-1150.00"}, "total": {"EUR": "-1150.00"}}
{"month": "2026-06", "count": 1, "inflow": {}, "outflow": {"EUR": "-1150.00"}, "total": {"EUR": "-1150.00"}}
{"month": "2026-07", "count": 1, "inflow": {}, "outflow": {"EUR": "-1150.00"}, "total": {"EUR": "-1150.00"}}
{"month": "2026-08", "count": 1, "inflow": {}, "outflow": {"EUR": "-1150.00"}, "total": {"EUR": "-1150.00"}}
{"month": "2026-09", "count": 1, "inflow": {}, "outflow": {"EUR": "-1150.00"}, "total": {"EUR": "-1150.00"}}
{"month": "2026-10", "count": 1, "inflow": {}, "outflow": {"EUR": "-1150.00"}, "total": {"EUR": "-1150.00"}}
