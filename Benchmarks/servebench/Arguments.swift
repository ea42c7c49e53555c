import Glibc

/// `--name value` pairs.
struct Arguments {
    private var values: [String: String] = [:]

    init(_ arguments: ArraySlice<String>) throws {
        var rest = arguments
        while let name = rest.popFirst() {
            guard name.hasPrefix("--"), let value = rest.popFirst() else {
                throw BenchError("expected --name value, not '\(name)'")
            }
            values[String(name.dropFirst(2))] = value
        }
    }

    func string(_ name: String) throws -> String {
        guard let value = values[name] else { throw BenchError("--\(name) is needed") }
        return value
    }

    func integer(_ name: String, default fallback: Int? = nil) throws -> Int {
        guard let text = values[name] else {
            guard let fallback else { throw BenchError("--\(name) is needed") }
            return fallback
        }
        guard let value = Int(text), value >= 0 else { throw BenchError("--\(name) needs a whole number") }
        return value
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Seconds on the monotonic clock.
func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) * 1e-9
}

/// A whole file's bytes.
func readFile(_ path: String) throws -> [UInt8] {
    guard let file = fopen(path, "rb") else { throw BenchError("cannot read \(path)") }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = fread(&chunk, 1, chunk.count, file)
        if count == 0 { break }
        bytes.append(contentsOf: chunk[0..<count])
    }
    return bytes
}

/// Writes a line to standard output at once (the script reads it while the program goes on).
func say(_ line: String) {
    let text = line + "\n"
    var sent = 0
    let bytes = Array(text.utf8)
    while sent < bytes.count {
        let count = bytes[sent...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
        if count <= 0 { return }
        sent += count
    }
}
