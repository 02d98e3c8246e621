# Suggestions on the demo: from a merchant's history, from words of a new merchant's name, and rules.
$ open demo.csv
opened demo.csv: 542 transactions
$ suggest 60
transaction 60  STARBUCKS 1234
  tag 60 +coffee                      29 of 34 STARBUCKS 1234 transactions have +coffee
  category 60 Coffee                  6 of 9 categorised STARBUCKS 1234 transactions are in Coffee
  intent 60 want                      2 of 2 STARBUCKS 1234 transactions with an intent are want
$ suggest 46
transaction 46  STARBUCKS 0567
  category 46 Coffee                  2 of 2 categorised STARBUCKS 0567 transactions are in Coffee
$ suggest 1
transaction 1  HAUSVERWALTUNG MUELLER RENT
  nothing to suggest: no annotation it lacks is shared by most similar transactions
$ suggest 9999
error: no transaction 9999: ids run from 1 to 542
  suggest 9999
          ^^^^
$ suggest
error: usage: suggest ID | suggest rules [QUERY]
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
  tag 4 +coffee                       3 of 3 transactions of merchants with 'starbucks' in the name have +coffee
  category 4 Food                     3 of 3 categorised transactions of merchants with 'starbucks' in the name are in Food
