import Sections

/// `diff`: the staged snapshot diff vs `CollectionDifference.inferringMoves()` on the same id arrays, and its scaling.
enum DiffBenchmark {
    static func run(_ options: Options) throws {
        let count = options.count ?? 100_000
        let runs = options.runs ?? 7
        print(
            "diff: one section of \(grouped(count)) items, 10% deleted, 10% inserted, 10% moved, 10% updated (seed 1)")

        // The baseline is quadratic in the edits: measured with every run at N/10, and once at N.
        let small = max(10, count / 10)
        let smallCase = DiffCase(count: small)
        print("  at \(grouped(small)) items, \(runs) runs each:")
        let smallStats = try measure(
            runs: runs, warmups: 1,
            [
                Contender(name: "sections", run: { diffSeconds(smallCase) }),
                Contender(name: "baseline", run: { baselineSeconds(smallCase) }),
            ])
        printStats("Snapshot.changes(from:)", smallStats[0])
        printStats("baseline: CollectionDifference + moves", smallStats[1])
        printRatio("diff-\(small)", subject: smallStats[0].median, baseline: smallStats[1].median, target: 1)

        let mainCase = DiffCase(count: count)
        let changes = mainCase.new.changes(from: mainCase.old)
        print("  at \(grouped(count)) items, \(runs) runs (the baseline once: it is slow):")
        let mainStats = try measure(
            runs: runs, warmups: 1, [Contender(name: "sections", run: { diffSeconds(mainCase) })])
        printStats("Snapshot.changes(from:)", mainStats[0])
        let (onceSeconds, baselineMoves) = baselineRun(mainCase)
        printStats("baseline: CollectionDifference + moves (1 run)", Stats(seconds: [onceSeconds]))
        printRatio("diff-\(count)", subject: mainStats[0].median, baseline: onceSeconds, target: 100)
        if count == 100_000 {
            // DifferenceKit's figure on this kind of machine (2 cores).
            printCheck(
                "diff-time-\(count)", "time at \(grouped(count)) items", value: mainStats[0].median * 1000,
                atMost: 30, unit: " ms")
        }
        print(
            "  changes: \(grouped(changes.itemDeletes.count)) deleted, \(grouped(changes.itemInserts.count)) inserted,"
                + " \(grouped(changes.itemMoves.count)) moved (of \(grouped(mainCase.moved)) really moved;"
                + " CollectionDifference infers \(grouped(baselineMoves))), \(grouped(changes.itemUpdates.count)) updated"
        )
        print("RESULT diff-moves reported=\(changes.itemMoves.count) moved=\(mainCase.moved)")
        try check(changes, mainCase)

        // Scaling: 10x fewer and 10x more items.
        let large = count * 10
        let largeRuns = large >= 1_000_000 ? min(runs, 3) : runs
        let largeCase = DiffCase(count: large)
        print("  scaling: \(grouped(large)) items, \(largeRuns) runs\(largeRuns < runs ? " (fewer: large)" : "")")
        let largeStats = try measure(
            runs: largeRuns, warmups: 1, [Contender(name: "sections", run: { diffSeconds(largeCase) })])
        printStats("Snapshot.changes(from:) at \(grouped(large))", largeStats[0])
        printCheck(
            "diff-scaling-\(small)-\(count)", "\(grouped(count)) vs \(grouped(small)) items: time",
            value: mainStats[0].median / smallStats[0].median, atMost: 20)
        printCheck(
            "diff-scaling-\(count)-\(large)", "\(grouped(large)) vs \(grouped(count)) items: time",
            value: largeStats[0].median / mainStats[0].median, atMost: 20)
    }

    static func diffSeconds(_ diffCase: DiffCase) -> Double {
        var moves = 0
        let seconds = timed { moves = diffCase.new.changes(from: diffCase.old).itemMoves.count }
        precondition(moves <= diffCase.moved + diffCase.moved / 10 + 1, "unexpected number of moves")
        return seconds
    }

    static func baselineSeconds(_ diffCase: DiffCase) -> Double {
        baselineRun(diffCase).seconds
    }

    /// Times `newIDs.difference(from: oldIDs).inferringMoves()` and counts the moves it infers.
    static func baselineRun(_ diffCase: DiffCase) -> (seconds: Double, moves: Int) {
        var moves = 0
        let seconds = timed {
            let difference = diffCase.newIDs.difference(from: diffCase.oldIDs).inferringMoves()
            for change in difference {
                if case .insert(_, _, let associated) = change, associated != nil { moves += 1 }
            }
        }
        return (seconds, moves)
    }

    /// The diff of the synthetic case finds exactly the deleted, inserted and updated items.
    static func check(_ changes: Changeset, _ diffCase: DiffCase) throws {
        let tenth = diffCase.oldIDs.count / 10
        guard changes.itemDeletes.count == tenth, changes.itemInserts.count == tenth else {
            throw BenchError(
                "the diff found \(changes.itemDeletes.count) deletes, \(changes.itemInserts.count) inserts")
        }
        guard changes.itemMoves.count <= diffCase.moved else {
            throw BenchError("the diff reported \(changes.itemMoves.count) moves for \(diffCase.moved) moved items")
        }
        guard try changes.apply(to: diffCase.old).visibleSections == diffCase.new.visibleSections else {
            throw BenchError("the changeset does not turn the old snapshot into the new one")
        }
    }
}
