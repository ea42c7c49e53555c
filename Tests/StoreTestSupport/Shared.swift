import Foundation

/// A value that the threads of a test share, behind a lock. It is a pthread mutex (`NSLock`), which
/// ThreadSanitizer understands: `Synchronization.Mutex` waits on a futex that it does not see, so every access
/// through one looked like a race. A class, so closures capture a reference to it.
///
/// ```swift
/// let outcomes = Shared<[String]>([])
/// runOnThreads(8) { index in outcomes.withLock { $0.append("thread \(index)") } }
/// ```
public final class Shared<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// Shares `value`.
    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, holding the lock.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
