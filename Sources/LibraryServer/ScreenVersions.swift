import Formats
import HTTP
import Library
import LibraryScreen
import Rendering
import Sections

/// A screen as it was rendered once: the snapshot (with what it was built from, when known), its JSON document
/// (compact, the document `--json list` writes) and its entity tag (a strong hash of the bytes, BLAKE2b, without
/// quotes).
struct ScreenVersion: Sendable {
    /// What the sections were built from, so the next version can reuse their cards; nil when not known.
    var built: BuiltScreen?
    var document: WrittenDocument
    var tag: String

    var snapshot: Snapshot { document.snapshot }
    var bytes: [UInt8] { document.bytes }

    /// The `ETag` header's value: the tag in quotes.
    var etag: String { "\"\(tag)\"" }

    init(snapshot: Snapshot) {
        document = WrittenDocument(snapshot)
        tag = Self.hex(Secrets.contentHash(document.bytes)[...])
    }

    /// Renders `built`'s snapshot, copying from `previous` what did not change: the whole document and its tag
    /// when the snapshot is the same, else the text of every unchanged item.
    init(built: BuiltScreen, reusing previous: ScreenVersion?) {
        self.built = built
        if let previous, previous.snapshot == built.snapshot {
            document = previous.document
            tag = previous.tag
        } else {
            document = WrittenDocument(built.snapshot, reusing: previous?.document)
            tag = Self.hex(Secrets.contentHash(document.bytes)[...])
        }
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
/// and the latest rendered version of the `rendered` most recently used screens: answered again while the database
/// has not changed and the clock shows the same second, and the source of the cards and text that the next version
/// of the screen reuses where they did not change (``LibraryScreen/build(_:showsAll:program:reusing:)``,
/// ``WrittenDocument``).
///
///     let version = try versions.current(key, store: store, now: now)
///     versions.snapshot(key, tag: since)  // nil when forgotten: the front gets the whole document
final class ScreenVersions: Sendable {
    /// What the caches forget by: when a value was last used (a tick of `State.clock`).
    private protocol RecentlyUsed {
        var lastUse: Int { get }
    }

    private struct Entry: RecentlyUsed {
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
    /// A screen as read under one generation of the database at one second of the clock (nil: not known, as
    /// after a change; such a version is never answered again as it is, only reused to build the next one).
    private struct Rendered: RecentlyUsed {
        var generation: Int?
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

        /// Forgets the least recently used rendered screen while more than `limit` are kept.
        mutating func forgetRendered(keeping limit: Int) {
            while rendered.count > limit, let oldest = Self.leastRecentlyUsed(rendered) {
                rendered.remove(at: oldest)
            }
        }

        /// Forgets the least recently used screens' versions while more than `screens` screens or `versions`
        /// versions are kept.
        mutating func forgetEntries(keepingScreens screens: Int, versions: Int) {
            while entries.count > screens || kept > versions, let oldest = Self.leastRecentlyUsed(entries) {
                kept -= entries.values[oldest].versions.count
                entries.remove(at: oldest)
            }
        }

        /// The index of the value used least recently, nil when there is none. Walks the indices and reads each
        /// value's `lastUse` in place: `min(by:)` copied two values (a dozen references each) per comparison.
        private static func leastRecentlyUsed<Value: RecentlyUsed>(_ values: [ScreenKey: Value])
            -> Dictionary<ScreenKey, Value>.Index?
        {
            guard var oldest = values.indices.first else { return nil }
            var index = values.index(after: oldest)
            while index != values.endIndex {
                if values.values[index].lastUse < values.values[oldest].lastUse { oldest = index }
                values.formIndex(after: &index)
            }
            return oldest
        }
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
            if kept.map({ ($0.generation ?? .min) <= generation }) ?? true {
                state.rendered[key] = Rendered(
                    generation: generation, second: now.secondsSinceEpoch, version: version,
                    lastUse: state.clock)
            }
            state.forgetRendered(keeping: renderedScreens)
        }
        return version
    }

    /// Reads the screen now (in one read transaction), remembers it and returns it.
    func current(_ key: ScreenKey, store: LibraryStore, now: Timestamp) throws -> ScreenVersion {
        version(key, of: built(key, from: try screen(key, store: store, now: now)))
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

    /// The sections of what `screen(_:store:now:)` read, reusing the cards of `previous` (by default the latest
    /// version of the screen) that did not change.
    func built(_ key: ScreenKey, from screen: ClientScreen, reusing previous: BuiltScreen? = nil) -> BuiltScreen {
        LibraryScreen.build(screen, program: program, reusing: previous ?? latest(key)?.built)
    }

    /// Renders `built` as the newest version of the screen, reusing what did not change since `previous` (by
    /// default the latest version), and remembers it.
    func version(_ key: ScreenKey, of built: BuiltScreen, reusing previous: ScreenVersion? = nil) -> ScreenVersion {
        let version = ScreenVersion(built: built, reusing: previous ?? latest(key))
        remember(version, for: key)
        return version
    }

    /// The version of the screen rendered last, if it is still kept: a source of cards and text to reuse.
    func latest(_ key: ScreenKey) -> ScreenVersion? {
        state.withLock { $0.rendered[key]?.version }
    }

    /// Remembers a version of a screen (the newest), also as the latest to reuse when its generation is not known.
    func remember(_ version: ScreenVersion, for key: ScreenKey) {
        state.withLock { state in
            state.clock += 1
            if state.rendered[key]?.version.tag != version.tag {
                state.rendered[key] = Rendered(generation: nil, second: 0, version: version, lastUse: state.clock)
                state.forgetRendered(keeping: renderedScreens)
            }
            // Changed in place (a copy of the entry would copy its versions at the first append).
            state.kept += state.entries[key, default: Entry()].add(version, at: state.clock, keeping: perScreen)
            // At most `screens` screens and `versions` versions in all (a snapshot of a screen is tens of KB).
            state.forgetEntries(keepingScreens: screens, versions: versions)
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
