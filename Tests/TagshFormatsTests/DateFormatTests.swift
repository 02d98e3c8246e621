import Testing
import TagshModel
@testable import TagshFormats

/// Every date form bank exports use, read in each order; nil where the form cannot be read in that order.
struct DateFormatTests {
    static let forms: [(String, DateFormat, String?)] = [
        ("2024-03-05", .mdy, "2024-03-05"), ("2024/03/05", .dmy, "2024-03-05"), ("2024.03.05", .mdy, "2024-03-05"),
        (" 2024-01-05", .mdy, "2024-01-05"), ("\"2024-01-05\"", .dmy, "2024-01-05"),
        ("2017-04-25T03:15:53", .mdy, "2017-04-25"), ("2017-04-25T03:15:53.123Z", .dmy, "2017-04-25"),
        ("2018-02-25 12:34:56 +0000", .mdy, "2018-02-25"), ("2018-02-25 12:34", .dmy, "2018-02-25"),
        ("2024-03-05T10:00:00+01:00", .mdy, "2024-03-05"), ("2024-03-05 10:00:00 UTC", .mdy, "2024-03-05"),
        ("22.02.18", .dmy, "2018-02-22"), ("22.02.2018", .dmy, "2018-02-22"), ("01/29/16", .mdy, "2016-01-29"),
        ("01/29/16", .dmy, nil), ("29/01/2016", .dmy, "2016-01-29"), ("29/01/2016", .mdy, nil),
        ("03/05/2024", .mdy, "2024-03-05"), ("03/05/2024", .dmy, "2024-05-03"), ("3/5/24", .dmy, "2024-05-03"),
        ("07 Nov 2013", .mdy, "2013-11-07"), ("07 Nov 2013", .dmy, "2013-11-07"), ("10 Feb 18", .dmy, "2018-02-10"),
        ("Jan 5, 2024", .mdy, "2024-01-05"), ("January 5, 2024", .dmy, "2024-01-05"), ("5 January 2024", .mdy, "2024-01-05"),
        ("Sept 30, 2023", .mdy, "2023-09-30"), ("Dec. 1, 2023", .mdy, "2023-12-01"), ("2013 Nov 07", .mdy, "2013-11-07"),
        ("3. März 2024", .dmy, "2024-03-03"), ("12 okt 2023", .dmy, "2023-10-12"), ("5 mrt 2024", .dmy, "2024-03-05"),
        ("1 févr. 2024", .dmy, "2024-02-01"), ("15-ene-2024", .dmy, "2024-01-15"), ("15-Aug-2023", .dmy, "2023-08-15"),
        ("20121231", .mdy, "2012-12-31"), ("20121231", .dmy, "2012-12-31"), ("2019.04.19.", .dmy, "2019-04-19"),
        ("05.03.2024 14:22", .dmy, "2024-03-05"), ("31.12.1999", .dmy, "1999-12-31"), ("01/01/70", .mdy, "1970-01-01"),
        // Not dates.
        ("2024-02-30", .mdy, nil), ("2024-13-01", .dmy, nil), ("", .mdy, nil), ("pending", .mdy, nil), ("13/13/2024", .dmy, nil),
        ("2024-03-05 tomorrow", .mdy, nil), ("Foo 5, 2024", .mdy, nil), ("1/2", .mdy, nil), ("123/4/2024", .mdy, nil),
    ]

    @Test(arguments: forms)
    func reads(_ text: String, _ order: DateFormat, _ expected: String?) {
        #expect(order.parse(text)?.description == expected, "\(text) as \(order)")
    }

    /// What one date says about the order: only a part above 12 settles it.
    @Test(arguments: [
        ("03/05/2024", nil), ("13/05/2024", DateFormat.dmy), ("05/13/2024", .mdy), ("2024-05-13", .ymd), ("7 Nov 2013", .ymd),
        ("12.12.2024", nil), ("31.01.24", .dmy), ("garbage", nil),
    ] as [(String, DateFormat?)])
    func evidence(_ text: String, _ expected: DateFormat?) {
        #expect(DateFormat.evidence(text) == expected)
    }

