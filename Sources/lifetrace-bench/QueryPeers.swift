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

/// SQLite via the `sqlite3` program: events loaded from the JSONL export into a table indexed on
/// (controller, t_ns).
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

    private func sql(_ query: EventQuery) -> String {
        let name = query.controller.replacingOccurrences(of: "'", with: "''")
        return "SELECT line FROM events WHERE controller = '\(name)' AND t_ns BETWEEN \(query.from) AND \(query.to) ORDER BY t_ns, ordinal;"
    }

    /// The rows `query` returns (for checking that both sides answer the same question).
    func count(_ query: EventQuery) throws -> Int {
        let text = sql(query).replacingOccurrences(of: "SELECT line", with: "SELECT count(*)")
        let result = try External.run(program, [database], input: text)
        guard result.status == 0 else { throw BenchError("sqlite3 query failed: \(result.standardError)") }
        return Int(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// Wall time of one `sqlite3` process that opens the database and runs `query` `repetitions` times, rows
    /// written to /dev/null, nanoseconds.
    func run(_ query: EventQuery, repetitions: Int) throws -> UInt64 {
        let script = ".output /dev/null\n" + String(repeating: sql(query) + "\n", count: repetitions)
        let start = monotonicNanoseconds()
        let result = try External.run(program, [database], input: script, capturesOutput: false)
        let elapsed = monotonicNanoseconds() - start
        guard result.status == 0 else { throw BenchError("sqlite3 query failed: \(result.standardError)") }
        return elapsed
    }

    /// Queries per process when measuring warm queries: calibrated on first use so that the timed difference
    /// is at least 20 ms (process start-up varies by about a millisecond on a busy machine).
    private var repetitions = 0

    /// Nanoseconds per warm query, without process start-up: a process with 1 + `repetitions` queries minus a
    /// process with 1 query, divided by `repetitions` (the first query also pays for opening the database and
    /// reading its schema).
    func nanosecondsPerQuery(_ query: EventQuery, maxRepetitions: Int = 1 << 16) throws -> Double {
        if repetitions == 0 {
            repetitions = 16
            while repetitions < maxRepetitions {
                let one = try run(query, repetitions: 1)
                let many = try run(query, repetitions: 1 + repetitions)
                if many > one + 20_000_000 { break }
                repetitions *= 4
            }
            repetitions = min(repetitions, maxRepetitions)
        }
        let one = try run(query, repetitions: 1)
        let many = try run(query, repetitions: 1 + repetitions)
        return max(Double(many) - Double(one), 1) / Double(repetitions)
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

    /// Returns nil, with the reason, when Python or its `duckdb` package is missing.
    static func make(scratchDirectory: String) -> (peer: DuckDBPeer?, reason: String?) {
        guard let python = External.find("python3") else { return (nil, "python3 not installed") }
        guard let probe = try? External.run(python, ["-c", "import duckdb; print(duckdb.__version__)"]), probe.status == 0 else {
            return (nil, "Python package duckdb not installed (tools/install-deps installs it; pip install duckdb)")
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
        columns = "columns={'t_ns': 'UBIGINT', 'event': 'VARCHAR', 'phase': 'VARCHAR', 'controller': 'VARCHAR'}"
        source = f"read_json('{path}', format='newline_delimited', {columns})"
        def timed(sql, params):
            count, began = 0, time.perf_counter()
            rows = None
            while True:
                rows = con.execute(sql, params).fetchall()
                count += 1
                if time.perf_counter() - began >= 0.2 or count >= limit:
                    break
            return (time.perf_counter() - began) * 1e9 / count, len(rows)
        query = "SELECT * FROM {} WHERE controller = ? AND t_ns BETWEEN ? AND ? ORDER BY t_ns"
        file_ns, rows = timed(query.format(source), [controller, start, end])
        began = time.perf_counter()
        con.execute(f"CREATE TABLE events AS SELECT * FROM {source}")
        load_ns = (time.perf_counter() - began) * 1e9
        table_ns, rows = timed(query.format("events"), [controller, start, end])
        print(json.dumps({"load_ns": load_ns, "file_query_ns": file_ns, "table_query_ns": table_ns, "rows": rows}))
        """
}
