import Dispatch
import HTTP
import Library

/// Records tokens' last use off the request path: a request only notes the use (`note`), and a background queue
/// writes the noted uses in one transaction soon after. When the database is busy (another process holds its write
/// lock), the uses stay noted and the write is tried again after `retryDelay`, so a read never waits for a writer
/// (which a write on the request path would: up to the busy timeout, then 503). `tokens list` shows the last use to
/// the minute (`AccessRules.lastUseResolutionSeconds`), written within moments, later while the database is busy.
///
///     recorder.note(tokenID: principal.tokenID, at: now)
final class TokenUseRecorder: Sendable {
    private struct State {
        var pending: [Int: Timestamp] = [:]
        var scheduled = false
        var stopped = false
    }

    private let pool: StorePool
    private let retryDelay: DispatchTimeInterval
    private let state = Locked(State())
    private let queue = DispatchQueue(label: "librarycli.token-uses")

    init(pool: StorePool, retryDelay: DispatchTimeInterval = .seconds(1)) {
        self.pool = pool
        self.retryDelay = retryDelay
    }

    /// Notes that token `tokenID` was used at `now`; the write follows on the background queue.
    func note(tokenID: Int, at now: Timestamp) {
        let schedule = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            if state.pending[tokenID].map({ $0 < now }) ?? true { state.pending[tokenID] = now }
            guard !state.scheduled else { return false }
            state.scheduled = true
            return true
        }
        if schedule { queue.async { self.flush() } }
    }

    /// The uses noted and not yet written (for tests).
    var pendingCount: Int { state.withLock { $0.pending.count } }

    /// Writes what was noted before it stops (one try; a busy database loses them), then notes nothing more.
    func stop() {
        queue.sync {
            state.withLock { $0.stopped = true }
            _ = write()
        }
    }

    // MARK: - Private

    private func flush() {
        let written = write()
        let again = state.withLock { state -> Bool in
            guard !state.stopped, !state.pending.isEmpty else {
                state.scheduled = false
                return false
            }
            return true
        }
        guard again else { return }
        if written {
            queue.async { self.flush() }
        } else {
            queue.asyncAfter(deadline: .now() + retryDelay) { self.flush() }
        }
    }

    /// Writes the pending uses; false (and they are pending again) when the write failed.
    private func write() -> Bool {
        let uses = state.withLock { state -> [Int: Timestamp] in
            defer { state.pending = [:] }
            return state.pending
        }
        guard !uses.isEmpty else { return true }
        do {
            try pool.with { store in try store.recordTokenUses(uses) }
            return true
        } catch {
            state.withLock { state in
                guard !state.stopped else { return }
                for (id, when) in uses where state.pending[id].map({ $0 < when }) ?? true { state.pending[id] = when }
            }
            return false
        }
    }
}
