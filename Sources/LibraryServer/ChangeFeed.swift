import Dispatch
import HTTP
import Library
import Sections

#if canImport(Glibc)
    import Glibc
#endif

/// Live screens: the event streams and waiting long-polls of fronts, and a watcher thread that notices any commit
/// to the database (by this server, a CLI in another terminal, another server on the same file) through
/// `PRAGMA data_version` on a connection of its own, every `interval`. On a change it reads each watched screen
/// once, and sends every subscriber whose version differs what changed. A screen also changes with the clock alone,
/// when one of its loans falls due (``ClientScreen/changesAt``, by the clock the feed is given): each subscriber's
/// screen is read again at the first tick after that moment. A waiting long-poll's screen is read once more when
/// its wait ends, and the request answered with the changes, or 304 when there are none. A subscriber whose token
/// was revoked (by `librarycli tokens revoke` in another terminal, say) is ended at the tick that sees the
/// revocation: its stream closes, its waiting long-poll is answered 401.
///
///     let feed = ChangeFeed(pool: pool, versions: versions, now: clock)
///     feed.start()
///     feed.watch(key, from: version, token: principal.tokenID, stream: stream)   // SSE
///     feed.stop()
final class ChangeFeed: Sendable {
    private enum Sink {
        case stream(EventStream)
        case waiter(DeferredResponse)
    }

    private struct Subscriber {
        var key: ScreenKey
        /// The version the subscriber has: what its changes are worked out from, and what the next version of its
        /// screen reuses cards and text from (the cache of rendered screens keeps only the most recent ones).
        var version: ScreenVersion
        /// The id of the token it authenticated with.
        var token: Int
        var sink: Sink
        /// The change-set form the subscriber asked for.
        var form: Changeset.Form
        /// Not checked since it subscribed: the next tick looks at it even when nothing was committed.
        var fresh = true
        /// When the clock alone changes the screen as last read for it (a loan falls due): the first tick from
        /// then on looks at it. Nil until it is first looked at, or when no loan of the screen will fall due.
        var changesAt: Timestamp?
        /// For a long-poll, when its wait ends: the first tick from then on reads its screen once more and
        /// answers it, with the changes or 304.
        var waitEnds: ContinuousClock.Instant?
    }

    private struct State {
        var subscribers: [Int: Subscriber] = [:]
        var nextID = 0
        var stopping = false
        var thread: pthread_t?
    }

    private let state = Locked(State())
    private let pool: StorePool
    private let versions: ScreenVersions
    private let now: @Sendable () -> Timestamp
    let interval: Duration
    /// At most this many threads read and send screens at one tick (the processors online, by default).
    let readers: Int

