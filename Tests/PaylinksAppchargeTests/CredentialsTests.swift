import PaylinksAppcharge
import Testing

/// The documented precedence of the main key and the publisher token.
@Suite("Credentials")
struct CredentialsTests {
    @Test("a key from a file wins over the environment's, which wins over the demo key; empty counts as none")
    func keyPrecedence() {
        let file = Credentials(keyFromFile: Array("from-file".utf8), keyFromEnvironment: "from-env")
        #expect(file.key == Array("from-file".utf8) && !file.usesDemoKey)
        let environment = Credentials(keyFromFile: [], keyFromEnvironment: "from-env")
        #expect(environment.key == Array("from-env".utf8) && !environment.usesDemoKey)
        let demo = Credentials(keyFromEnvironment: "")
        #expect(demo.key == Array(DemoCredentials.mainKey.utf8) && demo.usesDemoKey)
    }

    @Test("a token from the command line wins over the environment's, which wins over the demo token")
    func tokenPrecedence() {
        #expect(Credentials(tokenFromOption: "option", tokenFromEnvironment: "env").publisherToken == "option")
        #expect(Credentials(tokenFromOption: "", tokenFromEnvironment: "env").publisherToken == "env")
        let demo = Credentials()
        #expect(demo.publisherToken == DemoCredentials.publisherToken && demo.usesDemoToken)
    }

    @Test("only both demo credentials together are the documented demo setup")
    func demoSetup() {
        #expect(Credentials().isDemo)
        #expect(!Credentials(keyFromEnvironment: "k").isDemo)
        #expect(!Credentials(tokenFromEnvironment: "t").isDemo)
    }
}
