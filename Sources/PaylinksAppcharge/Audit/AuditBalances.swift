package import PaylinksKit

/// One player's balances, by product SKU, as a game's ledger answers them.
package typealias AuditBalances = [String: Int]

extension [String: Int] {
    /// The products `order` grants, by SKU: an SKU whose items add up past `Int`'s range is
    /// its nearest end, as a session's quantities are the game's server's to choose.
    package static func products(of order: OrderResponseModel) -> [String: Int] {
        order.items.reduce(into: [:]) { total, item in total.add(Int(item.quantity) ?? 0, to: item.sku) }
    }

    /// Adds `amount` to the balance of `sku`, stopping at the nearest end of `Int`'s range.
    package mutating func add(_ amount: Int, to sku: String) {
        let (sum, overflow) = self[sku, default: 0].addingReportingOverflow(amount)
        self[sku] = overflow ? (amount < 0 ? .min : .max) : sum
    }

    /// Each balance less what `other` holds of it, never below zero; a difference past
    /// `Int`'s range is the nearest end, as the ledger's balances are not the audit's to
    /// trust.
    package func minus(_ other: [String: Int]) -> [String: Int] {
        var result = self
        for (sku, amount) in other {
            let (difference, overflow) = result[sku, default: 0].subtractingReportingOverflow(amount)
            result[sku] = overflow ? (amount < 0 ? .max : 0) : Swift.max(0, difference)
        }
        return result
    }

    /// The same balances, a missing one counting as zero.
    package func same(as other: [String: Int]) -> Bool {
        Set(keys).union(other.keys).allSatisfy { self[$0, default: 0] == other[$0, default: 0] }
    }

    /// `100 gem_01, 5 coin_02`, or `nothing`.
    package var shown: String {
        let held = filter { $0.value != 0 }.sorted { $0.key < $1.key }
        return held.isEmpty
            ? "nothing" : held.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
    }
}

/// What the ledger showed of a player after a case's events, and how long it was watched.
package struct LedgerReading: Sendable {
    /// The balances read last.
    package var balances: AuditBalances
    /// What the summary adds, when the audit waited: " (the ledger changed 310 ms after
    /// the answer)"; empty when the first reading showed the change.
    package var note: String
    /// Whether a change was due and the ledger was watched for the whole wait without one
    /// (read once, with a wait of 0).
    package var timedOut: Bool

    /// A reading.
    package init(balances: AuditBalances, note: String, timedOut: Bool) {
        self.balances = balances
        self.note = note
        self.timedOut = timedOut
    }

    /// 310 ms, 5 s, 1.5 s.
    package static func shown(milliseconds: Int) -> String {
        guard milliseconds >= 1000 else { return "\(milliseconds) ms" }
        let tenths = (milliseconds + 50) / 100
        return tenths % 10 == 0 ? "\(tenths / 10) s" : "\(tenths / 10).\(tenths % 10) s"
    }
}
