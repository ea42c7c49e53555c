// libFuzzer harness for Formats' JSON parser, JSON Lines reader and record reader, compiled together with
// Sources/Formats/*.swift (see run.sh). Any input must either parse or throw; a crash is a bug.

// MARK: - Entry point

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    if let value = try? JSONParser.parse(bytes) {
        // What parsed must be written as JSON that parses again and is written the same way (a fixpoint).
        let written = JSONWriter.string(from: value)
        guard let again = try? JSONParser.parse(written) else { preconditionFailure("written JSON does not parse") }
        precondition(JSONWriter.string(from: again) == written, "written JSON is not a fixpoint")
    }
    _ = try? JSONParser.parse(bytes, maxDepth: 8)
    var lines = JSONLinesReader(bytes: bytes, maxDepth: 16)
    while let line = try? lines.next() { _ = line.value }
    _ = JSONLayout.detect(bytes)
    _ = try? JSONRecords.read(bytes)
    return 0
}
