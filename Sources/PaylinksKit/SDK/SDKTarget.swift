/// The platforms the Payment Links SDK ships for.
public enum Platform: String, CaseIterable, Sendable {
    /// The Swift SDK: what `ios-callbacks.md` documents.
    case ios
    /// The Java/Kotlin SDK, its results on an `ICheckoutPurchase` listener.
    case android
    /// The Unity plugin, its results as JSON strings from the native bridge.
    case unity

    /// The platform's name in prose: "iOS".
    package var displayName: String {
        switch self {
        case .ios: "iOS"
        case .android: "Android"
        case .unity: "Unity"
        }
    }
}

/// The three generations of the SDK, each with its own callbacks and status table.
public enum Generation: Int, CaseIterable, Comparable, Sendable {
    /// iOS 1.5–1.7, Android up to 1.5, Unity up to 2.4: `onPurchaseFailed(error)` carries
    /// no order; the old status table.
    case g1 = 1
    /// iOS 1.8–1.9, Android 1.6 and later 1.x, Unity 2.5–2.6: what `ios-callbacks.md`
    /// documents; the current status table.
    case g2
    /// iOS 2.0, Android 2.0, Unity 3.0: no price points; the customer id moves to
    /// `openCheckout`; cancels arrive on `onPurchaseCanceled`.
    case g3

    /// "G2".
    public var name: String { "G\(rawValue)" }

    /// The generation named `G2` or `g2`; nil for any other text.
    public init?(name: String) {
        guard let found = Self.allCases.first(where: { $0.name == name.uppercased() }) else { return nil }
        self = found
    }

    /// Older generations first.
    public static func < (lhs: Generation, rhs: Generation) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}

/// A version number of the SDK: `1.9`, `1.5.1`, `2.0.0`.
public struct SDKVersion: Comparable, Sendable, CustomStringConvertible {
    /// The numbers between the dots, as given.
    public let components: [Int]

    /// Reads `1`, `1.9` or `1.9.3`; nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var components: [Int] = []
        for part in parts {
            guard (1...4).contains(part.count), part.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(part)
            else { return nil }
            components.append(value)
        }
        self.components = components
    }

    private init(components: [Int]) {
        self.components = components
    }

    /// `1.9`, as given.
    public var description: String {
        components.map(String.init).joined(separator: ".")
    }

    /// Compares as numbers, a missing component counting as 0: `1.9` == `1.9.0`.
    public static func < (lhs: SDKVersion, rhs: SDKVersion) -> Bool {
        for index in 0..<3 {
            let left = index < lhs.components.count ? lhs.components[index] : 0
            let right = index < rhs.components.count ? rhs.components[index] : 0
            if left != right { return left < right }
        }
        return false
    }

    /// Equal as numbers: `1.9` == `1.9.0`.
    public static func == (lhs: SDKVersion, rhs: SDKVersion) -> Bool {
        !(lhs < rhs) && !(rhs < lhs)
    }

    fileprivate static func v(_ components: Int...) -> SDKVersion {
        SDKVersion(components: components)
    }
}

/// What a game ships: a platform and a version of the SDK on it, which decides the
/// generation and so the callbacks, their names and the status table.
public struct SDKTarget: Equatable, Sendable, CustomStringConvertible {
    /// Why a version cannot be used.
    public enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        /// Not a version number at all.
        case malformed(String)
        /// A version number outside every range the platform's SDK has shipped.
        case unknown(SDKVersion, Platform)

