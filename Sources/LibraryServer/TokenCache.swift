import HTTP
import Library

/// Where the authentication middleware leaves the database's generation it saw at the start of the request
/// (``StorePool/withGeneration(_:)``), so a route can answer from what was read under the same generation.
enum GenerationKey: RequestStorageKey {
    typealias Value = Int
}

/// Tokens checked against the database recently: while the database has not changed since (the same generation,
/// so no token was revoked or created in between) and for less than `AccessRules.lastUseResolutionSeconds` (so the
/// token's last use is still recorded at that resolution), a token is known without asking the database again.
/// Keyed by the token's SHA-256, never the token; only tokens that authenticated are kept, at most `capacity`.
///
///     let principal = try cache.authenticate(token, store: store, generation: generation, now: now, uses: recorder)
final class TokenCache: Sendable {
    private struct Entry {
        var generation: Int
        var checkedAt: Int64
        var principal: Principal
    }

    private let entries = Locked<[[UInt8]: Entry]>([:])
    let capacity: Int

    init(capacity: Int = 4_096) {
        self.capacity = capacity
    }

    /// Who `token` acts for, from the cache or from `store.lookUpToken` (a read: it never waits for a writer); a use
    /// the database should record is noted to `uses`, which writes it off the request path.
    func authenticate(
        _ token: String, store: LibraryStore, generation: Int, now: Timestamp, uses: TokenUseRecorder
    ) throws -> Principal? {
        let hash = Secrets.sha256(Array(token.utf8))
        let kept = entries.withLock { $0[hash] }
        if let kept, kept.generation == generation,
            (0..<AccessRules.lastUseResolutionSeconds).contains(now.secondsSinceEpoch - kept.checkedAt)
        {
            return kept.principal
        }
        let found = try store.lookUpToken(token, now: now)
        if let found, found.useIsStale { uses.note(tokenID: found.principal.tokenID, at: now) }
        let principal = found?.principal
        entries.withLock { entries in
            guard let principal else {
                entries[hash] = nil
                return
            }
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            // Tagged with the generation seen before the check: a change since then makes the next call look again.
            entries[hash] = Entry(generation: generation, checkedAt: now.secondsSinceEpoch, principal: principal)
        }
        return principal
    }
}