    init(
        pool: StorePool, versions: ScreenVersions, interval: Duration = .milliseconds(10),
        readers: Int = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))), now: @escaping @Sendable () -> Timestamp
    ) {
        self.pool = pool
        self.versions = versions
        self.interval = interval
        self.readers = readers
        self.now = now
    }

    /// How much longer than its wait a long-poll's own timeout is: the feed answers it at the end of the wait, after
    /// reading its screen once more, and the timeout only when the feed could not.
    static let lateAnswer: Duration = .seconds(2)

    /// How many streams and waiting requests are subscribed.
    var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    // MARK: - Subscribing

    /// Sends the changes of `key`'s screen to `stream` from `version` on, in `form`, until the stream closes or
    /// `token` is revoked.
    func watch(
        _ key: ScreenKey, from version: ScreenVersion, token: Int, stream: EventStream,
        form: Changeset.Form = .standard
    ) {
        let id = add(
            Subscriber(
                key: key, version: version, token: token, sink: .stream(stream),
                form: form))
        stream.onClose { [weak self] _ in self?.remove(id) }
    }

    /// Resolves `waiter` with the changes of `key`'s screen from `version`, in `form`, at the first change (with
    /// 401 when `token` is revoked first), or when `duration` has passed with what the screen shows then: its
    /// changes, else 304 (``ScreenChanges/notModified(_:)``). Give `waiter` a timeout ``lateAnswer`` longer than
    /// `duration`, so that it is answered even when the screen cannot be read (the database away).
    func wait(
        _ key: ScreenKey, from version: ScreenVersion, for duration: Duration, token: Int, waiter: DeferredResponse,
        form: Changeset.Form = .standard
    ) {
        let id = add(
            Subscriber(
                key: key, version: version, token: token, sink: .waiter(waiter),
                form: form, waitEnds: ContinuousClock.now.advanced(by: duration)))
        waiter.onResolved { [weak self] in self?.remove(id) }
    }

    private func add(_ subscriber: Subscriber) -> Int {
        state.withLock { state in
            state.nextID += 1
            state.subscribers[state.nextID] = subscriber
            return state.nextID
        }
    }

    private func remove(_ id: Int) {
        state.withLock { _ = $0.subscribers.removeValue(forKey: id) }
    }

    // MARK: - The watcher

    /// Starts the watcher thread (its own connection).
    func start() throws {
        let store = try pool.open()
        let box = Unmanaged.passRetained(WatcherBox(feed: self, store: store)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(
            &thread, nil,
            { raw in
                let box = Unmanaged<WatcherBox>.fromOpaque(raw!).takeRetainedValue()
                box.feed.run(box.store)
                return nil
            }, box)
        if result != 0 {
            Unmanaged<WatcherBox>.fromOpaque(box).release()
            throw WatcherError(code: result)
        }
        state.withLock { $0.thread = thread }
    }

    /// Stops the watcher and waits for it.
    func stop() {
        let thread = state.withLock { state -> pthread_t? in
            state.stopping = true
            defer { state.thread = nil }
            return state.thread
        }
        if let thread { pthread_join(thread, nil) }
    }

    private final class WatcherBox: @unchecked Sendable {
        let feed: ChangeFeed
        let store: LibraryStore
        init(feed: ChangeFeed, store: LibraryStore) {
            self.feed = feed
            self.store = store
        }
    }

    struct WatcherError: Error, CustomStringConvertible {
        var code: Int32
        var description: String { "cannot start the change watcher thread (error \(code))" }
    }

    /// Watches until stopped. A connection to a PostgreSQL server that broke (the server restarted, or ended it)
    /// is given up and a new one opened at a later tick; what was committed in between went unheard, so that
    /// tick looks at every subscriber. The pooled connections the ticks read screens with are given up the same
    /// way (``tick(_:all:)``): a subscriber not reached is looked at again at every tick until it is, and is sent
    /// what changed since the version it has, so streams and long-polls open across an outage get what was
    /// committed during it and after.
    private func run(_ first: LibraryStore) {
        var store: LibraryStore? = first
        var version = (try? first.dataVersion()) ?? 0
        let micros = useconds_t(
            clamping: interval.components.seconds * 1_000_000
                + interval.components.attoseconds / 1_000_000_000_000)
        while !state.withLock({ $0.stopping }) {
            usleep(micros)
            var reopened = false
            if store == nil {
                guard let fresh = try? pool.open() else { continue }
                store = fresh
                reopened = true
            }
            guard let watcher = store else { continue }
            do {
                let current: Int
                do {
                    current = try watcher.dataVersion()
                } catch let error where !StorePool.isBroken(error) {
                    current = version
                }
                let changed = reopened || current != version
                version = current
                try tick(watcher, all: changed)
            } catch {
                store = nil
            }
        }
    }

    /// Ends a subscriber whose token no longer authenticates: the stream closes, the long-poll gets 401.
    private func end(_ subscriber: Subscriber) {
        switch subscriber.sink {
        case .stream(let stream): stream.close()
        case .waiter(let waiter): waiter.resolve(Authentication.revokedToken().response())
        }
    }

    /// Reads each screen with subscribers to check (all of them after a commit, else the new ones, those whose
    /// screen the clock has changed since it was read, and the long-polls whose wait has ended), once per screen,
    /// and sends each subscriber whose version differs its changes (a long-poll whose wait has ended and whose screen
    /// did not change is answered 304). The screens are shared out among up to
    /// `readers` threads, each with a connection of the pool, so that a commit every screen sees (a book added)
    /// reaches a thousand streams of a thousand clients in a fraction of a second; a screen whose sections did not
    /// change is not rendered at all. Throws only when the watcher's connection broke (``StorePool/isBroken(_:)``).
    private func tick(_ store: LibraryStore, all: Bool) throws {
        let time = now()
        let instant = ContinuousClock.now
        let due = state.withLock { state -> [(Int, Subscriber)] in
            var due: [(Int, Subscriber)] = []
            for (id, subscriber) in state.subscribers
            where all || subscriber.fresh || subscriber.changesAt.map({ $0 <= time }) == true
                || subscriber.waitEnds.map({ $0 <= instant }) == true
            {
                due.append((id, subscriber))
                state.subscribers[id]?.fresh = false
            }
            return due
        }
        guard !due.isEmpty else { return }
        let revoked: Set<Int>
        do {
            revoked = try store.inactiveTokens(among: Set(due.map(\.1.token)))
        } catch {
            lookAgain(due)
            if StorePool.isBroken(error) { throw error }
            return
        }
        var screens: [ScreenKey: [(Int, Subscriber)]] = [:]
        for (id, subscriber) in due {
            if revoked.contains(subscriber.token) {
                end(subscriber)
            } else {
                screens[subscriber.key, default: []].append((id, subscriber))
            }
        }
        let groups = Array(screens.values)
        let lanes = max(1, min(readers, (groups.count + 7) / 8))
        DispatchQueue.concurrentPerform(iterations: lanes) { lane in
            let mine = stride(from: lane, to: groups.count, by: lanes).map { groups[$0] }
            do {
                try pool.with { store in
                    for (index, group) in mine.enumerated() {
                        do {
                            try send(group, store: store, now: time, waitsEndedBy: instant)
                        } catch {
                            // Busy or failing: these screens are looked at again at the next tick. A broken
                            // connection is thrown on, so that the pool drops it (and the idle ones the database
                            // most likely ended with it) rather than lend it to the next tick again.
                            for rest in mine[index...] { lookAgain(rest) }
                            if StorePool.isBroken(error) { throw error }
                            return
                        }
                    }
                }
            } catch {
                // No connection (the database is still away), or the one lent was broken.
                for group in mine { lookAgain(group) }
            }
        }
    }

    /// The subscribers of one screen: read it; unless every one of them has it already, render it and send each
    /// one whose version differs what changed; answer 304 to a long-poll whose wait ended by `waitsEndedBy` and
    /// whose version is the screen's. Each is looked at again when the clock changes the screen as read now.
    private func send(
        _ group: [(Int, Subscriber)], store: LibraryStore, now: Timestamp, waitsEndedBy instant: ContinuousClock.Instant
    ) throws {
        guard let key = group.first?.1.key else { return }
        // The latest version kept of the screen, else a subscriber's: the source of the cards and text reused.
        let previous = versions.latest(key) ?? group.first?.1.version
        let screen = try versions.screen(key, store: store, now: now)
        let built = versions.built(key, from: screen, reusing: previous?.built)
        let current =
            group.allSatisfy({ $0.1.version.snapshot == built.snapshot })
            ? nil : versions.version(key, of: built, reusing: previous)
        for (id, subscriber) in group {
            let changed = current.map { $0.tag != subscriber.version.tag } ?? false
            state.withLock { state in
                state.subscribers[id]?.changesAt = screen.changesAt
                if changed, let current { state.subscribers[id]?.version = current }
            }
            switch subscriber.sink {
            case .stream(let stream):
                guard changed, let current else { continue }
                let body = ScreenChanges.bytes(from: subscriber.version.snapshot, to: current, form: subscriber.form)
                stream.send(data: body, event: "changes", id: current.tag)
            case .waiter(let waiter):
                if changed, let current {
                    waiter.resolve(
                        ScreenChanges.response(from: subscriber.version.snapshot, to: current, form: subscriber.form))
                } else if let ends = subscriber.waitEnds, ends <= instant {
                    waiter.resolve(ScreenChanges.notModified(subscriber.version))
                }
            }
        }
    }

    /// Marks subscribers to be looked at again at the next tick (a read was busy or failed).
    private func lookAgain(_ subscribers: [(Int, Subscriber)]) {
        state.withLock { state in
            for (id, _) in subscribers { state.subscribers[id]?.fresh = true }
        }
    }
}
