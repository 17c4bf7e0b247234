/// Near-miss suggestions for words typed on the command line: an option (`--controler`), a command (`adit`), a
/// choice (`--format jsno`), a rule id.
///
/// A known word is suggested when it is at most two edits (insertions, deletions, substitutions of a character)
/// from the typed one, or equal to it ignoring case; the nearest wins, the first listed on a tie. The scenario
/// language (module Simulator) applies the same measure to its own words.
public enum Spelling {
    /// The largest edit distance still suggested.
    public static let maximumDistance = 2

    /// The known word nearest to `word` within `maximumDistance` edits (or equal ignoring case), or `nil` when
    /// none is that near or `word` itself is known.
    public static func nearest(to word: String, among known: [String]) -> String? {
        let lowered = word.lowercased()
        var best: (word: String, distance: Int)?
        for candidate in known {
            if candidate == word { return nil }
            let distance = candidate.lowercased() == lowered ? 0 : editDistance(word, candidate)
            if distance <= maximumDistance, distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.word
    }

    /// `" (did you mean 'audit'?)"` for the known word nearest to `word` (`nearest(to:among:)`), else "".
    public static func suggestion(for word: String, among known: [String]) -> String {
        nearest(to: word, among: known).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// The edit distance between two words: the fewest insertions, deletions and substitutions of a `Character`
    /// that turn `a` into `b`.
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
