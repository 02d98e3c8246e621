import Testing
import TagshModel
@testable import TagshFormats

/// Header names, sign conventions and pending rows as banks write them: each
/// shape read into (date, description, amount) per transaction.
struct CSVShapeTests {
    static func read(_ csv: String) throws -> [String] {
        let (ledger, _, _) = try CSVReader.read(Array(csv.utf8), fileName: "t.csv")
        return (0..<ledger.count).map { r in
            let t = ledger.transaction(r)
            return "\(t.day) \(t.merchant) \(t.amount)" + (ledger.pendingRows.contains(Int32(r)) ? " pending" : "")
        }
    }

    static let shapes: [(String, String, [String])] = [
        ("German, payee beats purpose, value date loses",
         "Buchungstag;Valutadatum;Auftraggeber / Begünstigter;Verwendungszweck;Betrag (EUR)\n"
            + "05.03.2024;06.03.2024;REWE Markt;Einkauf 123;-23,45\n",
         ["2024-03-05 REWE Markt -23.45"]),
        ("Dutch, unsigned amount with Af Bij",
         "\"Datum\",\"Naam / Omschrijving\",\"Rekening\",\"Af Bij\",\"Bedrag (EUR)\"\n"
            + "\"20240301\",\"Albert Heijn\",\"NL01\",\"Af\",\"12,50\"\n\"20240302\",\"Salaris\",\"NL01\",\"Bij\",\"2000,00\"\n",
         ["2024-03-01 Albert Heijn -12.50", "2024-03-02 Salaris 2000.00"]),
        ("Mint, unsigned amount with a debit/credit type",
         "\"Date\",\"Description\",\"Original Description\",\"Amount\",\"Transaction Type\",\"Category\"\n"
            + "\"1/05/2024\",\"Starbucks\",\"STARBUCKS #123\",\"4.75\",\"debit\",\"Coffee Shops\"\n"
            + "\"1/15/2024\",\"Paycheck\",\"ACME PAYROLL\",\"1500.00\",\"credit\",\"Paycheck\"\n",
         ["2024-01-05 Starbucks -4.75", "2024-01-15 Paycheck 1500.00"]),
        ("a direction column in every spelling, padded, quoted and repeated",
         "Date,Description,Amount,Debit/Credit\n2024-03-01,A,1.00,D\n2024-03-02,B,2.00,D\n2024-03-03,C,3.00, c \n"
            + "2024-03-04,D,4.00,\"Dr\"\n2024-03-05,E,-5.00,CR\n2024-03-06,F,6.00,\"D\"\n2024-03-07,G,7.00,D\t\n2024-03-08,H,8.00,Kredīts\n",
         ["2024-03-01 A -1.00", "2024-03-02 B -2.00", "2024-03-03 C 3.00", "2024-03-04 D -4.00", "2024-03-05 E 5.00",
          "2024-03-06 F -6.00", "2024-03-07 G -7.00", "2024-03-08 H 8.00"]),
        ("a Type column that is not a direction stays an ordinary column",
         "Transaction Date,Post Date,Description,Category,Type,Amount\n01/05/2024,01/06/2024,NETFLIX,Entertainment,Sale,-15.49\n",
         ["2024-01-05 NETFLIX -15.49"]),
        ("a Type column of DR and CR is a direction", "Date,Description,Amount,Type\n2025-01-02,STARBUCKS,5.45,DR\n"
            + "2025-01-03,RENT,\"1,200.00\",DR\n2025-01-14,PAYROLL,\"2,500.00\",CR\n",
         ["2025-01-02 STARBUCKS -5.45", "2025-01-03 RENT -1200.00", "2025-01-14 PAYROLL 2500.00"]),
        ("Revolut, a fee on top", "Type,Started Date,Completed Date,Description,Amount,Fee,Currency,State\n"
            + "CARD_PAYMENT,2024-03-01 10:12:13,2024-03-02 09:00:00,Lidl,-10.00,0.50,EUR,COMPLETED\n",
         ["2024-03-01 Lidl -10.50"]),
        ("PayPal, net already has the fee", "Date,Time,Name,Gross,Fee,Net,Currency\n05/03/2024,10:00:00,Shop,-20.00,-0.80,-20.80,EUR\n",
         ["2024-03-05 Shop -20.80"]),
        ("UK paid out / paid in", "Date,Description,Paid out,Paid in,Balance\n03/05/2024,TESCO,12.00,,100.00\n04/05/2024,WAGES,,900.00,1000.00\n"
            + "13/05/2024,BOOTS,3.00,,997.00\n",
         ["2024-05-03 TESCO -12.00", "2024-05-04 WAGES 900.00", "2024-05-13 BOOTS -3.00"]),
        ("CR and DR suffixes", "Date,Details,Amount\n2024-01-02,REFUND,12.00 CR\n2024-01-03,SHOP,8.00 DR\n",
         ["2024-01-02 REFUND 12.00", "2024-01-03 SHOP -8.00"]),
        ("a pending row with no amount", "Date,Description,Amount\n2024-01-02,CAFE,-3.00\n2024-01-03,HOTEL,\n",
         ["2024-01-02 CAFE -3.00", "2024-01-03 HOTEL 0 pending"]),
        ("a footer after the last transaction", "Date,Description,Amount\n2024-01-02,CAFE,-3.00\n\n***END OF FILE***\n",
         ["2024-01-02 CAFE -3.00"]),
        ("a totals line", "Date,Description,Amount\n2024-01-02,CAFE,-3.00\n,Total,-3.00\n", ["2024-01-02 CAFE -3.00"]),
        ("an opening-balance line without a date above the first transaction", "Date,Description,Amount,Balance\n,,,$120.00\n2024-01-02,CAFE,-3.00,\n",
         ["2024-01-02 CAFE -3.00"]),
        ("a currency symbol with dots before the number", "Date,Payee,Outflow,Inflow\n2024/01/05,Cafe,د.ا.\u{200F}4.750,د.ا.\u{200F}0.000\n",
         ["2024-01-05 Cafe -4.750"]),
        ("French", "Date de l'opération;Libellé;Montant\n05/03/2024;CARREFOUR;-45,10\n",
         ["2024-03-05 CARREFOUR -45.10"]),
        ("Spanish", "Fecha;Concepto;Importe\n05/03/2024;MERCADONA;-30,00\n", ["2024-03-05 MERCADONA -30.00"]),
        ("Italian", "Data contabile;Descrizione;Importo\n05/03/2024;ESSELUNGA;-12,00\n", ["2024-03-05 ESSELUNGA -12.00"]),
        ("Polish", "Data operacji;Opis operacji;Kwota\n2024-03-05;BIEDRONKA;-15,99\n", ["2024-03-05 BIEDRONKA -15.99"]),
        ("Swedish", "Bokföringsdag;Text;Belopp\n2024-03-05;ICA;-120,00\n", ["2024-03-05 ICA -120.00"]),
        ("Czech", "Datum zaúčtování;Název protiúčtu;Částka\n05.03.2024;Albert;-250,00\n", ["2024-03-05 Albert -250.00"]),
        ("Portuguese", "Data de movimento;Descrição;Valor\n05-03-2024;PINGO DOCE;-9,99\n", ["2024-03-05 PINGO DOCE -9.99"]),
        ("Finnish", "Kirjauspäivä;Saaja/Maksaja;Määrä\n05.03.2024;K-Market;-7,50\n", ["2024-03-05 K-Market -7.50"]),
    ]

