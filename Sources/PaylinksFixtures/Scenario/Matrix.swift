public import PaylinksKit

/// What `run --matrix` varies: each key replaces the value a scenario's configuration gives.
public enum MatrixKey: String, CaseIterable, Sendable {
    /// The player's country.
    case country
    /// The platform the game is built for.
    case platform
    /// The SDK version the game ships.
    case sdkVersion
    /// How the player pays.
    case paymentMethod
    /// The SDK environment.
    case environment
}

/// One `--matrix KEY=V1,V2,...`: a key and the values it takes, in order.
public struct MatrixAxis: Equatable, Sendable {
    /// What varies.
    public var key: MatrixKey
    /// The values, in the order given.
    public var values: [String]

    /// Creates an axis.
    public init(key: MatrixKey, values: [String]) {
        self.key = key
        self.values = values
    }
}

/// One combination of a matrix: a value for each of its keys, which a scenario runs with.
public struct MatrixCell: Equatable, Sendable {
    /// The values, in the order the axes were given.
    public var values: [Setting]

    /// One key's value.
    public struct Setting: Equatable, Sendable {
        /// The key.
        public var key: MatrixKey
        /// Its value.
        public var value: String
    }

    /// `country=DE,platform=unity`: what a scenario's name carries in brackets.
    public var label: String {
        values.map { "\($0.key.rawValue)=\($0.value)" }.joined(separator: ",")
    }

    /// The value of `key`, when the cell has one.
    public func value(of key: MatrixKey) -> String? {
        values.first { $0.key == key }?.value
    }

    /// Every combination of `axes`, the first axis varying slowest; one empty cell for none.
    public static func cells(of axes: [MatrixAxis]) -> [MatrixCell] {
        axes.reduce([MatrixCell(values: [])]) { cells, axis in
            cells.flatMap { cell in
                axis.values.map { MatrixCell(values: cell.values + [Setting(key: axis.key, value: $0)]) }
            }
        }
    }

    /// The platform and version a scenario runs as in this cell: the cell's platform and
    /// version where it has them, else the scenario's own (its version only on its own
    /// platform), else the defaults.
    public func target(over own: SDKTarget?) throws(SDKTarget.Problem) -> SDKTarget? {
        let platform = value(of: .platform).flatMap(Platform.named)
        let version = value(of: .sdkVersion)
        guard platform != nil || version != nil else { return own }
        let chosen = platform ?? own?.platform ?? .ios
        let ownVersion = own?.platform == chosen ? own?.version.description : nil
        return try SDKTarget(platform: chosen, version: version ?? ownVersion)
    }
}
