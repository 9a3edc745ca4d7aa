/// The demo credentials award callbacks are signed and sent with when the studio gives
/// none: documented, so that a test receiver can check what paylinks sends.
public enum DemoCredentials {
    /// The demo main key.
    public static let mainKey = "paylinks-demo-main-key"
    /// The demo publisher token.
    public static let publisherToken = "paylinks-demo-publisher-token"
    /// The demo project id events carry in `x-project-id`.
    public static let projectId = "paylinks-demo-project"
}
