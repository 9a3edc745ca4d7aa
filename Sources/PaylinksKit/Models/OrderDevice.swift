package import PaylinksJSON

/// The device an order was placed from, as the Events V2 `device` object carries it on
/// every `order.*` event (release note of 2026-07-02): six strings, each absent when
/// unknown, since V2 fields may vary. No page gives their values; the sandbox takes them
/// from the player's `User-Agent`, the command line from `--device` or a scenario's
/// `device`, and invents the rest from the seed, so that a receiver cannot hard-code them.
package struct OrderDevice: Sendable, Equatable {
    /// `mobile`, `tablet` or `desktop`.
    package var platform: String?
    /// `iPhone15,2`, `Pixel 8`.
    package var deviceModel: String?
    /// `iOS`, `Android`, `Windows`, `macOS`, `Linux`.
    package var osType: String?
    /// `17.5`.
    package var osVersion: String?
    /// `Safari`, `Chrome`, `Firefox`, `Edge`.
    package var browserType: String?
    /// `17.5`, `126.0.6478.122`.
    package var browserVersion: String?

    /// A device of these fields, each nil when unknown.
    package init(
        platform: String? = nil, deviceModel: String? = nil, osType: String? = nil, osVersion: String? = nil,
        browserType: String? = nil, browserVersion: String? = nil
    ) {
        self.platform = platform
        self.deviceModel = deviceModel
        self.osType = osType
        self.osVersion = osVersion
        self.browserType = browserType
        self.browserVersion = browserVersion
    }

    /// The six fields' names, in the order the object writes them.
    package static let keys = ["platform", "deviceModel", "osType", "osVersion", "browserType", "browserVersion"]

    /// The fields, by name, in the order of ``keys``; nil where unknown.
    package var fields: [(key: String, value: String?)] {
        [
            ("platform", platform), ("deviceModel", deviceModel), ("osType", osType), ("osVersion", osVersion),
            ("browserType", browserType), ("browserVersion", browserVersion),
        ]
    }

    /// The device with `value` as its field `key`, one of ``keys``; nil for another key.
    package func setting(_ key: String, to value: String) -> OrderDevice? {
        var device = self
        switch key {
        case "platform": device.platform = value
        case "deviceModel": device.deviceModel = value
        case "osType": device.osType = value
        case "osVersion": device.osVersion = value
        case "browserType": device.browserType = value
        case "browserVersion": device.browserVersion = value
        default: return nil
        }
        return device
    }

    /// Writes the object, its known fields only: `{"platform":"mobile",...}`.
    package func write(to writer: inout JSONWriter) {
        writer.openObject()
        if let platform { writer.field("platform", platform) }
        if let deviceModel { writer.field("deviceModel", deviceModel) }
        if let osType { writer.field("osType", osType) }
        if let osVersion { writer.field("osVersion", osVersion) }
        if let browserType { writer.field("browserType", browserType) }
        if let browserVersion { writer.field("browserVersion", browserVersion) }
        writer.closeObject()
    }

    // MARK: Presets and the seed

    /// The devices `--device` and a scenario name: an iPhone's Safari, an Android phone's
    /// Chrome, a desktop browser.
    package static let presets: [(name: String, device: OrderDevice)] = [
        (
            "ios",
            OrderDevice(
                platform: "mobile", deviceModel: "iPhone15,2", osType: "iOS", osVersion: "17.5", browserType: "Safari",
                browserVersion: "17.5")
        ),
        (
            "android",
            OrderDevice(
                platform: "mobile", deviceModel: "Pixel 8", osType: "Android", osVersion: "14", browserType: "Chrome",
                browserVersion: "126.0.6478.122")
        ),
        (
            "web",
            OrderDevice(
                platform: "desktop", osType: "Windows", osVersion: "10", browserType: "Chrome",
                browserVersion: "126.0.6478.127")
        ),
    ]

    /// The preset `name` names, in any letter case.
    package static func preset(_ name: String) -> OrderDevice? {
        presets.first { $0.name == name.lowercased() }?.device
    }

    /// The devices a seed picks from: the presets and a few more, so that receivers see
    /// several.
    package static let seededChoices: [OrderDevice] =
        presets.map(\.device) + [
            OrderDevice(
                platform: "mobile", deviceModel: "iPhone16,1", osType: "iOS", osVersion: "18.1", browserType: "Safari",
                browserVersion: "18.1"),
            OrderDevice(
                platform: "tablet", deviceModel: "iPad13,4", osType: "iOS", osVersion: "17.6", browserType: "Safari",
                browserVersion: "17.6"),
            OrderDevice(
                platform: "mobile", deviceModel: "SM-S921B", osType: "Android", osVersion: "15",
                browserType: "Samsung Internet", browserVersion: "26.0"),
            OrderDevice(
                platform: "desktop", osType: "macOS", osVersion: "14.5", browserType: "Safari",
                browserVersion: "17.5"),
            OrderDevice(
                platform: "desktop", osType: "Windows", osVersion: "10", browserType: "Edge",
                browserVersion: "126.0.2592.87"),
        ]

    /// The device the seed gives the order of `purchaseId`: the same inputs, the same device.
    package static func seeded(seed: UInt64, purchaseId: String) -> OrderDevice {
        seededChoices[seededIndex(seed: seed, purchaseId: purchaseId)]
    }

    /// Where in ``seededChoices`` the device the seed gives the order of `purchaseId` stands.
    package static func seededIndex(seed: UInt64, purchaseId: String) -> Int {
        // FNV-1a over the purchase id, mixed with the seed as SplitMix64 mixes.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in purchaseId.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        var mixed = hash ^ (seed &+ 0x9e37_79b9_7f4a_7c15)
        mixed = (mixed ^ (mixed >> 30)) &* 0xbf58_476d_1ce4_e5b9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94d0_49bb_1331_11eb
        mixed ^= mixed >> 31
        return Int(mixed % UInt64(seededChoices.count))
    }

    // MARK: What a user writes

    /// Why a device's text or object is refused: a reason that follows the option or the
    /// key's path.
    package struct Problem: Error, Sendable {
        /// `takes ios, android, web or KEY=VALUE,..., not 'x'`.
        package var reason: String
        /// The name that is wrong, and the names it may have meant, for a suggestion.
        package var misspelled: String? = nil
        package var candidates: [String] = []
    }

    /// The form the text takes, as a reason says it.
    package static let form =
        "takes ios, android, web or KEY=VALUE,... with keys "
        + "platform, deviceModel, osType, osVersion, browserType, browserVersion"

    /// A device as `--device` writes it: a preset (`ios`, `android`, `web`), or
    /// `KEY=VALUE` pairs, comma-separated, each key once.
    package static func parse(_ text: String) throws(Problem) -> OrderDevice {
        if let device = preset(text) { return device }
        guard text.contains("=") else {
            throw Problem(
                reason: "\(form), not '\(text.prefix(40))'", misspelled: text, candidates: presets.map(\.name))
        }
        var pairs: [(String, String)] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { throw Problem(reason: "\(form); '\(item.prefix(40))' has no =VALUE") }
            pairs.append((String(parts[0]), String(parts[1])))
        }
        return try OrderDevice(pairs: pairs)
    }

    /// A device of `pairs`, each a key of ``keys``, once, and a value that is not empty.
    package init(pairs: [(key: String, value: String)]) throws(Problem) {
        var device = OrderDevice()
        var given: [String] = []
        for (key, value) in pairs {
            guard let set = device.setting(key, to: value) else {
                throw Problem(
                    reason: "has no key '\(key.prefix(40))'; keys: \(Self.keys.joined(separator: ", "))",
                    misspelled: key,
                    candidates: Self.keys)
            }
            guard !given.contains(key) else { throw Problem(reason: "gives \(key) twice; give it once") }
            guard !value.isEmpty, value.utf8.count <= 100 else {
                throw Problem(reason: "\(key) takes a value of 1 to 100 bytes, not '\(value.prefix(20))'")
            }
            given.append(key)
            device = set
        }
        guard !given.isEmpty else { throw Problem(reason: "\(Self.form), not an empty list") }
        self = device
    }
}