    @Test(arguments: [
        ("%d/%m/%Y", "05/03/2024", "2024-03-05"), ("%m/%d/%y", "03/05/24", "2024-03-05"), ("%d %b %Y", "5 Mar 2024", "2024-03-05"),
        ("%Y-%m-%dT%H:%M:%S", "2024-03-05T10:11:12", "2024-03-05"), ("%Y-%m-%d %H:%M:%S %z", "2024-03-05 10:11:12 +0100", "2024-03-05"),
        ("%Y%m%d", "20240305", "2024-03-05"), ("%B %d, %Y", "March 5, 2024", "2024-03-05"), ("Booked %d.%m.%Y", "Booked 05.03.2024", "2024-03-05"),
        ("%d.%m.%y", "05.03.24", "2024-03-05"), ("%d %b %Y", "2024-03-05", nil), ("%d/%m/%Y", "2024-03-05", "2024-03-05"), ("%Y-%m-%d", "2024-03-05 extra", nil),
    ])
    func explicitPatterns(_ pattern: String, _ text: String, _ expected: String?) throws {
        let format = try #require(DateFormat(pattern: pattern))
        #expect(format.parse(text)?.description == expected, "\(text) with \(pattern)")
    }

    @Test(arguments: ["%H:%M", "%d/%m", "nonsense", "%q-%m-%Y"])
    func patternsWithoutADateAreRefused(_ pattern: String) {
        #expect(DateFormat(pattern: pattern) == nil)
    }

    static func read(_ csv: String, _ options: ReadOptions = ReadOptions()) throws -> (days: [String], layout: CSVLayout) {
        let (ledger, layout, _) = try CSVReader.read(Array(csv.utf8), fileName: "t.csv", options: options)
        return ((0..<ledger.count).map { ledger.day($0).description }, layout)
    }

    /// A UK file whose first dates could be either order is read day first once a later date settles it.
    /// The fixed-width shortcuts (`YYYY-MM-DD` in any order, `NN.NN.NNNN` and its kin in day or month order) read
    /// what the general reading of the tokens reads, on every 10-byte text of digits and separators drawn here
    /// (valid dates, impossible ones, mixed separators, a letter).
    @Test func shortcutsReadAsTheTokensDo() {
        var rng = SystemRandomNumberGenerator()
        let alphabet = Array("0123456789012345678901234567890123456789-./ x".utf8)
        var shapes: [[UInt8]] = []
        for _ in 0..<20_000 {
            // Ten bytes (2024-03-05, 05.03.2024) or eight (05/03/24).
            let length = Int.random(in: 0..<3, using: &rng) == 0 ? 8 : 10
            var b = (0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &rng)] }
            // Most of them in the shapes the shortcuts take.
            switch Int.random(in: 0..<3, using: &rng) {
            case 0 where length == 10: b[4] = 0x2D; b[7] = 0x2D
            case 0, 1: let sep = [UInt8(0x2E), 0x2F, 0x2D][Int.random(in: 0..<3, using: &rng)]; b[2] = sep; b[5] = sep
            default: break
            }
            shapes.append(b)
        }
        shapes += ["2024-03-05", "05.03.2024", "03/05/2024", "31.12.1999", "12-31-1999", "00.00.0000", "29.02.2023",
                   "29.02.2024", "13/13/2024", "2024-02-30", "05.03/2024", "02/08/24", "31.12.69", "01-01-70", "29.02.23",
                   "12/31/99", "00/00/00", "02/08-24", "2/8/2024"].map { Array($0.utf8) }
        var read = 0
        for b in shapes {
            b.withUnsafeBufferPointer { f in
                for order in [DateFormat.ymd, .mdy, .dmy] {
                    let general = DateTokens(f)?.day(in: order)
                    #expect(order.parse(f) == general, "\(String(decoding: b, as: UTF8.self)) \(order)")
                    if general != nil { read += 1 }
                }
            }
        }
        #expect(read > 1_000)
    }

    @Test func aLaterDateSettlesTheOrderForTheEarlierOnes() throws {
        let (days, layout) = try Self.read("Date,Description,Amount\n03/05/2024,A,-1\n04/05/2024,B,-1\n13/05/2024,C,-1\n")
        #expect(days == ["2024-05-03", "2024-05-04", "2024-05-13"])
        #expect(layout.dateFormat == .dmy && layout.guesses.isEmpty)
        let (us, usLayout) = try Self.read("Date,Description,Amount\n03/05/2024,A,-1,\n05/13/2024,C,-1\n")
        #expect(us == ["2024-03-05", "2024-05-13"])
        #expect(usLayout.dateFormat == .mdy)
    }

    /// When no date settles it, the reader says which order it chose, why, and how to change it.
    @Test func anUnsettledOrderIsReported() throws {
        let (days, layout) = try Self.read("Date,Description,Amount\n03/05/2024,A,£-1.00\n04/05/2024,B,£-2.00\n")
        #expect(days == ["2024-05-03", "2024-05-04"])
        #expect(layout.guesses.count == 1)
        #expect(layout.guesses.first?.contains("read as day/month/year (the amounts are in pounds); --date-format %m/%d/%Y") == true)
        let (forced, forcedLayout) = try Self.read("Date,Description,Amount\n03/05/2024,A,-1\n", ReadOptions(dateFormat: .mdy))
        #expect(forced == ["2024-03-05"] && forcedLayout.guesses.isEmpty)
    }

    /// With no date to settle it, a header in another language than English means day first.
    @Test func aNonEnglishHeaderMeansDayFirst() throws {
        let (days, layout) = try Self.read("Datum,Omschrijving,Bedrag\n03/05/2024,A,-1.00\n")
        #expect(days == ["2024-05-03"])
        #expect(layout.guesses.first?.contains("the header is not in English") == true)
        let (us, _) = try Self.read("Date,Description,Amount\n03/05/2024,A,-1.00\n")
        #expect(us == ["2024-03-05"])
    }

    /// Dates that disagree with each other are an error at the one that breaks the order.
    @Test func datesThatDisagreeAreAnError() {
        #expect(throws: Diagnostic.self) { try Self.read("Date,Description,Amount\n13/05/2024,A,-1\n05/14/2024,B,-1\n") }
    }
}

