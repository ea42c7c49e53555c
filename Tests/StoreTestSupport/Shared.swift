import Synchronization

/// A value that the threads of a test share, behind a lock. A class: closures capture a reference to it, never
/// the lock itself (a `Mutex` captured by an escaping closure is boxed, and ThreadSanitizer saw the box's accesses
/// from two threads as a race).
///
/// ```swift
/// let outcomes = Shared<[String]>([])
/// runOnThreads(8) { index in outcomes.withLock { $0.append("thread \(index)") } }
/// ```
public final class Shared<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    /// Shares `value`.
    public init(_ value: Value) {
        mutex = Mutex(value)
    }

    /// Runs `body` with the value, holding the lock.
    public func withLock<Result: Sendable>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try mutex.withLock { value in try body(&value) }
    }
}