    /// A line that is not a transaction is an error when transactions follow it; at the end it is a footer, reported.
    @Test func aFooterIsNotedButALineInTheMiddleIsAnError() throws {
        let csv = "Date,Description,Amount\n2024-01-02,CAFE,-3.00\nas of 2024-01-31,,\nTotal,,-3.00\n"
        let (_, layout, _) = try CSVReader.read(Array(csv.utf8), fileName: "t.csv")
        #expect(layout.notes == ["2 lines from line 3 are not transactions (a footer): kept as they are"])
        let (_, one, _) = try CSVReader.read(Array("Date,Description,Amount\n2024-01-02,CAFE,-3.00\nTotal,,-3.00\n".utf8), fileName: "t.csv")
        #expect(one.notes == ["line 3 is not a transaction (a footer): kept as it is"])
        #expect(throws: Diagnostic.self) {
            try CSVReader.read(Array("Date,Description,Amount\nnot a date,X,-1\n2024-01-02,CAFE,-3.00\n".utf8), fileName: "t.csv")
        }
    }

    /// The first save that adds annotation columns adds all four and gives every record their fields, quoted as the file quotes.
    @Test(arguments: [
        ("Date,Description,Amount\n2024-01-02,CAFE,-3.00\n2024-01-03,BAR,-4.00\nTotal,,-7.00\n",
         "Date,Description,Amount,Intent,Category,Tags,Notes\n2024-01-02,CAFE,-3.00,,,,\n2024-01-03,BAR,-4.00,want,,y,\nTotal,,-7.00\n"),
        ("\"Date\",\"Description\",\"Amount\"\r\n\"2024-01-02\",\"CAFE\",\"-3.00\"\r\n\"2024-01-03\",\"BAR\",\"-4.00\"\r\n",
         "\"Date\",\"Description\",\"Amount\",\"Intent\",\"Category\",\"Tags\",\"Notes\"\r\n"
            + "\"2024-01-02\",\"CAFE\",\"-3.00\",\"\",\"\",\"\",\"\"\r\n"
            + "\"2024-01-03\",\"BAR\",\"-4.00\",\"want\",\"\",\"y\",\"\"\r\n"),
    ])
    func addedColumnsKeepTheFileRectangular(_ csv: String, _ expected: String) throws {
        let bytes = Array(csv.utf8)
        var loaded = try LedgerDocument.read(bytes, fileName: "t.csv", format: .csv, options: ReadOptions())
        let yTag = loaded.ledger.internTagSet(["y"])
        loaded.ledger.intent[1] = Intent.want.rawValue
        loaded.ledger.tagSet[1] = yTag
        let out = try loaded.document.render(loaded.ledger, changedRows: [1])
        #expect(String(decoding: out[0].bytes, as: UTF8.self) == expected)
    }

    /// A direction column's word that says neither way is an error naming the field, however often the words
    /// before it were read.
    @Test func aDirectionThatIsNeitherIsAnError() {
        let csv = "Date,Description,Amount,Debit/Credit\n2024-03-01,A,1.00,D\n2024-03-02,B,2.00,C\n2024-03-03,C,3.00,X\n"
        var options = ReadOptions()
        options.columns = try? ColumnMap(parsing: "date=1,description=2,amount=3,direction=4")
        #expect(options.columns != nil)
        #expect(throws: Diagnostic.self) { try CSVReader.read(Array(csv.utf8), fileName: "t.csv", options: options) }
        do {
            _ = try CSVReader.read(Array(csv.utf8), fileName: "t.csv", options: options)
        } catch {
            #expect(error.message == "cannot tell money in from money out: 'X'")
            #expect(error.line == 4 && error.column == 19)
        }
    }

    /// An amount less its fee, or a debit and a credit together, past what an amount holds: an error at the field
    /// (the amount was kept as it was, without the fee, or the first side alone).
    @Test(arguments: [
        ("Date,Description,Amount,Fee\n2024-01-01,A,-9000000000000000.00,900000000000000000\n", "the amount less the fee", 35),
        ("Date,Description,Debit,Credit\n2024-01-01,A,9000000000000000.00,-900000000000000000\n2024-01-02,B,5.00,\n2024-01-03,C,,1.00\n",
         "the debit and credit together", 34),
    ])
    func sumsPastAnAmountAreAnError(_ csv: String, _ message: String, _ column: Int) {
        #expect(throws: Diagnostic.self) { try CSVReader.read(Array(csv.utf8), fileName: "t.csv", options: ReadOptions()) }
        do {
            _ = try CSVReader.read(Array(csv.utf8), fileName: "t.csv", options: ReadOptions())
        } catch {
            #expect(error.message.contains(message) && error.line == 2 && error.column == column, "\(error.message) \(error.line):\(error.column)")
        }
    }

    @Test(arguments: shapes)
    func reads(_ name: String, _ csv: String, _ expected: [String]) throws {
        #expect(try Self.read(csv) == expected, "\(name)")
    }
}
