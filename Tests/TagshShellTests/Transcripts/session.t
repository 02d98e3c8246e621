# Settings, echo, help, source, the sidecar file and quitting.
$ set
max-tags           10
sample             5
color              auto
width              100
suggest-threshold  0.80
pager              on
$ set max-tags 12
$ set sample 3
$ set width 60
$ set
max-tags           12
sample             3
color              auto
width              60
suggest-threshold  0.80
pager              on
$ set width auto
$ echo hello   world
hello world
$ echo 'two  spaces' "and \"quotes\""
two  spaces and "quotes"
$ help
Files
  open        open ledger files, replacing the current ledger
  import      append a bank export's new transactions to an open file, skipping those already there
  save        write the ledger back to its file, changing only what was changed
  export      write the whole ledger to another file in a fresh layout
  info        describe the open ledger: file, format, size, dates, currencies
  columns     show which CSV column holds what, or read the file again with another mapping

Exploring
  ls          list matching transactions in a table; sets the selection @
  select      set the selection @ to the matching transactions without listing them
  count       print how many transactions match, as a bare number
  show        show every field of one transaction, tags as coloured chips, and a CSV record's own columns
  tags        list tags with counts; rename or delete a tag everywhere
  merchants   list merchants of the matching transactions with counts and totals
  categories  list categories, default and custom, with counts, colours and icons
  intents     list the four intents with their marks, counts and totals
  summary     totals of the matching transactions by a field, with a bar chart
  chart       chart the matching transactions' net total over time, a bar per period

Annotating
  tag         add and remove tags on transactions, in one step
  intent      set why money was spent (none clears it)
  category    set the category of transactions, or create, delete or rename a custom category
  note        set the note of transactions (an empty text clears it)
  review      triage transactions one at a time, with single keys
  transfers   pair an outflow in one account with an equal inflow in another: transfers between your accounts

Rules and suggestions
  rule        define or replace a rule; show or delete one
  rules       list the rules with their match counts, or check them for problems
  include     use a rules file shared across ledgers: its rules and categories load now and are saved back to it
  preview     show exactly what rules would change, changing nothing
  apply       apply rules as one undo step (alone: what the last preview showed)
  suggest     suggest annotations for a transaction, or rules learned from the ledger

Undo
  undo        undo the last N steps (default 1)
  redo        redo the last N undone steps (default 1)
  history     list the steps: what each did, how many transactions, where you are and what is saved
  blame       show which step set each annotation of a transaction

Scripting and session
  source      run the commands in a file
  edit        edit the last command line in $VISUAL or $EDITOR, then run what you wrote
  record      append every command that succeeds to FILE, as a replayable script
  recover     replay the changes a session that ended abruptly left in the recovery journal
  discard     drop the recovery journal left by a session that ended abruptly
  set         show the settings, or change one
  echo        print the words, separated by spaces
  help        list the commands, or explain one command or the query language
  quit        leave tagsh (with unsaved changes, the first quit warns)

`help COMMAND` explains one command; `help query` the query language.
Ctrl-C clears the line, or stops a long command (it says `interrupted` and changes nothing); Ctrl-D quits.
`COMMAND > FILE` writes a command's output to FILE (`>>` appends), `COMMAND | SHELL-COMMAND` pipes it; `# ...` after a space is a comment.
At the prompt, output longer than the screen goes through $PAGER (default less -RFX; `set pager off`).
As in psql: \q quits, \? is help, \h COMMAND is help COMMAND, \e is edit, \o FILE sends the output to FILE (\o alone ends it).
$ help ls
usage: ls [QUERY] [--limit N] [--sort date|amount|merchant] [--reverse] [--json] [--csv] [--file]
aliases: list

list matching transactions in a table; sets the selection @

Lists the transactions the query matches (all when there is no query) in a
table fitted to the terminal width: id, date, merchant, amount, intent mark,
category and tags, a NOTE column when a listed transaction has a note, and
FILE with --file. When the table is too wide, merchants, categories, tags and
notes are cut (the last three between words) down to a minimum width; past
that, whole columns are left out: notes first, then files, tags, categories
and the intent mark. What is listed becomes the selection @ that annotation
commands take as a target. Ctrl-C stops a long listing: it says `interrupted`,
prints no count and leaves @ as it was. A bare word looks in the descriptions:
when one that reads as an id or a range (`ls 1-7`) matches nothing, a hint
gives the id term (`ls id:1..7`). See `help query` for the query language.

options:
  --limit N                    list at most N transactions
  --sort date|amount|merchant  order by date (the default; ties in file order), amount or merchant
  --reverse                    the other way round: newest, largest or last first
  --json                       one JSON object per transaction
  --csv                        CSV with a header line, as `export` writes it, after an Id column
  --file                       a FILE column: the open file each transaction comes from (several files open)

