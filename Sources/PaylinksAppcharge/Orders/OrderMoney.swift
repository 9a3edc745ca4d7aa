public import PaylinksKit

/// The money of one order, split as Appcharge splits it: what the player paid, its tax,
/// the same in US cents, the exchange cost, Appcharge's fee and the publisher's net. The
/// award, the events and both reports write these figures and no others.
///
/// Every figure is a whole number of the field's unit: the currency's minor units (whole
/// yen for JPY) for the local ones, US cents for the dollar ones. Each is computed exactly
/// in integers and ratios and rounded once, half up (half away from zero for a negative
/// amount): R(x). A figure that others must sum to is their difference, never rounded on
/// its own, so that `priceInCents` = `subTotal` + `tax` and `priceTotalInDollar` =
/// `net` + `fee` + `currencyExchangeCost` + `taxInDollar` hold exactly:
/// - Excluded: `subTotal` = price, `tax` = R(subTotal × t / 100), `priceInCents` = subTotal + tax.
/// - Included: `priceInCents` = price, `tax` = R(priceInCents × t / (100 + t)), `subTotal` = priceInCents − tax.
/// - `priceTotalInDollar` = R(priceInCents × 100 / (10^e × r)), `taxInDollar` = R(tax × 100 / (10^e × r)),
///   `priceInDollar` = priceTotalInDollar − taxInDollar, for r local units a dollar buys and e
///   minor digits. Without r the dollar total is the price point (0 without one) and its tax
///   the same share of it as `tax` is of `priceInCents`.
/// - `currencyExchangeCost` = 0 for USD, else R(priceTotalInDollar × exchange-cost rate);
///   `fee` = R(priceInDollar × fee rate); `net` = priceInDollar − currencyExchangeCost − fee.
public struct OrderMoney: Equatable, Sendable {
    /// What Appcharge takes of an order, in percent: its fee and the cost of converting the
    /// payment to dollars. Contractual, so the command line takes both as options.
    public struct Rates: Equatable, Sendable {
        /// Appcharge's fee, in percent of the price before tax in dollars: 15.
        public var fee: ExactDecimal
        /// The cost of converting a payment that is not in dollars, in percent of its dollar
        /// total: 1.5.
        public var exchangeCost: ExactDecimal

        /// Rates.
        public init(fee: ExactDecimal, exchangeCost: ExactDecimal) {
            self.fee = fee
            self.exchangeCost = exchangeCost
        }

        /// A fee of 15% and an exchange cost of 1.5%.
        public static var standard: Rates {
            Rates(fee: ExactDecimal(significand: 15, scale: 0), exchangeCost: ExactDecimal(significand: 15, scale: 1))
        }
    }

    /// What an order's money is figured with: its country's tax, the dollar's rate in its
    /// currency, and Appcharge's rates.
    public struct Terms: Equatable, Sendable {
        /// Whether the price holds the tax or has it added.
        public var taxModel: PriceLocalization.TaxModel
        /// The tax rate, in percent.
        public var taxRate: ExactDecimal
        /// Local units one dollar buys; nil when none is known.
        public var usdExchangeRate: ExactDecimal?
        /// Appcharge's fee and exchange cost.
        public var rates: Rates

        /// Terms.
        public init(
            taxModel: PriceLocalization.TaxModel, taxRate: ExactDecimal, usdExchangeRate: ExactDecimal?,
            rates: Rates = .standard
        ) {
            self.taxModel = taxModel
            self.taxRate = taxRate
            self.usdExchangeRate = usdExchangeRate
            self.rates = rates
        }

        /// No tax and no known dollar rate.
        public static let untaxed = Terms(
            taxModel: .included, taxRate: ExactDecimal(significand: 0, scale: 0), usdExchangeRate: nil)

