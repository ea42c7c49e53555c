import Sections
import Testing

@testable import LibraryServer

@Suite("serve: the screen versions kept for diffs")
struct ScreenVersionsTests {
    static func version(_ name: String) -> ScreenVersion {
        ScreenVersion(snapshot: Snapshot(sections: [Section(id: name)]))
    }

    static func key(_ client: Int) -> ScreenKey {
        ScreenKey(clientID: client, query: ScreenQuery())
    }

    @Test("versions are kept per screen up to perScreen, and in all up to versions: the least recently used go first")
    func boundedInAll() {
        let versions = ScreenVersions(perScreen: 3, screens: 100, versions: 6)
        for client in 1...3 {
            for step in 1...2 { versions.remember(Self.version("c\(client)-v\(step)"), for: Self.key(client)) }
        }
        // 6 versions kept: every one of them is still there.
        for client in 1...3 {
            for step in 1...2 {
                let tag = Self.version("c\(client)-v\(step)").tag
                #expect(versions.snapshot(Self.key(client), tag: tag) != nil, "client \(client) v\(step)")
            }
        }
        // Client 1 is used again; client 4's two versions push out the least recently used screen, client 2's.
        versions.remember(Self.version("c1-v2"), for: Self.key(1))
        versions.remember(Self.version("c4-v1"), for: Self.key(4))
        #expect(versions.snapshot(Self.key(2), tag: Self.version("c2-v1").tag) == nil)
        #expect(versions.snapshot(Self.key(2), tag: Self.version("c2-v2").tag) == nil)
        #expect(versions.snapshot(Self.key(1), tag: Self.version("c1-v1").tag) != nil)
        #expect(versions.snapshot(Self.key(3), tag: Self.version("c3-v2").tag) != nil)
        #expect(versions.snapshot(Self.key(4), tag: Self.version("c4-v1").tag) != nil)
        // One screen keeps at most perScreen versions, the newest.
        for step in 2...5 { versions.remember(Self.version("c4-v\(step)"), for: Self.key(4)) }
        #expect(versions.snapshot(Self.key(4), tag: Self.version("c4-v2").tag) == nil)
        for step in 3...5 {
            #expect(versions.snapshot(Self.key(4), tag: Self.version("c4-v\(step)").tag) != nil)
        }
    }
}
