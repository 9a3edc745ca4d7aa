import Testing

@testable import PaylinksKit

/// The one rule a return URL follows, wherever it is given.
@Suite("Return URLs")
struct RedirectURLTests {
    @Test(
        "an absolute URL with a scheme, a plain host and a real port is taken",
        arguments: [
            "https://game.example/return", "https://game.example:8443/r?x=1#top", "http://127.0.0.1:8080/r",
            "http://[::1]:8080/r", "mygame://return", "https://xn--e1afmkfd.xn--p1ai/r",
        ])
    func taken(url: String) {
        #expect(RedirectURL.problem(url) == nil)
    }

    @Test(
        "what a browser and the checkout's policy would read apart is refused, each in words",
        arguments: [
            ("http://evil.example\\@good.example/", "backslash"),
            ("https://user@game.example/", "user"),
            ("https://a.example:99999999/", "port"),
            ("https://a.example:0/", "port"),
            ("https://пример.рф/x", "xn--"),
            ("https://a.example%3Bscript-src/", "letters, digits"),
            ("https://*/", "letters, digits"),
            ("https://a.example'/", "letters, digits"),
            ("https://[::1/", "]"),
            ("https:///x", "no host"),
            ("javascript:alert(1)", "javascript"),
            ("https://a.example/\r\nSet-Cookie: x=1", "line break"),
            ("https://a.example/\u{85}x", "control character"),
        ])
    func refused(url: String, words: String) {
        let problem = RedirectURL.problem(url)
        #expect(problem?.contains(words) == true, "\(problem ?? "taken")")
    }

    @Test("the SDK's universal link is https with a host, and no control character, C1 included")
    func universalLink() {
        #expect(RedirectURL.isUniversalLink("https://game.example/return"))
        #expect(!RedirectURL.isUniversalLink("mygame://return"))
        #expect(!RedirectURL.isUniversalLink("https://a.example/\u{85}x"))
    }
}