        /// The terms of an order in `currency` from a player in `country`: the tax of the
        /// localization that player sees (the country's own, else the fallback country's).
        /// The dollar's rate is that localization's when it prices in `currency`; else 1 for
        /// USD; else that of the first localization, by country code, that prices in
        /// `currency`; else none.
        public init(catalog: Catalog, country: String, currency: String, rates: Rates = .standard) {
            let localization = catalog.localization(for: country)
            let rate: ExactDecimal?
            if let localization, localization.data.currencyCode == currency, let own = localization.usdExchangeRate {
                rate = own
            } else if currency == "USD" {
                rate = ExactDecimal(significand: 1, scale: 0)
            } else {
                rate =
                    catalog.localizedCountries.lazy.compactMap { catalog.ownLocalization(of: $0) }
                    .first { $0.data.currencyCode == currency && $0.usdExchangeRate != nil }?.usdExchangeRate
            }
            self.init(
                taxModel: localization?.taxModel ?? .included,
                taxRate: localization?.taxRate ?? ExactDecimal(significand: 0, scale: 0), usdExchangeRate: rate,
                rates: rates)
        }
    }

    /// The price the order was created with, in the currency's minor units.
    public var price: Int
    /// ISO 4217.
    public var currency: String
    /// What the player paid, tax included, in minor units.
    public var priceInCents: Int
    /// The price before tax, in minor units.
    public var subTotal: Int
    /// The tax, in minor units.
    public var tax: Int
    /// The tax rate, in percent, as configured; 0 for a free order, which is taxed nothing
    /// (every money field of a bonus is 0).
    public var taxRate: ExactDecimal
    /// What the player paid, in US cents.
    public var priceTotalInDollar: Int
    /// The tax, in US cents.
    public var taxInDollar: Int
    /// The price before tax, in US cents.
    public var priceInDollar: Int
    /// The cost of converting the payment, in US cents: 0 for USD.
    public var currencyExchangeCost: Int
    /// Appcharge's fee, in US cents.
    public var fee: Int
    /// The publisher's net amount, in US cents.
    public var net: Int
    /// The offer's price point in US cents (`originalPriceInDollar`, `paymentPriceInDollar`,
    /// `pricePointMetadata`); `priceInDollar` when the order has none.
    public var pricePoint: Int

    /// The money of an order of `price` minor units of `currency`, at the price point
    /// `pricePoint` US cents when known, under `terms`. A price of 0 gives zeros throughout.
    public init(price: Int, currency: String, pricePoint: Int?, terms: Terms) {
        let price = max(0, price)
        self.price = price
        self.currency = currency
        taxRate = price == 0 ? ExactDecimal(significand: 0, scale: 0) : terms.taxRate
        let t = terms.taxRate
        switch terms.taxModel {
        case .excluded:
            subTotal = price
            tax = Self.rounded(price, times: t.significand, over: 100 * t.denominator)
            priceInCents = Self.sum(subTotal, tax)
        case .included:
            priceInCents = price
            tax = Self.rounded(price, times: t.significand, over: 100 * t.denominator + t.significand)
            subTotal = price - tax
        }
        if let rate = terms.usdExchangeRate, !rate.isZero {
            var scale = 1
            for _ in 0..<min(CurrencyCodes.minorUnitDigits(of: currency), 6) { scale *= 10 }
            let over = scale.multipliedReportingOverflow(by: rate.significand)
            let divisor = over.overflow ? Int.max : over.partialValue
            priceTotalInDollar = Self.rounded(priceInCents, times: 100 * rate.denominator, over: divisor)
            taxInDollar = Self.rounded(tax, times: 100 * rate.denominator, over: divisor)
        } else {
            priceTotalInDollar = max(0, pricePoint ?? 0)
            taxInDollar = Self.rounded(priceTotalInDollar, times: tax, over: priceInCents)
        }
        priceInDollar = priceTotalInDollar - taxInDollar
        let cost = terms.rates.exchangeCost
        currencyExchangeCost =
            currency == "USD"
            ? 0 : Self.rounded(priceTotalInDollar, times: cost.significand, over: 100 * cost.denominator)
        let rate = terms.rates.fee
        fee = Self.rounded(priceInDollar, times: rate.significand, over: 100 * rate.denominator)
        net = priceInDollar - currencyExchangeCost - fee
        self.pricePoint = pricePoint ?? priceInDollar
    }

