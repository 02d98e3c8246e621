# Annotating: every command, every TARGET form, each refusal, undo/redo/history/blame, save and reopen.
$ open annotated.csv
opened annotated.csv: 4 transactions
$ tag 1 +Coffee
nothing changed
$ tag 2,3 +rent -coffee
tag +rent -coffee: 2 transactions changed
$ tag all +reviewed
tag +reviewed: 4 transactions changed
$ ls
ID  DATE        MERCHANT               AMOUNT  I  CATEGORY  TAGS                           NOTE
 1  2024-09-01  STARBUCKS 1234      -4.75 USD  W  Food      coffee Work reviewed           with Anna
 2  2024-09-02  RENT            -1,150.00 USD  N  Housing   rent reviewed
 3  2024-09-03  COFFEE LAB          -3.50 USD     Coffee    rent reviewed
 4  2024-09-04  GIFT SHOP          -25.00 USD  C            gift trip/paris coffee …
(4 transactions)
$ tag 1 +a;b
error: tag name 'a;b' has ';': use letters, digits and - _ / . :
  tag 1 +a;b
        ^^^^
$ tag 1 +'two words'
error: tag name 'two words' has a space: use letters, digits and - _ / . :
  tag 1 +'two words'
        ^^^^^^^^^^^^
$ tag 1 +
error: a tag name cannot be empty
  tag 1 +
        ^
$ tag 1 coffee
error: 'coffee' needs + (add) or - (remove) in front
  tag 1 coffee
        ^^^^^^
$ tag 9 +x
error: no transaction 9: ids run from 1 to 4
  tag 9 +x
      ^
$ tag 0-2 +x
error: no transaction 0: ids run from 1 to 4
  tag 0-2 +x
      ^^^
$ tag x-y +x
error: 'x-y' is not a target: use an id (412), a list and ranges (412,415,420-430), @, all or {QUERY}
  tag x-y +x
      ^^^
$ tag 1
error: usage: tag TARGET +NAME... -NAME...
  tag 1
      ^
$ set max-tags 4
$ tag 1,4 +one +two
error: nothing tagged: 2 transactions would hold more than max-tags (4) tags: 1, 4 (`set max-tags N` raises the limit)
$ set max-tags 10
$ select cat:none
1 selected
$ tag @ +uncategorised
tag +uncategorised: 1 transaction changed
$ intent 2-3 want
intent want: 2 transactions changed
$ intent 1 wants
error: unknown intent 'wants': use need, want, culture, unexpected or none
  intent 1 wants
           ^^^^^
$ intent 1 none
intent none: 1 transaction changed
$ note 2 "paid late, again"
note set: 1 transaction changed
$ note 2 ""
note cleared: 1 transaction changed
$ note 3 with Anna
note set: 1 transaction changed
$ category 3 Food
category Food: 1 transaction changed
$ category 3 Nonsense
error: no category 'Nonsense'
  category 3 Nonsense
             ^^^^^^^^
hint: `categories` lists them; `category new Nonsense` creates it
$ category 3 fod
error: no category 'fod'
  category 3 fod
             ^^^
hint: did you mean 'Food'? `categories` lists them; `category new fod` creates it
$ category 3 none
category none: 1 transaction changed
$ category new Gifts --color #ff8800 --icon G
category Gifts created
$ category new Gifts
error: category 'Gifts' already exists
  category new Gifts
               ^^^^^
$ category new Food
error: 'Food' is a default category
  category new Food
               ^^^^
$ category new Bad --color mauve
error: unknown colour 'mauve': use #rrggbb or one of black, red, green, yellow, blue, magenta, cyan, white, gray, bright-red, bright-green, bright-yellow, bright-blue, bright-magenta, bright-cyan, orange, purple, pink, brown, teal
  category new Bad --color mauve
                           ^^^^^
$ category 4 gifts
category Gifts: 1 transaction changed
$ category rename Gifts Presents
category Gifts renamed to Presents (1 transaction)
$ category rename Food Essen
error: 'Food' is a default category and cannot be renamed
  category rename Food Essen
                  ^^^^
$ category rename Presents Coffee
error: category 'Coffee' already exists
  category rename Presents Coffee
                           ^^^^^^
$ category delete Food
error: 'Food' is a default category and cannot be deleted
  category delete Food
                  ^^^^
$ category delete Presents
error: category 'Presents' is used by 1 transaction: add --reassign OTHER (or --reassign none)
  category delete Presents
                  ^^^^^^^^
$ category delete Presents --reassign Nonsense
error: no other category 'Nonsense' to reassign to
  category delete Presents --reassign Nonsense
                                      ^^^^^^^^
