import Sections

// MARK: - A deterministic generator

/// SplitMix64: a tiny, fast, deterministic pseudo-random generator, so failures can be replayed from a seed.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// True with probability `percent` / 100.
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    /// The elements in an order given by this generator (Fisher–Yates).
    mutating func shuffled<T>(_ elements: [T]) -> [T] {
        var result = elements
        var index = result.count - 1
        while index > 0 {
            result.swapAt(index, below(index + 1))
            index -= 1
        }
        return result
    }
}

// MARK: - Random snapshots

/// Makes random snapshots from small pools of ids, so that two of them share many sections, items and
/// supplementaries: moves, updates, hidden sections and empty states all happen often.
struct SnapshotGenerator {
    var random: SplitMix64
    /// Whether ids may repeat (snapshots made by hand, bypassing `Snapshot.build`).
    var allowDuplicates = false

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    mutating func snapshot() -> Snapshot {
        let sectionIDs = random.shuffled((0..<7).map { "s\($0)" })
        var itemIDs = random.shuffled((0..<24).map { "i\($0)" })
        if allowDuplicates { itemIDs += (0..<random.below(4)).map { _ in "i\(random.below(6))" } }
        var sections: [Section] = []
        for id in sectionIDs.prefix(random.below(6)) {
            var section = makeSection(id)
            let count = min(itemIDs.count, random.below(8))
            section.items = itemIDs.prefix(count).map { makeItem($0) }
            itemIDs.removeFirst(count)
            if section.header != nil { section.header?.count = random.chance(70) ? count : count + 1 }
            sections.append(section)
        }
        if allowDuplicates && !sections.isEmpty && random.chance(30) {
            sections.append(sections[random.below(sections.count)])
        }
        let screenEmpty = random.chance(50) ? Supplementary(kind: .empty, id: "screen", title: pick(["a", "b"])) : nil
        return Snapshot(sections: sections, emptyState: screenEmpty)
    }

    private mutating func makeSection(_ id: String) -> Section {
        let customs = random.shuffled(["c0", "c1", "c2"]).prefix(random.below(3)).map {
            Supplementary(kind: .custom(random.chance(80) ? "banner" : "note"), id: $0, title: pick(["x", "y"]))
        }
        return Section(
            id: id, layout: random.chance(85) ? .list : .card,
            header: random.chance(70) ? Supplementary(kind: .header, id: "\(id)-h", title: pick(["H", "h"])) : nil,
            footer: random.chance(30) ? Supplementary(kind: .footer, id: pick(["f1", "f2"]), title: "F") : nil,
            emptyState: random.chance(60) ? Supplementary(kind: .empty, id: "\(id)-e", title: pick(["E", "e"])) : nil,
            customSupplementaries: Array(customs), whenEmpty: random.chance(25) ? .hide : .showEmptyState)
    }

    private mutating func makeItem(_ id: String) -> Item {
        Item(id: id, kind: "book", title: pick(["Dune", "Emma"]), badges: random.chance(20) ? [Badge(text: "✓")] : [])
    }

    private mutating func pick(_ choices: [String]) -> String { choices[random.below(choices.count)] }
}