    /// The money of `order`, at the price point `pricePoint` US cents when known, under the
    /// terms `catalog` gives its country and currency, with `rates`.
    public init(order: OrderResponseModel, pricePoint: Int?, catalog: Catalog, rates: Rates = .standard) {
        self.init(
            price: order.price, currency: order.currency, pricePoint: pricePoint,
            terms: Terms(catalog: catalog, country: order.customerCountry, currency: order.currency, rates: rates))
    }

    /// The same parts reversed for `amount` minor units of the order's price given back (a
    /// refund, a dispute's funds withdrawn): each part scaled by `amount` ÷ `price` with R
    /// and negated, the sums again by subtraction. All of the price negates every part, so
    /// that an order and its full refund add up to zero.
    public func reversal(of amount: Int) -> OrderMoney {
        let amount = min(max(0, amount), price)
        func part(_ value: Int) -> Int { -Self.rounded(value, times: amount, over: price) }
        var reversed = self
        reversed.price = -amount
        reversed.priceInCents = part(priceInCents)
        reversed.tax = part(tax)
        reversed.subTotal = reversed.priceInCents - reversed.tax
        reversed.priceTotalInDollar = part(priceTotalInDollar)
        reversed.taxInDollar = part(taxInDollar)
        reversed.priceInDollar = reversed.priceTotalInDollar - reversed.taxInDollar
        reversed.currencyExchangeCost = part(currencyExchangeCost)
        reversed.fee = part(fee)
        reversed.net = reversed.priceInDollar - reversed.currencyExchangeCost - reversed.fee
        return reversed
    }

    /// The parts `movement` moved: the order's own for its payment and for funds reinstated,
    /// reversed for a refund (of its amount) and for funds withdrawn (of the whole price).
    public func moved(by movement: OrderTransaction) -> OrderMoney {
        switch movement.kind {
        case .paid, .disputeFundsReinstated: self
        case .refund: reversal(of: movement.amount)
        case .disputeFundsWithdrawn: reversal(of: price)
        }
    }

    /// What Appcharge charges the publisher for a dispute opened, in US cents: $15.00, on
    /// the funds withdrawn.
    public static let chargebackFee = 1500

    /// R(`value` × `factor` ÷ `divisor`): the exact quotient rounded once, half away from
    /// zero; 0 when `divisor` is 0, and `Int`'s bounds, not a trap, when it cannot fit.
    static func rounded(_ value: Int, times factor: Int, over divisor: Int) -> Int {
        guard divisor != 0, value != 0, factor != 0 else { return 0 }
        let negative = ((value < 0) != (factor < 0)) != (divisor < 0)
        let product = value.magnitude.multipliedFullWidth(by: factor.magnitude)
        let magnitude = divisor.magnitude
        guard product.high < magnitude else { return negative ? -Int.max : Int.max }
        let (quotient, remainder) = magnitude.dividingFullWidth((product.high, product.low))
        guard quotient < UInt(Int.max) else { return negative ? -Int.max : Int.max }
        let result = remainder >= magnitude - remainder ? quotient + 1 : quotient
        return negative ? -Int(result) : Int(result)
    }

    /// `a` + `b`, at `Int.max` rather than a trap.
    private static func sum(_ a: Int, _ b: Int) -> Int {
        let (total, overflow) = a.addingReportingOverflow(b)
        return overflow ? Int.max : total
    }

    /// `amount` US cents as two-decimal dollars, "9.73", "-0.50": what V1 writes where it
    /// documents dollars.
    public static func dollars(_ amount: Int) -> String {
        OrderEvent.decimal(amount, currency: "USD")
    }
}
