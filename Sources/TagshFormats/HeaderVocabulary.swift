/// What a CSV column holds, as far as tagsh is concerned.
public enum ColumnRole: String, Sendable, CaseIterable {
    case date, description, amount, debit, credit, currency, account, category, tags, notes, intent
    /// A column telling whether an unsigned amount is money out or in (`Af Bij`, `Credit/Debit`, `D/C`).
    case direction
    /// A fee charged on top of the amount (Revolut, Stripe).
    case fee
    /// The transaction's state (`Pending`, `Completed`).
    case status
}

/// Header names banks and apps use, by role, in English, German, Dutch,
/// French, Spanish, Italian, Portuguese, Polish, Czech, Slovak, Hungarian
/// and the Nordic languages. Names are compared lower-cased, with spaces collapsed and a
/// bracketed suffix removed (`Amount (EUR)`, `Betrag (€)`, `Withdrawal (-)`).
/// Where several columns could serve a role, the lowest rank wins (a payee's
/// name before a free-text description, a booking date before a value date).
public enum HeaderVocabulary {
    /// (role, rank, names).
    static let entries: [(ColumnRole, Int, [String])] = [
        (.date, 1, ["date", "transaction date", "trans date", "trans. date", "posted date", "posting date", "post date",
                    "booking date", "booked date", "date posted", "created", "created at", "created date", "timestamp", "datetime",
                    "date/time", "date time", "run date", "order date", "started date", "completed date", "settlement date",
                    "transaction time", "date of transaction", "posted transactions date", "dateop"]),
        (.date, 1, [
                    // German, Dutch
                    "datum", "buchungstag", "buchungsdatum", "buchung", "belegdatum", "boekingsdatum", "transactiedatum", "uitvoeringsdatum",
                    // French, Spanish, Italian, Portuguese
                    "date de l'opération", "date de l'operation", "date opération", "date operation", "date d'opération",
                    "date comptable", "fecha", "fecha operación", "fecha operacion", "fecha de operación", "fecha contable",
                    "data", "data operazione", "data contabile", "data registrazione", "data movimento", "data operação",
                    "data de movimento", "data do movimento", "data lançamento", "data de lançamento",
                    // Polish, Czech
                    "data księgowania", "data transakcji", "data operacji", "datum zaúčtování", "datum transakce",
                    "datum provedení", "datum pohybu",
                    // Hungarian, Slovak
                    "könyvelés dátuma", "dátum",
                    // Nordic
                    "bokföringsdag", "bokföringsdatum", "transaktionsdatum", "transaktionsdag", "dato", "bogføringsdato",
                    "bokført dato", "bokføringsdato", "kirjauspäivä", "päivämäärä", "tapahtumapäivä"]),
        (.date, 2, ["value date", "valutadatum", "valuta", "wertstellung", "wertstellungsdatum", "rentedatum",
                    "date de valeur", "fecha valor", "data valuta", "data valor", "data waluty", "valuuttapäivä", "valutadag",
                    "rentedato", "arvopäivä", "datum splatnosti"]),
        // The counterparty's name, where the same header also has the account holder's `Naam` (KBC) or the
        // counterparty's account number as `Tegenpartij` (BNP Paribas Fortis).
        (.description, 0, ["naam tegenpartij", "naam van de tegenpartij"]),
        (.description, 1, ["payee", "merchant", "merchant name", "name", "counter party", "counterparty name",
                           "beneficiary / originator", "auftraggeber/empfänger", "auftraggeber / empfänger",
                           "beneficiary", "recipient", "to", "payee name", "party",
                           "auftraggeber / begünstigter", "auftraggeber/begünstigter", "begünstigter / auftraggeber",
                           "beguenstigter/zahlungspflichtiger", "begünstigter/zahlungspflichtiger", "zahlungsempfänger",
                           "empfänger", "auftraggeber", "name zahlungsbeteiligter", "naam / omschrijving", "naam/omschrijving",
                           "naam", "tegenpartij", "nom", "bénéficiaire", "beneficiario", "ordenante",
                           "destinatário", "nazwa kontrahenta", "kontrahent", "odbiorca", "název protiúčtu", "protistrana",
                           "mottagare", "modtager", "mottaker", "saaja/maksaja", "saaja / maksaja", "saaja", "betalningsmottagare",
                           "tegenrekeninghouder", "beneficiary/payer", "nazwa odbiorcy", "nadawca/odbiorca",
                           "partner elnevezése", "zahlungsempfänger*in", "empfänger/zahlungspflichtiger"]),
        (.description, 2, ["description", "transaction description", "transaction details", "title", "narrative", "counterparty",
                           "payment details", "beschreibung1", "description1",
                           "merchant description", "original description", "transaction", "particulars",
                           "omschrijving", "beschreibung", "buchungsdetails", "libellé", "libelle", "libellé opération",
                           "libelle operation", "détail", "detail", "concepto", "descripción", "descripcion", "descrizione",
                           "descrição", "descricao", "histórico", "opis", "opis operacji", "tytuł", "tytul", "tytuł operacji",
                           "popis", "popis transakce", "beskrivning", "text", "tekst", "beskrivelse", "kuvaus", "selitys",
                           "viesti", "rubrik"]),
        (.description, weakDescriptionRank, ["label", "details", "action", "verwendungszweck", "buchungstext", "reference", "mededelingen", "causale", "mitteilung",
                           "referencia", "riferimento", "communication", "zpráva", "meddelande", "type"]),
        (.amount, 1, ["amount", "net", "net amount", "amount (total)", "total", "transaction amount", "value",
                      "betrag", "umsatz", "umsatz in eur", "bedrag", "montant", "importe", "importo", "valor", "montante", "kwota",
                      "kwota operacji", "částka", "belopp", "beløb", "beløp", "summa", "määrä", "summe", "összeg", "suma"]),
        (.amount, 2, ["gross", "gross amount", "brutto"]),
        (.debit, 1, ["belastung", "belastungen", "debit", "debit amount", "debits", "withdrawal", "withdrawals", "withdrawal amount", "paid out",
                     "money out", "outflow", "out", "spent", "amount debit", "debet", "soll", "ausgang", "af", "débit", "debit",
                     "debe", "cargo", "cargos", "dare", "uscite", "addebiti", "débito", "saída", "obciążenia", "wydatki",
                     "výdaj", "výdej", "uttag", "ut", "udbetaling", "hævet", "ut av konto", "ut fra konto", "nosto", "veloitus"]),
        (.credit, 1, ["gutschrift", "gutschriften", "inn", "credit", "credit amount", "credits", "deposit", "deposits", "deposit amount", "paid in", "money in",
                      "inflow", "in", "received", "amount credit", "haben", "eingang", "bij", "crédit", "haber", "abono",
                      "abonos", "avere", "entrate", "accrediti", "crédito", "entrada", "uznania", "wpływy", "příjem",
                      "insättning", "in på konto", "indbetaling", "indsat", "inn på konto", "pano", "hyvitys"]),
        (.direction, 1, ["af bij", "af/bij", "transaction type", "credit/debit", "debit/credit", "credit debit indicator", "cr/dr", "dr/cr", "d/c",
                         "c/d", "soll/haben", "debit or credit", "debit credit", "s/h", "sens", "creditdebet", "kredit/debet", "debit/kredit"]),
        (.fee, 1, ["fee", "fees", "fee amount", "commission", "gebühr", "gebühren", "kosten", "frais", "comisión", "commissione",
                   "taxa", "prowizja", "poplatek", "avgift", "gebyr", "palkkio"]),
        (.currency, 1, ["currency", "currency code", "ccy", "währung", "waehrung", "valuta", "munt", "devise", "moneda",
                        "divisa", "moeda", "waluta", "měna", "mena"]),
        (.account, 1, ["account", "account name", "konto", "rekening", "compte", "cuenta", "conto", "conta", "rachunek", "účet"]),
        // tagsh's own column when the bank's export already has a Category column of its own.
        (.category, 0, ["category (tagsh)"]),
        // A plain Category column is tagsh's only beside tagsh's Tags or Intent column (see CSVColumns).
        (.category, 1, ["category"]),
        (.tags, 1, ["tags", "tag"]),
        (.notes, 1, ["notes", "note", "memo", "notiz", "notizen"]),
        (.intent, 1, ["intent"]),
        (.status, 1, ["status", "state", "transaction status"]),
    ]

