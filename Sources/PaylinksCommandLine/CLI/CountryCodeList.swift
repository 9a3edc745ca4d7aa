import PaylinksKit

extension CountryCodes {
    /// Every officially assigned code, in alphabetical order, as completions offer them.
    static var list: [String] {
        let letters = (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { Character(Unicode.Scalar($0)) }
        return letters.flatMap { first in letters.map { String([first, $0]) } }.filter { contains($0) }
    }
}
