/// Where a streaming reader gets its bytes: called with a buffer to fill, returns how many bytes it put there, 0 at
/// the end of the input. A file descriptor's `read(2)` fits, as does a closure over an array.
///
/// For example:
///
///     var offset = 0
///     let source: ByteSource = { buffer in
///         let count = min(buffer.count, bytes.count - offset)
///         buffer.copyBytes(from: bytes[offset..<(offset + count)])
///         offset += count
///         return count
///     }
public typealias ByteSource = (UnsafeMutableRawBufferPointer) throws -> Int

/// The window of a streamed input that a reader works on: the bytes from the first one not consumed yet to the last
/// one read. `refill()` drops the consumed bytes and reads one more chunk after the rest; the window grows past the
/// chunk size only when one record (or line) is longer than that, and then at least doubles, so a long record is
/// scanned again only a few times.
struct ChunkedInput {
    /// How many bytes one `read` asks for.
    let chunkSize: Int
    private let source: ByteSource
    /// The window: bytes `0..<filled` are valid; a reader's offsets are into it.
    private(set) var bytes: [UInt8] = []
    private(set) var filled = 0
    /// True once the source said it has nothing more.
    private(set) var isAtEnd = false
    /// Bytes read from the source so far.
    private(set) var bytesRead = 0

    init(chunkSize: Int, source: @escaping ByteSource) {
        precondition(chunkSize > 0, "the chunk size must be positive")
        self.chunkSize = chunkSize
        self.source = source
    }

    /// Drops the bytes before `consumed` (the caller's offsets move back by that much) and reads once more; at the
    /// end of the input sets `isAtEnd` instead. Returns how many bytes were dropped.
    @discardableResult
    mutating func refill(keepingFrom consumed: Int) throws -> Int {
        precondition(!isAtEnd, "refill after the end of the input")
        let kept = filled - consumed
        if consumed > 0 {
            bytes.withUnsafeMutableBytes { buffer in
                guard let base = buffer.baseAddress, kept > 0 else { return }
                (base + 0).copyMemory(from: base + consumed, byteCount: kept)
            }
            filled = kept
        }
        // The window is reused while at least half a chunk is free after the kept bytes (its memory is touched
        // once); else it grows, and a record longer than a chunk asks for at least as much again as it has, so it is
        // rescanned O(log n) times.
        var wanted = bytes.count - filled
        if wanted < (chunkSize + 1) / 2 {
            wanted = max(chunkSize, kept)
            bytes.append(contentsOf: repeatElement(0, count: filled + wanted - bytes.count))
        }
        let count = try bytes.withUnsafeMutableBytes { buffer in
            try source(UnsafeMutableRawBufferPointer(rebasing: buffer[filled..<(filled + wanted)]))
        }
        precondition(count >= 0 && count <= wanted, "a byte source returned \(count) for a buffer of \(wanted)")
        if count == 0 {
            isAtEnd = true
        } else {
            filled += count
            bytesRead += count
        }
        return consumed
    }

    /// Calls `body` with the valid bytes of the window.
    func withBuffer<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try bytes.withUnsafeBufferPointer { buffer in
            try body(UnsafeBufferPointer(rebasing: buffer[0..<filled]))
        }
    }
}

/// A `ByteSource` over bytes already in memory, handing out at most `chunk` bytes a call (for tests of chunk
/// boundaries, and to read a whole buffer through a streaming reader).
///
///     var reader = try CSVStreamReader(source: byteSource(over: bytes))
public func byteSource(over bytes: [UInt8], chunk: Int = .max) -> ByteSource {
    precondition(chunk > 0, "the chunk must be positive")
    var offset = 0
    return { buffer in
        let count = min(buffer.count, chunk, bytes.count - offset)
        guard count > 0, let base = buffer.baseAddress else { return 0 }
        bytes.withUnsafeBytes { source in
            base.copyMemory(from: source.baseAddress! + offset, byteCount: count)
        }
        offset += count
        return count
    }
}
