/// What a Link Out checkout cannot do, since its game has no SDK: the one list the command
/// line and the scenario loader refuse from, each in its own words for the option or key.
package enum LinkOutLimit: Sendable {
    /// A status code of the SDK's (`--error`, `"error"`).
    case statusCode
    /// A payment left pending past the SDK's validation timeout (`--outcome pending`).
    case pendingOutcome
    /// A choice of the browser the SDK opens (`--browser-mode`, `--lose-session`).
    case browserChoice
    /// A check the SDK makes of the session (`--order-customer-id`, `--session-environment`).
    case sdkCheck
    /// The SDK's result delivered twice (`"delivery": "twice"`).
    case duplicateDelivery

    /// How the command line or a scenario file names the flows and the options a reason
    /// points to.
    package struct Words: Sendable {
        /// The Link Out flow: `--flow link-out`.
        let linkOut: String
        /// What to write to use the SDK's flow: `--flow sdk`.
        let sdkFlow: String
        /// A declined payment: `--outcome declined`.
        let declined: String
        /// Where the game's award endpoint is given: `--award-url`.
        let awardURL: String

        /// The command line's words.
        package static let commandLine = Words(
            linkOut: "--flow link-out", sdkFlow: "--flow sdk", declined: "--outcome declined", awardURL: "--award-url")
        /// A scenario file's words.
        package static let scenario = Words(
            linkOut: "a link-out scenario", sdkFlow: #""flow": "sdk""#, declined: #""outcome": "declined""#,
            awardURL: #""awardUrl""#)
    }

    /// Why `name` (an option, or a key as the file spells it) cannot be given by Link Out,
    /// and what to do instead, in one line.
    package func reason(_ name: String, in words: Words) -> String {
        let noSDK = "and \(words.linkOut) has no SDK"
        switch self {
        case .statusCode:
            return "\(name) delivers one of the SDK's status codes, \(noSDK): a declined payment is "
                + "\(words.declined), a failed award an \(words.awardURL) that refuses it"
        case .pendingOutcome:
            return "\(name) ends in the SDK's validation timeout (3004), \(noSDK): use \(words.sdkFlow)"
        case .browserChoice:
            return "\(name) picks the browser the SDK opens, \(noSDK): the game opens the checkout itself; "
                + "leave \(name) out, or use \(words.sdkFlow)"
        case .sdkCheck:
            return "\(name) tries a check of the SDK's, \(noSDK): leave \(name) out"
        case .duplicateDelivery:
            return "\(name) delivers the SDK's result twice, \(noSDK): the browser goes back once; leave it out"
        }
    }
}
