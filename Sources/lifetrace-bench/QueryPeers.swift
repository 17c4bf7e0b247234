// The query peers: the tools a user would load the JSONL export into to ask "events of controller X between
// A and B". SQLite through the `sqlite3` program; DuckDB through Python's `duckdb` package when installed.

import Foundation

/// One query: a controller's events in a closed time range.
struct EventQuery: Sendable {
    /// The controller's display name, as the JSONL export's `controller` field spells it.
    var controller: String
    /// Absolute nanoseconds on the trace's clock (the JSONL's `t_ns`).
    var from: UInt64
    var to: UInt64
    /// The same bounds relative to the first event, as `lifetrace events --from/--to` takes them.
    var relativeFrom: UInt64
    var relativeTo: UInt64
}

/// SQLite via the `sqlite3` program: events loaded from the JSONL export into a table indexed on `t_ns` and on
/// (controller, t_ns).
///
/// The query asks what `lifetrace events --controller X` answers: the events that *name* X (as their controller,
/// container, parent, or one of their controllers), i.e. whose JSON line contains the string `"X"`, in the time
/// range. The narrower question "events whose `controller` field is X", which the (controller, t_ns) index
/// answers directly, is measured too and shown in the notes.
final class SQLitePeer {
    let program: String
    let database: String
    /// Wall time of the load (import, JSON extraction, index), nanoseconds.
    let loadNanoseconds: UInt64
    /// Rows loaded.
    let rowCount: Int

    /// Loads `jsonl` into a fresh database at `database`. Returns nil when `sqlite3` is not installed.
    init?(jsonl: String, database: String) throws {
        guard let program = External.find("sqlite3") else { return nil }
        self.program = program
        self.database = database
        try? FileManager.default.removeItem(atPath: database)
        let script = """
            PRAGMA journal_mode = OFF;
            PRAGMA synchronous = OFF;
            CREATE TABLE raw(line TEXT);
            .mode ascii
            .separator "\\037" "\\n"
            .import '\(jsonl)' raw
            CREATE TABLE events(ordinal INTEGER PRIMARY KEY, t_ns INTEGER NOT NULL, controller TEXT, event TEXT, line TEXT NOT NULL);
            INSERT INTO events(ordinal, t_ns, controller, event, line)
              SELECT rowid, json_extract(line, '$.t_ns'), json_extract(line, '$.controller'), json_extract(line, '$.event'), line FROM raw;
            DROP TABLE raw;
            CREATE INDEX events_by_controller ON events(controller, t_ns);
            CREATE INDEX events_by_time ON events(t_ns);
            .mode list
            SELECT count(*) FROM events;
            """
        let start = monotonicNanoseconds()
        let result = try External.run(program, [database], input: script)
        loadNanoseconds = monotonicNanoseconds() - start
        guard result.status == 0, result.standardError.isEmpty else {
            throw BenchError("sqlite3 load failed: \(result.standardError)")
        }
        // The last line is the count (PRAGMA journal_mode prints the mode first).
        rowCount = result.standardOutput.split(separator: "\n").last.flatMap { Int($0) } ?? -1
    }

    private func sql(_ query: EventQuery, primaryOnly: Bool = false) -> String {
        let name = query.controller.replacingOccurrences(of: "'", with: "''")
        if primaryOnly {
            return "SELECT line FROM events WHERE controller = '\(name)' AND t_ns BETWEEN \(query.from) AND \(query.to) ORDER BY t_ns, ordinal;"
        }
        return "SELECT line FROM events WHERE t_ns BETWEEN \(query.from) AND \(query.to) AND instr(line, '\"\(name)\"') > 0 ORDER BY t_ns, ordinal;"
    }

