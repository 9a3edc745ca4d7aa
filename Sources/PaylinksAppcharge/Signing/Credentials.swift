/// The main key award callbacks are signed with and the publisher token they carry (and
/// that the sandbox requires), chosen by the documented precedence: a key from a file
/// before one from the environment, a token from the command line before the
/// environment's, and the demo ones where none is given. An empty value counts as none.
public struct Credentials: Sendable {
    /// The main key's bytes.
    public let key: [UInt8]
    /// The publisher token.
    public let publisherToken: String
    /// Whether the key is the demo one.
    public let usesDemoKey: Bool
    /// Whether the token is the demo one.
    public let usesDemoToken: Bool

    /// The credentials from what the studio gave.
    public init(
        keyFromFile: [UInt8]? = nil, keyFromEnvironment: String? = nil, tokenFromOption: String? = nil,
        tokenFromEnvironment: String? = nil
    ) {
        if let file = keyFromFile, !file.isEmpty {
            key = file
            usesDemoKey = false
        } else if let variable = keyFromEnvironment, !variable.isEmpty {
            key = Array(variable.utf8)
            usesDemoKey = false
        } else {
            key = Array(DemoCredentials.mainKey.utf8)
            usesDemoKey = true
        }
        let token = [tokenFromOption, tokenFromEnvironment].compactMap { $0 }.first { !$0.isEmpty }
        publisherToken = token ?? DemoCredentials.publisherToken
        usesDemoToken = token == nil
    }

    /// Whether both are the demo ones: the setup the README documents, worth a note.
    public var isDemo: Bool { usesDemoKey && usesDemoToken }
}
