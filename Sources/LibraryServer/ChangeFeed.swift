import HTTP
import Library
import Sections

#if canImport(Glibc)
    import Glibc
#endif

/// Live screens: the event streams and waiting long-polls of fronts, and a watcher thread that notices any commit
/// to the database (by this server, a CLI in another terminal, another server on the same file) through
/// `PRAGMA data_version` on a connection of its own, every `interval`. On a change it reads each watched screen
/// once, and sends every subscriber whose version differs what changed.
///
///     let feed = ChangeFeed(pool: pool, versions: versions, now: clock)
///     feed.start()
///     feed.watch(key, from: version, stream: stream)   // SSE
///     feed.stop()
final class ChangeFeed: Sendable {
    private enum Sink {
        case stream(EventStream)
        case waiter(DeferredResponse)
    }

    private struct Subscriber {
        var key: ScreenKey
        var snapshot: Snapshot
        var tag: String
        var sink: Sink
        /// The change-set form the subscriber asked for.
        var form: Changeset.Form
        /// Not checked since it subscribed: the next tick looks at it even when nothing was committed.
        var fresh = true
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

    init(
        pool: StorePool, versions: ScreenVersions, interval: Duration = .milliseconds(50),
        now: @escaping @Sendable () -> Timestamp
    ) {
        self.pool = pool
        self.versions = versions
        self.interval = interval
        self.now = now
    }

    /// How many streams and waiting requests are subscribed.
    var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    // MARK: - Subscribing

    /// Sends the changes of `key`'s screen to `stream` from `version` on, until the stream closes.
    func watch(
        _ key: ScreenKey, from version: ScreenVersion, stream: EventStream, form: Changeset.Form = .standard
    ) {
        let id = add(
            Subscriber(key: key, snapshot: version.snapshot, tag: version.tag, sink: .stream(stream), form: form))
        stream.onClose { [weak self] _ in self?.remove(id) }
    }

    /// Resolves `waiter` with the changes of `key`'s screen from `version` at the first change.
    func wait(
        _ key: ScreenKey, from version: ScreenVersion, waiter: DeferredResponse, form: Changeset.Form = .standard
    ) {
        let id = add(
            Subscriber(key: key, snapshot: version.snapshot, tag: version.tag, sink: .waiter(waiter), form: form))
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

    private func run(_ store: LibraryStore) {
        var version = (try? store.dataVersion()) ?? 0
        let micros = useconds_t(
            clamping: interval.components.seconds * 1_000_000
                + interval.components.attoseconds / 1_000_000_000_000)
        while !state.withLock({ $0.stopping }) {
            usleep(micros)
            let current = (try? store.dataVersion()) ?? version
            let changed = current != version
            version = current
            tick(store, all: changed)
        }
    }

    /// Reads each screen with subscribers to check (all of them after a commit, else the new ones), once per
    /// screen, and sends each subscriber whose version differs its changes.
    private func tick(_ store: LibraryStore, all: Bool) {
        let due = state.withLock { state -> [(Int, Subscriber)] in
            var due: [(Int, Subscriber)] = []
            for (id, subscriber) in state.subscribers where all || subscriber.fresh {
                due.append((id, subscriber))
                state.subscribers[id]?.fresh = false
            }
            return due
        }
        guard !due.isEmpty else { return }
        var read: [ScreenKey: ScreenVersion] = [:]
        let time = now()
        for (id, subscriber) in due {
            let current: ScreenVersion
            if let known = read[subscriber.key] {
                current = known
            } else {
                guard let fresh = try? versions.current(subscriber.key, store: store, now: time) else {
                    // Busy or failing: look again at the next tick.
                    state.withLock { $0.subscribers[id]?.fresh = true }
                    continue
                }
                read[subscriber.key] = fresh
                current = fresh
            }
            guard current.tag != subscriber.tag else { continue }
            let body = ScreenChanges.bytes(from: subscriber.snapshot, to: current, form: subscriber.form)
            switch subscriber.sink {
            case .stream(let stream):
                state.withLock { state in
                    state.subscribers[id]?.snapshot = current.snapshot
                    state.subscribers[id]?.tag = current.tag
                }
                stream.send(data: String(decoding: body, as: UTF8.self), event: "changes", id: current.tag)
            case .waiter(let waiter):
                waiter.resolve(
                    Response(
                        status: .ok,
                        headers: [
                            "Content-Type": "application/json; charset=utf-8", "ETag": current.etag,
                            "Cache-Control": "no-cache",
                        ], body: body))
            }
        }
    }
}
