import Testing
@testable import TraceLog
