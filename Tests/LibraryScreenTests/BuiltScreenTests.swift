import Library
import LibraryScreen
import Sections
import StoreTestSupport
import Testing

/// Building a screen reusing an earlier version's cards gives the screen built afresh, whatever the earlier one.
@Suite struct BuiltScreenTests {
    /// A random screen of books 1...8: some held by the client (some overdue), some by others, some lost or
    /// renamed; a random loan limit, page, total, search and client name.
    static func randomScreen(using random: inout SeededRandom) -> ClientScreen {
        let ids = Array(1...8).filter { _ in Int.random(in: 0..<4, using: &random) > 0 }.shuffled(using: &random)
        let held = ids.filter { _ in Int.random(in: 0..<3, using: &random) == 0 }
        let others = ids.filter { !held.contains($0) && Int.random(in: 0..<4, using: &random) == 0 }
        var screen = Fixture.screen(
            count: 8, heldIDs: held, othersIDs: others, page: Int.random(in: 1...2, using: &random),
            totalCount: Int.random(in: 8...9, using: &random), search: Bool.random(using: &random) ? nil : "book",
            limit: Int.random(in: max(1, held.count)...max(5, held.count), using: &random),
            overdueIDs: held.filter { _ in Int.random(in: 0..<4, using: &random) == 0 })
        screen.library.entries = ids.map { id in screen.library.entries[id - 1] }
        for index in screen.library.entries.indices where Int.random(in: 0..<6, using: &random) == 0 {
            screen.library.entries[index].book.title = "Renamed \(Int.random(in: 0...2, using: &random))"
            if Bool.random(using: &random) { screen.library.entries[index].availability = .lost }
        }
        for index in screen.loans.indices where Int.random(in: 0..<5, using: &random) == 0 {
            screen.loans[index].loan.renewals = 1
        }
        if Int.random(in: 0..<5, using: &random) == 0 { screen.summary.client.name = "Jane Roe" }
        return screen
    }

    @Test func buildingReusingAnEarlierVersionGivesTheScreenBuiltAfresh() {
        var random = SeededRandom(seed: 0xB0075)
        var previous: BuiltScreen? = nil
        for _ in 0..<500 {
            let screen = Self.randomScreen(using: &random)
            let built = LibraryScreen.build(screen, reusing: previous)
            #expect(built.snapshot == LibraryScreen.snapshot(from: screen))
            #expect(built.screen == screen)
            if Int.random(in: 0..<8, using: &random) > 0 { previous = built }
        }
    }

    @Test func aScreenBuiltAnotherWayIsNotReused() {
        let screen = Fixture.screen(heldIDs: [2])
        let other = LibraryScreen.build(screen, showsAll: true, program: "lib")
        #expect(
            LibraryScreen.build(screen, reusing: other).snapshot == LibraryScreen.snapshot(from: screen))
        #expect(
            LibraryScreen.build(screen, showsAll: true, reusing: LibraryScreen.build(screen)).snapshot
                == LibraryScreen.snapshot(from: screen, showsAll: true))
    }

    @Test func takingTheLastBookAllowedChangesEveryTakeEvenOfUnchangedBooks() {
        let before = LibraryScreen.build(Fixture.screen(heldIDs: [1], limit: 2))
        let after = LibraryScreen.build(Fixture.screen(heldIDs: [1, 2], limit: 2), reusing: before)
        let takes = after.snapshot.sections[2].items.flatMap(\.actions).filter { $0.id == "take" }
        #expect(!takes.isEmpty)
        #expect(takes.allSatisfy { $0.disabledReason != nil })
        #expect(after.snapshot == LibraryScreen.snapshot(from: Fixture.screen(heldIDs: [1, 2], limit: 2)))
    }
}
