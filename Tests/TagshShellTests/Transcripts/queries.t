# Every query term, counted on the demo ledger, and malformed queries with carets.
$ open demo.csv
opened demo.csv: 542 transactions
$ count starbucks
54
$ count desc:STARBUCKS
54
$ count merchant:starbucks
54
$ count 'desc:/^starbucks \d{4}$/'
54
$ count desc:"WHOLE FOODS"
11
$ count note:/./
12
$ count note:anna
0
$ count acct:credit
258
$ count 'acct:/^check/'
281
$ count amt:<-50
145
$ count amt:>=1000
46
$ count amt:5..20
144
$ count amt:-20..-5
144
$ count amt:-29.90
22
$ count amt:<0
514
$ count date:2025
298
$ count date:2025-02
25
$ count date:2025-01-07
1
$ count date:2025-01..2025-03
76
$ count date:..2025-06
161
$ count date:2026-06..
117
$ count tag:coffee
55
$ count tag:trip
22
$ count tag:trip/lisbon
11
$ count tag:none
352
$ count tag:any
190
$ count 'tag:/^work/'
32
$ count cat:food
29
$ count cat:none
312
$ count 'cat:/^(food|coffee)$/'
46
$ count intent:want
53
$ count intent:none
418
$ count id:42
1
$ count id:400..420
21
$ count -tag:coffee
487
$ count not tag:coffee
487
$ count starbucks -tag:coffee
10
$ count starbucks or cafe
68
$ count date:thismonth
26
$ count date:lastmonth
22
$ count date:'last 30 days'
26
$ count date:'last 31 days'
27
$ count date:2026q2
76
$ count date:thisyear
244
$ count cat:food,groceries
63
$ count cat:food or cat:groceries
63
$ count tag:coffee,trip
77
$ count intent:want,need
115
$ count note:none
530
$ count note:any
12
$ count all
542
$ count cat:grocery
error: there is no category 'grocery': did you mean 'Groceries'?
  count cat:grocery
        ^^^^^^^^^^^
$ count cat:nosuch
error: there is no category 'nosuch' (`categories` lists them)
  count cat:nosuch
        ^^^^^^^^^^
$ count (starbucks or cafe) date:2026
30
$ count -(tag:any or cat:none)
156
$ ls starbucks amt:<-5 --limit 3
 ID  DATE        MERCHANT           AMOUNT  I  CATEGORY  TAGS
 46  2025-02-25  STARBUCKS 0567  -5.10 EUR               coffee
 71  2025-03-28  STARBUCKS 1234  -6.50 EUR     Food      coffee
107  2025-04-30  STARBUCKS 0567  -5.20 EUR               coffee
(3 of 15 transactions)
$ count foo:bar
error: unknown query key 'foo:' (keys: desc: payee: merchant: tag: cat: intent: amt: date: note: acct: id: status: col: file:)
  count foo:bar
        ^^^^^^^
$ count 'starbucks desc:1234'
0
$ count 'STARBUCKS 1234'
35
$ count tag:
error: 'tag:' needs a value
  count tag:
        ^^^^
$ count 'desc:/(/'
error: bad regular expression /(/: expected ')'
  count 'desc:/(/'
        ^^^^^^^^^^
$ count amt:>>5
error: bad amount '>>5': use amt:N, amt:<N, amt:<=N, amt:>N, amt:>=N or amt:A..B
  count amt:>>5
        ^^^^^^^
$ count date:2025-13
error: bad date '2025-13': use YYYY, YYYY-MM, YYYY-MM-DD, 2024q1, a named period (today, thismonth, lastyear, 'last 30 days', ...) or a range A..B, ..B, A..
  count date:2025-13
        ^^^^^^^^^^^^
$ count id:0
error: bad id '0': use id:N, id:A..B or a list, id:3,5,10-12
  count id:0
        ^^^^
$ count intent:wants
error: unknown intent 'wants': use need, want, culture, unexpected or none
  count intent:wants
        ^^^^^^^^^^^^
$ count (tag:coffee or cafe
error: '(' is never closed
  count (tag:coffee or cafe
        ^
$ count tag:coffee or
error: 'or' needs a term after it
  count tag:coffee or
                   ^^
$ count tag:coffee)
error: ')' without a matching '('
  count tag:coffee)
                  ^
$ count not
error: 'not' needs a term after it
  count not
        ^^^
$ count {starbucks}
54
$ count {starbucks or uber} amt:>5
32
$ count (starbucks or uber) amt:>5
32
$ ls {starbucks} --limit 2
ID  DATE        MERCHANT           AMOUNT  I  CATEGORY  TAGS
 7  2025-01-07  STARBUCKS 0567  -3.80 EUR               coffee
 8  2025-01-08  STARBUCKS 1234  -4.00 EUR               coffee
(2 of 54 transactions)
$ count {}
error: {} holds no query: write {QUERY}, e.g. {uber eats}
  count {}
        ^^
$ count {amt:<<5}
error: bad amount '<<5': use amt:N, amt:<N, amt:<=N, amt:>N, amt:>=N or amt:A..B
  count {amt:<<5}
         ^^^^^^^
$ count {starbucks
error: a { has no closing }: a query in braces is {QUERY}
  count {starbucks
        ^^^^^^^^^^
$ count {{rewe} or {edeka}}
67
$ count rewe or edeka
67
$ count rewe}
error: 'rewe}': braces hold a whole query, {QUERY}, as a word of its own; quote a brace that is part of a text
  count rewe}
        ^^^^^
$ count ({rewe})
error: '({rewe})': braces hold a whole query, {QUERY}, as a word of its own; quote a brace that is part of a text
  count ({rewe})
        ^^^^^^^^
$ count '{rewe}'
0
$ count id:3,5,10-12
5
$ count id:3-
error: bad id '3-': use id:N, id:A..B or a list, id:3,5,10-12
  count id:3-
        ^^^^^
