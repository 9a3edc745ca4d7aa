/// One status code of the SDK's table, with the message paylinks sends for it.
public struct StatusCode: Equatable, Sendable {
    /// The code: 3002.
    public var code: Int
    /// The SDK's name for it: "CHARGE_CANCELED".
    public var name: String
    /// What it means, as the SDK's table says.
    public var meaning: String
    /// The message paylinks puts in `ACErrorMessage.message`.
    public var message: String
    /// The failure callbacks it can arrive on.
    public var callbacks: [CallbackName]

    /// Creates a status code.
    public init(code: Int, name: String, meaning: String, message: String, callbacks: [CallbackName]) {
        self.code = code
        self.name = name
        self.meaning = meaning
        self.message = message
        self.callbacks = callbacks
    }

    /// The error the SDK delivers for this code.
    public func error(data: String? = nil) -> ACErrorMessage {
        ACErrorMessage(code: code, message: message, data: data)
    }
}