    /// The rank of the weakest description names (`Type`, `Reference`, `Details`, `Label`): such a name is no
    /// evidence of the description on its own (`CSVReader.inferColumns`, `CSVReader.withFilledDescription`).
    static let weakDescriptionRank = 3

    /// Date column names used by English-language exports; any other date name means a locale that writes the day first.
    static let englishDateNames = Set(entries[0].2 + ["value date"])

    static let index: [String: (ColumnRole, Int)] = {
        var out: [String: (ColumnRole, Int)] = [:]
        for (role, rank, names) in entries {
            for name in names where out[name] == nil { out[name] = (role, rank) }
        }
        return out
    }()

    /// The most bytes a header name is taken to have: the longest tagsh knows has 33, before a bracketed suffix or a
    /// currency code. A longer field is not a name; it is neither normalized nor looked up (character by character,
    /// that took 28 s to refuse a 100 MB file with no line break in it, whose first field was all of it).
    static let longestName = 256

    /// A header name as compared: lower-cased, trimmed, inner spaces collapsed, quotes and a bracketed suffix removed.
    /// A field longer than `longestName` is not a name, and is returned as it is.
    public static func normalized(_ raw: String) -> String {
        guard raw.utf8.count <= longestName else { return raw }
        var s = raw.trimmingSpaces().lowercased()
        if s.hasPrefix("\u{FEFF}") { s.removeFirst() }
        s = String(s.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\u{A0}" }).joined(separator: " "))
        if s.hasSuffix(")"), let open = s.lastIndex(of: "("), open != s.startIndex, !index.keys.contains(s) {
            s = String(s[..<open]).trimmingSpaces()
        }
        if s.hasSuffix(":") { s.removeLast() }
        return s
    }

    /// The currency a money column's name gives in a bracketed suffix, after `in` or in capitals after it: `Betrag (EUR)`
    /// (DKB), `Amount (GBP)` (Starling), `Betrag (€)`, `Debit [USD]`, `Umsatz in EUR` (comdirect), `Belastung CHF` (ZKB).
    /// A code only when it is one ISO 4217 has (`Amount (NET)` gives none); a symbol only when it is one an amount is
    /// read with (`$`, `£`, `€`).
    public static func currency(inName raw: String) -> String? {
        guard raw.utf8.count <= longestName else { return nil }
        let s = raw.trimmingSpaces()
        // `Umsatz in EUR` (comdirect), `Belastung CHF` (ZKB: a code written in capitals after the name).
        let words = s.split(separator: " ")
        if words.count >= 2, let code = words.last, code.count == 3, isoCurrencyCodes.contains(code.uppercased()),
           code == code.uppercased() || words.count >= 3 && words[words.count - 2].lowercased() == "in" {
            return code.uppercased()
        }
        guard let close = s.last, close == ")" || close == "]",
              let open = s.lastIndex(of: close == ")" ? "(" : "["), open != s.startIndex else { return nil }
        let inside = String(s[s.index(after: open)..<s.index(before: s.endIndex)]).trimmingSpaces()
        if inside.count == 3, inside.allSatisfy({ $0.isASCII && $0.isLetter }), isoCurrencyCodes.contains(inside.uppercased()) {
            return inside.uppercased()
        }
        return inside == "$" || inside == "£" || inside == "€" ? inside : nil
    }

    /// The ISO 4217 codes of the currencies in use (as ICU's list of common codes has them).
    static let isoCurrencyCodes: Set<String> = Set("""
        AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD CAD CDF CHF CLP CNY \
        COP CRC CUC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HRK HTG HUF IDR \
        ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP \
        MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG \
        SEK SGD SHP SLE SLL SOS SRD SSP STN SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VEF VES VND VUV WST \
        XAF XCD XCG XOF XPF YER ZAR ZMW ZWG
        """.split(separator: " ").map(String.init))

    /// Header names of a column holding the bank's own id for each transaction (OFX's FITID, PayPal's and
    /// Monzo's Transaction ID, Venmo's ID): `import` matches on it before anything else.
    static let bankIDNames: Set<String> = [
        "id", "transaction id", "transactionid", "transaction_id", "txn id", "fitid", "bank id", "unique id",
        "reference number", "ref number", "ref. number", "ref no", "ref. no", "transaction reference", "bank reference",
        "transaktions-id", "transaktionsnummer", "transactie-id", "référence de l'opération", "numéro d'opération",
    ]

    /// Whether a header names the bank's own transaction id.
    public static func isBankID(_ raw: String) -> Bool { bankIDNames.contains(normalized(raw)) }

    /// The role and rank of a header name, if tagsh knows it.
    static func role(of raw: String) -> (ColumnRole, Int)? {
        guard raw.utf8.count <= longestName else { return nil }
        let n = normalized(raw)
        if let known = index[n] { return known }
        // `#Kwota` (mBank marks its names), `Belastung CHF` (a currency code after the name).
        if n.hasPrefix("#"), let known = index[String(n.dropFirst())] { return known }
        if let space = n.lastIndex(of: " "), currencyCodes.contains(String(n[n.index(after: space)...])),
           let known = index[String(n[..<space])] {
            return known
        }
        return nil
    }

    /// Currency codes a bank writes after a column's name (`Belastung CHF`, `Amount EUR`), lower-cased: a list,
    /// since any three letters would take `Transaction Ref` for `Transaction` and `Transaction Amt` for a
    /// description.
    static let currencyCodes: Set<String> = [
        "eur", "usd", "gbp", "chf", "sek", "nok", "dkk", "isk", "pln", "czk", "huf", "ron", "bgn", "hrk", "rsd", "try",
        "uah", "jpy", "cny", "hkd", "sgd", "inr", "krw", "thb", "myr", "idr", "php", "twd", "aud", "nzd", "cad", "mxn",
        "brl", "ars", "clp", "cop", "zar", "ils", "aed", "sar",
    ]
}