        /// What is wrong, and the versions that would do.
        public var description: String {
            switch self {
            case .malformed(let text):
                "'\(text)' is not a version number such as 1.9 or 2.0.0"
            case .unknown(let version, let platform):
                "\(platform.displayName) SDK \(version) is not a version paylinks knows; "
                    + "known: \(SDKTarget.knownRanges(of: platform))"
            }
        }
    }

    /// The platform.
    public let platform: Platform
    /// The version, as given.
    public let version: SDKVersion
    /// The generation the version belongs to.
    public let generation: Generation

    /// The version `text` of the SDK on `platform`, or the platform's default when nil.
    public init(platform: Platform, version text: String? = nil) throws(Problem) {
        guard let text else {
            self = Self.defaultTarget(of: platform)
            return
        }
        guard let version = SDKVersion(text) else { throw .malformed(text) }
        guard let range = Self.ranges[platform]?.first(where: { $0.from <= version && version < $0.below }) else {
            throw .unknown(version, platform)
        }
        self.platform = platform
        self.version = version
        self.generation = range.generation
    }

    private init(platform: Platform, version: SDKVersion, generation: Generation) {
        self.platform = platform
        self.version = version
        self.generation = generation
    }

    /// iOS 1.9: the newest G2 version of the primary platform.
    public static var standard: SDKTarget { defaultTarget(of: .ios) }

    /// The newest G2 version paylinks knows on `platform`: iOS 1.9, Android 1.7, Unity 2.6.
    public static func defaultTarget(of platform: Platform) -> SDKTarget {
        newest(of: .g2, on: platform)
    }

    /// The newest version of `generation` paylinks knows on `platform`: for G1 iOS 1.7,
    /// Android 1.5, Unity 2.4; for G3 iOS 2.0, Android 2.0, Unity 3.0.
    public static func newest(of generation: Generation, on platform: Platform) -> SDKTarget {
        let version: SDKVersion =
            switch (platform, generation) {
            case (.ios, .g1): .v(1, 7)
            case (.ios, .g2): .v(1, 9)
            case (.ios, .g3): .v(2, 0)
            case (.android, .g1): .v(1, 5)
            case (.android, .g2): .v(1, 7)
            case (.android, .g3): .v(2, 0)
            case (.unity, .g1): .v(2, 4)
            case (.unity, .g2): .v(2, 6)
            case (.unity, .g3): .v(3, 0)
            }
        return SDKTarget(platform: platform, version: version, generation: generation)
    }

    /// This target moved to `platform`, keeping what its callers were written for, the
    /// generation: the same version number where it is of the same generation there
    /// (iOS 2.0 becomes Android 2.0), else the newest version of the generation there
    /// (iOS 2.0 becomes Unity 3.0, since Unity 2.0 is G1).
    public func carried(to platform: Platform) -> SDKTarget {
        guard platform != self.platform else { return self }
        if let same = try? SDKTarget(platform: platform, version: version.description), same.generation == generation {
            return same
        }
        return Self.newest(of: generation, on: platform)
    }

    /// iOS before 1.6.0 validated the order again on every deep link: a duplicate result.
    public var hasRevalidationBug: Bool {
        platform == .ios && version < SDKVersion.v(1, 6)
    }

    /// iOS before 1.5.1 kept the first customer id when initialized again for another player.
    public var keepsFirstCustomerId: Bool {
        platform == .ios && version < SDKVersion.v(1, 5, 1)
    }

    /// "iOS SDK 1.9 (G2)".
    public var description: String {
        "\(platform.displayName) SDK \(version) (\(generation.name))"
    }

    /// The versions of each generation, from `sdk-contract.md`: each range includes
    /// `from` and stops before `below`.
    private static let ranges: [Platform: [(from: SDKVersion, below: SDKVersion, generation: Generation)]] = [
        .ios: [(.v(1, 5), .v(1, 8), .g1), (.v(1, 8), .v(1, 10), .g2), (.v(2, 0), .v(2, 1), .g3)],
        .android: [(.v(1, 0), .v(1, 6), .g1), (.v(1, 6), .v(2, 0), .g2), (.v(2, 0), .v(2, 1), .g3)],
        .unity: [(.v(1, 0), .v(2, 5), .g1), (.v(2, 5), .v(2, 7), .g2), (.v(3, 0), .v(3, 1), .g3)],
    ]

    /// The ranges of `platform`'s generations, as a message lists them:
    /// "1.5-1.7 (G1), 1.8-1.9 (G2), 2.0 (G3)"; `1.x` where a range runs to the next major version.
    static func knownRanges(of platform: Platform) -> String {
        (ranges[platform] ?? []).map { range in
            let (major, minor) = (range.below.components[0], range.below.components[1])
            let last =
                minor == 0 ? "\(major - 1).x" : "\(major).\(minor - 1)"
            let from = "\(range.from.components[0]).\(range.from.components[1])"
            return (last == from ? from : "\(from)-\(last)") + " (\(range.generation.name))"
        }.joined(separator: ", ")
    }
}
