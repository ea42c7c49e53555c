import Foundation
import Testing

@testable import Formats

/// `maxDepth` never traps: it is clamped to 0...JSONParser.maximumDepth, a depth that a 512 KiB stack writes and frees.
@Suite struct JSONDepthLimitTests {
    @Test("a limit of 0 or less accepts a lone scalar and throws for any array or object", arguments: [0, -1, Int.min])
    func nonPositiveLimit(maxDepth: Int) throws {
        #expect(try JSONParser.parse("1", maxDepth: maxDepth) == .int(1))
        #expect(try JSONParser.parse(#""Dune""#, maxDepth: maxDepth) == .string("Dune"))
        #expect(throws: JSONError(line: 1, column: 1, reason: .nestingTooDeep(limit: 0))) {
            try JSONParser.parse("[1]", maxDepth: maxDepth)
        }
        #expect(throws: JSONError(line: 1, column: 1, reason: .nestingTooDeep(limit: 0))) {
            try JSONParser.parse("{}", maxDepth: maxDepth)
        }
        var lines = JSONLinesReader(string: "true\n[2]\n", maxDepth: maxDepth)
        #expect(try lines.next()?.value == .bool(true))
        #expect(throws: JSONError.self) { try lines.next() }
    }

    @Test("a limit above maximumDepth is maximumDepth", arguments: [JSONParser.maximumDepth + 1, 1_000_000, Int.max])
    func raisedLimitIsCapped(maxDepth: Int) throws {
        let cap = JSONParser.maximumDepth
        #expect(try JSONParser.parse(Self.arrays(cap), maxDepth: maxDepth) != .null)
        #expect(throws: JSONError(line: 1, column: cap + 1, reason: .nestingTooDeep(limit: cap))) {
            try JSONParser.parse(Self.arrays(200_000), maxDepth: maxDepth)
        }
    }

    @Test("values nested maximumDepth deep are parsed, written and freed on a thread with a 512 KiB stack")
    func deepestValueOnASmallStack() throws {
        let depth = JSONParser.maximumDepth
        let documents = [
            Self.arrays(depth),
            String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth),
            String(repeating: #"[{"a":"#, count: depth / 2) + "1" + String(repeating: "}]", count: depth / 2),
        ]
        let results = Results()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            for document in documents {
                var value: JSONValue? = try? JSONParser.parse(document, maxDepth: .max)
                let compact = value.map { JSONWriter.string(from: $0) }
                let indented = value.map { JSONWriter.string(from: $0, indent: 1) }
                var writer = JSONTextWriter()
                writer.beginArray()
                if let value { writer.value(value) }
                writer.endArray()
                value = nil
                results.append((compact, indented?.count ?? 0, writer.bytes.count))
            }
            done.signal()
        }
        thread.stackSize = 512 * 1024
        thread.start()
        done.wait()
        let all = results.values
        try #require(all.count == documents.count)
        for (document, result) in zip(documents, all) {
            #expect(result.compact == document)
            #expect(result.indentedCount > document.utf8.count)
            #expect(result.writerCount == document.utf8.count + 2)
        }
    }

    /// `depth` nested empty-ended arrays: `[[[]]]` for 3.
    static func arrays(_ depth: Int) -> String {
        String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    }

    /// What the thread found, handed back to the test.
    final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var found: [(compact: String?, indentedCount: Int, writerCount: Int)] = []
        func append(_ result: (compact: String?, indentedCount: Int, writerCount: Int)) {
            lock.withLock { found.append(result) }
        }
        var values: [(compact: String?, indentedCount: Int, writerCount: Int)] { lock.withLock { found } }
    }
}
