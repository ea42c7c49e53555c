import Glibc

/// A fresh directory under /tmp (or `TMPDIR`), removed with everything in it by `remove()`.
struct TemporaryDirectory {
    let path: String

    init() {
        let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array("\(base)/librarybench.XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "cannot create a temporary directory under \(base)")
        path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// The path of a file inside the directory.
    func file(_ name: String) -> String { "\(path)/\(name)" }

    /// Removes the files the benchmark makes (a database and its -wal, -shm) and the directory.
    func remove() {
        if let directory = opendir(path) {
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
                }
                if name != "." && name != ".." { unlink(file(name)) }
            }
            closedir(directory)
        }
        rmdir(path)
    }
}

/// A deterministic SplitMix64 generator for the benchmark's data.
struct SplitMix64 {
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
    mutating func next(below bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// A number in `0..<1`.
    mutating func unit() -> Double { Double(next() >> 11) / Double(UInt64(1) << 53) }

    /// `count` distinct elements of `array` picked at random (a partial Fisher–Yates shuffle).
    mutating func sample<T>(_ array: [T], count: Int) -> [T] {
        var copy = array
        for index in 0..<min(count, copy.count) {
            copy.swapAt(index, index + next(below: copy.count - index))
        }
        return Array(copy.prefix(count))
    }
}
