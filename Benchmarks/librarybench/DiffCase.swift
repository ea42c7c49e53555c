import Sections

/// Two snapshots of one section of `count` items: 10% deleted, 10% inserted, 10% moved, 10% updated (seeded).
struct DiffCase {
    var old: Snapshot
    var new: Snapshot
    var oldIDs: [String]
    var newIDs: [String]
    /// Items picked to move (a few may land where they keep their order, so a diff can report slightly fewer).
    var moved: Int

    init(count: Int, seed: UInt64 = 1) {
        var random = SplitMix64(seed: seed)
        let tenth = count / 10
        let all = Array(0..<count)
        let deleted = Set(random.sample(all, count: tenth))
        let survivors = all.filter { !deleted.contains($0) }
        let moving = Set(random.sample(survivors, count: tenth))
        let updated = Set(random.sample(survivors, count: tenth))
        // Order the new list by a key: survivors keep their old position, moved and inserted items get random ones.
        var keyed: [(key: Double, number: Int)] = []
        keyed.reserveCapacity(count)
        for number in survivors {
            let key = moving.contains(number) ? random.unit() * Double(count) : Double(number)
            keyed.append((key, number))
        }
        for offset in 0..<tenth {
            keyed.append((random.unit() * Double(count), count + offset))
        }
        keyed.sort { $0.key < $1.key || ($0.key == $1.key && $0.number < $1.number) }
        let newNumbers = keyed.map(\.number)
        oldIDs = all.map(Self.id)
        newIDs = newNumbers.map(Self.id)
        old = Self.snapshot(all.map { Self.item($0, version: 0) })
        new = Self.snapshot(newNumbers.map { Self.item($0, version: updated.contains($0) ? 1 : 0) })
        moved = moving.count
    }

    static func id(_ number: Int) -> String { "item-\(number)" }

    static func item(_ number: Int, version: Int) -> Item {
        Item(
            id: id(number), kind: "book", title: "Book \(number)", subtitle: "Author \(number % 997)",
            lines: ["\(80 + number % 900) pages", "version \(version)"],
            fields: [Field("bookId", .int(number)), Field("version", .int(version))])
    }

    static func snapshot(_ items: [Item]) -> Snapshot {
        Snapshot(sections: [Section(id: "items", layout: .list, items: items)])
    }
}