$ category delete Presents --reassign none
category Presents deleted: 1 transaction changed
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
Coffee         custom       0
(none)                      2
$ tags rename reviewed checked
tags rename reviewed → checked: 4 transactions changed
$ tags rename checked rent
tags rename checked → rent: 4 transactions changed
$ tags delete uncategorised
tags delete uncategorised: 1 transaction changed
$ tags delete nothing
error: no tag 'nothing'
  tags delete nothing
              ^^^^^^^
$ tags
TAG         COUNT
rent            4
coffee          2
gift            1
trip/paris      1
Work            1
$ tags --limit 2
TAG         COUNT
rent            4
coffee          2
(3 others)      2
$ tags --limit 3 --csv
tag,count
rent,4
coffee,2
gift,1
(2 others),2
$ tags --limit 4 --json
{"tag": "rent", "count": 4}
{"tag": "coffee", "count": 2}
{"tag": "gift", "count": 1}
{"tag": "trip/paris", "count": 1}
{"tag": null, "others": 1, "count": 1}
$ count tag:gift or tag:trip/paris or tag:Work
2
$ count tag:trip/paris or tag:Work
2
$ history
    #  COMMAND                                      TRANSACTIONS
    0  (as opened)                                                saved
    1  tag 2,3 +rent -coffee                                   2
    2  tag all +reviewed                                       4
    3  set max-tags 4                                          0
    4  set max-tags 10                                         0
    5  tag @ +uncategorised                                    1
    6  intent 2-3 want                                         2
    7  intent 1 none                                           1
    8  note 2 "paid late, again"                               1
    9  note 2 ""                                               1
   10  note 3 with Anna                                        1
   11  category 3 Food                                         1
   12  category 3 none                                         1
   13  category new Gifts --color #ff8800 --icon G             0
   14  category 4 gifts                                        1
   15  category rename Gifts Presents                          0
   16  category delete Presents --reassign none                1
   17  tags rename reviewed checked                            4
   18  tags rename checked rent                                4
>  19  tags delete uncategorised                               1
$ blame 3
transaction 3  COFFEE LAB
  intent   want                      step 6: intent 2-3 want
  category none                      step 12: category 3 none
  tags     rent                      step 18: tags rename checked rent
  note     with Anna                 step 10: note 3 with Anna
$ undo 3
undid: tags delete uncategorised  [tags delete uncategorised (1 transaction)]
undid: tags rename checked rent  [tags rename checked → rent (4 transactions)]
undid: tags rename reviewed checked  [tags rename reviewed → checked (4 transactions)]
$ tags
TAG            COUNT
reviewed           4
coffee             2
rent               2
gift               1
trip/paris         1
uncategorised      1
Work               1
$ history
    #  COMMAND                                      TRANSACTIONS
    0  (as opened)                                                saved
    1  tag 2,3 +rent -coffee                                   2
    2  tag all +reviewed                                       4
    3  set max-tags 4                                          0
    4  set max-tags 10                                         0
    5  tag @ +uncategorised                                    1
    6  intent 2-3 want                                         2
    7  intent 1 none                                           1
    8  note 2 "paid late, again"                               1
    9  note 2 ""                                               1
   10  note 3 with Anna                                        1
   11  category 3 Food                                         1
   12  category 3 none                                         1
   13  category new Gifts --color #ff8800 --icon G             0
   14  category 4 gifts                                        1
   15  category rename Gifts Presents                          0
>  16  category delete Presents --reassign none                1
   17  tags rename reviewed checked                            4  undone
   18  tags rename checked rent                                4  undone
   19  tags delete uncategorised                               1  undone
$ redo
redid: tags rename reviewed checked  [tags rename reviewed → checked (4 transactions)]
$ redo 5
redid: tags rename checked rent  [tags rename checked → rent (4 transactions)]
redid: tags delete uncategorised  [tags delete uncategorised (1 transaction)]
(2 steps redone, not 5: there are no more)
$ redo
error: nothing to redo
$ undo 100
undid: tags delete uncategorised  [tags delete uncategorised (1 transaction)]
undid: tags rename checked rent  [tags rename checked → rent (4 transactions)]
undid: tags rename reviewed checked  [tags rename reviewed → checked (4 transactions)]
undid: category delete Presents --reassign none  [category Presents deleted (1 transaction)]
undid: category rename Gifts Presents  [category Gifts renamed to Presents (1 transaction)]
undid: category 4 gifts  [category Gifts (1 transaction)]
undid: category new Gifts --color #ff8800 --icon G  [category Gifts created]
undid: category 3 none  [category none (1 transaction)]
undid: category 3 Food  [category Food (1 transaction)]
undid: note 3 with Anna  [note set (1 transaction)]
undid: note 2 ""  [note cleared (1 transaction)]
undid: note 2 "paid late, again"  [note set (1 transaction)]
undid: intent 1 none  [intent none (1 transaction)]
undid: intent 2-3 want  [intent want (2 transactions)]
undid: tag @ +uncategorised  [tag +uncategorised (1 transaction)]
undid: set max-tags 10  [set max-tags 10]
undid: set max-tags 4  [set max-tags 4]
undid: tag all +reviewed  [tag +reviewed (4 transactions)]
undid: tag 2,3 +rent -coffee  [tag +rent -coffee (2 transactions)]
(19 steps undone, not 100: there are no more)
$ undo
error: nothing to undo
$ ls
ID  DATE        MERCHANT               AMOUNT  I  CATEGORY  TAGS                    NOTE
 1  2024-09-01  STARBUCKS 1234      -4.75 USD  W  Food      coffee Work             with Anna
 2  2024-09-02  RENT            -1,150.00 USD  N  Housing
 3  2024-09-03  COFFEE LAB          -3.50 USD     Coffee    coffee
 4  2024-09-04  GIFT SHOP          -25.00 USD  C            gift trip/paris coffee
