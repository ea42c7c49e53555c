import Formats
import Foundation
import Rendering
import Sections
import Testing

/// Random pairs of screens as a front gets them, the documents and the change sets in JSON, in both forms. The
/// JSON must name every element where it says (old positions in the old document, new ones in the new), and the
/// cases are kept in `Tests/Browser/changeset-cases.json`, which the browser tests replay with the web front's own
/// apply code (moves, section inserts and custom supplementaries, which the library's screen seldom makes, included).
/// A change to the diff or to the JSON shows as a difference there; `UPDATE_GOLDEN=1 swift test` rewrites it.
@Suite("Change sets as fronts get them")
struct ChangesetCasesTests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Browser/changeset-cases.json")

    @Test(
        "random pairs in JSON: each change set names what it says where it says, in the standard and batch-safe forms")
    func cases() throws {
        var generator = SnapshotGenerator(seed: 0xC0DE_CA5E)
        var cases: [String] = []
        var seen = (moves: 0, sectionInserts: 0, batchSafeSplits: 0)
        for round in 0..<40 {
            let old = generator.snapshot()
            let new = round.isMultiple(of: 3) ? generator.snapshot() : stirred(old, random: &generator.random)
            let oldDocument = JSONRenderer.document(old)
            let newDocument = JSONRenderer.document(new)
            let standard = JSONRenderer.changes(new.changes(from: old))
            let batchSafe = JSONRenderer.changes(new.changes(from: old, form: .batchSafe))
            for changes in [standard, batchSafe] {
                try check(changes, old: oldDocument, new: newDocument)
            }
            seen.moves += count(standard, "items", "moved")
            seen.sectionInserts += count(standard, "sections", "inserted")
            seen.batchSafeSplits += count(standard, "items", "moved") - count(batchSafe, "items", "moved")
            let entry: JSONValue = .object(members: [
                ("old", oldDocument), ("new", newDocument), ("standard", standard), ("batchSafe", batchSafe),
            ])
            cases.append(entry.serialized(pretty: false))
        }
        #expect(seen.moves > 50 && seen.sectionInserts > 10 && seen.batchSafeSplits > 10, "\(seen)")
        let text = "[\n" + cases.joined(separator: ",\n") + "\n]\n"
        if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
            try text.write(to: Self.file, atomically: true, encoding: .utf8)
        } else {
            let kept = try String(contentsOf: Self.file, encoding: .utf8)
            #expect(kept == text, "Tests/Browser/changeset-cases.json differs; rewrite it with UPDATE_GOLDEN=1")
        }
    }

    /// `snapshot` with items moved within and between sections, some retitled, sections reordered and relaid.
    private func stirred(_ snapshot: Snapshot, random: inout SplitMix64) -> Snapshot {
        var sections = snapshot.sections
        for index in sections.indices where random.chance(60) {
            sections[index].items = random.shuffled(sections[index].items)
        }
        for _ in 0..<random.below(4) where sections.count > 1 {
            let from = random.below(sections.count)
            guard !sections[from].items.isEmpty else { continue }
            let item = sections[from].items.remove(at: random.below(sections[from].items.count))
            let to = random.below(sections.count)
            sections[to].items.insert(item, at: random.below(sections[to].items.count + 1))
        }
        for index in sections.indices {
            for item in sections[index].items.indices where random.chance(25) {
                sections[index].items[item].title += "'"
            }
            if random.chance(20) { sections[index].layout = sections[index].layout == .list ? .card : .list }
        }
        if random.chance(40) { sections = random.shuffled(sections) }
        return Snapshot(sections: sections, emptyState: snapshot.emptyState)
    }

    private func count(_ changes: JSONValue, _ stage: String, _ kind: String) -> Int {
        changes[stage]?[kind]?.arrayValue?.count ?? 0
    }

    /// Every entry of `changes` against the documents it goes between.
    private func check(_ changes: JSONValue, old: JSONValue, new: JSONValue) throws {
        let before = try #require(old["sections"]?.arrayValue)
        let after = try #require(new["sections"]?.arrayValue)
        func section(_ sections: [JSONValue], _ id: JSONValue?) -> JSONValue? {
            sections.first { $0["id"] == id }
        }
        func items(_ sections: [JSONValue], _ id: JSONValue?) -> [JSONValue] {
            section(sections, id)?["items"]?.arrayValue ?? []
        }
        func at(_ list: [JSONValue], _ index: JSONValue?) -> JSONValue? {
            guard let index = index?.intValue, list.indices.contains(index) else { return nil }
            return list[index]
        }
        func entries(_ stage: String, _ kind: String) -> [JSONValue] {
            changes[stage]?[kind]?.arrayValue ?? []
        }
        for entry in entries("sections", "deleted") { #expect(at(before, entry["index"])?["id"] == entry["id"]) }
        for entry in entries("sections", "inserted") { #expect(at(after, entry["index"]) == entry["section"]) }
        for entry in entries("sections", "moved") {
            #expect(at(before, entry["from"])?["id"] == entry["id"])
            #expect(at(after, entry["to"])?["id"] == entry["id"])
        }
        for entry in entries("sections", "updated") {
            #expect(at(after, entry["index"])?["layout"] == entry["layout"])
            if let from = entry["from"] { #expect(at(before, from)?["id"] == entry["id"]) }
        }
        for entry in entries("items", "deleted") {
            #expect(at(items(before, entry["section"]), entry["index"])?["id"] == entry["id"])
        }
        for entry in entries("items", "moved") {
            #expect(at(items(before, entry["fromSection"]), entry["from"])?["id"] == entry["id"])
            #expect(at(items(after, entry["toSection"]), entry["to"])?["id"] == entry["id"])
        }
        for entry in entries("items", "inserted") + entries("items", "updated") {
            #expect(at(items(after, entry["section"]), entry["index"]) == entry["item"])
            if let from = entry["from"] {
                #expect(at(items(before, entry["section"]), from)?["id"] == entry["id"])
            }
        }
        for entry in entries("supplementaries", "deleted") {
            let shown = section(before, entry["section"])?["supplementaries"]?.arrayValue ?? []
            #expect(at(shown, entry["index"])?["id"] == entry["id"])
            #expect(at(shown, entry["index"])?["kind"] == entry["kind"])
        }
        for entry in entries("supplementaries", "inserted") + entries("supplementaries", "updated") {
            let shown = section(after, entry["section"])?["supplementaries"]?.arrayValue ?? []
            #expect(at(shown, entry["index"]) == entry["supplementary"])
        }
    }
}