/// `MonthNames.month` folds a word byte by byte; it must name the same month as lower-casing the word as a `String`
/// and replacing ä, é, û and ç (what it did before) on every spelling of every name, accented one character at a
/// time or as a letter and its combining mark, in any case, and on words that are not months.
struct MonthNamesTests {
    static func reference(_ word: String) -> Int? {
        guard word.utf8.count >= 3, word.utf8.count <= 12 else { return nil }
        return MonthNames.table[word.lowercased().replacingAll("ä", with: "ae").replacingAll("é", with: "e")
            .replacingAll("û", with: "u").replacingAll("ç", with: "c")]
    }

    static func folded(_ word: String) -> Int? {
        Array(word.utf8).withUnsafeBufferPointer { MonthNames.month($0) }
    }

    /// Every name, then each of its e, u, c and ae accented (precomposed and combining), in three cases.
    static var spellings: [String] {
        var out: [String] = []
        for name in MonthNames.table.keys {
            var forms = [name]
            for (plain, accented) in [("ae", ["ä", "a\u{308}"]), ("e", ["é", "e\u{301}"]), ("u", ["û", "u\u{302}"]), ("c", ["ç", "c\u{327}"])] {
                for a in accented where name.contains(plain) { forms.append(name.replacingAll(plain, with: a)) }
            }
            for f in forms { out += [f, f.uppercased(), f.prefix(1).uppercased() + f.dropFirst()] }
        }
        return out
    }

    @Test func foldsAsTheStringDid() {
        let others = ["foo", "ja", "jan.", "januaryy", "septembers", "decembre-x", "mär\u{301}z", "ma\u{308}\u{308}rz", "x\u{301}an",
                      "ma\u{301}r", "m\u{308}ar", "jän\u{308}", "déc\u{301}", "aoû", "fév", "FÉVR", "März", "MAERZ", "Mrz", "Maerz",
                      "mar\u{200B}", "ßep", "ʼjan", "june\u{0}", "jüni", "ñov", "Dez", "dicembrexyzw", "de\u{301}cembre",
                      "d\u{301}ec", "ao\u{302}\u{302}t", "mar\u{327}o", "marc\u{327}\u{327}o", "Ça", "ÄUG", "\u{308}aug",
                      "jun\u{308}", "ja\u{301}n", "jan\u{302}", "oct\u{327}"]
        var checked = 0
        for word in MonthNamesTests.spellings + others {
            #expect(MonthNamesTests.folded(word) == MonthNamesTests.reference(word), "\(word)")
            checked += 1
        }
        #expect(checked > 300)
        #expect(MonthNamesTests.folded("MÄRZ") == 3 && MonthNamesTests.folded("aou\u{302}t") == 8 && MonthNamesTests.folded("Sept") == 9)
    }
}
