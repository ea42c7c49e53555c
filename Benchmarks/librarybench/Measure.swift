import Glibc

// MARK: - Clock

/// Seconds on the monotonic clock.
func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) * 1e-9
}

/// Seconds of CPU this process has used (all its threads).
func processCPUSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) * 1e-9
}

/// Runs `body` and returns how long it took, in seconds.
func timed(_ body: () throws -> Void) rethrows -> Double {
    let start = monotonicSeconds()
    try body()
    return monotonicSeconds() - start
}

// MARK: - Statistics

/// The timings of one contender: median and spread over the measured runs.
struct Stats {
    var seconds: [Double]

    var median: Double {
        let sorted = seconds.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
    var minimum: Double { seconds.min() ?? 0 }
    var maximum: Double { seconds.max() ?? 0 }
}

/// One side of a comparison: a name and a run that returns the seconds of its timed part.
struct Contender {
    var name: String
    var run: () throws -> Double
}

/// Warms each contender up, then runs them alternately (ABAB..., the order flipped every run) `runs` times.
func measure(runs: Int, warmups: Int, _ contenders: [Contender]) throws -> [Stats] {
    for _ in 0..<warmups {
        for contender in contenders { _ = try contender.run() }
    }
    var samples = Array(repeating: [Double](), count: contenders.count)
    for run in 0..<runs {
        let order = run % 2 == 0 ? Array(contenders.indices) : Array(contenders.indices.reversed())
        for index in order {
            samples[index].append(try contenders[index].run())
        }
    }
    return samples.map { Stats(seconds: $0) }
}

// MARK: - Reporting

/// Prints one contender's line: median, min–max, and its throughput when `work` units were done per run.
func printStats(_ label: String, _ stats: Stats, work: Int? = nil, unit: String = "") {
    var line = "  \(pad(label, 44)) median \(pad(duration(stats.median), 10))"
    line += " (min \(duration(stats.minimum)) - max \(duration(stats.maximum)), \(stats.seconds.count) runs)"
    if let work, stats.median > 0 {
        line += "  \(grouped(Int((Double(work) / stats.median).rounded()))) \(unit)"
    }
    print(line)
}

/// Prints the ratio of the subject's speed to the baseline's (>1 means faster) and a machine-readable line.
func printRatio(_ key: String, subject: Double, baseline: Double, target: Double?, note: String = "") {
    let ratio = baseline / subject
    var line = "  ratio \(fixed(ratio, 2))x the baseline's speed"
    var verdict = "-"
    if let target {
        verdict = ratio >= target ? "met" : "NOT MET"
        line += " (target >= \(fixed(target, 2))x: \(verdict))"
    }
    if !note.isEmpty { line += " \(note)" }
    print(line)
    print("RESULT \(key) ratio=\(fixed(ratio, 3)) target=\(target.map { fixed($0, 2) } ?? "-") \(verdict)")
}

/// Prints the ratio of the subject's speed to the baseline's taken run by run (each run's two sides measured one
/// right after the other), as the median of those ratios with their range, beside the ratio of the medians; the
/// machine-readable line and the verdict use the median of the runs' ratios, which a busy moment that slows both
/// sides of one run moves least.
func printPairedRatio(_ key: String, subject: Stats, baseline: Stats, target: Double?) {
    let ratios = zip(subject.seconds, baseline.seconds).map { $1 / $0 }
    let paired = Stats(seconds: ratios)
    var line = "  ratio \(fixed(paired.median, 2))x the baseline's speed (median of the runs' ratios, "
    line += "\(fixed(paired.minimum, 2))-\(fixed(paired.maximum, 2)); ratio of the medians "
    line += "\(fixed(baseline.median / subject.median, 2))x)"
    var verdict = "-"
    if let target {
        verdict = paired.median >= target ? "met" : "NOT MET"
        line += " (target >= \(fixed(target, 2))x: \(verdict))"
    }
    print(line)
    print("RESULT \(key) ratio=\(fixed(paired.median, 3)) target=\(target.map { fixed($0, 2) } ?? "-") \(verdict)")
}

/// Prints a named figure that has no baseline, such as a scaling factor, with its target.
func printCheck(_ key: String, _ text: String, value: Double, atMost limit: Double, unit: String = "x") {
    let verdict = value <= limit ? "met" : "NOT MET"
    print("  \(text): \(fixed(value, 2))\(unit) (target <= \(fixed(limit, 2))\(unit): \(verdict))")
    print("RESULT \(key) value=\(fixed(value, 3)) target=<=\(fixed(limit, 2)) \(verdict)")
}

/// A duration with a readable unit.
func duration(_ seconds: Double) -> String {
    if seconds >= 1 { return "\(fixed(seconds, 2)) s" }
    if seconds >= 1e-3 { return "\(fixed(seconds * 1e3, 2)) ms" }
    return "\(fixed(seconds * 1e6, 1)) us"
}

/// `value` with `digits` decimals (no Foundation).
func fixed(_ value: Double, _ digits: Int) -> String {
    guard value.isFinite else { return "\(value)" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    let whole = Int(scaled / scale)
    let fraction = Int(scaled - Double(whole) * scale)
    var text = (value < 0 && scaled > 0 ? "-" : "") + "\(whole)"
    if digits > 0 {
        let digitsText = String(fraction)
        text += "." + String(repeating: "0", count: max(0, digits - digitsText.count)) + digitsText
    }
    return text
}

/// An integer with thousands separators: 1,000,000.
func grouped(_ value: Int) -> String {
    let digits = Array(String(abs(value)))
    var text = ""
    for (index, digit) in digits.enumerated() {
        if index > 0 && (digits.count - index) % 3 == 0 { text += "," }
        text.append(digit)
    }
    return (value < 0 ? "-" : "") + text
}

/// `text` padded with spaces to `width` characters.
func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}
