# CSV variants as listed: detected delimiters, dates, decimal commas, debit/credit, symbols, a currency the amount column names.
$ open german.csv
opened german.csv: 3 transactions
$ info
file          german.csv
format        csv, delimiter ';', LF, decimal comma, dates day/month/year
size          127 bytes
transactions  3
dates         2024-01-05 .. 2024-01-07
merchants     3
accounts      german
currencies    (none given)
categories    12 default, 0 custom
tags          0
annotated     0 of 3
unsaved       no
$ ls
ID  DATE        MERCHANT     AMOUNT  I  CATEGORY  TAGS
 1  2024-01-05  EDEKA     -1,234.56
 2  2024-01-06  GEHALT     3,200.00
 3  2024-01-07  KIOSK         -2.50
(3 transactions)
$ open debit-credit.csv
opened debit-credit.csv: 3 transactions
$ ls
ID  DATE        MERCHANT                AMOUNT  I  CATEGORY  TAGS
 1  2024-01-15  SHELL 2231             -$45.10
 2  2024-01-16  REFUND AMAZON           $19.99
 3  2024-01-17  WHOLE FOODS MARKET  -$1,204.33
(3 transactions)
$ merchants
MERCHANT            COUNT       TOTAL
REFUND AMAZON           1      $19.99
SHELL 2231              1     -$45.10
WHOLE FOODS MARKET      1  -$1,204.33
$ open amounts.csv
opened amounts.csv: 6 transactions
$ ls --sort amount
ID  DATE        MERCHANT     AMOUNT  I  CATEGORY  TAGS
 3  2024-07-03  RENT      -1,150.00
 1  2024-07-01  DENTIST     -120.00
 5  2024-07-05  TRAILING      -7.25
 6  2024-07-06  EURO          €3.10
 2  2024-07-02  SELLER           $5
 4  2024-07-04  FOREIGN   12.50 USD
(6 transactions)
$ open tab.tsv
opened tab.tsv: 2 transactions
$ ls
ID  DATE        MERCHANT    AMOUNT  I  CATEGORY  TAGS
 1  2024-04-01  UBER *TRIP  -18.40
 2  2024-04-02  LIDL        -23.05
(2 transactions)
$ summary by merchant
MERCHANT    COUNT  IN     OUT     NET
LIDL            1      -23.05  -23.05  ████████████████████████████████████████
UBER *TRIP      1      -18.40  -18.40  ███████████████████████████████▉
total           2      -41.45  -41.45
$ open quoted.csv
opened quoted.csv: 3 transactions
$ ls
ID  DATE        MERCHANT            AMOUNT  I  CATEGORY  TAGS  NOTE
 1  2024-05-01  SMITH, JONES & CO  -120.00                     legal, retainer
 2  2024-05-02  BAR "ZUM HIRSCH"    -18.50
 3  2024-05-03  MULTI^JLINE SHOP     -5.00                     a note^Jover two lines
(3 transactions)
$ show 3
transaction 3
  date     2024-05-03
  merchant MULTI^JLINE SHOP
  amount   -5.00
  account  quoted
  intent   none
  category none
  tags     none
  note     a note^Jover two lines
  source   quoted.csv:4
  columns
    Date         2024-05-03
    Description  MULTI^JLINE SHOP
    Amount       -5.00
    Notes        a note^Jover two lines
$ open preamble.csv
opened preamble.csv: 2 transactions
$ show 2
transaction 2
  date     2024-08-02
  merchant STEAM GAMES
  amount   -19.99
  account  preamble
  intent   none
  category none
  tags     none
  note     none
  source   preamble.csv:7
  columns
    Date         2024-08-02
    Description  STEAM GAMES
    Amount       -19.99
$ open annotated.csv
opened annotated.csv: 4 transactions
$ ls
ID  DATE        MERCHANT               AMOUNT  I  CATEGORY  TAGS                    NOTE
 1  2024-09-01  STARBUCKS 1234      -4.75 USD  W  Food      coffee Work             with Anna
 2  2024-09-02  RENT            -1,150.00 USD  N  Housing
 3  2024-09-03  COFFEE LAB          -3.50 USD     Coffee    coffee
 4  2024-09-04  GIFT SHOP          -25.00 USD  C            gift trip/paris coffee
(4 transactions)
$ categories
CATEGORY       KIND     COUNT  COLOR
Food           default      1  orange
Groceries      default      0  green
Transport      default      0  blue
Shopping       default      0  magenta
Bills          default      0  yellow
Housing        default      1  brown
Health         default      0  bright-green
Entertainment  default      0  purple
Travel         default      0  cyan
Income         default      0  bright-green
Transfer       default      0  gray
Other          default      0  white
Coffee         custom       1
(none)                      1
$ tags
TAG         COUNT
coffee          3
gift            1
trip/paris      1
Work            1
$ intents
I  INTENT      COUNT          TOTAL
N  need            1  -1,150.00 USD
W  want            1      -4.75 USD
C  culture         1     -25.00 USD
U  unexpected      0
   (none)          1      -3.50 USD
$ open us-dates.csv --date-format %d/%m/%Y
us-dates.csv:2:1: error: cannot read date '12/31/2023' as day/month/year
2 | 12/31/2023,NEW YEAR PARTY,-80.00
    ^^^^^^^^^^
hint: --date-format sets how dates are written, e.g. %d/%m/%Y, %m/%d/%y, %d %b %Y or %Y-%m-%dT%H:%M:%S; --skip-bad loads the other records
$ open us-dates.csv
opened us-dates.csv: 2 transactions
$ ls
ID  DATE        MERCHANT        AMOUNT  I  CATEGORY  TAGS
 1  2023-12-31  NEW YEAR PARTY  -80.00
 2  2024-01-02  GROCER          -15.00
(2 transactions)
$ open banks/dkb-giro.csv
opened banks/dkb-giro.csv: 5 transactions
$ ls --limit 2
ID  DATE        MERCHANT                AMOUNT  I  CATEGORY  TAGS
 1  2024-02-01  REWE Markt GmbH     -47.11 EUR
 2  2024-02-03  Stadtwerke München  -89.00 EUR
(2 of 5 transactions)
$ columns
ROLE         COLUMN  NAME                         FIRST TRANSACTION
date              1  Buchungstag                  01.02.2024
description       4  Auftraggeber / Begünstigter  REWE Markt GmbH
amount            8  Betrag (EUR)                 -47,11
other columns (query them with col:NAME=VALUE): Wertstellung, Buchungstext, Verwendungszweck, Kontonummer, BLZ, Gläubiger-ID, Mandatsreferenz, Kundenreferenz, 12
currency: EUR, from the name of the column Betrag (EUR), for every amount that does not give its own
mapping: from the header names
