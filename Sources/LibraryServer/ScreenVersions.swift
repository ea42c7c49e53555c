import Formats
import Library
import LibraryScreen
import Rendering
import Sections

/// A screen as it was rendered once: the snapshot, its JSON document's bytes (compact, the document `--json list`
/// writes) and its entity tag (a strong hash of the bytes, BLAKE2b, without quotes).
struct ScreenVersion: Sendable {
    var snapshot: Snapshot
    var bytes: [UInt8]
    var tag: String

    /// The `ETag` header's value: the tag in quotes.
    var etag: String { "\"\(tag)\"" }

    init(snapshot: Snapshot) {
        self.snapshot = snapshot
        var json = JSONTextWriter(capacity: 16_384)
        JSONRenderer.write(snapshot, to: &json)
        bytes = json.bytes
        tag = Self.hex(Secrets.contentHash(bytes)[...])
    }

    private static func hex(_ bytes: ArraySlice<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

/// The recent versions of each screen, by tag, so a front that has one can be sent what changed since (a bounded
/// in-memory cache: `perScreen` versions for each of at most `screens` screens and `versions` versions in all, the
/// least recently used screens forgotten),
/// and the latest rendered version of the `rendered` most recently read screens, answered again while the database
/// has not changed and the clock shows the same second.
///
///     let version = try versions.current(key, store: store, now: now)
///     versions.snapshot(key, tag: since)  // nil when forgotten: the front gets the whole document
final class ScreenVersions: Sendable {
    private struct Entry {
        var versions: [(tag: String, snapshot: Snapshot)] = []
        var lastUse = 0

        /// Makes `version` the newest (once), keeping at most `limit`; returns how many versions were added
        /// (negative when some were dropped).
        mutating func add(_ version: ScreenVersion, at clock: Int, keeping limit: Int) -> Int {
            let before = versions.count
            lastUse = clock
            if versions.last?.tag != version.tag {
                versions.removeAll { $0.tag == version.tag }
                versions.append((version.tag, version.snapshot))
                if versions.count > limit { versions.removeFirst(versions.count - limit) }
            }
            return versions.count - before
        }
    }
    /// A screen as read under one generation of the database at one second of the clock.
    private struct Rendered {
        var generation: Int
        var second: Int64
        var version: ScreenVersion
        var lastUse: Int
    }
    private struct State {
        var entries: [ScreenKey: Entry] = [:]
        var rendered: [ScreenKey: Rendered] = [:]
        /// The versions in `entries`, all screens together.
        var kept = 0
        var clock = 0
    }
    private let state = Locked(State())
    let perScreen: Int
    let screens: Int
    let versions: Int
    let renderedScreens: Int
    let program: String

    init(
        perScreen: Int = 16, screens: Int = 4096, versions: Int = 4096, rendered: Int = 256,
        program: String = "librarycli"
    ) {
        self.perScreen = perScreen
        self.screens = screens
        self.versions = versions
        self.renderedScreens = rendered
        self.program = program
    }

    /// The screen now: the version rendered last time when nothing was committed to the database since that read
    /// started (``StorePool/withGeneration(_:)``) and the clock is in the same second (a screen is a function of
    /// the database and of `now`, which has whole seconds), else read now (in one read transaction) and
    /// remembered. The same answer as `current(_:store:now:)`, without reading and rendering the screen again for
    /// every request.
    ///
    /// `generation` is the one seen at the start of the request (by the authentication), else the pool is asked.
    ///
    ///     let version = try versions.current(key, pool: pool, now: now)
    func current(_ key: ScreenKey, pool: StorePool, now: Timestamp, generation: Int? = nil) throws -> ScreenVersion {
        guard let generation else {
            return try pool.withGeneration { store, generation in
                try current(key, now: now, generation: generation) { try current(key, store: store, now: now) }
            }
        }
        return try current(key, now: now, generation: generation) {
            try pool.with { store in try current(key, store: store, now: now) }
        }
    }

    private func current(
        _ key: ScreenKey, now: Timestamp, generation: Int, read: () throws -> ScreenVersion
    ) throws -> ScreenVersion {
        let hit = state.withLock { state -> ScreenVersion? in
            guard let rendered = state.rendered[key], rendered.generation == generation,
                rendered.second == now.secondsSinceEpoch
            else { return nil }
            state.clock += 1
            state.rendered[key]?.lastUse = state.clock
            state.entries[key]?.lastUse = state.clock
            return rendered.version
        }
        if let hit { return hit }
        let version = try read()
        state.withLock { state in
            state.clock += 1
            let kept = state.rendered[key]
            // Never replace a newer generation's version with an older one (two reads that crossed).
            if kept.map({ $0.generation <= generation }) ?? true {
                state.rendered[key] = Rendered(
                    generation: generation, second: now.secondsSinceEpoch, version: version,
                    lastUse: state.clock)
            }
            if state.rendered.count > renderedScreens,
                let oldest = state.rendered.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
            {
                state.rendered[oldest] = nil
            }
        }
        return version
    }

    /// Reads the screen now (in one read transaction), remembers it and returns it.
    func current(_ key: ScreenKey, store: LibraryStore, now: Timestamp) throws -> ScreenVersion {
        let version = ScreenVersion(snapshot: try snapshot(key, store: store, now: now))
        remember(version, for: key)
        return version
    }

    /// Reads the screen's sections now (in one read transaction, or in the one open), without rendering them:
    /// what a change diffs the screen after it from.
    func snapshot(_ key: ScreenKey, store: LibraryStore, now: Timestamp) throws -> Snapshot {
        snapshot(from: try screen(key, store: store, now: now))
    }

    /// Reads what the screen shows now (in one read transaction, or in the one open), without building its
    /// sections: a change reads the screen before and after it in its transaction and builds the sections once
    /// the write lock is given back.
    func screen(_ key: ScreenKey, store: LibraryStore, now: Timestamp) throws -> ClientScreen {
        try store.read { store in
            try store.clientScreen(
                clientID: key.clientID, page: key.query.page, perPage: key.query.perPage, now: now,
                search: key.query.search)
        }
    }

    /// The sections of what `screen(_:store:now:)` read.
    func snapshot(from screen: ClientScreen) -> Snapshot {
        LibraryScreen.snapshot(from: screen, program: program)
    }

    /// Remembers a version of a screen (the newest).
    func remember(_ version: ScreenVersion, for key: ScreenKey) {
        state.withLock { state in
            state.clock += 1
            // Changed in place (a copy of the entry would copy its versions at the first append).
            state.kept += state.entries[key, default: Entry()].add(version, at: state.clock, keeping: perScreen)
            // At most `screens` screens and `versions` versions in all (a snapshot of a screen is tens of KB).
            while state.entries.count > screens || state.kept > versions,
                let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })
            {
                state.kept -= oldest.value.versions.count
                state.entries[oldest.key] = nil
            }
        }
    }

    /// The snapshot of the screen with this tag, if it is still kept.
    func snapshot(_ key: ScreenKey, tag: String) -> Snapshot? {
        state.withLock { state in
            state.entries[key]?.versions.last { $0.tag == tag }?.snapshot
        }
    }
}

/// Entity tags as headers and parameters carry them: `"abc"`, `W/"abc"` or bare `abc`.
enum EntityTag {
    /// The tag without quotes or weak prefix.
    static func bare(_ text: String) -> String {
        var tag = Substring(text).trimmingCharacters(in: " \t")
        if tag.hasPrefix("W/") { tag = String(tag.dropFirst(2)) }
        if tag.count >= 2 && tag.hasPrefix("\"") && tag.hasSuffix("\"") { tag = String(tag.dropFirst().dropLast()) }
        return tag
    }

    /// Whether an `If-None-Match` value names `tag` (or is `*`).
    static func matches(ifNoneMatch header: String, tag: String) -> Bool {
        for part in header.split(separator: ",") {
            let candidate = part.trimmingCharacters(in: " \t")
            if candidate == "*" || bare(candidate) == tag { return true }
        }
        return false
    }
}
