/// Writes amounts of money the way players and developers read them.
package enum PriceFormatter {
    /// A localized price as the SDK's `formattedPrice`: "$4.99", "5,49 €", "¥800",
    /// following the currency's separators, symbol position and spacing.
    package static func format(_ localizedPrice: Int, as data: PricePoints.PricingPointData) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(24 + data.currencySymbol.utf8.count)
        let right = data.symbolPosition == "Right"
        if !right {
            text += data.currencySymbol.utf8
            if data.spacing { text.append(UInt8(ascii: " ")) }
        }
        appendDecimal(
            localizedPrice, fractionDigits: fractionDigits(ofMultiplier: data.multiplier),
            fractionalSeparator: data.fractionalSeparator, groupSeparator: data.milSeparator, to: &text)
        if right {
            if data.spacing { text.append(UInt8(ascii: " ")) }
            text += data.currencySymbol.utf8
        }
        return String(decoding: text, as: UTF8.self)
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

    /// `value` with `fractionDigits` decimals, grouped in thousands.
    static func decimal(_ value: Int, fractionDigits: Int, fractionalSeparator: String, groupSeparator: String)
        -> String
    {
        var text: [UInt8] = []
        appendDecimal(
            value, fractionDigits: fractionDigits, fractionalSeparator: fractionalSeparator,
            groupSeparator: groupSeparator, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// Appends `value` with `fractionDigits` decimals, grouped in thousands, to `text`:
    /// written digit by digit, the digits first into a buffer on the stack, since a price
    /// list formats many of them.
    static func appendDecimal(
        _ value: Int, fractionDigits: Int, fractionalSeparator: String, groupSeparator: String,
        to text: inout [UInt8]
    ) {
        // The digits, the least significant first, at least one more than the decimals.
        let fractionDigits = max(0, fractionDigits)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20 + fractionDigits) { digits in
            var count = 0
            var rest = value.magnitude
            repeat {
                digits[count] = UInt8(ascii: "0") + UInt8(rest % 10)
                count += 1
                rest /= 10
            } while rest > 0
            while count <= fractionDigits {
                digits[count] = UInt8(ascii: "0")
                count += 1
            }
            let whole = count - fractionDigits
            if value < 0 { text.append(UInt8(ascii: "-")) }
            for offset in 0..<whole {
                if offset > 0 && (whole - offset) % 3 == 0 { text += groupSeparator.utf8 }
                text.append(digits[count - 1 - offset])
            }
            if fractionDigits > 0 {
                text += fractionalSeparator.utf8
                for position in stride(from: fractionDigits - 1, through: 0, by: -1) { text.append(digits[position]) }
            }
        }
    }
}