examples:
  ls
  ls starbucks --limit 10
  ls --file --limit 5
  ls tag:trip date:2025 --sort amount
  ls --reverse --limit 20
  ls 'desc:/^uber/' or cat:Transport
$ help exit
usage: quit
aliases: exit

leave tagsh (with unsaved changes, the first quit warns)

Ctrl-D on an empty line does the same. At the prompt, with unsaved changes,
the first quit warns and a second one in a row discards them. In a script,
quit ends the script at once; unsaved changes to a file are then discarded,
with a note (a script keeps them with `save`).

examples:
  quit
$ help query
Queries select transactions for ls, count, select, merchants, summary and chart.

  WORD, desc:WORD, payee:WORD, merchant:WORD
      the merchant contains WORD (case-insensitive); all alone is every transaction
  'PAYPAL *NETFLIX: DE'
      a quoted term whose text before its first colon is not one word is a merchant search as a whole
  desc:/REGEX/
      regular expression, case-insensitive; also note:, acct:, tag:, cat:
  amt:<-50, amt:>=10, amt:5..20, amt:-5.75
      amount tests; as in hledger, a number with a sign (or 0) compares the signed amount, one without a sign the absolute amount
  date:2024, date:2024-03, date:2024-01-05
      a year, month or day
  date:2024-01..2024-03, date:..2023, date:2024-06..
      inclusive ranges, open at either end
  date:thismonth, date:lastmonth, date:2024q1
      named periods, as in hledger: today, yesterday, this/last week, month, quarter, year, 'last 30 days'
  tag:NAME, tag:none, tag:any
      has the tag or a child of it (tag:trip matches trip/paris and trip:paris); has none; has some
  cat:NAME, cat:none
      the category is NAME (case-insensitive); has none
  intent:want, intent:none
      the intent is want (need, want, culture, unexpected); has none
  note:WORD, acct:WORD
      the note or account contains WORD; note:none and note:any as for tags
  cat:food,groceries
      either value (also tag: and intent:); a comma before a space stays in the name
  id:412, id:400..420, id:3,5,10-12
      transaction ids; a list as a TARGET writes one
  status:pending
      listed by the bank without an amount yet (status:booked: the others)
  col:NAME=VALUE, col:NAME:TEXT
      a column of the CSV record as the bank wrote it (NAME: header or position); also col:NAME:/REGEX/
  file:NAME
      transactions from the open file whose name contains NAME (several files open as one session); also file:/REGEX/
  @
      in the current selection: what the last ls or select listed
  -TERM, not TERM
      does not match TERM
  A B, A or B, (A or B) C
      terms side by side are ANDed; or; parentheses group
  {A or B} C
      braces, as a TARGET writes a query ({uber eats}), group as parentheses do; they nest, and a brace that is text is quoted

Quote a term that has spaces or backslashes: desc:"WHOLE FOODS", 'desc:/^uber\b/'.

Where tagsh differs from hledger, on purpose:
  - desc:WORD: a plain word is a case-insensitive substring, not a regular expression; write desc:/REGEX/ for one (hledger's desc:starbucks|aldi is desc:/starbucks|aldi/)
  - payee:: the same as desc: (a bank export has one description; hledger's payee is the part before |)
  - cat:, intent:: tagsh's own annotations, which hledger does not have; cat: names a category, not an account (acct: does)
  - comma lists: tag:a,b, cat:a,b and intent:a,b mean either; text keys (desc:, note:, acct:) keep commas as text
  - tag:none, note:none, cat:none: no tag, no note, no category; tag:any and note:any, some
  - a category that does not exist: an error with a suggestion, not a silent 0
  - date:'last 30 days': the last N days up to today; hledger 1.25 has no such period
  - all: every transaction, in a query as in a target
$ open sidecar.csv
opened sidecar.csv: 1 transaction
$ set
max-tags           12
sample             7
color              auto
width              auto
suggest-threshold  0.80
pager              on
$ open demo.csv
opened demo.csv: 542 transactions
$ source script.tagsh
from the script
55
nested
$ source failing.tagsh
one
failing.tagsh:2:4: error: unknown query key 'foo:' (keys: desc: payee: merchant: tag: cat: intent: amt: date: note: acct: id: status: col: file:)
  ls foo:bar
     ^^^^^^^
error: failing.tagsh: stopped at the first failing command
$ echo still here
still here
$ source cycle.tagsh
before
cycle.tagsh:2: error: cycle.tagsh: already being sourced (a file that sources itself, directly or not, would never end)
error: cycle.tagsh: stopped at the first failing command
$ source missing.tagsh
error: missing.tagsh: no such file
$ export all.json
exported 542 transactions to all.json (json)
$ export copy.csv
exported 542 transactions to copy.csv (csv)
$ open copy.csv
opened copy.csv: 542 transactions
$ count tag:coffee
55
$ save
saved copy.csv (0 changed transactions)
$ quit
