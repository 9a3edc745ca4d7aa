public import PaylinksKit

/// What `run --matrix` varies: each key replaces the value a scenario's configuration gives.
public enum MatrixKey: String, CaseIterable, Sendable {
    /// The player's country.
    case country
    /// The platform the game is built for.
    case platform
    /// The SDK version the game ships.
    case sdkVersion
    /// The SDK generation, as the newest version of it on the scenario's platform.
    case generation
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

    /// The platform and version a scenario runs as in this cell, from the strongest source
    /// that names each: the cell, then the scenario's file, then the command line.
    ///
    /// A version belongs to the platform it was given for. On another platform the scenario
    /// keeps its generation, what its steps were written for (``SDKTarget/carried(to:)``):
    /// a file's iOS `sdkVersion` 2.0 runs as Android 2.0 and as Unity 3.0.
    public func target(file: TargetChoice, options: TargetChoice) throws(SDKTarget.Problem) -> SDKTarget {
        let platform =
            value(of: .platform).flatMap(Platform.named) ?? file.platform ?? options.platform
            ?? file.version?.platform ?? options.version?.platform ?? .ios
        if let version = value(of: .sdkVersion) { return try SDKTarget(platform: platform, version: version) }
        if let generation = value(of: .generation).flatMap(Generation.init(name:)) {
            return .newest(of: generation, on: platform)
        }
        if let own = file.version ?? options.version { return own.carried(to: platform) }
        return .defaultTarget(of: platform)
    }
}

/// What one source (a scenario's file, or the command line) says of the SDK a scenario
/// runs as: a platform it names, and a version it gives, on that platform or iOS.
public struct TargetChoice: Equatable, Sendable {
    /// The platform named, if any.
    public var platform: Platform?
    /// The version given, as a target on `platform`, or on iOS when no platform is named.
    public var version: SDKTarget?

    /// A choice; nothing named by default.
    public init(platform: Platform? = nil, version: SDKTarget? = nil) {
        self.platform = platform
        self.version = version
    }
}
