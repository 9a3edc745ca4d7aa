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

    /// `value` with `fractionDigits` decimals, grouped in thousands.
    static func decimal(_ value: Int, fractionDigits: Int, fractionalSeparator: String, groupSeparator: String)
        -> String
    {
        let negative = value < 0
        var digits = String(value.magnitude)
        if digits.count <= fractionDigits {
            digits = String(repeating: "0", count: fractionDigits - digits.count + 1) + digits
        }
        let whole = digits.dropLast(fractionDigits)
        let fraction = digits.suffix(fractionDigits)
        var grouped = ""
        for (offset, character) in whole.enumerated() {
            if offset > 0 && (whole.count - offset) % 3 == 0 { grouped += groupSeparator }
            grouped.append(character)
        }
        let sign = negative ? "-" : ""
        return fractionDigits == 0 ? sign + grouped : sign + grouped + fractionalSeparator + fraction
    }
}
