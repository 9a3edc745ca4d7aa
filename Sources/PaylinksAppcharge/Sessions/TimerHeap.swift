/// What falls due on a clock, earliest first: a binary min-heap of moments, each with an
/// order among those at the same moment and what is due. Entries are never removed when
/// what they stand for changes: whoever reads the first one checks it still holds and
/// drops it when not, so that a change costs one push and nothing else.
struct TimerHeap<Key: Sendable>: Sendable {
    /// A moment, Unix milliseconds; the order of two at the same moment; what is due.
    typealias Entry = (at: Int, order: Int, key: Key)

    private var entries: [Entry] = []

    /// Entries held, those that no longer hold among them.
    var count: Int { entries.count }

    /// Adds `entry`.
    mutating func push(_ entry: Entry) {
        entries.append(entry)
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.precedes(entries[child], entries[parent]) else { break }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    /// The earliest entry that `holds` says still holds, dropping those before it that do not.
    mutating func first(where holds: (Entry) -> Bool) -> Entry? {
        while let top = entries.first {
            if holds(top) { return top }
            pop()
        }
        return nil
    }

    /// Empties it.
    mutating func removeAll() { entries.removeAll() }

    private mutating func pop() {
        entries.swapAt(0, entries.count - 1)
        entries.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var first = parent
            if left < entries.count && Self.precedes(entries[left], entries[first]) { first = left }
            if right < entries.count && Self.precedes(entries[right], entries[first]) { first = right }
            guard first != parent else { return }
            entries.swapAt(parent, first)
            parent = first
        }
    }

    private static func precedes(_ a: Entry, _ b: Entry) -> Bool {
        (a.at, a.order) < (b.at, b.order)
    }
}
