/// A set of fixed-length upper-case codes, kept as one bit per possible code so that
/// building it and looking a code up cost almost nothing.
struct LetterCodeSet: Sendable {
    private let length: Int
    private var members: [Bool]

    /// The codes of `length` letters listed, separated by white space, in `list`.
    init(length: Int, list: String) {
        self.length = length
        var size = 1
        for _ in 0..<length { size *= 26 }
        members = [Bool](repeating: false, count: size)
        for slot in Self.slots(length: length, list: list) { members[slot] = true }
    }

    /// Whether `code` is in the set.
    func contains(_ code: String) -> Bool {
        Self.slot(of: code, length: length).map { members[$0] } ?? false
    }

    /// The number a code of `length` upper-case letters stands for, from 0 (AAA) up;
    /// nil for anything else.
    static func slot(of code: String, length: Int) -> Int? {
        var slot = 0
        var letters = 0
        for byte in code.utf8 {
            guard (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte), letters < length else { return nil }
            slot = slot * 26 + Int(byte - UInt8(ascii: "A"))
            letters += 1
        }
        return letters == length ? slot : nil
    }

    /// The numbers of the codes of `length` letters listed, separated by white space, in `list`.
    static func slots(length: Int, list: String) -> [Int] {
        var slots: [Int] = []
        var slot = 0
        var letters = 0
        for byte in list.utf8 where (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) {
            slot = slot * 26 + Int(byte - UInt8(ascii: "A"))
            letters += 1
            if letters == length {
                slots.append(slot)
                (slot, letters) = (0, 0)
            }
        }
        return slots
    }
}

/// ISO 3166-1 alpha-2 country codes: which exist, and what users often type instead.
package enum CountryCodes {
    /// Every officially assigned code.
    static let all = LetterCodeSet(length: 2, list: codes)

    /// Whether `code` is an officially assigned code.
    package static func contains(_ code: String) -> Bool {
        all.contains(code)
    }

    private static let codes = """
        AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS
        BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE
        EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM
        HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC
        LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA
        NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW
        SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO
        TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW
        """

    /// Codes that look right but are not ISO 3166-1, with the code meant.
    package static let commonMistakes: [String: String] = ["UK": "GB", "EL": "GR", "EN": "GB", "JA": "JP", "KO": "KR"]
}

/// ISO 4217 currency codes and their minor units.
package enum CurrencyCodes {
    /// Whether `code` is an active code.
    package static func contains(_ code: String) -> Bool {
        all.contains(code)
    }

    /// Every active code.
    static let all = LetterCodeSet(
        length: 3,
        list: """
            AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BOV BRL BSD BTN BWP
            BYN BZD CAD CDF CHE CHF CHW CLF CLP CNY COP COU CRC CUC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB
            EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY
            KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR
            MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB
            RWF SAR SBD SCR SDG SEK SGD SHP SLE SLL SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD
            TWD TZS UAH UGX USD USN UYI UYU UYW UZS VED VES VND VUV WST XAF XCD XCG XOF XPF YER ZAR ZMW ZWG
            ZWL
            """)

    /// How many digits follow the decimal point in the currency's minor unit: 2 for USD, 0 for JPY.
    package static func minorUnitDigits(of currency: String) -> Int {
        // The code's number (``LetterCodeSet/slot(of:length:)``: AAA is 0, AAB 1) against
        // the numbers of the codes named above each list, in one switch: no list is made
        // at a start, and a lookup of many prices compares no string.
        guard let slot = LetterCodeSet.slot(of: currency, length: 3) else { return 2 }
        switch slot {
        // No minor unit: BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF.
        case 889, 1653, 2267, 4399, 5886, 6498, 7077, 7224, 10770, 12069, 13699, 14152, 14537, 14737, 15553,
            15917, 15943:
            return 0
        // Thousandths: BHD IQD JOD KWD LYD OMR TND.
        case 861, 5827, 6451, 7335, 8063, 9793, 13185: return 3
        // Ten-thousandths: CLF UYW.
        case 1643, 14166: return 4
        default: return 2
        }
    }

    /// How many minor units make one major unit: 100 for USD, 1 for JPY.
    package static func minorUnitScale(of currency: String) -> Int {
        var scale = 1
        for _ in 0..<minorUnitDigits(of: currency) { scale *= 10 }
        return scale
    }
}
