# Mistakes get one clear error with a caret, and the session goes on.
$ ls
error: no ledger is open
hint: `open FILE`, or start with `tagsh --demo`
$ count @
error: no ledger is open
hint: `open FILE`, or start with `tagsh --demo`
$ count
error: no ledger is open
hint: `open FILE`, or start with `tagsh --demo`
$ lss
error: unknown command 'lss'
  lss
  ^^^
hint: did you mean 'ls'? `help` lists the commands
$ smmary
error: unknown command 'smmary'
  smmary
  ^^^^^^
hint: did you mean 'summary'? `help` lists the commands
$ frobnicate
error: unknown command 'frobnicate'
  frobnicate
  ^^^^^^^^^^
hint: `help` lists the commands
$ open
error: usage: open FILE... [--format csv|journal|beancount] [--skip-bad] [--date-format FMT] [--columns MAP]
$ open missing.csv
error: missing.csv: no such file
$ open /tmp
error: /tmp: is a directory, not a file
$ open bad-date.csv
bad-date.csv:3:1: error: cannot read date '2024-13-45' as year-month-day
3 | 2024-13-45,BAD DATE,-2.00
    ^^^^^^^^^^
hint: --date-format sets how dates are written, e.g. %d/%m/%Y, %m/%d/%y, %d %b %Y or %Y-%m-%dT%H:%M:%S; --skip-bad loads the other records
$ open bad-amount.csv --skip-bad
skipped 1 record that could not be read:
bad-amount.csv:3:23: skipped: cannot read amount '12..5'
3 | 2024-01-06,BAD AMOUNT,12..5
                          ^^^^^
opened bad-amount.csv: 2 transactions
$ count
2
$ open demo.csv --format xml
error: --format takes csv, journal or beancount, not 'xml'
  open demo.csv --format xml
                         ^^^
$ open demo.csv --date-format weird
error: unknown date format 'weird': write it with %d %m %y %Y %b %B (and %H %M %S %z), e.g. %d/%m/%Y or %d %b %Y
  open demo.csv --date-format weird
                              ^^^^^
$ open demo.csv extra
error: extra: no such file
$ open demo.csv
opened demo.csv: 542 transactions
$ ls --limit
error: --limit needs a value (N)
  ls --limit
     ^^^^^^^
$ ls --limit -3
error: --limit takes a whole number of 0 or more
  ls --limit -3
             ^^
$ ls --sort size
error: --sort takes date, amount or merchant, not 'size'
  ls --sort size
            ^^^^
$ ls --color
error: unknown option --color for ls (options: --limit --sort --reverse --json --csv --file)
  ls --color
     ^^^^^^^
$ show
error: usage: show ID
$ show 0
error: no transaction 0: ids run from 1 to 542
  show 0
       ^
$ show 9999
error: no transaction 9999: ids run from 1 to 542
  show 9999
       ^^^^
$ show abc
error: 'abc' is not a transaction id
  show abc
       ^^^
$ show 1 2
error: unexpected '2'; usage: show ID [--json]
  show 1 2
         ^
$ echo 'unterminated
error: unterminated single quote
  echo 'unterminated
       ^
$ echo "also unterminated
error: unterminated double quote
  echo "also unterminated
       ^
$ echo trailing\
error: a backslash at the end of the line escapes nothing
  echo trailing\
               ^
$ set max-tags 0
error: max-tags takes a whole number from 1 to 1000
  set max-tags 0
               ^
$ set nonsense 1
error: unknown setting 'nonsense' (settings: max-tags, sample, color, width, suggest-threshold, pager)
  set nonsense 1
      ^^^^^^^^
$ set max-tags
error: usage: set NAME VALUE (or `set` alone to list)
  set max-tags
      ^^^^^^^^
$ set color purple
error: color takes auto, always or never
  set color purple
            ^^^^^^
$ summary by
error: 'by' needs a field: year, quarter, month, week, day, category, intent, tag, merchant, account, file
  summary by
          ^^
$ summary by colour
error: cannot summarise by 'colour': use year, quarter, month, week, day, category, intent, tag, merchant, account, file
  summary by colour
             ^^^^^^
$ info extra
error: unexpected 'extra'; usage: info [--json]
  info extra
       ^^^^^
$ select
error: usage: select QUERY
$ tags '/[/'
error: bad regular expression /[/: expected custom character class members
  tags '/[/'
       ^^^^^
$ export
error: usage: export FILE [--format csv|json]
$ export out.txt --format journal
error: --format takes csv or json, not 'journal'
  export out.txt --format journal
                          ^^^^^^^
$ help nothing
error: unknown command 'nothing'
  help nothing
       ^^^^^^^
hint: `help` lists the commands
