import Formats
import Rendering
import Sections
import Testing

/// A document written reusing an earlier one's item text is the document written afresh, whatever the earlier one.
@Suite struct WrittenDocumentTests {
    /// The document `JSONRenderer.write(_:to:)` writes, compact, as text (so a failure prints readable text).
    static func compact(_ snapshot: Snapshot) -> String {
        var json = JSONTextWriter()
        JSONRenderer.write(snapshot, to: &json)
        return String(decoding: json.bytes, as: UTF8.self)
    }

    static func text(_ document: WrittenDocument) -> String { String(decoding: document.bytes, as: UTF8.self) }

    /// A random version of the library screen: items dropped, moved, renamed or added; sections hidden, emptied,
    /// renamed or reordered; an item moved to another section.
    static func randomSnapshot(using random: inout SplitMix64) -> Snapshot {
        func pick(_ items: [Item]) -> [Item] {
            var items = items.filter { _ in Int.random(in: 0..<5, using: &random) > 0 }
            items.shuffle(using: &random)
            for index in items.indices where Int.random(in: 0..<4, using: &random) == 0 {
                items[index].title = RandomText.make(using: &random)
            }
            if Bool.random(using: &random) {
                let id = Int.random(in: 100...104, using: &random)
                if !items.contains(where: { $0.id == "book-\(id)" }) {
                    items.append(LibraryFixture.libraryBook(id, RandomText.make(using: &random), "Someone"))
                }
            }
            return items
        }
        var books = LibraryFixture.libraryBooks
        books.items = pick(books.items)
        var held = LibraryFixture.clientBooks(pick(LibraryFixture.clientBookItems))
        if Int.random(in: 0..<6, using: &random) == 0, let moved = books.items.popLast() {
            held.items.append(moved)  // the same item, in another section
        }
        var sections = [LibraryFixture.clientInfo, held, books]
        if Int.random(in: 0..<5, using: &random) == 0 { sections.shuffle(using: &random) }
        if Int.random(in: 0..<6, using: &random) == 0 { sections[0].id = "renamed" }
        if Int.random(in: 0..<6, using: &random) == 0 { sections.removeLast() }
        return Snapshot(
            sections: sections,
            emptyState: Supplementary(kind: .empty, id: "screen-empty", title: "Nothing here"))
    }

    @Test func writingReusingAnEarlierDocumentGivesTheDocumentWrittenAfresh() {
        var random = SplitMix64(seed: 41)
        var previous: WrittenDocument? = nil
        for _ in 0..<400 {
            let snapshot = Self.randomSnapshot(using: &random)
            let document = WrittenDocument(snapshot, reusing: previous)
            #expect(Self.text(document) == Self.compact(snapshot))
            #expect(document.snapshot == snapshot)
            // Sometimes reuse a document of long ago, sometimes start over.
            if Int.random(in: 0..<8, using: &random) > 0 { previous = document }
        }
    }

    @Test func anUnchangedSnapshotIsWrittenFromTheEarlierTextAlone() {
        let snapshot = Snapshot(sections: [LibraryFixture.clientInfo, LibraryFixture.libraryBooks])
        let first = WrittenDocument(snapshot)
        let again = WrittenDocument(snapshot, reusing: first)
        #expect(again.bytes == first.bytes)
        #expect(Self.text(again) == Self.compact(snapshot))
    }

    @Test func anItemOfTheSameIdButOtherContentIsWrittenAgain() {
        let before = Snapshot(sections: [LibraryFixture.libraryBooks])
        var changed = LibraryFixture.libraryBooks
        changed.items[2].badges = [Badge(text: "✓ yours", style: .positive)]
        changed.items.swapAt(0, 3)
        let after = Snapshot(sections: [changed])
        let document = WrittenDocument(after, reusing: WrittenDocument(before))
        #expect(Self.text(document) == Self.compact(after))
        #expect(
            String(decoding: document.bytes, as: UTF8.self).contains(
                "✓ yours\",\"style\":\"positive\"}],\"actions\":[{\"id\":\"take\""))
    }

    @Test func recordingGivesTheRangeOfTheValueWithoutItsSeparator() {
        var json = JSONTextWriter()
        json.beginArray()
        let first = json.recording { $0.int(1) }
        let second = json.recording { json in
            json.beginObject()
            json.key("a")
            json.string("b")
            json.endObject()
        }
        let third = json.recording { $0.written(Array("[2]".utf8)[...]) }
        json.endArray()
        #expect(String(decoding: json.bytes, as: UTF8.self) == #"[1,{"a":"b"},[2]]"#)
        #expect(String(decoding: json.bytes[first], as: UTF8.self) == "1")
        #expect(String(decoding: json.bytes[second], as: UTF8.self) == #"{"a":"b"}"#)
        #expect(String(decoding: json.bytes[third], as: UTF8.self) == "[2]")
    }

    @Test func recordingInAnIndentedWriterGivesTheValueAlone() {
        var json = JSONTextWriter(indent: 2)
        json.beginObject()
        json.key("x")
        let range = json.recording {
            $0.beginArray()
            $0.int(1)
            $0.endArray()
        }
        json.endObject()
        #expect(String(decoding: json.bytes[range], as: UTF8.self) == "[\n    1\n  ]")
        #expect(String(decoding: json.bytes, as: UTF8.self) == "{\n  \"x\": [\n    1\n  ]\n}")
    }
}
