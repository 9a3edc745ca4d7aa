/// A failure, as the SDK hands it to the `...Failed` callbacks.
public struct ACErrorMessage: Equatable, Sendable {
    /// The status code: 3002.
    public var code: Int
    /// What went wrong, in a sentence.
    public var message: String
    /// A raw JSON string with details, when the SDK has some.
    public var data: String?

    /// Creates an error.
    public init(code: Int, message: String, data: String? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }
}