extension OrderDevice {
    /// The device a browser's `User-Agent` names: an iPhone, iPad, Android, Windows, Mac or
    /// Linux browser, with the browser when it is one of Safari, Chrome, Firefox, Edge,
    /// Opera and Samsung Internet; nil when it names none of those systems (curl, a
    /// library, a test), whose order then gets a device from the seed.
    package init?(userAgent: String) {
        let agent = String(userAgent.prefix(512))
        /// The text after `marker` up to one of `ends`.
        func after(_ marker: String, upTo ends: String = " ;)") -> String? {
            guard let range = agent.firstOccurrence(of: marker) else { return nil }
            return plain(String(agent[range.upperBound...].prefix { !ends.contains($0) }))
        }
        var device = OrderDevice()
        if agent.has("iPhone") || agent.has("iPad") {
            let tablet = agent.has("iPad")
            device.platform = tablet ? "tablet" : "mobile"
            device.deviceModel = tablet ? "iPad" : "iPhone"
            device.osType = "iOS"
            device.osVersion = after(" OS ")?.replacingUnderscores()
        } else if let version = after("Android ") {
            device.platform = agent.has("Mobile") ? "mobile" : "tablet"
            device.osType = "Android"
            device.osVersion = version
            // `(Linux; Android 14; Pixel 8)`: the model follows; reduced agents say only `K`.
            if let model = after("Android \(version); ", upTo: ";)").map(withoutBuild).flatMap(plain), model != "K" {
                device.deviceModel = model
            }
        } else if let version = after("Windows NT ") {
            device.platform = "desktop"
            device.osType = "Windows"
            device.osVersion = version
        } else if agent.has("Macintosh") {
            device.platform = "desktop"
            device.osType = "macOS"
            device.osVersion = after("Mac OS X ")?.replacingUnderscores()
        } else if agent.has("Linux") || agent.has("X11") {
            device.platform = "desktop"
            device.osType = "Linux"
        } else {
            return nil
        }
        // The browser: the most specific marker first, since each claims to be Safari too.
        let browsers: [(marker: String, name: String)] = [
            ("EdgiOS/", "Edge"), ("EdgA/", "Edge"), ("Edg/", "Edge"), ("OPR/", "Opera"),
            ("SamsungBrowser/", "Samsung Internet"), ("CriOS/", "Chrome"), ("FxiOS/", "Firefox"),
            ("Firefox/", "Firefox"), ("Chrome/", "Chrome"),
        ]
        if let (marker, name) = browsers.first(where: { agent.has($0.marker) }) {
            device.browserType = name
            device.browserVersion = after(marker)
        } else if agent.has("Safari/") {
            device.browserType = "Safari"
            device.browserVersion = after("Version/")
        }
        self = device
    }
}

/// What a `User-Agent` names, when it can be said as `--device` would take it: 1 to 64
/// bytes of printable ASCII, as a `User-Agent` is written, without spaces at its ends; nil
/// otherwise, and the field is left out (a control character, a 500-digit version, an
/// empty model).
private func plain(_ text: String) -> String? {
    let trimmed = String(text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    guard (1...64).contains(trimmed.utf8.count), trimmed.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) else {
        return nil
    }
    return trimmed
}

extension String {
    /// Whether `text` occurs in the string: a plain scan, as ``firstOccurrence(of:)`` is.
    fileprivate func has(_ text: String) -> Bool {
        firstOccurrence(of: text) != nil
    }
}

/// An Android model without the ` Build/...` some agents add after it.
private func withoutBuild(_ model: String) -> String {
    // `Android 14;  Build/UP1A`: no model at all, only the build.
    if model.hasPrefix("Build/") { return "" }
    guard let range = model.firstOccurrence(of: " Build/") else { return model }
    return String(model[..<range.lowerBound])
}

extension String {
    /// `17_5` as `17.5`, as an Apple `User-Agent` writes versions.
    fileprivate func replacingUnderscores() -> String {
        String(map { $0 == "_" ? "." : $0 })
    }
}