    /// The rows `query` returns (for checking that both sides answer the same question).
    func count(_ query: EventQuery, primaryOnly: Bool = false) throws -> Int {
        let text = sql(query, primaryOnly: primaryOnly).replacingOccurrences(of: "SELECT line", with: "SELECT count(*)")
        let result = try External.run(program, [database], input: text)
        guard result.status == 0 else { throw BenchError("sqlite3 query failed: \(result.standardError)") }
        return Int(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// Wall time of one `sqlite3` process that opens the database and runs `query` `repetitions` times, rows
    /// written to /dev/null, nanoseconds.
    func run(_ query: EventQuery, repetitions: Int, primaryOnly: Bool = false) throws -> UInt64 {
        let script = ".output /dev/null\n" + String(repeating: sql(query, primaryOnly: primaryOnly) + "\n", count: repetitions)
        let start = monotonicNanoseconds()
        let result = try External.run(program, [database], input: script, capturesOutput: false)
        let elapsed = monotonicNanoseconds() - start
        guard result.status == 0 else { throw BenchError("sqlite3 query failed: \(result.standardError)") }
        return elapsed
    }

    /// Wall time of `sqlite3 DATABASE 'query'` as a user types it, start-up included, rows to /dev/null, and the
    /// process's CPU time (user + system), nanoseconds.
    func processNanoseconds(_ query: EventQuery) throws -> (wall: UInt64, cpu: UInt64) {
        let start = monotonicNanoseconds()
        let result = try External.run(program, [database, sql(query)], capturesOutput: false)
        let elapsed = monotonicNanoseconds() - start
        guard result.status == 0 else { throw BenchError("sqlite3 query failed: \(result.standardError)") }
        return (elapsed, result.cpuNanoseconds)
    }

    /// Queries per process when measuring warm queries: calibrated on first use so that the timed difference
    /// is at least 20 ms (process start-up varies by about a millisecond on a busy machine).
    private var repetitions: [Bool: Int] = [:]

    /// Nanoseconds per warm query, without process start-up: a process with 1 + `repetitions` queries minus a
    /// process with 1 query, divided by `repetitions` (the first query also pays for opening the database and
    /// reading its schema).
    func nanosecondsPerQuery(_ query: EventQuery, maxRepetitions: Int = 1 << 16, primaryOnly: Bool = false) throws -> Double {
        var count = repetitions[primaryOnly] ?? 0
        if count == 0 {
            count = 4
            while count < maxRepetitions {
                let one = try run(query, repetitions: 1, primaryOnly: primaryOnly)
                let many = try run(query, repetitions: 1 + count, primaryOnly: primaryOnly)
                if many > one + 20_000_000 { break }
                count *= 4
            }
            count = min(count, maxRepetitions)
            repetitions[primaryOnly] = count
        }
        let one = try run(query, repetitions: 1, primaryOnly: primaryOnly)
        let many = try run(query, repetitions: 1 + count, primaryOnly: primaryOnly)
        return max(Double(many) - Double(one), 1) / Double(count)
    }
}

/// DuckDB via Python's `duckdb` package: the query straight over the JSONL file, and over a table loaded from it.
final class DuckDBPeer {
    /// What one run of the DuckDB script measured, nanoseconds.
    struct Timing: Decodable {
        var load_ns: Double
        var file_query_ns: Double
        var table_query_ns: Double
        var rows: Int
    }

    let python: String
    let scriptPath: String

    /// The project's virtual environment (tools/install-deps), relative to the repository root the benchmark runs in.
    static let venvPython = ".build/venv/bin/python3"

    /// Returns nil, with the reason, when Python or its `duckdb` package is missing. Prefers the Python of the
    /// project's virtual environment, where tools/install-deps installs duckdb, over the one on the `PATH`.
    static func make(scratchDirectory: String) -> (peer: DuckDBPeer?, reason: String?) {
        let venv = FileManager.default.isExecutableFile(atPath: venvPython) ? venvPython : nil
        guard let python = venv ?? External.find("python3") else { return (nil, "python3 not installed") }
        guard let probe = try? External.run(python, ["-c", "import duckdb; print(duckdb.__version__)"]), probe.status == 0 else {
            return (nil, "Python package duckdb not installed in \(python) (tools/install-deps installs it into \(venvPython))")
        }
        let scriptPath = scratchDirectory + "/duckdb_query.py"
        guard FileManager.default.createFile(atPath: scriptPath, contents: Data(script.utf8)) else {
            return (nil, "cannot write \(scriptPath)")
        }
        return (DuckDBPeer(python: python, scriptPath: scriptPath), nil)
    }

    private init(python: String, scriptPath: String) {
        self.python = python
        self.scriptPath = scriptPath
    }

    /// Runs the script: loads the JSONL into a table (timed), then times `query` over the file and over the
    /// table, each repeated until it has run at least 0.2 s or `maxRepetitions` times. Start-up is not timed.
    func measure(jsonl: String, query: EventQuery, maxRepetitions: Int) throws -> Timing {
        let result = try External.run(
            python, [scriptPath, jsonl, query.controller, String(query.from), String(query.to), String(maxRepetitions)])
        guard result.status == 0 else { throw BenchError("duckdb script failed: \(result.standardError)") }
        guard let line = result.standardOutput.split(separator: "\n").last else { throw BenchError("duckdb script printed nothing") }
        return try JSONDecoder().decode(Timing.self, from: Data(line.utf8))
    }

    private static let script = """
        import json, sys, time
        import duckdb
        path, controller, start, end, limit = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
        con = duckdb.connect()
        # Each JSON line as one string column (no delimiter or quote occurs in the export's lines).
        lines = f"read_csv('{path}', columns={{'line': 'VARCHAR'}}, delim='\\x1f', quote='', escape='', header=false, auto_detect=false)"
        source = f"(SELECT line, CAST(json_extract_string(line, '$.t_ns') AS UBIGINT) AS t_ns FROM {lines})"
        needle = '"' + controller + '"'
        def timed(sql, params):
            count, began = 0, time.perf_counter()
            rows = None
            while True:
                rows = con.execute(sql, params).fetchall()
                count += 1
                if time.perf_counter() - began >= 0.2 or count >= limit:
                    break
            return (time.perf_counter() - began) * 1e9 / count, len(rows)
        query = "SELECT line FROM {} WHERE t_ns BETWEEN ? AND ? AND contains(line, ?) ORDER BY t_ns"
        file_ns, rows = timed(query.format(source), [start, end, needle])
        began = time.perf_counter()
        con.execute(f"CREATE TABLE events AS SELECT * FROM {source}")
        load_ns = (time.perf_counter() - began) * 1e9
        table_ns, rows = timed(query.format("events"), [start, end, needle])
        print(json.dumps({"load_ns": load_ns, "file_query_ns": file_ns, "table_query_ns": table_ns, "rows": rows}))
        """
}
