// libFuzzer harness for Formats' CSV reader, compiled together with Sources/Formats/*.swift (see run.sh).
// Any input must either read or throw CSVError; a crash, a trap or a leak of ASan is a bug.

// MARK: - Entry point

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSV(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    // Small limits so that the limit paths are reached by small inputs too.
    let limits = CSVLimits(maxFieldBytes: 64, maxColumns: 16)
    for reader in [try? CSVReader(bytes: bytes), try? CSVReader(bytes: bytes, limits: limits)] {
        guard var reader else { continue }
        let columns = reader.header.count
        precondition(columns >= 1 && columns <= reader.limits.maxColumns, "header outside the column limit")
        while true {
            guard let record = try? reader.next() else { break }
            for field in record.fields {
                precondition(field.utf8.count <= reader.limits.maxFieldBytes, "field over the byte limit")
            }
            _ = record[reader.header.names[0]]
        }
    }
    // The streaming reader, with chunks as small as 1 byte, must read the same records and throw the same error.
    for chunkSize in [1, 7, 64] {
        precondition(
            outcome(bytes, limits: limits) { try CSVReader(bytes: $0, limits: $1) }
                == outcome(bytes, limits: limits) { bytes, limits in
                    try CSVStreamReader(chunkSize: chunkSize, limits: limits, source: byteSource(over: bytes))
                }, "the streaming reader disagrees with the whole-buffer one at chunk size \(chunkSize)")
    }
    // The buffer entry point must agree with the array one.
    let viaBuffer = bytes.withUnsafeBytes { buffer in (try? CSVReader(buffer: buffer))?.header }
    precondition(viaBuffer == (try? CSVReader(bytes: bytes))?.header, "buffer and array readers disagree")
    return 0
}

/// What a reader made of `bytes`: every record's line and fields, then the error (or nil), as text to compare.
private func outcome<Reader>(
    _ bytes: [UInt8], limits: CSVLimits, _ make: ([UInt8], CSVLimits) throws -> Reader
) -> [String] where Reader: CSVRecordReading {
    var lines: [String] = []
    do {
        var reader = try make(bytes, limits)
        while let record = try reader.next() { lines.append("\(record.line) \(record.fields)") }
    } catch {
        lines.append("error \(error)")
    }
    return lines
}

/// The two readers' shared surface, for `outcome`.
private protocol CSVRecordReading {
    mutating func next() throws -> CSVRecord?
}

extension CSVReader: CSVRecordReading {}
extension CSVStreamReader: CSVRecordReading {}
