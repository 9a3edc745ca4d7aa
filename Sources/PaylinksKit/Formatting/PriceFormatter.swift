/// Writes amounts of money the way players and developers read them.
package enum PriceFormatter {
    /// A localized price as the SDK's `formattedPrice`: "$4.99", "5,49 €", "¥800",
    /// following the currency's separators, symbol position and spacing.
    package static func format(_ localizedPrice: Int, as data: PricePoints.PricingPointData) -> String {
        let digits = fractionDigits(ofMultiplier: data.multiplier)
        let amount = decimal(
            localizedPrice, fractionDigits: digits, fractionalSeparator: data.fractionalSeparator,
            groupSeparator: data.milSeparator)
        let space = data.spacing ? " " : ""
        return data.symbolPosition == "Right"
            ? amount + space + data.currencySymbol
            : data.currencySymbol + space + amount
    }

    /// An amount in minor units with its currency code, grouped: 499 USD → "4.99 USD",
    /// 899900 INR → "8,999.00 INR", 800 JPY → "800 JPY".
    package static func formatMinorUnits(_ amount: Int, currency: String) -> String {
        let digits = CurrencyCodes.minorUnitDigits(of: currency)
        return decimal(amount, fractionDigits: digits, fractionalSeparator: ".", groupSeparator: ",") + " " + currency
    }

    /// How many decimals a multiplier implies: 100 → 2, 1 → 0.
    static func fractionDigits(ofMultiplier multiplier: Int) -> Int {
        var digits = 0
        var rest = multiplier
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        return digits
    }

    /// `value` with `fractionDigits` decimals, grouped in thousands: written digit by
    /// digit into one buffer, since a price list formats many of them.
    static func decimal(_ value: Int, fractionDigits: Int, fractionalSeparator: String, groupSeparator: String)
        -> String
    {
        // The digits, the least significant first, at least one more than the decimals.
        var digits: [UInt8] = []
        var rest = value.magnitude
        repeat {
            digits.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        while digits.count <= fractionDigits { digits.append(UInt8(ascii: "0")) }
        let whole = digits.count - fractionDigits
        var text: [UInt8] = value < 0 ? [UInt8(ascii: "-")] : []
        text.reserveCapacity(digits.count + whole / 3 * groupSeparator.utf8.count + 4)
        for offset in 0..<whole {
            if offset > 0 && (whole - offset) % 3 == 0 { text += groupSeparator.utf8 }
            text.append(digits[digits.count - 1 - offset])
        }
        if fractionDigits > 0 {
            text += fractionalSeparator.utf8
            text += digits[..<fractionDigits].reversed()
        }
        return String(decoding: text, as: UTF8.self)
    }
}
