extension String {
    /// `parts`, one after another, made at once in a string of their whole length: for the
    /// lines and URLs made for every request, which appends would make part by part.
    package init(concatenating parts: String...) {
        var parts = parts
        let count = parts.reduce(0) { $0 + $1.utf8.count }
        self.init(unsafeUninitializedCapacity: count) { buffer in
            var offset = 0
            for index in parts.indices {
                parts[index].withUTF8 { bytes in
                    offset =
                        UnsafeMutableBufferPointer(rebasing: buffer[offset...]).initialize(fromContentsOf: bytes)
                        + offset
                }
            }
            return offset
        }
    }
}
