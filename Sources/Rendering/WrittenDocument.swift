import Formats
import Sections

/// A snapshot's document as compact JSON bytes (what `JSONRenderer.write(_:to:)` writes), with where each item's
/// object lies in them, so that the next version of the document copies the items that did not change instead of
/// writing them again.
///
/// The bytes never depend on what is reused: `WrittenDocument(b, reusing: a).bytes` equals the bytes
/// `JSONRenderer.write(b, to:)` writes on a compact writer, for every `a`.
///
///     let first = WrittenDocument(snapshot)
///     let next = WrittenDocument(changedSnapshot, reusing: first)  // unchanged items copied from first.bytes
///     next.bytes  // {"version":1,"sections":[...]}
public struct WrittenDocument: Sendable {
    /// The snapshot written.
    public let snapshot: Snapshot
    /// The document, compact JSON.
    public let bytes: [UInt8]
    /// Each visible section's id, items and the ranges of their objects in `bytes`, in order.
    private let sections: [WrittenSection]

    private struct WrittenSection: Sendable {
        var id: String
        var items: [Item]
        var ranges: [Range<Int>]
    }

    /// Writes `snapshot`'s document, copying from `previous` the text of every item equal to one it wrote in a
    /// section of the same id.
    ///
    ///     let document = WrittenDocument(snapshot, reusing: lastDocument)
    public init(_ snapshot: Snapshot, reusing previous: WrittenDocument? = nil, capacity: Int = 16_384) {
        var json = JSONTextWriter(capacity: max(capacity, previous?.bytes.count ?? 0))
        var written: [WrittenSection] = []
        JSONRenderer.write(snapshot, to: &json) { section, json in
            let old = previous?.sections.first { $0.id == section.id }
            var ranges: [Range<Int>] = []
            ranges.reserveCapacity(section.items.count)
            var oldIndex: [String: Int]? = nil  // made the first time an item is not at its old position
            for (index, item) in section.items.enumerated() {
                var copied: Range<Int>? = nil
                if let old {
                    var position: Int? = index < old.items.count && old.items[index].id == item.id ? index : nil
                    if position == nil {
                        if oldIndex == nil {
                            var positions: [String: Int] = [:]
                            for (at, oldItem) in old.items.enumerated() where positions[oldItem.id] == nil {
                                positions[oldItem.id] = at
                            }
                            oldIndex = positions
                        }
                        position = oldIndex?[item.id]
                    }
                    if let position, old.items[position] == item {
                        copied = old.ranges[position]
                    }
                }
                if let copied, let previous {
                    ranges.append(json.recording { $0.written(previous.bytes[copied]) })
                } else {
                    ranges.append(json.recording { JSONRenderer.write(item, to: &$0) })
                }
            }
            written.append(WrittenSection(id: section.id, items: section.items, ranges: ranges))
        }
        self.snapshot = snapshot
        self.bytes = json.bytes
        self.sections = written
    }
}
