// MARK: - Suggestions

/// Finds the candidate closest to a misspelt word, for "Did you mean …?" hints.
///
/// Uses the optimal-string-alignment Damerau–Levenshtein distance (a swap of neighbours counts as one edit) and
/// accepts a candidate only when the distance is at most a third of the longer word (at least 1).
///
/// ```swift
/// Suggestions.closest(to: "--serch", among: ["--search", "--page"]) == "--search"
/// Suggestions.closest(to: "lsit", among: ["list", "take"]) == "list"
/// Suggestions.closest(to: "xyz", among: ["list"]) == nil
/// ```
public enum Suggestions {
    /// The closest candidate within the threshold; ties go to the earlier candidate.
    ///
    /// ```swift
    /// Suggestions.closest(to: "clinets", among: ["clients", "books"]) == "clients"
    /// ```
    public static func closest(to word: String, among candidates: [String]) -> String? {
        let typed = Array(word.lowercased())
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = self.distance(typed, Array(candidate.lowercased()))
            let limit = max(1, max(typed.count, candidate.count) / 3)
            guard distance <= limit else { continue }
            if best == nil || distance < best!.distance {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// The edit distance where insertions, deletions, substitutions and adjacent swaps each cost one.
    ///
    /// ```swift
    /// Suggestions.editDistance("lsit", "list") == 1
    /// ```
    public static func editDistance(_ a: String, _ b: String) -> Int {
        distance(Array(a), Array(b))
    }

    // MARK: - Private

    private static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, table[i - 2][j - 2] + 1)
                }
                table[i][j] = value
            }
        }
        return table[a.count][b.count]
    }
}