(4 transactions)
$ redo 100
redid: tag 2,3 +rent -coffee  [tag +rent -coffee (2 transactions)]
redid: tag all +reviewed  [tag +reviewed (4 transactions)]
redid: set max-tags 4  [set max-tags 4]
redid: set max-tags 10  [set max-tags 10]
redid: tag @ +uncategorised  [tag +uncategorised (1 transaction)]
redid: intent 2-3 want  [intent want (2 transactions)]
redid: intent 1 none  [intent none (1 transaction)]
redid: note 2 "paid late, again"  [note set (1 transaction)]
redid: note 2 ""  [note cleared (1 transaction)]
redid: note 3 with Anna  [note set (1 transaction)]
redid: category 3 Food  [category Food (1 transaction)]
redid: category 3 none  [category none (1 transaction)]
redid: category new Gifts --color #ff8800 --icon G  [category Gifts created]
redid: category 4 gifts  [category Gifts (1 transaction)]
redid: category rename Gifts Presents  [category Gifts renamed to Presents (1 transaction)]
redid: category delete Presents --reassign none  [category Presents deleted (1 transaction)]
redid: tags rename reviewed checked  [tags rename reviewed → checked (4 transactions)]
redid: tags rename checked rent  [tags rename checked → rent (4 transactions)]
redid: tags delete uncategorised  [tags delete uncategorised (1 transaction)]
(19 steps redone, not 100: there are no more)
$ intent 4 need
intent need: 1 transaction changed
$ redo
error: nothing to redo
$ history
    #  COMMAND                                      TRANSACTIONS
    0  (as opened)                                                saved
    1  tag 2,3 +rent -coffee                                   2
    2  tag all +reviewed                                       4
    3  set max-tags 4                                          0
    4  set max-tags 10                                         0
    5  tag @ +uncategorised                                    1
    6  intent 2-3 want                                         2
    7  intent 1 none                                           1
    8  note 2 "paid late, again"                               1
    9  note 2 ""                                               1
   10  note 3 with Anna                                        1
   11  category 3 Food                                         1
   12  category 3 none                                         1
   13  category new Gifts --color #ff8800 --icon G             0
   14  category 4 gifts                                        1
   15  category rename Gifts Presents                          0
   16  category delete Presents --reassign none                1
   17  tags rename reviewed checked                            4
   18  tags rename checked rent                                4
   19  tags delete uncategorised                               1
>  20  intent 4 need                                           1
$ save
saved annotated.csv (4 changed transactions)
$ history
    #  COMMAND                                      TRANSACTIONS
    1  tag 2,3 +rent -coffee                                   2
    2  tag all +reviewed                                       4
    3  set max-tags 4                                          0
    4  set max-tags 10                                         0
    5  tag @ +uncategorised                                    1
    6  intent 2-3 want                                         2
    7  intent 1 none                                           1
    8  note 2 "paid late, again"                               1
    9  note 2 ""                                               1
   10  note 3 with Anna                                        1
   11  category 3 Food                                         1
   12  category 3 none                                         1
   13  category new Gifts --color #ff8800 --icon G             0
   14  category 4 gifts                                        1
   15  category rename Gifts Presents                          0
   16  category delete Presents --reassign none                1
   17  tags rename reviewed checked                            4
   18  tags rename checked rent                                4
   19  tags delete uncategorised                               1
>  20  intent 4 need                                           1  saved
$ open annotated.csv
opened annotated.csv: 4 transactions
$ ls
ID  DATE        MERCHANT               AMOUNT  I  CATEGORY  TAGS                         NOTE
 1  2024-09-01  STARBUCKS 1234      -4.75 USD     Food      coffee Work rent             with Anna
 2  2024-09-02  RENT            -1,150.00 USD  W  Housing   rent
 3  2024-09-03  COFFEE LAB          -3.50 USD  W            rent                         with Anna
 4  2024-09-04  GIFT SHOP          -25.00 USD  N            gift trip/paris coffee rent
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
Coffee         custom       0
(none)                      2
$ quit
