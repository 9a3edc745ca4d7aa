/// Writes amounts of money the way players and developers read them.
package enum PriceFormatter {
    /// A localized price as the SDK's `formattedPrice`: "$4.99", "5,49 €", "¥800",
    /// following the currency's separators, symbol position and spacing.
    package static func format(_ localizedPrice: Int, as data: PricePoints.PricingPointData) -> String {
        let symbol = data.currencySymbol
        let right = data.symbolPosition == "Right"
        let space = data.spacing
        return written(
            localizedPrice, fractionDigits: fractionDigits(ofMultiplier: data.multiplier),
            fractionalSeparator: data.fractionalSeparator, groupSeparator: data.milSeparator,
            extra: symbol.utf8.count + 1
        ) { text, number in
            if !right {
                text.append(symbol)
                if space { text.append(UInt8(ascii: " ")) }
            }
            number(&text)
            if right {
                if space { text.append(UInt8(ascii: " ")) }
                text.append(symbol)
            }
        }
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
        written(
            value, fractionDigits: fractionDigits, fractionalSeparator: fractionalSeparator,
            groupSeparator: groupSeparator, extra: 0
        ) { text, number in number(&text) }
    }

    /// Bytes written into a buffer on the stack, made a string once: a price list formats
    /// many prices, and none of them needs a list of its own.
    struct Text: ~Copyable {
        let buffer: UnsafeMutableBufferPointer<UInt8>
        var count = 0

        mutating func append(_ byte: UInt8) {
            // Room is counted before: past it is a fault of this file, stopped, never written.
            precondition(count < buffer.count, "a price's text outgrew its room")
            buffer[count] = byte
            count += 1
        }

        mutating func append(_ text: String) {
            for byte in text.utf8 { append(byte) }
        }
    }

    /// The text `layout` writes around `value` (which it writes where it calls `number`)
    /// with `fractionDigits` decimals, grouped in thousands; `extra` bytes are room for
    /// what the layout adds.
    static func written(
        _ value: Int, fractionDigits: Int, fractionalSeparator: String, groupSeparator: String, extra: Int,
        layout: (inout Text, (inout Text) -> Void) -> Void
    ) -> String {
        // The digits, the least significant first, at least one more than the decimals.
        let fractionDigits = max(0, fractionDigits)
        let capacity =
            2 * (21 + fractionDigits) + 7 * groupSeparator.utf8.count + fractionalSeparator.utf8.count + extra
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { scratch in
            let digits = UnsafeMutableBufferPointer(rebasing: scratch[..<(21 + fractionDigits)])
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
            var text = Text(buffer: UnsafeMutableBufferPointer(rebasing: scratch[(21 + fractionDigits)...]))
            layout(&text) { text in
                let whole = count - fractionDigits
                if value < 0 { text.append(UInt8(ascii: "-")) }
                for offset in 0..<whole {
                    if offset > 0 && (whole - offset) % 3 == 0 { text.append(groupSeparator) }
                    text.append(digits[count - 1 - offset])
                }
                if fractionDigits > 0 {
                    text.append(fractionalSeparator)
                    for position in stride(from: fractionDigits - 1, through: 0, by: -1) {
                        text.append(digits[position])
                    }
                }
            }
            return String(decoding: UnsafeBufferPointer(rebasing: text.buffer[..<text.count]), as: UTF8.self)
        }
    }
}
